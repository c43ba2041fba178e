package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
)

func init() {
	register(command{
		name:    "perft",
		summary: "count the move sequences of a given depth (rules testing)",
		run:     runPerft,
	})
}

// settingsFlag collects repeated --set key=value flags.
type settingsFlag []game.Setting

func (s *settingsFlag) String() string {
	parts := make([]string, len(*s))
	for i, kv := range *s {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, " ")
}

func (s *settingsFlag) Set(v string) error {
	kv, err := games.ParseSetting(v)
	if err != nil {
		return err
	}
	*s = append(*s, kv)
	return nil
}

func runPerft(ctx context.Context, args []string) error {
	fs := newFlagSet("perft", "--game cheversi|checkers [--rules PRESET] [--set key=value]... [--fen TEXT] [--moves \"m1 m2 ...\"] --depth N [--divide]")
	gameName := fs.String("game", "", "game: "+strings.Join(games.Names(), " or "))
	preset := fs.String("rules", "", "rules preset (default: the game's default preset)")
	var sets settingsFlag
	fs.Var(&sets, "set", "rule switch override `key=value` (repeatable)")
	fen := fs.String("fen", "", "start from this position text instead of the start position")
	moves := fs.String("moves", "", "space-separated moves to play before counting")
	depth := fs.Int("depth", -1, "depth in plies")
	divide := fs.Bool("divide", false, "print the count below each legal move first")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *gameName == "" {
		return usagef("--game is required (%s)", strings.Join(games.Names(), " or "))
	}
	if *depth < 0 {
		return usagef("--depth is required and must be >= 0")
	}
	if *divide && *depth < 1 {
		return usagef("--divide needs --depth 1 or more")
	}
	rules, err := games.New(*gameName, *preset, sets)
	if err != nil {
		return err
	}
	state := rules.Start()
	if *fen != "" {
		if state, err = rules.ParseState(*fen); err != nil {
			return err
		}
	}
	for i, text := range strings.Fields(*moves) {
		if _, err := game.PlayText(state, text); err != nil {
			return fmt.Errorf("--moves: move %d %q: %w", i+1, text, err)
		}
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	if !*divide {
		n, err := countUntilDone(ctx, state, *depth)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, n)
		return nil
	}
	var total uint64
	for _, m := range state.LegalMoves(nil) {
		child := state.Clone()
		if err := child.Play(m); err != nil {
			return fmt.Errorf("playing %s: %w", m, err)
		}
		n, err := countUntilDone(ctx, child, *depth-1)
		if err != nil {
			return err
		}
		total += n
		fmt.Fprintf(out, "%s %d\n", m, n)
	}
	fmt.Fprintln(out, total)
	return nil
}

// countUntilDone returns perft(s, depth), or ctx's error as soon as ctx is
// done: a deep count can run for hours and the rules packages' counters do
// not look at ctx, so an interrupt must not wait for it. The counting
// goroutine ends when its count does; after an interrupt the command
// returns, the process exits and the abandoned count with it. s must not be
// used again once ctx is done.
func countUntilDone(ctx context.Context, s game.State, depth int) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	done := make(chan uint64, 1) // buffered: the goroutine never blocks on send
	go func() { done <- perft(s, depth) }()
	select {
	case n := <-done:
		return n, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// perft counts leaf move sequences, using the rules package's fast counter
// when the State has one.
func perft(s game.State, depth int) uint64 {
	if p, ok := s.(games.Perfter); ok {
		return p.Perft(depth)
	}
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range s.LegalMoves(nil) {
		c := s.Clone()
		if c.Play(m) == nil {
			n += perft(c, depth-1)
		}
	}
	return n
}
