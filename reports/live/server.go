package live

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"

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
	mux := viewer.Page{Name: "live", HTML: pageHTML, Script: pageJS, Style: pageCSS}.Mux()
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		snap, _ := s.current()
		viewer.WriteJSON(w, snap.state)
	})
	mux.HandleFunc("GET /api/games", func(w http.ResponseWriter, r *http.Request) {
		list := s.currentList()
		defer list.release()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		list.writeTo(w)
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
			viewer.WriteJSON(w, data)
		}
	})
	mux.HandleFunc("GET /api/events", s.events)
	return viewer.Secure(mux)
}

// events streams the state to one browser (see viewer.Stream), at most
// MaxClients at once.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	if int(s.clients.Add(1)) > s.opts.MaxClients {
		s.clients.Add(-1)
		http.Error(w, "too many pages are following this tournament", http.StatusServiceUnavailable)
		return
	}
	defer s.clients.Add(-1)
	viewer.Stream(w, r, "state", s.opts.WriteTimeout, s.done, func() (uint64, []byte, <-chan struct{}) {
		snap, changed := s.current()
		return snap.version, snap.state, changed
	})
}

// Serve serves the page on l until ctx is done (see viewer.Serve: on a
// loopback listener only requests naming a loopback host are answered).
// Run must be running, or ctx be done, for the page's streams to end.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	return viewer.Serve(ctx, l, s.Handler())
}
