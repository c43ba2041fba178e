package workers

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// DefaultPort is NATS's port, taken when an address gives none.
const DefaultPort = 4222

// ErrURL is wrapped by the errors about a URL that names no NATS server.
var ErrURL = errors.New("bad NATS URL")

// Listen is the address an embedded server listens on, from a URL of the
// form listen://[USER:PASSWORD@]HOST[:PORT].
type Listen struct {
	Host, Port     string
	User, Password string
}

// String returns the address as HOST:PORT.
func (l Listen) String() string { return net.JoinHostPort(l.Host, l.Port) }

// ParseURL parses the URL of --workers and arena worker: nats://, tls://,
// ws:// or wss:// URLs (several separated by commas, for a cluster) name
// NATS servers to connect to; listen://HOST[:PORT] asks for a server
// started in this process (returned as l, nil otherwise). Credentials may
// be given as USER:PASSWORD@ in either.
func ParseURL(raw string) (servers string, l *Listen, err error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil, fmt.Errorf("%w: empty", ErrURL)
	}
	if rest, ok := strings.CutPrefix(raw, "listen://"); ok {
		u, err := url.Parse("nats://" + rest)
		if err != nil || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return "", nil, fmt.Errorf("%w: %q: want listen://HOST:PORT", ErrURL, raw)
		}
		l = &Listen{Host: u.Hostname(), Port: u.Port()}
		if l.Port == "" {
			l.Port = strconv.Itoa(DefaultPort)
		}
		if _, err := strconv.ParseUint(l.Port, 10, 16); err != nil {
			return "", nil, fmt.Errorf("%w: %q: port %q", ErrURL, raw, l.Port)
		}
		if u.User != nil {
			l.User = u.User.Username()
			l.Password, _ = u.User.Password()
		}
		return "", l, nil
	}
	for _, part := range strings.Split(raw, ",") {
		u, err := url.Parse(strings.TrimSpace(part))
		if err != nil {
			return "", nil, fmt.Errorf("%w: %q: %v", ErrURL, part, err)
		}
		switch u.Scheme {
		case "nats", "tls", "ws", "wss":
		default:
			return "", nil, fmt.Errorf("%w: %q: want nats://HOST:PORT (a NATS server to connect to) or listen://HOST:PORT (one started here)", ErrURL, part)
		}
		if u.Host == "" {
			return "", nil, fmt.Errorf("%w: %q names no host", ErrURL, part)
		}
	}
	return raw, nil, nil
}

// Server is a NATS server with JetStream run in this process.
type Server struct {
	s *server.Server
	l Listen
}

// ServerOptions configures StartServer.
type ServerOptions struct {
	Listen Listen
	// Store is the directory of JetStream's state, which a server
	// started again on the same directory takes up.
	Store string
	// Log, when set, gets the server's log lines; nil keeps it quiet.
	Log func(line string)
}

// StartServer starts a NATS server with JetStream, and waits until it
// takes connections.
func StartServer(ctx context.Context, opts ServerOptions) (*Server, error) {
	port, err := strconv.Atoi(opts.Listen.Port)
	if err != nil {
		return nil, fmt.Errorf("%w: port %q", ErrURL, opts.Listen.Port)
	}
	if port == 0 {
		port = server.RANDOM_PORT // the server's 0 is its default port
	}
	if err := os.MkdirAll(opts.Store, 0o700); err != nil {
		return nil, fmt.Errorf("NATS store: %w", err)
	}
	so := &server.Options{
		ServerName: "arena",
		Host:       opts.Listen.Host,
		Port:       port,
		JetStream:  true,
		StoreDir:   opts.Store,
		NoSigs:     true,
		NoLog:      opts.Log == nil,
		// A game's record with every move's search information can be
		// large.
		MaxPayload: 8 << 20,
		Username:   opts.Listen.User,
		Password:   opts.Listen.Password,
	}
	if so.Host == "" {
		so.Host = "0.0.0.0"
	}
	s, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("NATS server: %w", err)
	}
	if opts.Log != nil {
		s.SetLoggerV2(logger(opts.Log), false, false, false)
	}
	s.Start()
	deadline := time.Now().Add(30 * time.Second)
	for !s.ReadyForConnections(100 * time.Millisecond) {
		if ctx.Err() != nil || time.Now().After(deadline) {
			s.Shutdown()
			s.WaitForShutdown()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("NATS server on %s did not start (is the port in use?)", opts.Listen)
		}
	}
	l := opts.Listen
	if addr, ok := s.Addr().(*net.TCPAddr); ok {
		l.Port = strconv.Itoa(addr.Port) // the port taken, for port 0
	}
	return &Server{s: s, l: l}, nil
}

// ClientURL returns the URL a client of this machine connects to.
func (s *Server) ClientURL() string {
	host := s.l.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: "nats", Host: net.JoinHostPort(host, s.l.Port)}
	if s.l.User != "" {
		u.User = url.UserPassword(s.l.User, s.l.Password)
	}
	return u.String()
}

// Addr returns the address the server listens on.
func (s *Server) Addr() string { return s.l.String() }

// Close shuts the server down and waits until it has.
func (s *Server) Close() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}

// logger passes the server's log lines on.
type logger func(line string)

func (l logger) Noticef(format string, v ...any) { l(fmt.Sprintf(format, v...)) }
func (l logger) Warnf(format string, v ...any)   { l("warning: " + fmt.Sprintf(format, v...)) }
func (l logger) Fatalf(format string, v ...any)  { l("fatal: " + fmt.Sprintf(format, v...)) }
func (l logger) Errorf(format string, v ...any)  { l("error: " + fmt.Sprintf(format, v...)) }
func (l logger) Debugf(string, ...any)           {}
func (l logger) Tracef(string, ...any)           {}

// connect connects to the NATS servers of url. With wait it waits for a
// server that is not up yet (a worker started before its coordinator);
// otherwise an unreachable server is an error at once. Either way, once
// connected it reconnects for as long as it takes.
func connect(ctx context.Context, servers, name string, wait bool, note func(string)) (*nats.Conn, error) {
	opts := []nats.Option{
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.ReconnectJitter(250*time.Millisecond, 250*time.Millisecond),
		nats.PingInterval(5 * time.Second),
		nats.MaxPingsOutstanding(3),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil && note != nil {
				note(fmt.Sprintf("lost the connection to NATS (%v); reconnecting", err))
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			if note != nil {
				note("reconnected to NATS at " + nc.ConnectedUrlRedacted())
			}
		}),
	}
	for first := true; ; first = false {
		nc, err := nats.Connect(servers, opts...)
		if err == nil {
			return nc, nil
		}
		if !wait {
			return nil, fmt.Errorf("connect to NATS at %s: %w", redact(servers), err)
		}
		if first && note != nil {
			note(fmt.Sprintf("waiting for NATS at %s (%v)", redact(servers), err))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// redact hides the passwords of a list of URLs.
func redact(servers string) string {
	parts := strings.Split(servers, ",")
	for i, p := range parts {
		if u, err := url.Parse(strings.TrimSpace(p)); err == nil {
			parts[i] = u.Redacted()
		}
	}
	return strings.Join(parts, ",")
}
