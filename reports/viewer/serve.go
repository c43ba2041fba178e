package viewer

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
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
