package builtin

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/protocol"
)

func TestBudget(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		clock    protocol.Clock
		side     game.Color
		moveTime time.Duration
		overhead time.Duration
		want     time.Duration
	}{
		{"movetime", protocol.Clock{MoveTime: 1000 * ms}, game.White, 0, 10 * ms, 890 * ms},
		{"movetime capped", protocol.Clock{MoveTime: 1000 * ms}, game.White, 300 * ms, 10 * ms, 290 * ms},
		{"clock white", protocol.Clock{WTime: 20000 * ms, BTime: 1000 * ms, WInc: 400 * ms}, game.White, 0, 0, 1300 * ms},
		{"clock black", protocol.Clock{WTime: 20000 * ms, BTime: 10000 * ms, BInc: 0}, game.Black, 0, 20 * ms, 480 * ms},
		{"clock capped", protocol.Clock{WTime: 20000 * ms}, game.White, 100 * ms, 0, 100 * ms},
		{"half the time at most", protocol.Clock{BTime: 400 * ms, BInc: 1000 * ms}, game.Black, 0, 0, 200 * ms},
		{"nothing left", protocol.Clock{WTime: 0}, game.White, 0, 10 * ms, ms},
		{"overhead above budget", protocol.Clock{MoveTime: 5 * ms}, game.White, 0, 10 * ms, ms},
	}
	for _, tt := range tests {
		if got := Budget(tt.clock, tt.side, tt.moveTime, tt.overhead); got != tt.want {
			t.Errorf("%s: Budget = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	ok := DefaultOptions()
	tests := []struct {
		name   string
		change func(*Options)
		valid  bool
	}{
		{"defaults", func(*Options) {}, true},
		{"depth", func(o *Options) { o.Depth = 12 }, true},
		{"negative depth", func(o *Options) { o.Depth = -1 }, false},
		{"nodes", func(o *Options) { o.Nodes = 100000 }, true},
		{"negative nodes", func(o *Options) { o.Nodes = -1 }, false},
		{"deep", func(o *Options) { o.Depth = maxDepthOption + 1 }, false},
		{"movetime", func(o *Options) { o.MoveTime = time.Second }, true},
		{"negative movetime", func(o *Options) { o.MoveTime = -time.Second }, false},
		{"no hash", func(o *Options) { o.HashMB = 0 }, false},
		{"huge hash", func(o *Options) { o.HashMB = MaxHashMB + 1 }, false},
		{"negative overhead", func(o *Options) { o.Overhead = -time.Millisecond }, false},
		{"too many nodes", func(o *Options) { o.Nodes = maxNodesOption + 1 }, false},
	}
	for _, tt := range tests {
		o := ok
		tt.change(&o)
		if err := o.Validate(); (err == nil) != tt.valid {
			t.Errorf("%s: Validate() = %v, want valid %v", tt.name, err, tt.valid)
		}
	}
}

func TestAddFlags(t *testing.T) {
	tests := []struct {
		bot  string
		args []string
		want Options
		bad  bool
	}{
		{NameRandom, []string{"--seed", "7"}, Options{Seed: 7, HashMB: DefaultHashMB, Overhead: DefaultOverhead}, false},
		{NameGreedy, nil, DefaultOptions(), false},
		{NameAlphaBeta, []string{"--depth", "6", "--movetime", "250ms", "--hash", "8", "--overhead", "5ms"},
			Options{Seed: 1, Depth: 6, MoveTime: 250 * time.Millisecond, HashMB: 8, Overhead: 5 * time.Millisecond}, false},
		{NameAlphaBeta, []string{"--nodes", "20000"}, Options{Seed: 1, Nodes: 20000, HashMB: DefaultHashMB, Overhead: DefaultOverhead}, false},
		{NameGreedy, []string{"--nodes", "3"}, Options{}, true},
		{NameExpert, []string{"--seed", "3", "--nodes", "500", "--depth", "4"},
			Options{Seed: 3, Depth: 4, Nodes: 500, HashMB: DefaultHashMB, Overhead: DefaultOverhead}, false},
		{NameRandom, []string{"--depth", "3"}, Options{}, true},
		{NameRandom, []string{"--nodes", "3"}, Options{}, true},
		{NameAlphaBeta, []string{"--seed", "3"}, Options{}, true},
	}
	for _, tt := range tests {
		o := DefaultOptions()
		fs := flag.NewFlagSet(tt.bot, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.AddFlags(fs, tt.bot)
		err := fs.Parse(tt.args)
		switch {
		case tt.bad && err == nil:
			t.Errorf("%s %v: parsed, want an error", tt.bot, tt.args)
		case !tt.bad && err != nil:
			t.Errorf("%s %v: %v", tt.bot, tt.args, err)
		case !tt.bad && o != tt.want:
			t.Errorf("%s %v: options %+v, want %+v", tt.bot, tt.args, o, tt.want)
		}
	}
}

// session runs a built-in bot on the given arena lines, as the arena
// would: after isready, ping and go it waits for the answer (readyok, pong,
// move) before it sends the next line. It returns the bot's output lines,
// parsed.
func session(t *testing.T, name string, o Options, lines ...string) []protocol.Message {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	runErr := make(chan error, 1)
	go func() { // exits when Run returns: at quit or the end of its input
		err := Run(ctx, name, o, inR, outW, io.Discard)
		outW.Close()
		runErr <- err
	}()
	msgs := make(chan protocol.Message)
	readErr := make(chan error, 1)
	go func() { // exits at the end of the bot's output, or on a failure once ctx is done
		defer close(msgs)
		r := protocol.NewReader(outR)
		for {
			m, err := r.ReadMessage()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					readErr <- err
				}
				return
			}
			select {
			case msgs <- m:
			case <-ctx.Done():
				outR.Close()
				return
			}
		}
	}()
	var got []protocol.Message
	await := func(want string) {
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatalf("%s: output ended while awaiting %s", name, want)
				}
				got = append(got, m)
				if m.Command() == want {
					return
				}
			case <-ctx.Done():
				t.Fatalf("%s: no %s", name, want)
			}
		}
	}
	for _, l := range lines {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatalf("%s: write %q: %v", name, l, err)
		}
		switch strings.Fields(l)[0] {
		case "isready":
			await("readyok")
		case "ping":
			await("pong")
		case "go":
			await("move")
		}
	}
	inW.Close()
	for m := range msgs {
		got = append(got, m)
	}
	if err := <-runErr; err != nil {
		t.Fatalf("Run(%s): %v", name, err)
	}
	select {
	case err := <-readErr:
		t.Fatalf("%s wrote something unreadable: %v", name, err)
	default:
	}
	return got
}

const (
	newCheversi = "newgame game cheversi preset cheversi rules opening=king-first touch=opponent " +
		"bishops_opposite=true queen_call=true black_king_last=true scoring=attacks color black"
	newCheckers = "newgame game checkers preset american rules repetition=3 quiet_moves=40 max_plies=400 color white"
)

func TestBotSession(t *testing.T) {
	msgs := session(t, NameAlphaBeta, DefaultOptions(),
		"arena 1",
		"setoption name Depth value 3",
		"isready",
		newCheversi,
		"isready",
		"ping t1",
		"position startpos moves K@e4",
		"go movetime 5000",
		"position text 8/8/8/8/4K3/8/8/8 b 1 e4 moves Q@d5 Q@c6",
		"go wtime 5000 btime 5000 winc 0 binc 0",
		"gameover result 1-0 reason score",
		newCheckers,
		"isready",
		"position startpos moves 11-15",
		"go movetime 5000",
		"quit",
	)
	var (
		id      protocol.ID
		moves   []string
		infos   []protocol.Info
		readies int
		pongs   []string
	)
	done := false
	for _, m := range msgs {
		if !done {
			var err error
			if done, err = id.Apply(m); err != nil {
				t.Fatalf("handshake: %v", err)
			}
			continue
		}
		switch m := m.(type) {
		case protocol.ReadyOK:
			readies++
		case protocol.Pong:
			pongs = append(pongs, m.Token)
		case protocol.Info:
			infos = append(infos, m)
		case protocol.Move:
			moves = append(moves, m.Move)
		default:
			t.Errorf("unexpected %v", m)
		}
	}
	if id.Name != NameAlphaBeta || !id.Plays("cheversi") || !id.Plays("checkers") {
		t.Errorf("handshake %+v, want alphabeta playing both games", id)
	}
	if o, ok := id.Option(OptionDepth); !ok || o.Type != protocol.OptionSpin || o.Default != "0" {
		t.Errorf("option Depth = %+v, %v; want a spin defaulting to 0", o, ok)
	}
	if readies != 3 || len(pongs) != 1 || pongs[0] != "t1" {
		t.Errorf("%d readyok and pongs %q, want 3 and [t1]", readies, pongs)
	}
	if len(moves) != 3 {
		t.Fatalf("moves %q, want 3", moves)
	}
	// Each move must be legal where it was asked for.
	positions := []struct{ game, text string }{
		{"cheversi", "8/8/8/8/4K3/8/8/8 b 1 e4"},
		{"cheversi", "8/8/2Q5/3q4/4K3/8/8/8 b 3 c6"},
		{"checkers", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"},
	}
	for i, p := range positions {
		st, err := mustRules(t, p.game, "").ParseState(p.text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.ParseMove(moves[i]); err != nil {
			t.Errorf("move %d: %q in %s: %v", i+1, moves[i], p.text, err)
		}
	}
	// With Depth 3 the search reports iterations 1 to 3 and no deeper.
	deepest := 0
	for _, in := range infos {
		deepest = max(deepest, in.Depth)
		if len(in.PV) == 0 || !in.HasScore {
			t.Errorf("info %+v: want a score and a pv", in)
		}
	}
	if deepest != 3 {
		t.Errorf("deepest info depth %d, want 3 (setoption Depth 3)", deepest)
	}
}

// TestBotSearchLimits checks that alphabeta obeys the node and depth
// limits of go: every info line stays within them, and the same
// node-limited request twice, from fresh processes, gives the same move
// and the same search.
func TestBotSearchLimits(t *testing.T) {
	play := func(goLine string) (string, []protocol.Info) {
		msgs := session(t, NameAlphaBeta, DefaultOptions(),
			"arena 1", "isready", newCheckers, "isready",
			"position startpos moves 11-15 23-19 8-11", goLine, "quit")
		var move string
		var infos []protocol.Info
		for _, m := range msgs {
			switch m := m.(type) {
			case protocol.Info:
				infos = append(infos, m)
			case protocol.Move:
				move = m.Move
			}
		}
		if move == "" || len(infos) == 0 {
			t.Fatalf("%s: move %q after %d info lines; want a move and info", goLine, move, len(infos))
		}
		return move, infos
	}
	const nodes = 4000
	goNodes := fmt.Sprintf("go movetime 20000 nodes %d", nodes)
	m1, i1 := play(goNodes)
	m2, i2 := play(goNodes)
	last1, last2 := i1[len(i1)-1], i2[len(i2)-1]
	for _, in := range append(i1, i2...) {
		if in.Nodes > nodes {
			t.Errorf("%s: info reports %d nodes", goNodes, in.Nodes)
		}
	}
	if m1 != m2 || last1.Depth != last2.Depth || last1.Nodes != last2.Nodes || last1.Score != last2.Score {
		t.Errorf("%s twice: %s (depth %d, %d nodes, score %d) and %s (depth %d, %d nodes, score %d); want the same",
			goNodes, m1, last1.Depth, last1.Nodes, last1.Score, m2, last2.Depth, last2.Nodes, last2.Score)
	}
	_, infos := play("go wtime 60000 btime 60000 winc 0 binc 0 depth 2")
	if d := infos[len(infos)-1].Depth; d != 2 {
		t.Errorf("go ... depth 2: deepest iteration %d, want 2", d)
	}
}

// TestBotSeed checks that the Seed option reseeds random: the same seed
// plays the same game.
func TestBotSeed(t *testing.T) {
	play := func(seed string) []string {
		lines := []string{"arena 1", "setoption name Seed value " + seed, "isready", newCheckers, "isready"}
		for range 6 {
			lines = append(lines, "position startpos moves 11-15", "go movetime 1000")
		}
		var moves []string
		for _, m := range session(t, NameRandom, DefaultOptions(), lines...) {
			if mv, ok := m.(protocol.Move); ok {
				moves = append(moves, mv.Move)
			}
		}
		return moves
	}
	a, b := play("99"), play("99")
	if len(a) != 6 || !equal(a, b) {
		t.Errorf("seed 99 played %q, then %q", a, b)
	}
	differ := false
	for _, s := range []string{"1", "2", "3", "4"} {
		differ = differ || !equal(a, play(s))
	}
	if !differ {
		t.Errorf("seeds 1-4 all played %q like seed 99", a)
	}
}

func TestNewBotErrors(t *testing.T) {
	if _, err := NewBot("oracle", DefaultOptions()); err == nil {
		t.Error("NewBot(oracle) succeeded")
	}
	o := DefaultOptions()
	o.HashMB = 0
	if _, err := NewBot(NameAlphaBeta, o); err == nil {
		t.Error("NewBot(alphabeta, hash 0) succeeded")
	}
	b, err := NewBot(NameAlphaBeta, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, value string }{
		{OptionHash, "0"}, {OptionDepth, "x"}, {"Ponder", "1"}, {OptionOverhead, "-1"},
	} {
		if err := b.SetOption(tt.name, tt.value); err == nil {
			t.Errorf("SetOption(%s, %q) succeeded", tt.name, tt.value)
		}
	}
}

func TestMainStatus(t *testing.T) {
	tests := []struct {
		args  []string
		input string
		want  int
		out   string
	}{
		{[]string{"-h"}, "", 0, ""},
		{[]string{"--bogus"}, "", 2, ""},
		{[]string{"--depth", "-2"}, "", 2, ""},
		{[]string{"extra"}, "", 2, ""},
		{nil, "arena 1\nquit\n", 0, "arenaok"},
		{nil, "arena 2\n", 1, ""},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		got := mainStatus(NameAlphaBeta, tt.args, strings.NewReader(tt.input), &out, &errb)
		if got != tt.want || !strings.Contains(out.String(), tt.out) {
			t.Errorf("main %q: status %d, output %q (stderr %q); want %d with %q", tt.args, got, out.String(), errb.String(), tt.want, tt.out)
		}
	}
}
