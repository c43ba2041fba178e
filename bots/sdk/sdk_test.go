package sdk

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/protocol"
)

// firstMove plays the first legal move.
func firstMove(ctx context.Context, req Request) (string, error) {
	return req.State.LegalMoves(nil)[0].String(), nil
}

func TestHandshake(t *testing.T) {
	bot := Bot{
		Name:   "Tester",
		Author: "Someone Else",
		Games:  []string{"checkers"},
		Options: []protocol.Option{
			{Name: "Depth", Type: protocol.OptionSpin, Default: "3", Min: 1, Max: 9},
			{Name: "Book", Type: protocol.OptionString, Default: "none at all"},
		},
		WantLegalMoves: true,
		WantFEN:        true,
		DepthLimit:     true,
		Move:           firstMove,
	}
	a := startBot(t, bot)
	a.send("arena 1")
	a.expect(
		"id name Tester",
		"id author Someone Else",
		"option name Depth type spin default 3 min 1 max 9",
		"option name Book type string default none at all",
		"games checkers",
		"request legalmoves",
		"request fen",
		"request depth",
		"request movestogo",
		"arenaok",
	)
	a.send("isready", "ping x1")
	a.expect("readyok", "pong x1")
	a.send("quit")
	a.expectEOF()
	if err := a.wait(); err != nil {
		t.Errorf("Run after quit = %v, want nil", err)
	}
}

func TestHandshakeDefaultGames(t *testing.T) {
	a := startBot(t, Bot{Move: firstMove})
	id := a.handshake()
	if !reflect.DeepEqual(id.Games, games.Names()) {
		t.Errorf("games = %v, want every game %v", id.Games, games.Names())
	}
	if id.Name != "" || id.LegalMoves {
		t.Errorf("id = %+v, want no name and no legal moves request", id)
	}
}

func TestVersionMismatch(t *testing.T) {
	a := startBot(t, Bot{Move: firstMove})
	a.send("arena 2")
	a.expectEOF()
	if err := a.wait(); !errors.Is(err, ErrVersion) {
		t.Errorf("Run = %v, want ErrVersion", err)
	}
}

func TestRunWithoutMove(t *testing.T) {
	err := Run(context.Background(), Bot{Name: "x"}, strings.NewReader(""), &strings.Builder{})
	if err == nil {
		t.Error("Run with a nil Move succeeded")
	}
}

func TestSetOption(t *testing.T) {
	type call struct{ name, value string }
	var mu sync.Mutex
	var calls []call
	bot := Bot{
		Options: []protocol.Option{
			{Name: "Depth", Type: protocol.OptionSpin, Default: "3", Min: 1, Max: 9},
			{Name: "Style", Type: protocol.OptionCombo, Default: "a", Vars: []string{"a", "b"}},
			{Name: "Fail", Type: protocol.OptionCheck, Default: "false"},
		},
		SetOption: func(name, value string) error {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, call{name, value})
			if name == "Fail" {
				return errors.New("cannot do that")
			}
			return nil
		},
		Move: firstMove,
	}
	a := startBot(t, bot)
	a.handshake()
	a.send(
		"setoption name Depth value 5",
		"setoption name Depth value 10",   // out of range
		"setoption name Style value c",    // not a var
		"setoption name Colour value red", // not declared
		"setoption name Style value b",
		"setoption name Fail value true",
		"isready",
	)
	a.expect("readyok")
	mu.Lock()
	got := slices.Clone(calls)
	mu.Unlock()
	want := []call{{"Depth", "5"}, {"Style", "b"}, {"Fail", "true"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SetOption calls = %v, want %v", got, want)
	}
	log := a.log.String()
	for _, w := range []string{"outside 1..9", `"c"`, `"Colour"`, "cannot do that"} {
		if !strings.Contains(log, w) {
			t.Errorf("log %q does not mention %q", log, w)
		}
	}
}

func TestIgnoredLines(t *testing.T) {
	a := startBot(t, Bot{Move: firstMove})
	a.handshake()
	a.send(
		"uci",
		"go wtime soon",
		"move K@e4",
		"move \xff",
		"go", // no game yet
		"ping after-garbage",
	)
	a.expect("pong after-garbage")
	log := a.log.String()
	for _, w := range []string{"unknown command", "syntax error", `ignored "move"`, "UTF-8", "ignored go"} {
		if !strings.Contains(log, w) {
			t.Errorf("log %q does not mention %q", log, w)
		}
	}
}

func TestNewGameErrors(t *testing.T) {
	tests := []struct {
		name, line string
		want       error
	}{
		{"unknown game", "newgame game chess preset x color white", nil},
		{"not declared", "newgame game cheversi preset cheversi color white", nil},
		{"bad preset", "newgame game checkers preset russian color white", game.ErrBadRules},
		{"bad switch", "newgame game checkers preset american rules flying_kings=true color white", game.ErrBadRules},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := startBot(t, Bot{Games: []string{"checkers", "chess"}, Move: firstMove})
			a.handshake()
			a.send(tt.line)
			a.expectEOF()
			err := a.wait()
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Errorf("Run = %v, want an error wrapping %v", err, tt.want)
			}
		})
	}
}

func TestNewGameCallback(t *testing.T) {
	var got []string
	bot := Bot{
		Move: firstMove,
		NewGame: func(ctx context.Context, rules game.Rules, color game.Color) error {
			got = append(got, fmt.Sprintf("%s/%s/%v/%v", rules.Game(), rules.Preset(), rules.Settings(), color))
			if color == game.Black {
				return errors.New("no black today")
			}
			return nil
		},
	}
	a := startBot(t, bot)
	a.handshake()
	a.send("newgame game cheversi preset echeversi rules touch=any color white", "isready")
	a.expect("readyok")
	a.send("newgame game checkers preset american color black")
	a.expectEOF()
	if err := a.wait(); err == nil || !strings.Contains(err.Error(), "no black today") {
		t.Errorf("Run = %v, want the NewGame error", err)
	}
	want := []string{
		"cheversi/echeversi/[{opening king-queen} {touch any} {bishops_opposite false} {queen_call false} {black_king_last false} {scoring squares}]/white",
		"checkers/american/[{repetition 3} {quiet_moves 40} {max_plies 400}]/black",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NewGame calls:\n%q\nwant\n%q", got, want)
	}
}

// TestRequest checks what Move receives: the decoded position (also from
// a position text, and when a request does not extend the previous one),
// the color, clock, legal moves and move list.
func TestRequest(t *testing.T) {
	reqs := make(chan Request, 1)
	bot := Bot{
		WantLegalMoves: true,
		Move: func(ctx context.Context, req Request) (string, error) {
			reqs <- req
			return req.State.LegalMoves(nil)[0].String(), nil
		},
	}
	a := startBot(t, bot)
	a.handshake()
	a.send("newgame game cheversi preset cheversi color black", "isready")
	a.expect("readyok")
	rules, err := games.New("cheversi", "cheversi", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lines        []string
		text         string
		moves        []string
		clock        protocol.Clock
		legal        []string
		fen          string
		nodes, depth int
	}{
		{
			lines: []string{"position startpos moves K@e4", "legalmoves Q@d5 N@f5", "go wtime 1000 btime 2000 winc 10 binc 20"},
			moves: []string{"K@e4"},
			clock: protocol.Clock{WTime: time.Second, BTime: 2 * time.Second, WInc: 10 * time.Millisecond, BInc: 20 * time.Millisecond},
			legal: []string{"Q@d5", "N@f5"},
		},
		{ // extends the previous request
			lines: []string{"position startpos moves K@e4 Q@d5 Q@c6", "go movetime 300"},
			moves: []string{"K@e4", "Q@d5", "Q@c6"},
			clock: protocol.Clock{MoveTime: 300 * time.Millisecond},
		},
		{ // another line of play
			lines: []string{"position startpos moves K@a1", "go movetime 300"},
			moves: []string{"K@a1"},
			clock: protocol.Clock{MoveTime: 300 * time.Millisecond},
		},
		{ // a position text
			lines: []string{"position text 8/8/8/8/4K3/8/8/8 b 1 e4", "go movetime 5"},
			text:  "8/8/8/8/4K3/8/8/8 b 1 e4",
			clock: protocol.Clock{MoveTime: 5 * time.Millisecond},
		},
		{ // back to the start position: not an extension of the text
			lines: []string{"position startpos", "go movetime 5"},
			clock: protocol.Clock{MoveTime: 5 * time.Millisecond},
		},
		{ // a position text and moves
			lines: []string{"position text 8/8/8/8/4K3/8/8/8 b 1 e4 moves Q@d5 Q@c6", "go movetime 5"},
			text:  "8/8/8/8/4K3/8/8/8 b 1 e4",
			moves: []string{"Q@d5", "Q@c6"},
			clock: protocol.Clock{MoveTime: 5 * time.Millisecond},
		},
		{ // version 1.1: the current position text, movestogo and limits
			lines: []string{"position startpos moves K@e4", "fen 8/8/8/8/4K3/8/8/8 b 1 e4",
				"go wtime 1000 btime 2000 winc 0 binc 0 movestogo 9 depth 4 nodes 300"},
			moves: []string{"K@e4"},
			clock: protocol.Clock{WTime: time.Second, BTime: 2 * time.Second, MovesToGo: 9},
			fen:   "8/8/8/8/4K3/8/8/8 b 1 e4",
			nodes: 300, depth: 4,
		},
		{ // a new position forgets the last one's text
			lines: []string{"position startpos moves K@d4", "go movetime 5"},
			moves: []string{"K@d4"},
			clock: protocol.Clock{MoveTime: 5 * time.Millisecond},
		},
	}
	for i, tt := range tests {
		a.send(tt.lines...)
		var req Request
		select {
		case req = <-reqs:
		case <-time.After(10 * time.Second):
			t.Fatalf("request %d: Move not called", i)
		}
		// The referee's view of the same position.
		want := rules.Start()
		if tt.text != "" {
			if want, err = rules.ParseState(tt.text); err != nil {
				t.Fatal(err)
			}
		}
		for _, mv := range tt.moves {
			m, err := want.ParseMove(mv)
			if err != nil {
				t.Fatal(err)
			}
			if err := want.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if req.State.Text() != want.Text() {
			t.Errorf("request %d: State %q, want %q", i, req.State.Text(), want.Text())
		}
		if req.FEN != tt.fen || req.Nodes != int64(tt.nodes) || req.Depth != tt.depth {
			t.Errorf("request %d: fen %q nodes %d depth %d; want %q %d %d", i, req.FEN, req.Nodes, req.Depth, tt.fen, tt.nodes, tt.depth)
		}
		if req.Color != game.Black || req.Clock != tt.clock || req.StartText != tt.text ||
			!slices.Equal(req.Moves, tt.moves) || !slices.Equal(req.Legal, tt.legal) {
			t.Errorf("request %d: color %v clock %+v start %q moves %v legal %v; want black %+v %q %v %v",
				i, req.Color, req.Clock, req.StartText, req.Moves, req.Legal, tt.clock, tt.text, tt.moves, tt.legal)
		}
		if req.Rules.Game() != "cheversi" {
			t.Errorf("request %d: rules of %q", i, req.Rules.Game())
		}
		a.expect("move " + want.LegalMoves(nil)[0].String())
	}
}

func TestBadPositionEndsRun(t *testing.T) {
	for _, line := range []string{
		"position startpos moves K@e4 K@e5", // Black's king may not come early
		"position text not-a-position",
		"position startpos moves Z@z9",
	} {
		a := startBot(t, Bot{Move: firstMove})
		a.handshake()
		a.send("newgame game cheversi preset cheversi color black", line, "go movetime 10")
		a.expectEOF()
		if err := a.wait(); err == nil {
			t.Errorf("%s: Run = nil, want an error", line)
		}
	}
}

// TestSearchLifecycle covers what happens to a Move in progress.
func TestSearchLifecycle(t *testing.T) {
	// blocking is a Move that waits for its context or for release.
	type blocking struct {
		started  chan struct{}
		canceled chan struct{}
		release  chan string
	}
	newBot := func() (*blocking, Bot) {
		b := &blocking{started: make(chan struct{}, 1), canceled: make(chan struct{}, 1), release: make(chan string, 1)}
		return b, Bot{Move: func(ctx context.Context, req Request) (string, error) {
			b.started <- struct{}{}
			select {
			case <-ctx.Done():
				b.canceled <- struct{}{}
				return "", ctx.Err()
			case mv := <-b.release:
				return mv, nil
			}
		}}
	}
	begin := func(t *testing.T, bot Bot, b *blocking) *arena {
		a := startBot(t, bot)
		a.handshake()
		a.send("newgame game checkers preset american color black", "position startpos", "go movetime 1000")
		select {
		case <-b.started:
		case <-time.After(10 * time.Second):
			t.Fatal("Move was not called")
		}
		return a
	}
	wasCanceled := func(t *testing.T, b *blocking) {
		select {
		case <-b.canceled:
		case <-time.After(10 * time.Second):
			t.Fatal("Move's context was not canceled")
		}
	}

	t.Run("ping and isready while thinking", func(t *testing.T) {
		b, bot := newBot()
		a := begin(t, bot, b)
		a.send("ping 1", "isready", "ping 2")
		a.expect("pong 1", "readyok", "pong 2")
		b.release <- "11-15"
		a.expect("move 11-15")
	})
	t.Run("gameover abandons the move", func(t *testing.T) {
		b, bot := newBot()
		var over []string
		bot.GameOver = func(ctx context.Context, r game.Result, reason string) {
			over = append(over, r.String()+" "+reason)
		}
		a := begin(t, bot, b)
		a.send("gameover result 1-0 reason timeout")
		wasCanceled(t, b)
		a.send("ping after")
		a.expect("pong after") // and no move before it
		if !slices.Equal(over, []string{"1-0 timeout"}) {
			t.Errorf("GameOver calls %q, want [1-0 timeout]", over)
		}
	})
	t.Run("quit abandons the move", func(t *testing.T) {
		b, bot := newBot()
		a := begin(t, bot, b)
		a.send("quit")
		wasCanceled(t, b)
		a.expectEOF()
		if err := a.wait(); err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	})
	t.Run("context abandons the move", func(t *testing.T) {
		b, bot := newBot()
		a := begin(t, bot, b)
		a.cancel()
		wasCanceled(t, b)
		a.expectEOF()
		if err := a.wait(); !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	})
	t.Run("end of input still writes the move", func(t *testing.T) {
		b, bot := newBot()
		a := begin(t, bot, b)
		a.toBot.Close()
		b.release <- "9-13"
		a.expect("move 9-13")
		a.expectEOF()
		if err := a.wait(); err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	})
	t.Run("a new request waits for the move", func(t *testing.T) {
		b, bot := newBot()
		a := begin(t, bot, b)
		a.send("position startpos", "go movetime 1000")
		b.release <- "10-14"
		a.expect("move 10-14")
		<-b.started
		b.release <- "10-15"
		a.expect("move 10-15")
	})
	t.Run("a Move error ends Run", func(t *testing.T) {
		bot := Bot{Move: func(ctx context.Context, req Request) (string, error) {
			return "", errors.New("out of ideas")
		}}
		a := startBot(t, bot)
		a.handshake()
		a.send("newgame game checkers preset american color black", "position startpos", "go movetime 10")
		a.expectEOF()
		if err := a.wait(); err == nil || !strings.Contains(err.Error(), "out of ideas") {
			t.Errorf("Run = %v, want the Move error", err)
		}
	})
	t.Run("an illegal move is sent and noted", func(t *testing.T) {
		bot := Bot{Move: func(ctx context.Context, req Request) (string, error) { return "1-5", nil }}
		a := startBot(t, bot)
		a.handshake()
		a.send("newgame game checkers preset american color black", "position startpos", "go movetime 10")
		a.expect("move 1-5")
		if log := a.log.String(); !strings.Contains(log, `"1-5"`) {
			t.Errorf("log %q does not note the illegal move", log)
		}
	})
	t.Run("info after the request ended fails", func(t *testing.T) {
		reqs := make(chan Request, 1)
		bot := Bot{Move: func(ctx context.Context, req Request) (string, error) {
			reqs <- req
			return "11-15", nil
		}}
		a := startBot(t, bot)
		a.handshake()
		a.send("newgame game checkers preset american color black", "position startpos", "go movetime 10")
		a.expect("move 11-15")
		req := <-reqs
		if err := req.Info(protocol.Info{String: "late"}); !errors.Is(err, context.Canceled) {
			t.Errorf("late Info = %v, want context.Canceled", err)
		}
		a.send("ping 1")
		a.expect("pong 1")
	})
}

func TestBudget(t *testing.T) {
	tests := []struct {
		color game.Color
		clock protocol.Clock
		want  time.Duration
	}{
		{game.White, protocol.Clock{MoveTime: time.Second}, 900 * time.Millisecond},
		{game.White, protocol.Clock{WTime: 20 * time.Second, BTime: time.Second, WInc: time.Second}, 1750 * time.Millisecond},
		{game.Black, protocol.Clock{WTime: 20 * time.Second, BTime: 40 * time.Second}, 2 * time.Second},
		{game.Black, protocol.Clock{BTime: 100 * time.Millisecond, BInc: 2 * time.Second}, 50 * time.Millisecond},
		// 40/60s: a 41st of the time left; at the period's last move, half.
		{game.White, protocol.Clock{WTime: 41 * time.Second, BTime: time.Second, MovesToGo: 40}, time.Second},
		{game.White, protocol.Clock{WTime: 4 * time.Second, BTime: time.Second, MovesToGo: 1}, 2 * time.Second},
	}
	for _, tt := range tests {
		req := Request{Color: tt.color, Clock: tt.clock}
		if got := req.Budget(); got != tt.want {
			t.Errorf("Budget(%v, %+v) = %v, want %v", tt.color, tt.clock, got, tt.want)
		}
		if req.Budget() > req.TimeLeft() {
			t.Errorf("Budget(%v, %+v) exceeds TimeLeft %v", tt.color, tt.clock, req.TimeLeft())
		}
	}
}

// randomBot plays uniformly random legal moves, reporting each with an
// info line. With legal set it picks from the arena's list and checks the
// list against the decoded position.
func randomBot(name string, seed uint64, legal bool) Bot {
	rng := rand.New(rand.NewPCG(seed, 1))
	return Bot{
		Name:           name,
		WantLegalMoves: legal,
		Move: func(ctx context.Context, req Request) (string, error) {
			var moves []string
			for _, m := range req.State.LegalMoves(nil) {
				moves = append(moves, m.String())
			}
			if legal {
				a, b := slices.Sorted(slices.Values(moves)), slices.Sorted(slices.Values(req.Legal))
				if !slices.Equal(a, b) {
					return "", fmt.Errorf("arena's legal moves %v differ from the position's %v", b, a)
				}
			}
			if req.State.Turn() != req.Color {
				return "", fmt.Errorf("asked to move for %v in a position where %v moves", req.Color, req.State.Turn())
			}
			mv := moves[rng.IntN(len(moves))]
			if err := req.Info(protocol.Info{Depth: 1, Nodes: int64(len(moves)), PV: []string{mv}}); err != nil {
				return "", err
			}
			return mv, nil
		},
	}
}

// playGame referees one full game between two SDK bots over pipes, the
// way the arena does, and returns the final outcome and the move count.
func playGame(t *testing.T, gameName, preset string, seed uint64) (game.Outcome, int) {
	t.Helper()
	rules, err := games.New(gameName, preset, nil)
	if err != nil {
		t.Fatal(err)
	}
	var bots [2]*arena
	for c := range bots {
		bots[c] = startBot(t, randomBot(fmt.Sprintf("bot%d", c), seed+uint64(c), c == 0))
		id := bots[c].handshake()
		if !id.Plays(gameName) {
			t.Fatalf("bot %d does not play %s", c, gameName)
		}
		bots[c].send("isready")
		bots[c].expect("readyok")
		var rs []string
		for _, s := range rules.Settings() {
			rs = append(rs, s.Key+"="+s.Value)
		}
		bots[c].send(fmt.Sprintf("newgame game %s preset %s rules %s color %v", gameName, preset, strings.Join(rs, " "), game.Color(c)), "isready")
		bots[c].expect("readyok")
	}
	st := rules.Start()
	var moves []string
	for !st.Outcome().Over() {
		side := st.Turn()
		a := bots[side]
		lines := []string{"position startpos"}
		if len(moves) > 0 {
			lines[0] += " moves " + strings.Join(moves, " ")
		}
		if side == game.White { // bot 0 asked for legal moves
			var legal []string
			for _, m := range st.LegalMoves(nil) {
				legal = append(legal, m.String())
			}
			lines = append(lines, "legalmoves "+strings.Join(legal, " "))
		}
		lines = append(lines, "go wtime 60000 btime 60000 winc 0 binc 0")
		a.send(lines...)
		var reply string
		for reply == "" {
			m, err := protocol.Parse(a.line())
			if err != nil {
				t.Fatalf("ply %d: %v", len(moves)+1, err)
			}
			switch m := m.(type) {
			case protocol.Info:
				if len(m.PV) != 1 || m.Depth != 1 {
					t.Errorf("ply %d: info %q", len(moves)+1, m.Raw)
				}
			case protocol.Move:
				reply = m.Move
			default:
				t.Fatalf("ply %d: unexpected %v", len(moves)+1, m)
			}
		}
		m, err := st.ParseMove(reply)
		if err == nil {
			err = st.Play(m)
		}
		if err != nil {
			t.Fatalf("ply %d: the bot played %q: %v", len(moves)+1, reply, err)
		}
		moves = append(moves, m.String())
	}
	out := st.Outcome()
	for _, a := range bots {
		a.send(fmt.Sprintf("gameover result %v reason %s", out.Result, out.Reason), "quit")
		a.expectEOF()
		if err := a.wait(); err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	}
	return out, len(moves)
}

func TestFullGames(t *testing.T) {
	tests := []struct {
		game, preset string
		games        int
	}{
		{"cheversi", "cheversi", 10},
		{"cheversi", "cheversi-classic", 4},
		{"cheversi", "echeversi", 4},
		{"checkers", "american", 10},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			n := tt.games
			if testing.Short() {
				n = 1
			}
			for i := range n {
				out, plies := playGame(t, tt.game, tt.preset, uint64(i)*2)
				if tt.game == "cheversi" && out.Reason == game.ReasonScore && plies != 16 {
					t.Errorf("cheversi game ended by score after %d plies", plies)
				}
				if !out.Over() {
					t.Errorf("game %d not over", i)
				}
			}
		})
	}
}

// TestFENMismatch checks that a position text that disagrees with the
// moves is noted in the log; the bot still plays the position the moves
// give.
func TestFENMismatch(t *testing.T) {
	a := startBot(t, Bot{WantFEN: true, Move: firstMove})
	a.handshake()
	a.send("newgame game checkers preset american color black", "isready")
	a.expect("readyok")
	a.send("position startpos", "fen W:W21:B1", "go movetime 100")
	a.expect("move 9-13")
	if log := a.log.String(); !strings.Contains(log, `position text "W:W21:B1" differs`) {
		t.Errorf("log %q does not note the differing position text", log)
	}
}

// TestGameInfo checks that a bot with WantGameInfo asks for it, is told
// the opponent and the opening of each game, in GameInfo and with every
// request, and that the next newgame clears them.
func TestGameInfo(t *testing.T) {
	var mu sync.Mutex
	var told []protocol.GameInfo
	var asked []protocol.GameInfo
	bot := Bot{WantGameInfo: true,
		GameInfo: func(_ context.Context, info protocol.GameInfo) {
			mu.Lock()
			told = append(told, info)
			mu.Unlock()
		},
		Move: func(ctx context.Context, req Request) (string, error) {
			mu.Lock()
			asked = append(asked, req.Game)
			mu.Unlock()
			return firstMove(ctx, req)
		},
	}
	a := startBot(t, bot)
	if id := a.handshake(); !id.GameInfo {
		t.Fatalf("the handshake %+v does not ask for gameinfo", id)
	}
	a.send("newgame game checkers preset american color black", "gameinfo opponent alphabeta opening ACF 1 Edinburgh", "isready")
	a.expect("readyok")
	a.send("position startpos", "go movetime 100")
	a.expect("move 9-13")
	a.send("gameover result 1-0 reason score", "newgame game checkers preset american color black", "isready")
	a.expect("readyok")
	a.send("position startpos", "go movetime 100")
	a.expect("move 9-13")
	mu.Lock()
	defer mu.Unlock()
	want := protocol.GameInfo{Opponent: "alphabeta", Opening: "ACF 1 Edinburgh"}
	if len(told) != 1 || told[0] != want || len(asked) != 2 || asked[0] != want || asked[1] != (protocol.GameInfo{}) {
		t.Errorf("told %+v, asked with %+v; want %+v once, then nothing for the game without gameinfo", told, asked, want)
	}
}
