package viewer

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The arena's pages (the live page, the board a person plays on) are
// served to a browser on the same machine; these helpers are shared by
// their servers.

// DefaultAddr is the address a page is served on when none is given: the
// loopback interface, on a port of the system's choosing.
const DefaultAddr = "127.0.0.1:0"

// Listen opens addr ("" for DefaultAddr) for a page's server. A bare port
// (":8080") is taken on the loopback interface.
func Listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}

// LocalOnly returns h, restricted, when l listens on a loopback address,
// to requests whose Host names a loopback address (421 otherwise): that
// keeps other web sites from reaching the page through a browser with a
// name that resolves to 127.0.0.1 (DNS rebinding).
func LocalOnly(l net.Listener, h http.Handler) http.Handler {
	if ip := addrIP(l.Addr()); ip == nil || !ip.IsLoopback() {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hh, _, err := net.SplitHostPort(host); err == nil {
			host = hh
		}
		host = strings.Trim(host, "[]")
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			http.Error(w, "this page answers only to a loopback address such as 127.0.0.1", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// URL returns the address to open in a browser for a listener.
func URL(l net.Listener) string {
	a := l.Addr().String()
	if t, ok := l.Addr().(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		a = net.JoinHostPort("127.0.0.1", strconv.Itoa(t.Port))
	}
	return "http://" + a + "/"
}

func addrIP(a net.Addr) net.IP {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP
	}
	return nil
}

// Page is a page served to a browser: its HTML at /, its script and style
// at /NAME.js and /NAME.css, next to the viewer's /viewer.js and
// /viewer.css.
type Page struct {
	Name                string
	HTML, Script, Style string
}

// Mux returns a ServeMux answering GET for the page's files and the
// viewer's, to which the page's server adds its own routes. Serve it
// through Secure.
func (p Page) Mux() *http.ServeMux {
	mux := http.NewServeMux()
	file := func(body, ctype string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeContent(w, r, "", time.Time{}, strings.NewReader(body))
		}
	}
	mux.HandleFunc("GET /{$}", file(p.HTML, "text/html; charset=utf-8"))
	mux.HandleFunc("GET /"+p.Name+".js", file(p.Script, "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /"+p.Name+".css", file(p.Style, "text/css; charset=utf-8"))
	mux.HandleFunc("GET /viewer.js", file(Script, "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /viewer.css", file(Style, "text/css; charset=utf-8"))
	return mux
}

// Secure sets the headers every answer of a page carries: the page may
// load only its own script and style and talk only to its own server, be
// framed by no one, and not be sniffed.
func Secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// WriteJSON answers with JSON data, never cached.
func WriteJSON(w http.ResponseWriter, data []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// Stream sends one browser server-sent events named event: the data of
// each new version current returns (current also returns a channel closed
// when there is a newer one), and a comment every 15 seconds to keep the
// connection open. It returns when the request ends, done is closed, or a
// write takes longer than timeout (a browser that stopped reading).
func Stream(w http.ResponseWriter, r *http.Request, event string, timeout time.Duration, done <-chan struct{},
	current func() (version uint64, data []byte, changed <-chan struct{})) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	send := func(parts ...string) bool {
		if rc.SetWriteDeadline(time.Now().Add(timeout)) != nil {
			return false
		}
		for _, p := range parts {
			if _, err := io.WriteString(w, p); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	var sent uint64
	first := true
	for {
		version, data, changed := current()
		if first || version != sent {
			if !send("event: ", event, "\ndata: ", string(data), "\n\n") {
				return
			}
			sent, first = version, false
		}
		select {
		case <-changed:
		case <-keepAlive.C:
			if !send(": keep-alive\n\n") {
				return
			}
		case <-r.Context().Done():
			return
		case <-done:
			return
		}
	}
}

// Serve serves h on l, through LocalOnly, until ctx is done, then shuts
// the server down (waiting a few seconds for answers in progress).
// Streams must end on their own when ctx is done (see Stream's done).
func Serve(ctx context.Context, l net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           LocalOnly(l, h),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       time.Minute,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }() // returns when Shutdown is called
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		srv.Close()
	}
	<-errc
	return nil
}
