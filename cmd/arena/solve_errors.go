package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/bots/builtin"
)

// errorStudy is what "arena solve errors" measures: a bot's games against
// itself, every position from a ply on solved, and each move that lets a
// win or a draw go counted by ply.
type errorStudy struct {
	Rules       string   `json:"rules"`
	Bot         string   `json:"bot"`
	Nodes       int64    `json:"nodes"`
	Games       int      `json:"games"`
	RandomPlies int      `json:"random_plies"`
	From        int      `json:"from"`
	Seed        uint64   `json:"seed"`
	Plies       []plyErr `json:"plies"`
	// Decided counts the games by the ply of the last move that changed
	// the game's value (-1: none from From on, so decided before From).
	Decided map[int]int `json:"decided"`
	// Results counts the games' results from White's side.
	Results map[string]int `json:"results"`
	// StartValues counts the values, for White, of the positions at From.
	StartValues map[string]int `json:"start_values"`
	CPUSeconds  float64        `json:"solver_seconds"`
}

// plyErr counts, at one ply, the mover's value before its move and the
// moves that lowered it.
type plyErr struct {
	Ply       int `json:"ply"`
	Wins      int `json:"wins"`      // positions the mover had won
	WinToDraw int `json:"win_draw"`  // ... where its move let the win go for a draw
	WinToLoss int `json:"win_loss"`  // ... or for a loss
	Draws     int `json:"draws"`     // positions the mover had drawn
	DrawLoss  int `json:"draw_loss"` // ... where its move lost the draw
	Losses    int `json:"losses"`    // positions the mover had lost
}

func runSolveErrors(ctx context.Context, args []string) error {
	fs := newFlagSet("solve errors", "[--bot NAME] [--nodes N] [--games N] [--random-plies K] [--from PLY] [--rules PRESET] [--set key=value]... [--out FILE.json]")
	bot := fs.String("bot", builtin.NameExpert, "the built-in bot that plays both sides: "+strings.Join(builtin.Names(), ", "))
	nodes := fs.Int64("nodes", 10000, "the bot's node limit per move")
	games := fs.Int("games", 100, "games to play")
	randomPlies := fs.Int("random-plies", 2, "random moves that open each game")
	from := fs.Int("from", 6, "solve the positions from this ply on")
	seed := fs.Uint64("seed", 1, "seed of the random openings and of the bots' tie-breaks")
	preset := fs.String("rules", "", "rules preset (default cheversi)")
	var sets settingsFlag
	fs.Var(&sets, "set", "rule switch override `key=value` (repeatable)")
	memory := fs.String("memory", defaultTableSize, "the solver's transposition table `size`")
	outPath := fs.String("out", "", "also write the counts as JSON to `FILE`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	switch {
	case *games < 1:
		return usagef("--games %d: want at least 1", *games)
	case *randomPlies < 0 || *randomPlies >= cheversi.MaxPlies:
		return usagef("--random-plies %d: want 0 to %d", *randomPlies, cheversi.MaxPlies-1)
	case *from < 0 || *from >= cheversi.MaxPlies:
		return usagef("--from %d: want 0 to %d", *from, cheversi.MaxPlies-1)
	case *nodes < 1:
		return usagef("--nodes %d: want at least 1", *nodes)
	}
	mem, err := parseSize(*memory)
	if err != nil {
		return usagef("--memory: %v", err)
	}
	rules, err := cheversi.New(*preset, sets)
	if err != nil {
		return usageError{err}
	}
	if _, err := builtin.New(*bot, builtin.Config{}); err != nil {
		return usageError{err}
	}
	st := &errorStudy{
		Rules: rules.Preset(), Bot: *bot, Nodes: *nodes, Games: *games, RandomPlies: *randomPlies,
		From: *from, Seed: *seed, Decided: map[int]int{}, Results: map[string]int{}, StartValues: map[string]int{},
	}
	for p := *from; p < cheversi.MaxPlies; p++ {
		st.Plies = append(st.Plies, plyErr{Ply: p})
	}
	solver := solve.NewSolver(solve.SolverOptions{TableBytes: mem})
	r := rand.New(rand.NewPCG(*seed, 0x6572726f7273))
	for g := range *games {
		if err := st.play(ctx, rules, solver, r, uint64(g)); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "\rgame %d/%d", g+1, *games)
	}
	fmt.Fprintln(os.Stderr)
	st.print(os.Stdout)
	if *outPath != "" {
		data, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*outPath, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// play plays game g and counts its moves.
func (st *errorStudy) play(ctx context.Context, rules *cheversi.Rules, solver *solve.Solver, r *rand.Rand, g uint64) error {
	var players [2]builtin.Player
	for c := range players {
		p, err := builtin.New(st.Bot, builtin.Config{Seed: st.Seed + 2*g + uint64(c)})
		if err != nil {
			return err
		}
		players[c] = p
	}
	state := rules.Start().(*cheversi.State)
	// The game first, then the value of each of its positions from From
	// on, each solved once.
	var positions []cheversi.Position
	for state.Outcome().Result == 0 {
		pos := state.Position()
		if pos.Ply() >= st.From {
			positions = append(positions, pos)
		}
		var move cheversi.Move
		if pos.Ply() < st.RandomPlies {
			ms := pos.GenerateMoves(nil)
			move = ms[r.IntN(len(ms))]
		} else {
			res, err := players[pos.Turn()].Choose(ctx, state, builtin.Limits{Nodes: st.Nodes})
			if err != nil {
				return err
			}
			move = res.Move.(cheversi.Move)
		}
		if err := state.PlayMove(move); err != nil {
			return err
		}
	}
	positions = append(positions, state.Position())
	white := make([]solve.Value, len(positions)) // each position's value for White
	for i := range positions {
		start := time.Now()
		res, err := solver.Solve(ctx, &positions[i])
		st.CPUSeconds += time.Since(start).Seconds()
		if err != nil {
			return err
		}
		white[i] = res.Value
		if positions[i].Turn() != 0 {
			white[i] = res.Value.Neg()
		}
	}
	if len(positions) > 1 {
		st.StartValues[white[0].String()]++
	}
	last := -1
	for i := 0; i+1 < len(positions); i++ {
		p := &positions[i]
		st.count(p.Ply(), white[i], white[i+1], p.Turn() != 0)
		if white[i+1] != white[i] {
			last = p.Ply()
		}
	}
	st.Decided[last]++
	st.Results[state.Outcome().Result.String()]++
	return nil
}

// count records one move at ply: the values for White before and after
// it, and whether Black made it.
func (st *errorStudy) count(ply int, whiteBefore, whiteAfter solve.Value, black bool) {
	before, got := whiteBefore, whiteAfter
	if black {
		before, got = before.Neg(), got.Neg()
	}
	pe := &st.Plies[ply-st.From]
	switch before {
	case solve.Win:
		pe.Wins++
		switch got {
		case solve.Draw:
			pe.WinToDraw++
		case solve.Loss:
			pe.WinToLoss++
		}
	case solve.Draw:
		pe.Draws++
		if got == solve.Loss {
			pe.DrawLoss++
		}
	default:
		pe.Losses++
	}
}

func (st *errorStudy) print(w io.Writer) {
	fmt.Fprintf(w, "%s against itself at %d nodes a move, %d games from %d random plies (%s)\n",
		st.Bot, st.Nodes, st.Games, st.RandomPlies, st.Rules)
	fmt.Fprintf(w, "moves that let the mover's win or draw go, by ply (95%% intervals):\n")
	fmt.Fprintf(w, "%4s %6s %-19s %6s %-19s %6s\n", "ply", "won", "win let go", "drawn", "draw let go", "lost")
	for _, p := range st.Plies {
		fmt.Fprintf(w, "%4d %6d %-19s %6d %-19s %6d\n", p.Ply, p.Wins, ratio(p.WinToDraw+p.WinToLoss, p.Wins), p.Draws, ratio(p.DrawLoss, p.Draws), p.Losses)
	}
	fmt.Fprintf(w, "value for white at ply %d: %s\n", st.From, counts(st.StartValues, "win", "draw", "loss"))
	fmt.Fprintf(w, "results: %s\n", counts(st.Results, "1-0", "1/2-1/2", "0-1"))
	var dec []string
	if n := st.Decided[-1]; n > 0 {
		dec = append(dec, fmt.Sprintf("before ply %d: %d", st.From, n))
	}
	for p := st.From; p < cheversi.MaxPlies; p++ {
		if n := st.Decided[p]; n > 0 {
			dec = append(dec, fmt.Sprintf("%d: %d", p, n))
		}
	}
	fmt.Fprintf(w, "the game's value last changed at ply: %s\n", strings.Join(dec, ", "))
	fmt.Fprintf(w, "solver time %.0f s\n", st.CPUSeconds)
}

// ratio writes k of n as a percentage with its 95% Wilson interval.
func ratio(k, n int) string {
	if n == 0 {
		return "-"
	}
	lo, hi := wilson(k, n)
	return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*float64(k)/float64(n), 100*lo, 100*hi)
}

// wilson returns the 95% Wilson score interval of a proportion k/n.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(c-h, 0), min(c+h, 1)
}

func counts(m map[string]int, keys ...string) string {
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
