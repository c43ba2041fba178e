package live

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/reports/viewer"
)

var (
	//go:embed live.html
	pageHTML string
	//go:embed live.js
	pageJS string
	//go:embed live.css
	pageCSS string
)

// Handler returns the page's HTTP handler. Its routes are fixed:
//
//	GET /              the page
//	GET /live.js, /live.css, /viewer.js, /viewer.css
//	GET /api/state     the state (State) as JSON
//	GET /api/events    the state as server-sent events, one per change
//	GET /api/games     the finished games (viewer.List) as JSON
//	GET /api/game?id=N one game with every position (viewer.Game)
//
// Everything else is 404; nothing is read from the file system but the
// tournament's journal.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static := func(body, ctype string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeContent(w, r, "", time.Time{}, strings.NewReader(body))
		}
	}
	mux.HandleFunc("GET /{$}", static(pageHTML, "text/html; charset=utf-8"))
	mux.HandleFunc("GET /live.js", static(pageJS, "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /live.css", static(pageCSS, "text/css; charset=utf-8"))
	mux.HandleFunc("GET /viewer.js", static(viewer.Script, "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /viewer.css", static(viewer.Style, "text/css; charset=utf-8"))
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		snap, _ := s.current()
		writeJSON(w, snap.state)
	})
	mux.HandleFunc("GET /api/games", func(w http.ResponseWriter, r *http.Request) {
		snap, _ := s.current()
		writeJSON(w, snap.list)
	})
	mux.HandleFunc("GET /api/game", func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.Atoi(r.URL.Query().Get("id"))
		if err != nil || id < 1 {
			http.Error(w, "want ?id=N with a game number", http.StatusBadRequest)
			return
		}
		data, err := s.gameJSON(id)
		switch {
		case errors.Is(err, errNoGame):
			http.Error(w, fmt.Sprintf("no game %d (yet)", id), http.StatusNotFound)
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		default:
			writeJSON(w, data)
		}
	})
	mux.HandleFunc("GET /api/events", s.events)
	return headers(mux)
}

// headers sets the headers every answer carries: the page may load only
// its own script and style, be framed by no one, and not be sniffed.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, data []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// events streams the state to one browser: the newest snapshot whenever
// there is one it has not had, and a comment every 15 seconds to keep the
// connection open. A write that takes longer than the WriteTimeout ends
// the stream; so does Run returning.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	if int(s.clients.Add(1)) > s.opts.MaxClients {
		s.clients.Add(-1)
		http.Error(w, "too many pages are following this tournament", http.StatusServiceUnavailable)
		return
	}
	defer s.clients.Add(-1)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	var sent uint64
	first := true
	send := func(b []byte) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout)); err != nil {
			return false
		}
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	for {
		snap, changed := s.current()
		if first || snap.version != sent {
			msg := make([]byte, 0, len(snap.state)+32)
			msg = append(msg, "event: state\ndata: "...)
			msg = append(msg, snap.state...)
			msg = append(msg, "\n\n"...)
			if !send(msg) {
				return
			}
			sent, first = snap.version, false
		}
		select {
		case <-changed:
		case <-keepAlive.C:
			if !send([]byte(": keep-alive\n\n")) {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

// Serve serves the page on l until ctx is done, then shuts the server
// down. Run must be running (or ctx be done) for the page's streams to end.
// On a loopback listener only requests naming a loopback host are
// answered (421 otherwise), which keeps other web sites from reading the
// page through a browser (DNS rebinding).
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	h := viewer.LocalOnly(l, s.Handler())
	srv := &http.Server{
		Handler:           h,
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
