package human

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/checkers"
	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/bots/sdk"
	"github.com/arena-games/arena/protocol"
	"github.com/arena-games/arena/reports/viewer"
)

// Name is the human bot's built-in name: builtin = "human" in a
// configuration, "arena bot human" on the command line.
const Name = "human"

// DefaultListen is the board page's address without Options.Listen.
const DefaultListen = "127.0.0.1:8765"

// Options configure the human bot.
type Options struct {
	// Listen is the address of the board page (DefaultListen when "").
	Listen string
	// BindWait bounds how long Run retries an address still in use, as it
	// is for a moment when the arena replaces this player's process
	// (default 10s).
	BindWait time.Duration
	// AddrFile, when set, is where Run writes the address it serves the
	// page on once it listens (Listen with port 0 picks a free one), for
	// the program that started it to tell the person. A process that finds
	// an address there already (the same player's before it, which the
	// arena replaced) serves the page at that address again.
	AddrFile string
}

// AddrFileEnv names the environment variable with which "arena bot human"
// is given Options.AddrFile.
const AddrFileEnv = "ARENA_HUMAN_ADDR_FILE"

var (
	//go:embed human.html
	pageHTML string
	//go:embed human.js
	pageJS string
	//go:embed human.css
	pageCSS string
)

// Run plays the human bot over the protocol on in and out (see sdk.Run)
// and serves the board page until the arena says quit, in ends or ctx is
// done. log receives the page's address and the SDK's notes.
func Run(ctx context.Context, o Options, in io.Reader, out, log io.Writer) error {
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	if o.BindWait <= 0 {
		o.BindWait = 10 * time.Second
	}
	addr := o.Listen
	if o.AddrFile != "" {
		if b, err := os.ReadFile(o.AddrFile); err == nil && len(bytes.TrimSpace(b)) > 0 {
			addr = string(bytes.TrimSpace(b))
		}
	}
	l, err := listen(ctx, addr, o.BindWait)
	if err != nil {
		return err
	}
	if o.AddrFile != "" {
		if err := writeAddr(o.AddrFile, l.Addr().String()); err != nil {
			l.Close()
			return fmt.Errorf("human player: %w", err)
		}
	}
	p := newPlayer()
	sctx, stop := context.WithCancel(ctx)
	served := make(chan struct{})
	go func() { // ends when stop is called
		defer close(served)
		viewer.Serve(sctx, l, p.handler())
	}()
	fmt.Fprintf(log, "human player: the board is at %s\n", viewer.URL(l))
	err = sdk.Run(ctx, p.bot(log), in, out)
	p.close() // ends the page's streams
	stop()
	<-served
	return err
}

// writeAddr writes addr to the file path whole: a reader finds the old
// content or the new, never a part.
func writeAddr(path, addr string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(addr+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// listen opens addr, retrying for up to wait while it is in use.
func listen(ctx context.Context, addr string, wait time.Duration) (net.Listener, error) {
	deadline := time.Now().Add(wait)
	for {
		l, err := viewer.Listen(addr)
		if err == nil || !errors.Is(err, syscall.EADDRINUSE) || time.Now().After(deadline) {
			if err != nil {
				return nil, fmt.Errorf("human player: board page: %w", err)
			}
			return l, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// State is what the board page shows, sent to it as JSON.
type State struct {
	// Status is "waiting" (no game yet), "opponent" (the opponent is to
	// move), "move" (the person is) or "over".
	Status string `json:"status"`
	Game   string `json:"game,omitempty"`
	Color  string `json:"color,omitempty"` // the person's colour
	// Opponent and Opening name the other player and the game's opening,
	// as the arena tells them (protocol.GameInfo).
	Opponent string `json:"opponent,omitempty"`
	Opening  string `json:"opening,omitempty"`
	// FirstMover is the colour that moves first under the rules, and
	// StartTurn the colour that played the first of Moves (the other
	// one when the game started from a position with it to move): the
	// page numbers the moves in pairs from them.
	FirstMover string `json:"first_mover,omitempty"`
	StartTurn  string `json:"start_turn,omitempty"`
	// Ply is the position, with the last move's squares and, in
	// Cheversi, the scores and attacked squares; Moves the moves so far.
	Ply   *viewer.Ply `json:"ply,omitempty"`
	Moves []string    `json:"moves,omitempty"`
	// Legal lists the legal moves when the person is to move, and
	// Unplaced (Cheversi) the person's pieces still to place.
	Legal    []string       `json:"legal,omitempty"`
	Unplaced map[string]int `json:"unplaced,omitempty"`
	// TimeLeftMS is the time the person had for this move when it was
	// asked for.
	TimeLeftMS int64  `json:"time_left_ms,omitempty"`
	Result     string `json:"result,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Message    string `json:"message,omitempty"`
	Games      int    `json:"games"` // games finished by this player's process
}

// player is the bot's side and the page's side of the person.
type player struct {
	mu      sync.Mutex
	state   State
	version uint64
	changed chan struct{} // closed when state changes
	turn    *turn         // the move being asked for; nil otherwise
	rules   game.Rules
	closed  chan struct{}
}

// turn is a move request waiting for the person.
type turn struct {
	st    game.State
	reply chan string // buffered: the accepted move
	done  bool
}

func newPlayer() *player {
	return &player{state: State{Status: "waiting"}, changed: make(chan struct{}), closed: make(chan struct{})}
}

// setLocked publishes a new state. p.mu is held.
func (p *player) setLocked(s State) {
	p.state = s
	p.version++
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *player) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.closed:
	default:
		close(p.closed)
	}
}

func (p *player) bot(log io.Writer) sdk.Bot {
	return sdk.Bot{
		Name:         "human",
		Author:       "a person at the board page",
		WantGameInfo: true,
		NewGame: func(_ context.Context, rules game.Rules, color game.Color) error {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.rules = rules
			start := viewer.Start(rules.Start())
			first := rules.FirstMover().String()
			p.setLocked(State{Status: "opponent", Game: rules.Game(), Color: color.String(), Ply: &start, Games: p.state.Games,
				FirstMover: first, StartTurn: first})
			return nil
		},
		GameInfo: func(_ context.Context, info protocol.GameInfo) {
			p.mu.Lock()
			defer p.mu.Unlock()
			s := p.state
			s.Opponent, s.Opening = info.Opponent, info.Opening
			p.setLocked(s)
		},
		Move:     p.move,
		GameOver: p.gameOver,
		Log:      log,
	}
}

// move shows the position and waits for the person's move (or for the
// arena to end the game).
func (p *player) move(ctx context.Context, req sdk.Request) (string, error) {
	ply, startTurn, err := lastPly(req)
	if err != nil {
		return "", err
	}
	legal := req.State.LegalMoves(nil)
	s := State{
		Status: "move", Game: req.Rules.Game(), Color: req.Color.String(), Ply: &ply, Moves: req.Moves,
		TimeLeftMS: req.TimeLeft().Milliseconds(), Opponent: req.Game.Opponent, Opening: req.Game.Opening,
		FirstMover: req.Rules.FirstMover().String(), StartTurn: startTurn.String(),
	}
	for _, m := range legal {
		s.Legal = append(s.Legal, m.String())
	}
	if cs, ok := req.State.(*cheversi.State); ok {
		pos := cs.Position()
		s.Unplaced = map[string]int{}
		for pc := range cheversi.Piece(cheversi.NumPieces) {
			s.Unplaced[pc.String()] = pos.Unplaced(req.Color, pc)
		}
	}
	t := &turn{st: req.State, reply: make(chan string, 1)}
	p.mu.Lock()
	s.Games = p.state.Games
	p.turn = t
	p.setLocked(s)
	p.mu.Unlock()

	select {
	case text := <-t.reply:
		p.mu.Lock()
		defer p.mu.Unlock()
		p.turn = nil
		st := req.State.Clone()
		next, err := viewer.Step(st, text)
		if err == nil {
			s := p.state
			s.Status, s.Ply, s.Moves, s.Legal, s.Unplaced, s.TimeLeftMS = "opponent", &next, append(append([]string(nil), req.Moves...), text), nil, nil, 0
			p.setLocked(s)
		}
		return text, nil
	case <-ctx.Done():
		p.mu.Lock()
		p.turn = nil
		p.mu.Unlock()
		return "", ctx.Err()
	}
}

// lastPly replays a request's moves to describe its position with the
// last move's squares; startTurn is the side to move before the first.
func lastPly(req sdk.Request) (ply viewer.Ply, startTurn game.Color, err error) {
	st := req.Rules.Start()
	if req.StartText != "" {
		if st, err = req.Rules.ParseState(req.StartText); err != nil {
			return viewer.Ply{}, 0, err
		}
	}
	startTurn = st.Turn()
	ply = viewer.Start(st)
	for _, m := range req.Moves {
		next, err := viewer.Step(st, m)
		if err != nil {
			return viewer.Ply{}, 0, fmt.Errorf("human player: the arena's move %q: %w", m, err)
		}
		ply = next
	}
	return ply, startTurn, nil
}

func (p *player) gameOver(_ context.Context, result game.Result, reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.state
	s.Status, s.Result, s.Reason, s.Legal, s.Unplaced, s.TimeLeftMS = "over", result.String(), reason, nil, nil, 0
	s.Games++
	switch w, ok := result.Winner(); {
	case !ok:
		s.Message = "Draw."
	case w.String() == s.Color:
		s.Message = "You won."
	default:
		s.Message = "You lost."
	}
	p.setLocked(s)
}

// moveRequest is what the page posts: a move's text, or (checkers) the
// squares a piece goes from and to.
type moveRequest struct {
	Move string `json:"move"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

// moveReply says whether the move was taken, and if not why; Choices
// lists the moves that fit the clicks when several do.
type moveReply struct {
	OK      bool     `json:"ok"`
	Reason  string   `json:"reason,omitempty"`
	Choices []string `json:"choices,omitempty"`
}

// play checks a move the person made against the rules and, when it is
// legal, hands it to the bot.
func (p *player) play(req moveRequest) moveReply {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.turn
	if t == nil || t.done {
		return moveReply{Reason: "it is not your move"}
	}
	text := req.Move
	if text == "" {
		cs, ok := t.st.(*checkers.State)
		if !ok {
			return moveReply{Reason: "no move given"}
		}
		var choices []string
		var err error
		text, choices, err = Resolve(cs, req.From, req.To)
		switch {
		case err != nil:
			return moveReply{Reason: err.Error()}
		case len(choices) > 0:
			return moveReply{Reason: "more than one capture path joins these squares: choose one", Choices: choices}
		}
	}
	m, err := t.st.ParseMove(text)
	if err != nil {
		return moveReply{Reason: err.Error()}
	}
	t.done = true
	t.reply <- m.String()
	return moveReply{OK: true}
}

// Resolve finds the checkers move that takes a piece from one square to
// another, as the person clicks it: its text, or the choices when several
// capture paths join the two squares, or the rules' reason why there is
// none.
func Resolve(st *checkers.State, from, to int) (string, []string, error) {
	var found []string
	for _, m := range st.Moves(nil) {
		if m.From() == from && m.To() == to {
			found = append(found, m.String())
		}
	}
	switch len(found) {
	case 0:
	case 1:
		return found[0], nil, nil
	default:
		return "", found, nil
	}
	// No such move: ask the rules why, in the notation that fits.
	_, err := st.ParseMove(fmt.Sprintf("%d-%d", from, to))
	if errors.Is(err, game.ErrBadNotation) {
		if _, err2 := st.ParseMove(fmt.Sprintf("%dx%d", from, to)); err2 != nil {
			err = err2
		}
	}
	if err == nil {
		err = fmt.Errorf("%w: %d to %d is not a move", game.ErrIllegalMove, from, to)
	}
	return "", nil, err
}

func (p *player) handler() http.Handler {
	mux := viewer.Page{Name: "human", HTML: pageHTML, Script: pageJS, Style: pageCSS}.Mux()
	mux.HandleFunc("GET /state", func(w http.ResponseWriter, r *http.Request) {
		_, data, _ := p.current()
		viewer.WriteJSON(w, data)
	})
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		viewer.Stream(w, r, "state", 10*time.Second, p.closed, p.current)
	})
	mux.HandleFunc("POST /move", p.postMove)
	return viewer.Secure(mux)
}

// current returns the page's state, its version and a channel closed when
// it changes.
func (p *player) current() (uint64, []byte, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	data, err := json.Marshal(p.state)
	if err != nil {
		data = []byte(`{"status":"waiting","message":"the state cannot be encoded"}`)
	}
	return p.version, data, p.changed
}

// postMove takes a move from the page. Only the page itself may post: the
// request must be JSON (which a form on another site cannot send without
// asking first) and come from this origin.
func (p *player) postMove(w http.ResponseWriter, r *http.Request) {
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		http.Error(w, "want a JSON move", http.StatusUnsupportedMediaType)
		return
	}
	if o := r.Header.Get("Origin"); o != "" {
		if u, err := url.Parse(o); err != nil || u.Host != r.Host {
			http.Error(w, "moves are taken only from this page", http.StatusForbidden)
			return
		}
	}
	var req moveRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&req); err != nil {
		http.Error(w, "want {\"move\": TEXT} or {\"from\": N, \"to\": N}", http.StatusBadRequest)
		return
	}
	reply := p.play(req)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(reply)
}
