package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/protocol"
)

// ErrVersion means the arena speaks a protocol version this SDK does not.
var ErrVersion = errors.New("unsupported protocol version")

// Bot describes a bot: what it tells the arena about itself and the
// functions the SDK calls. Only Move is required.
type Bot struct {
	// Name and Author are sent in the handshake.
	Name, Author string
	// Games lists the games the bot plays; empty means every game of
	// package games.
	Games []string
	// Options are the options the bot accepts.
	Options []protocol.Option
	// WantLegalMoves asks the arena for the list of legal moves before
	// every move request; the SDK passes it on in Request.Legal.
	WantLegalMoves bool
	// WantFEN asks the arena for the current position as a position text
	// before every move request; the SDK passes it on in Request.FEN and
	// notes in Log any request whose text differs from the position it
	// decoded.
	WantFEN bool
	// NodeLimit and DepthLimit declare that Move obeys Request.Nodes and
	// Request.Depth; only then may the arena set them. (The SDK always
	// asks for the moves to go of a moves-per-period clock: Budget uses
	// them.)
	NodeLimit, DepthLimit bool
	// WantGameInfo asks the arena for the opponent's name and the
	// opening of every game (protocol version 1.2); the SDK passes them on
	// to GameInfo and in Request.Game.
	WantGameInfo bool

	// SetOption is called for each setoption whose name is among Options
	// and whose value fits the declaration (other ones are noted in Log
	// and ignored). An error is noted in Log; the bot keeps running.
	// It is never called while Move runs.
	SetOption func(name, value string) error
	// NewGame, if set, is called when a game starts, before the SDK
	// answers the isready that follows. An error ends Run.
	NewGame func(ctx context.Context, rules game.Rules, color game.Color) error
	// Move returns the bot's move in req.State, in the game's notation. It
	// runs in a goroutine of its own while the SDK keeps answering ping;
	// ctx is canceled when the arena ends the game (gameover), says quit,
	// or Run's context is done, and the move is then discarded. An error
	// ends Run.
	Move func(ctx context.Context, req Request) (string, error)
	// GameInfo, if set, is called with the opponent and the opening of
	// a game, which the arena sends after newgame to a bot with
	// WantGameInfo, before the isready that follows.
	GameInfo func(ctx context.Context, info protocol.GameInfo)
	// GameOver, if set, is called when the arena reports a game's result.
	GameOver func(ctx context.Context, result game.Result, reason string)

	// Log receives one line for each input line the SDK ignores and each
	// rejected option; nil discards them. A bot's standard error is the
	// usual choice: the arena keeps it in a log file.
	Log io.Writer
}

// ID returns what the SDK says about the bot in the handshake.
func (b Bot) ID() protocol.ID {
	gs := b.Games
	if len(gs) == 0 {
		gs = games.Names()
	}
	return protocol.ID{
		Name:       b.Name,
		Author:     b.Author,
		Options:    b.Options,
		Games:      gs,
		LegalMoves: b.WantLegalMoves,
		FEN:        b.WantFEN,
		Nodes:      b.NodeLimit,
		Depth:      b.DepthLimit,
		MovesToGo:  true,
		GameInfo:   b.WantGameInfo,
	}
}

// Request is one move request: the position the bot is to move in, and its
// clock.
type Request struct {
	// Rules are the rules of the game in progress.
	Rules game.Rules
	// State is the position, decoded; the side to move is the bot's. It is
	// a copy: the bot may play moves on it.
	State game.State
	// Color is the side the bot plays in this game.
	Color game.Color
	// Clock is the time control of this move.
	Clock protocol.Clock
	// Nodes and Depth, when positive, limit the search for this move: at
	// most Nodes nodes, at most Depth plies deep. The arena sets them only
	// for bots that declare NodeLimit and DepthLimit.
	Nodes int64
	Depth int
	// Legal holds the legal moves the arena sent, when the bot asked for
	// them with WantLegalMoves; nil otherwise (State.LegalMoves has them).
	Legal []string
	// FEN is the position text the arena sent, when the bot asked for it
	// with WantFEN; "" otherwise (State.Text has it).
	FEN string
	// StartText is the position text the game started from; "" means the
	// game's start position. Moves are the moves played since.
	StartText string
	Moves     []string
	// Game is the opponent and the opening of the game, for a bot with
	// WantGameInfo (zero otherwise).
	Game protocol.GameInfo

	send func(protocol.Info) error
}

// Info sends an info line (search progress, free text) to the arena, which
// records it with the move. It fails once the request has been abandoned
// (the game ended, or the arena quit) and when info cannot be formatted.
func (r Request) Info(info protocol.Info) error {
	if r.send == nil {
		return errors.New("sdk: Request has no connection to the arena")
	}
	return r.send(info)
}

// TimeLeft returns the time the bot has for this move: the fixed move time,
// or what remains on its clock.
func (r Request) TimeLeft() time.Duration { return r.Clock.Remaining(r.Color) }

// Budget suggests how long to think: 90% of a fixed move time, or a share
// of the remaining clock time plus three quarters of the increment, but
// never more than Ceiling. The share is a twentieth, or, under a
// moves-per-period clock, the time left divided by the moves to go plus
// one (a reserve for the period's last move).
func (r Request) Budget() time.Duration {
	if r.Clock.MoveTime > 0 {
		return r.Ceiling()
	}
	left := r.Clock.Remaining(r.Color)
	share := left / 20
	if n := r.Clock.MovesToGo; n > 0 {
		share = left / time.Duration(n+1)
	}
	return min(share+r.Clock.Increment(r.Color)*3/4, r.Ceiling())
}

// Ceiling is the most a bot should ever think about this move: 90% of a
// fixed move time, or half of the remaining clock time. A bot searching to
// a node or depth limit uses it as its only time limit.
func (r Request) Ceiling() time.Duration {
	if r.Clock.MoveTime > 0 {
		return r.Clock.MoveTime * 9 / 10
	}
	return r.Clock.Remaining(r.Color) / 2
}

// Run plays bot over the protocol, reading the arena's lines from in and
// writing the bot's to out, until the arena says quit or in ends (then it
// returns nil), ctx is done (ctx.Err()), or something fails: the arena
// speaks another protocol version (ErrVersion), a callback returns an
// error, the game or its rules are not available, or out fails.
//
// At the end of in, a move being computed is still written. On quit,
// gameover or ctx done it is abandoned: Move's context is canceled and Run
// waits for Move to return. Lines Run cannot use are noted in bot.Log and
// ignored.
//
// Run reads in from a goroutine of its own. If Run returns while that
// goroutine is blocked in a Read (on ctx done, say), the goroutine exits
// once the Read returns; in is not closed.
func Run(ctx context.Context, bot Bot, in io.Reader, out io.Writer) error {
	if bot.Move == nil {
		return errors.New("sdk: Bot.Move is nil")
	}
	s := &session{bot: bot, id: bot.ID(), w: protocol.NewWriter(out), log: bot.Log}
	if s.log == nil {
		s.log = io.Discard
	}
	events := make(chan event)
	done := make(chan struct{})
	defer close(done)
	go readLoop(protocol.NewReader(in), events, done)
	for {
		var results <-chan result
		if s.search != nil {
			results = s.search.result
		}
		select {
		case <-ctx.Done():
			s.abort()
			return ctx.Err()
		case r := <-results:
			if err := s.complete(r); err != nil {
				return err
			}
		case ev := <-events:
			stop, err := s.handle(ctx, ev)
			if stop || err != nil {
				s.abort()
				return err
			}
		}
	}
}

// Main runs bot on standard input and output, with Log defaulting to
// standard error, until quit or the end of input, and exits. On an error
// or an interrupt it writes a message to standard error and exits with
// status 1.
func Main(bot Bot) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	if bot.Log == nil {
		bot.Log = os.Stderr
	}
	err := Run(ctx, bot, os.Stdin, os.Stdout)
	stop()
	if err != nil {
		name := bot.Name
		if name == "" {
			name = "bot"
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// event is one message from the arena, or the error reading it.
type event struct {
	msg protocol.Message
	err error
}

// readLoop sends every message read from r to events. It returns after
// sending a read error that ends the stream, or when done is closed.
func readLoop(r *protocol.Reader, events chan<- event, done <-chan struct{}) {
	for {
		m, err := r.ReadMessage()
		select {
		case events <- event{msg: m, err: err}:
		case <-done:
			return
		}
		var pe *protocol.ProtocolError
		if err != nil && !errors.As(err, &pe) {
			return
		}
	}
}

// result is what Bot.Move returned.
type result struct {
	move string
	err  error
}

// search is a call of Bot.Move in progress.
type search struct {
	cancel context.CancelFunc
	result chan result // buffered: the goroutine sends once and exits
	state  game.State  // the position, to check the move against
}

// session is the state of one Run. Only Run's goroutine touches it, except
// for mu and gen, which Request.Info uses from the search goroutine.
type session struct {
	bot Bot
	id  protocol.ID
	w   *protocol.Writer
	log io.Writer

	mu  sync.Mutex // held while writing a move or an info line
	gen uint64     // bumped when a search ends; stale searches' info is dropped

	rules  game.Rules
	color  game.Color
	pos    protocol.Position
	hasPos bool
	legal  []string
	fen    string
	info   protocol.GameInfo // of the game in progress
	search *search

	// The decoded position of the last request, reused when the next one
	// extends it; newgame clears it.
	cacheText  string
	cacheMoves []string
	cacheState game.State
}

func (s *session) logf(format string, args ...any) {
	fmt.Fprintf(s.log, "sdk: "+format+"\n", args...)
}

// handle deals with one event; stop reports that Run should return.
func (s *session) handle(ctx context.Context, ev event) (stop bool, err error) {
	if ev.err != nil {
		return s.readFailed(ev.err)
	}
	switch m := ev.msg.(type) {
	case protocol.Hello:
		if m.Version != protocol.Version {
			return true, fmt.Errorf("sdk: %w: the arena speaks version %d, the SDK version %d",
				ErrVersion, m.Version, protocol.Version)
		}
		if err := s.w.WriteMessage(s.id.Messages()...); err != nil {
			return true, fmt.Errorf("sdk: handshake: %w", err)
		}
		return false, nil
	case protocol.IsReady:
		return false, s.w.WriteMessage(protocol.ReadyOK{})
	case protocol.Ping:
		return false, s.w.WriteMessage(protocol.Pong(m))
	case protocol.Pong:
		return false, nil
	case protocol.SetOption, protocol.NewGame, protocol.Position, protocol.FEN, protocol.LegalMoves, protocol.Go:
		if err := s.finish(); err != nil {
			return true, err
		}
		return false, s.request(ctx, m)
	case protocol.GameInfo:
		s.info = m
		if s.bot.GameInfo != nil {
			s.bot.GameInfo(ctx, m)
		}
		return false, nil
	case protocol.GameOver:
		s.abort()
		s.hasPos, s.legal = false, nil
		if s.bot.GameOver != nil {
			s.bot.GameOver(ctx, m.Result, m.Reason)
		}
		return false, nil
	case protocol.Quit:
		return true, nil
	}
	s.logf("ignored %q: not a message for a bot", ev.msg.Command())
	return false, nil
}

// readFailed deals with an error reading the input: a line that is not a
// message is ignored; the end of the input finishes the search in
// progress and stops; anything else stops with the error.
func (s *session) readFailed(err error) (stop bool, _ error) {
	var pe *protocol.ProtocolError
	switch {
	case errors.As(err, &pe):
		s.logf("ignored input line: %v", err)
		return false, nil
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true, s.finish()
	}
	return true, fmt.Errorf("sdk: read: %w", err)
}

// request deals with a message that comes after the search in progress
// has finished: an option, a new game, the position, the legal moves or
// go.
func (s *session) request(ctx context.Context, m protocol.Message) error {
	switch m := m.(type) {
	case protocol.SetOption:
		s.setOption(m)
	case protocol.NewGame:
		return s.newGame(ctx, m)
	case protocol.Position:
		s.pos, s.hasPos, s.legal, s.fen = m, true, nil, ""
	case protocol.FEN:
		s.fen = m.Text
	case protocol.LegalMoves:
		s.legal = m.Moves
	case protocol.Go:
		return s.start(ctx, m)
	}
	return nil
}

func (s *session) setOption(m protocol.SetOption) {
	o, ok := s.id.Option(m.Name)
	if !ok {
		s.logf("ignored setoption: no option %q", m.Name)
		return
	}
	if err := o.Check(m.Value); err != nil {
		s.logf("ignored setoption: %v", err)
		return
	}
	if s.bot.SetOption == nil {
		return
	}
	if err := s.bot.SetOption(m.Name, m.Value); err != nil {
		s.logf("setoption %s: %v", m.Name, err)
	}
}

func (s *session) newGame(ctx context.Context, m protocol.NewGame) error {
	if !s.id.Plays(m.Game) {
		return fmt.Errorf("sdk: newgame: the bot does not play %q", m.Game)
	}
	rules, err := games.New(m.Game, m.Preset, m.Settings)
	if err != nil {
		return fmt.Errorf("sdk: newgame: %w", err)
	}
	s.rules, s.color, s.hasPos, s.legal, s.info = rules, m.Color, false, nil, protocol.GameInfo{}
	s.cacheState = nil
	if s.bot.NewGame != nil {
		if err := s.bot.NewGame(ctx, rules, m.Color); err != nil {
			return fmt.Errorf("sdk: newgame: %w", err)
		}
	}
	return nil
}

// state returns the decoded position of s.pos. When s.pos extends the
// previous request's position, which is the usual case, it plays only the
// new moves on that position instead of decoding the game from its start.
func (s *session) state() (game.State, error) {
	p := s.pos
	if s.cacheState == nil || s.cacheText != p.Text || len(s.cacheMoves) > len(p.Moves) ||
		!slices.Equal(s.cacheMoves, p.Moves[:len(s.cacheMoves)]) {
		var st game.State
		var err error
		if p.Text == "" {
			st = s.rules.Start()
		} else if st, err = s.rules.ParseState(p.Text); err != nil {
			return nil, fmt.Errorf("sdk: position: %w", err)
		}
		s.cacheText, s.cacheMoves, s.cacheState = p.Text, s.cacheMoves[:0], st
	}
	for i := len(s.cacheMoves); i < len(p.Moves); i++ {
		_, err := game.PlayText(s.cacheState, p.Moves[i])
		if err != nil {
			s.cacheState = nil
			return nil, fmt.Errorf("sdk: position: move %d %q: %w", i+1, p.Moves[i], err)
		}
		s.cacheMoves = append(s.cacheMoves, p.Moves[i])
	}
	return s.cacheState, nil
}

// start begins a search for the current position.
func (s *session) start(ctx context.Context, g protocol.Go) error {
	if s.rules == nil || !s.hasPos {
		s.logf("ignored go: no newgame and position before it")
		return nil
	}
	st, err := s.state()
	if err != nil {
		return err
	}
	if st.Outcome().Over() {
		s.logf("ignored go: the game is over in this position")
		return nil
	}
	if s.fen != "" {
		if text := st.Text(); text != s.fen {
			s.logf("the arena's position text %q differs from the position decoded from the moves, %q", s.fen, text)
		}
	}
	s.mu.Lock()
	gen := s.gen
	s.mu.Unlock()
	sctx, cancel := context.WithCancel(ctx)
	req := Request{
		Rules:     s.rules,
		State:     st.Clone(),
		Color:     s.color,
		Clock:     g.Clock,
		Nodes:     g.Nodes,
		Depth:     g.Depth,
		Legal:     s.legal,
		FEN:       s.fen,
		StartText: s.pos.Text,
		Moves:     slices.Clone(s.pos.Moves),
		Game:      s.info,
		send: func(info protocol.Info) error {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.gen != gen {
				return fmt.Errorf("sdk: info after the move request ended: %w", context.Canceled)
			}
			return s.w.WriteMessage(info)
		},
	}
	sr := &search{cancel: cancel, result: make(chan result, 1), state: st}
	s.search = sr
	move := s.bot.Move
	go func() {
		mv, err := move(sctx, req)
		sr.result <- result{move: mv, err: err}
	}()
	return nil
}

// finish waits for the search in progress, if any, and writes its move.
func (s *session) finish() error {
	if s.search == nil {
		return nil
	}
	return s.complete(<-s.search.result)
}

// complete writes the move of the search in progress, which returned r.
func (s *session) complete(r result) error {
	sr := s.search
	s.search = nil
	sr.cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	if r.err != nil {
		return fmt.Errorf("sdk: move: %w", r.err)
	}
	text := r.move
	if m, err := sr.state.ParseMove(text); err != nil {
		s.logf("Move returned %q: %v; sending it anyway", text, err)
	} else {
		text = m.String()
	}
	if err := s.w.WriteMessage(protocol.Move{Move: text}); err != nil {
		return fmt.Errorf("sdk: move %q: %w", text, err)
	}
	return nil
}

// abort cancels the search in progress, if any, waits for Move to return
// and discards its result.
func (s *session) abort() {
	sr := s.search
	if sr == nil {
		return
	}
	s.search = nil
	sr.cancel()
	s.mu.Lock()
	s.gen++
	s.mu.Unlock()
	<-sr.result
}
