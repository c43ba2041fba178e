package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/workers"
)

func init() {
	register(command{
		name:    "solve",
		summary: "solve Cheversi exactly: a position, or the whole game in units",
		run:     runSolve,
	})
}

const solveUsage = `[--rules PRESET] [--set key=value]... [--fen TEXT | --moves "m1 m2 ..."] [flags]
       arena solve proof --dir DIR --out FILE [position flags] [--cut PLY]
       arena solve check [--leaves N | --all] FILE
       arena solve errors [--bot NAME] [--nodes N] [--games N] [--from PLY]

Solves a Cheversi position: its value under best play for the side to move,
a best move (--all: the value of every move), and the exact final score
margin with --margin. --census PLY solves every position PLY plies into
the game instead (distinct up to the symmetries of the board).

With --dir DIR it solves the position (by default the empty board) in work
units, the positions at ply --cut below it, recording each unit in
DIR/results.txt as soon as it is solved: stop it at any time and run the
same command again to go on. --shard I/N --split PLY solves slice I of the
positions at ply PLY instead (for N machines; give them the same DIR or
copy their results files into one DIR, which reads every *.txt in it).
The results files of rules that differ only in the opening switch count
too, for the positions from ply 2 on, which the opening does not touch.
--workers URL hands the units to "arena worker" processes on any number of
machines through NATS instead of solving them here (see configs/README.md).

"arena solve proof" writes the proof of the value from the units in DIR;
"arena solve check" checks a proof and solves some of its leaves again.
"arena solve errors" plays a built-in bot against itself and counts, ply
by ply, the moves that let a win or a draw go.`

// solveFlags are the flags of arena solve.
type solveFlags struct {
	preset, fen, moves string
	sets               settingsFlag
	margin, all, quiet bool
	memory             string
	dir                string
	cut, jobs, split   int
	census             int
	status             bool
	shard              string
	workers            string
	workerTimeout      time.Duration
}

func runSolve(ctx context.Context, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "proof":
			return runSolveProof(ctx, args[1:])
		case "check":
			return runSolveCheck(ctx, args[1:])
		case "errors":
			return runSolveErrors(ctx, args[1:])
		}
	}
	var f solveFlags
	fs := f.flagSet()
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	mem, err := parseSize(f.memory)
	if err != nil {
		return usagef("--memory: %v", err)
	}
	rules, err := cheversi.New(f.preset, f.sets)
	if err != nil {
		return usageError{err}
	}
	root, err := solveRoot(rules, f.fen, f.moves)
	if err != nil {
		return err
	}
	if err := f.check(&root); err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	switch {
	case f.census >= 0:
		return solveCensus(ctx, out, rules, &root, mem, f)
	case f.dir == "":
		return solvePosition(ctx, out, rules, &root, mem, f)
	case f.status:
		return solveStatus(out, rules, &root, f)
	}
	return solveUnits(ctx, out, rules, &root, mem, f)
}

// flagSet returns the flags of arena solve, bound to f.
func (f *solveFlags) flagSet() *flag.FlagSet {
	fs := newFlagSet("solve", solveUsage)
	fs.StringVar(&f.preset, "rules", "", "rules preset: "+strings.Join(cheversi.Presets(), ", ")+" (default cheversi)")
	fs.Var(&f.sets, "set", "rule switch override `key=value` (repeatable)")
	fs.StringVar(&f.fen, "fen", "", "solve this position text instead of the empty board")
	fs.StringVar(&f.moves, "moves", "", "space-separated moves to play first")
	fs.BoolVar(&f.margin, "margin", false, "also compute the exact final score margin under best play (costs more)")
	fs.BoolVar(&f.all, "all", false, "give the value of every legal move")
	fs.StringVar(&f.memory, "memory", defaultTableSize, "transposition table `size` (e.g. 64MiB, 1GiB; larger is slower unless the positions need it)")
	fs.StringVar(&f.dir, "dir", "", "solve in work units recorded in `DIR` (resumable)")
	fs.IntVar(&f.cut, "cut", 6, "with --dir: the ply of the work units")
	fs.IntVar(&f.jobs, "jobs", 1, "with --dir: units solved at once")
	fs.StringVar(&f.shard, "shard", "", "with --dir: solve only slice `I/N` of the positions at ply --split")
	fs.IntVar(&f.split, "split", 2, "with --shard: the ply whose positions are dealt to the slices")
	fs.BoolVar(&f.quiet, "quiet", false, "with --dir: print only the result")
	fs.IntVar(&f.census, "census", -1, "solve every position `PLY` plies into the game")
	fs.BoolVar(&f.status, "status", false, "with --dir: print what is solved so far, and solve nothing")
	fs.StringVar(&f.workers, "workers", "", "with --dir: hand the units to arena worker processes through NATS at `URL` (nats://HOST:PORT, or listen://HOST:PORT to start a server here)")
	fs.DurationVar(&f.workerTimeout, "worker-timeout", workers.DefaultAckWait, "with --workers: how long a worker may go silent before its units go to another")
	return fs
}

// check refuses flags that do not go together, or plies out of range for
// a solve of root.
func (f *solveFlags) check(root *cheversi.Position) error {
	plyRange := func(flag string, ply int) error {
		if ply < root.Ply() || ply > cheversi.MaxPlies {
			return usagef("%s %d: want a ply from %d (the position's) to %d", flag, ply, root.Ply(), cheversi.MaxPlies)
		}
		return nil
	}
	if err := f.checkWorkers(); err != nil {
		return err
	}
	switch {
	case f.census >= 0 && (f.shard != "" || f.margin || f.all):
		return usagef("--census solves whole positions: leave out --shard, --margin and --all")
	case f.census >= 0:
		return plyRange("--census", f.census)
	case f.dir == "" && f.shard != "":
		return usagef("--shard needs --dir")
	case f.dir == "":
		return nil
	case f.margin || f.all:
		return usagef("--margin and --all solve one position; leave out --dir")
	case f.jobs < 1:
		return usagef("--jobs %d: want at least 1", f.jobs)
	}
	return plyRange("--cut", f.cut)
}

// checkWorkers refuses the flags --workers does not go with.
func (f *solveFlags) checkWorkers() error {
	if f.workers == "" {
		return nil
	}
	if _, _, err := workers.ParseURL(f.workers); err != nil {
		return usagef("--workers: %v", err)
	}
	switch {
	case f.dir == "" || f.status || f.census >= 0:
		return usagef("--workers hands out work units: give --dir, and leave out --status and --census")
	case f.shard != "":
		return usagef("--workers hands out every unit: leave out --shard")
	case f.jobs != 1:
		return usagef("--jobs: with --workers, each worker's --concurrency says how many units it solves at once")
	case f.workerTimeout < time.Second:
		return usagef("--worker-timeout %v: must be at least 1s", f.workerTimeout)
	}
	return nil
}

// defaultTableSize is the --memory default of every command that solves:
// the solver's own default table.
var defaultTableSize = strconv.FormatInt(solve.DefaultTableBytes>>20, 10) + "MiB"

// parseSize decodes a size in bytes with an optional unit: KiB, MiB, GiB
// (or K, M, G, KB, MB, GB, all powers of 1024).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix []string
		mult   int64
	}{{[]string{"GiB", "GB", "G"}, 1 << 30}, {[]string{"MiB", "MB", "M"}, 1 << 20}, {[]string{"KiB", "KB", "K"}, 1 << 10}} {
		for _, suf := range u.suffix {
			if strings.HasSuffix(t, suf) {
				t, mult = strings.TrimSpace(strings.TrimSuffix(t, suf)), u.mult
				goto number
			}
		}
	}
number:
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("bad size %q (want a positive number with KiB, MiB or GiB, e.g. 512MiB)", s)
	}
	return n * mult, nil
}

// solveRoot returns the position named by --fen and --moves.
func solveRoot(rules *cheversi.Rules, fen, moves string) (cheversi.Position, error) {
	p := rules.StartPosition()
	if fen != "" {
		var err error
		if p, err = rules.ParsePosition(fen); err != nil {
			return p, usagef("--fen: %v", err)
		}
	}
	for i, text := range strings.Fields(moves) {
		m, err := p.ParseMove(text)
		if err != nil {
			return p, usagef("--moves: move %d %q: %v", i+1, text, err)
		}
		p.Play(m)
	}
	return p, nil
}

// sideName names the side to move and its opponent in a verdict.
func verdict(p *cheversi.Position, v solve.Value) string {
	mover := p.Turn()
	switch v {
	case solve.Win:
		return mover.String() + " wins"
	case solve.Loss:
		return mover.Other().String() + " wins"
	}
	return "draw"
}

// shownText says what bounds b on p's value for the side to move show: who
// wins, a draw, or a bound.
func shownText(p *cheversi.Position, b solve.Bounds) string {
	if b.Exact() {
		return verdict(p, b.Lo)
	}
	return boundsText(b.Lo, b.Hi, p.Turn())
}

func solvePosition(ctx context.Context, out io.Writer, rules *cheversi.Rules, p *cheversi.Position, mem int64, f solveFlags) error {
	fmt.Fprintf(out, "position  %s (%s)\n", p.Text(), rulesName(rules, f.sets))
	if !f.margin && !f.all && fromBook(out, p) {
		return nil
	}
	if p.Ply() < slowPly && !p.Over() {
		fmt.Fprintf(os.Stderr, "arena solve: a search from ply %d can take hours in one process; arena solve --dir DIR solves it in work units that survive a stop (see docs/solved.md)\n", p.Ply())
		if o, ok := out.(*bufio.Writer); ok {
			o.Flush()
		}
	}
	s := solve.NewSolver(solve.SolverOptions{TableBytes: mem})
	start := time.Now()
	r, err := s.Solve(ctx, p)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "value     %s (%s for %s, to move)\n", verdict(p, r.Value), r.Value, p.Turn())
	switch {
	case r.Move == 0 || f.margin:
	case r.Value == solve.Loss:
		fmt.Fprintf(out, "best move none: every move loses (--margin gives the one that loses by least)\n")
	default:
		fmt.Fprintf(out, "best move %s\n", r.Move)
	}
	if f.margin {
		if err := printMargin(ctx, out, s, p); err != nil {
			return err
		}
	}
	if f.all && r.Move != 0 {
		vals, err := s.Values(ctx, p)
		if err != nil {
			return err
		}
		var buf [cheversi.NumPieces * cheversi.NumSquares]cheversi.Move
		for _, v := range []solve.Value{solve.Win, solve.Draw, solve.Loss} {
			var ms []string
			for _, m := range p.GenerateMoves(buf[:0]) {
				if vals[m] == v {
					ms = append(ms, m.String())
				}
			}
			if len(ms) > 0 {
				label := map[solve.Value]string{solve.Win: "wins", solve.Draw: "draws", solve.Loss: "losses"}[v]
				fmt.Fprintf(out, "%-9s %s\n", label, wrapWords(strings.Join(ms, " "), 70, "          "))
			}
		}
	}
	n, el := s.TotalPositions(), time.Since(start)
	fmt.Fprintf(out, "searched  %d positions in %s (%.2g positions/s)\n", n, el.Round(time.Millisecond), float64(n)/max(el.Seconds(), 1e-9))
	return nil
}

// printMargin prints the exact margin of p and a move that reaches it.
func printMargin(ctx context.Context, out io.Writer, s *solve.Solver, p *cheversi.Position) error {
	m, mv, err := s.MarginMove(ctx, p)
	if err != nil {
		return err
	}
	if mv != 0 {
		fmt.Fprintf(out, "best move %s (for the largest margin)\n", mv)
	}
	switch {
	case m <= solve.NoMoves:
		fmt.Fprintf(out, "margin    %s loses with no legal move\n", p.Turn())
	case m >= -solve.NoMoves:
		fmt.Fprintf(out, "margin    %s wins: its opponent is left with no legal move\n", p.Turn())
	default:
		fmt.Fprintf(out, "margin    %+d for %s (its final score minus its opponent's)\n", m, p.Turn())
	}
	return nil
}

// slowPly is the ply before which one search of a position takes more
// than minutes under the cheapest rules (a unit at ply 6 takes 0.13 s at
// the median, a position at ply 4 some minutes, ×5 a ply).
const slowPly = 4

// fromBook prints the value of p from the proofs shipped with the solver,
// and reports whether they hold it.
func fromBook(out io.Writer, p *cheversi.Position) bool {
	b, err := solve.ShippedBook(p.Options())
	if err != nil {
		return false
	}
	bd, m := b.Bounds(p)
	if !bd.Exact() {
		if bd.Lo > solve.Loss || bd.Hi < solve.Win {
			with := ""
			if bd.Lo > solve.Loss && m != 0 {
				with = " with " + m.String()
			}
			fmt.Fprintf(out, "proved    %s%s, by the proofs shipped with the solver; searching for the value\n", shownText(p, bd), with)
		}
		return false
	}
	v := bd.Lo
	fmt.Fprintf(out, "value     %s (%s for %s, to move)\n", verdict(p, v), v, p.Turn())
	switch {
	case m != 0:
		fmt.Fprintf(out, "best move %s\n", m)
	case v == solve.Loss:
		fmt.Fprintf(out, "best move none: every move loses\n")
	}
	fmt.Fprintf(out, "proved by the proofs shipped with the solver (docs/solved.md); --all or --margin search instead\n")
	return true
}

// wrapWords breaks text into lines of at most width columns, the lines
// after the first starting with indent.
func wrapWords(text string, width int, indent string) string {
	var sb strings.Builder
	col := 0
	for i, w := range strings.Fields(text) {
		if i > 0 && col+1+len(w) > width {
			sb.WriteString("\n" + indent)
			col = 0
		} else if i > 0 {
			sb.WriteByte(' ')
			col++
		}
		sb.WriteString(w)
		col += len(w)
	}
	return sb.String()
}

func solveUnits(ctx context.Context, out *bufio.Writer, rules *cheversi.Rules, root *cheversi.Position, mem int64, f solveFlags) error {
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return err
	}
	name := "results.txt"
	var roots []cheversi.Position
	if f.shard != "" {
		sh, err := schedule.ParseShard(f.shard)
		if err != nil {
			return usagef("--shard: %v", err)
		}
		if f.split < root.Ply() || f.split > f.cut {
			return usagef("--split %d: want a ply from %d (the position's) to --cut %d", f.split, root.Ply(), f.cut)
		}
		name = fmt.Sprintf("results-%d-of-%d.txt", sh.Index, sh.Count)
		all := solve.PositionsAt(root, f.split)
		for i, p := range all {
			if i%sh.Count == sh.Index {
				roots = append(roots, p)
			}
		}
	} else {
		roots = []cheversi.Position{*root}
	}
	res, err := openResultsDir(f.dir, name, rules)
	if err != nil {
		return err
	}
	defer res.Close()
	start := time.Now()
	units := 0
	var cpu float64
	var positions uint64
	d := &solve.Driver{
		Results: res, Cut: f.cut, Jobs: f.jobs, Table: solve.NewTable(mem),
		Progress: func(e solve.Entry, frontier int) {
			units++
			cpu += e.Seconds
			positions += e.Positions
			if !f.quiet {
				fmt.Fprintf(out, "%s  %s  %s  %.3gM positions  %.1fs  (%d units, %.2fh CPU; %d waiting)\n",
					time.Now().Format("15:04:05"), e.Position.Text(), e.Value, float64(e.Positions)/1e6, e.Seconds,
					units, cpu/3600, frontier)
				out.Flush()
			}
		},
	}
	var pool *workers.SolvePool
	if f.workers != "" {
		if pool, err = startSolvePool(ctx, rules, f); err != nil {
			return err
		}
		d.Pool = pool
	}
	err = runUnits(ctx, out, d, roots, f, &units)
	if pool != nil {
		// Once the value is known the solve is removed from NATS; a solve
		// stopped before leaves its units with the workers.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if cerr := pool.Close(cctx, err == nil); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d units solved in this run: %d positions, %.2f h CPU, %s\n", units, positions, cpu/3600, time.Since(start).Round(time.Second))
	return nil
}

// runUnits solves each of roots in units with d, and prints its value.
func runUnits(ctx context.Context, out *bufio.Writer, d *solve.Driver, roots []cheversi.Position, f solveFlags, units *int) error {
	for i := range roots {
		v, err := d.Run(ctx, &roots[i])
		if err != nil {
			if errors.Is(err, context.Canceled) {
				fmt.Fprintf(out, "stopped: %d units solved in this run are in %s; run the same command to go on\n", *units, f.dir)
			}
			return err
		}
		if err := d.Results.Add(solve.Entry{Key: solve.CanonicalKey(&roots[i]), Position: roots[i], Value: v}); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %s (%s for %s, to move)\n", roots[i].Text(), verdict(&roots[i], v), v, roots[i].Turn())
	}
	return nil
}

// startSolvePool declares the solve of f.dir to the workers at f.workers.
func startSolvePool(ctx context.Context, rules *cheversi.Rules, f solveFlags) (*workers.SolvePool, error) {
	pool, err := workers.StartSolve(ctx, workers.SolveOptions{
		URL: f.workers, Dir: f.dir, Rules: rules, Name: "solve of " + rulesName(rules, f.sets), AckWait: f.workerTimeout,
		ServerLog: natsWarnings(os.Stderr), Log: serverLog(os.Stderr, ""),
	})
	if errors.Is(err, workers.ErrURL) {
		return nil, usagef("--workers: %v", err)
	}
	return pool, err
}

// openResultsDir opens DIR/name for appending, after reading every other
// results file in dir (those of other slices, or earlier runs).
func openResultsDir(dir, name string, rules *cheversi.Rules) (*solve.Results, error) {
	res, err := solve.OpenResults(filepath.Join(dir, name), rules)
	if err != nil {
		return nil, err
	}
	others, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	for _, o := range others {
		if filepath.Base(o) == name {
			continue
		}
		if err := res.Merge(o); err != nil {
			res.Close()
			return nil, err
		}
	}
	return res, nil
}

// solveCensus solves every position f.census plies into the game below
// root and prints each with its value, then the count of each value.
func solveCensus(ctx context.Context, out *bufio.Writer, rules *cheversi.Rules, root *cheversi.Position, mem int64, f solveFlags) error {
	ps := solve.PositionsAt(root, f.census)
	var res *solve.Results
	table := solve.NewTable(mem)
	if f.dir != "" {
		if err := os.MkdirAll(f.dir, 0o755); err != nil {
			return err
		}
		var err error
		if res, err = openResultsDir(f.dir, "results.txt", rules); err != nil {
			return err
		}
		defer res.Close()
	}
	fmt.Fprintf(out, "%d positions at ply %d (distinct up to symmetry)\n", len(ps), f.census)
	counts := map[string]int{}
	for i := range ps {
		p := &ps[i]
		var v solve.Value
		var best cheversi.Move
		if res != nil {
			cut := max(f.cut, p.Ply())
			d := &solve.Driver{Results: res, Cut: cut, Jobs: f.jobs, Table: table}
			var err error
			if v, err = d.Run(ctx, p); err != nil {
				return err
			}
			if err := res.Add(solve.Entry{Key: solve.CanonicalKey(p), Position: *p, Value: v}); err != nil {
				return err
			}
		} else {
			s := solve.NewSolver(solve.SolverOptions{Table: table})
			r, err := s.Solve(ctx, p)
			if err != nil {
				return err
			}
			v, best = r.Value, r.Move
		}
		counts[verdict(p, v)]++
		line := fmt.Sprintf("%s  %s", p.Text(), verdict(p, v))
		if best != 0 {
			line += "  " + best.String()
		}
		fmt.Fprintln(out, line)
		out.Flush()
	}
	fmt.Fprintf(out, "white wins %d, draws %d, black wins %d\n", counts["white wins"], counts["draw"], counts["black wins"])
	return nil
}

func runSolveProof(ctx context.Context, args []string) error {
	fs := newFlagSet("solve proof", "--dir DIR --out FILE [--rules PRESET] [--set key=value]... [--fen TEXT | --moves \"m1 m2 ...\"] [--cut PLY]")
	var f solveFlags
	fs.StringVar(&f.preset, "rules", "", "rules preset (default cheversi)")
	fs.Var(&f.sets, "set", "rule switch override `key=value` (repeatable)")
	fs.StringVar(&f.fen, "fen", "", "the position solved, if not the empty board")
	fs.StringVar(&f.moves, "moves", "", "space-separated moves to play first")
	fs.StringVar(&f.dir, "dir", "", "the directory of the solve's results")
	fs.IntVar(&f.cut, "cut", 6, "the ply of the proof's leaves (the solve's work units)")
	outPath := fs.String("out", "", "write the proof to `FILE`")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if f.dir == "" || *outPath == "" {
		return usagef("--dir and --out are required")
	}
	rules, err := cheversi.New(f.preset, f.sets)
	if err != nil {
		return usageError{err}
	}
	root, err := solveRoot(rules, f.fen, f.moves)
	if err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(f.dir, "*.txt"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no results files (*.txt) in %s", f.dir)
	}
	res, err := solve.ReadResults(rules, files...)
	if err != nil {
		return err
	}
	tmp := *outPath + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	v, leaves, err := solve.WriteProof(w, rules, &root, f.cut, res)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, *outPath); err != nil {
		return err
	}
	fmt.Printf("%s: %s, proved down to ply %d: %d leaves, in %s\n", root.Text(), shownText(&root, v), f.cut, leaves, *outPath)
	return nil
}

func runSolveCheck(ctx context.Context, args []string) error {
	fs := newFlagSet("solve check", "[--leaves N | --all] [--memory SIZE] FILE")
	n := fs.Int("leaves", 3, "solve this many leaves, drawn at random, again")
	all := fs.Bool("all", false, "solve every leaf again")
	seed := fs.Uint64("seed", 1, "the random draw of leaves")
	memory := fs.String("memory", defaultTableSize, "transposition table `size`")
	path, err := parseInterspersed(fs, args, "proof file")
	if err != nil {
		return err
	}
	mem, err := parseSize(*memory)
	if err != nil {
		return usagef("--memory: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	pr, err := solve.ReadProof(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Printf("%s: the tree holds (%d records): %s from %s if its %d leaves at ply %d are right\n",
		path, pr.Nodes, shownText(&pr.Root, pr.Shown), pr.Root.Text(), len(pr.Leaves), pr.Cut)
	k := *n
	if *all {
		k = 0
	}
	start := time.Now()
	err = pr.CheckLeaves(ctx, k, *seed, mem, func(done, total int, e solve.Entry) {
		fmt.Printf("leaf %d/%d  %s  %s  right\n", done, total, e.Position.Text(), e.Value)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Printf("checked in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// solveStatus prints what the results in f.dir tell of root and its moves.
func solveStatus(out io.Writer, rules *cheversi.Rules, root *cheversi.Position, f solveFlags) error {
	files, err := filepath.Glob(filepath.Join(f.dir, "*.txt"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no results files (*.txt) in %s: nothing solved there yet", f.dir)
	}
	res, err := solve.ReadResults(rules, files...)
	if err != nil {
		return err
	}
	var units, shared int
	var cpu float64
	var positions uint64
	for _, e := range res.Entries() {
		switch {
		case e.Shared:
			shared++
		case e.Positions > 0:
			units++
			cpu += e.Seconds
			positions += e.Positions
		}
	}
	st := solve.StatusOf(res, root, f.cut)
	fmt.Fprintf(out, "%s: %d units solved (%d positions, %.2f h CPU)\n", root.Text(), units, positions, cpu/3600)
	if shared > 0 {
		fmt.Fprintf(out, "and %d positions solved under rules that differ only in the opening (results files of those rules in %s)\n", shared, f.dir)
	}
	if st.Known {
		fmt.Fprintf(out, "value: %s (%s for %s, to move)\n", verdict(root, st.Value), st.Value, root.Turn())
	} else {
		fmt.Fprintf(out, "value: %s; %d units needed next\n", boundsText(st.Lo, st.Hi, root.Turn()), st.Frontier)
	}
	for _, m := range st.Moves {
		v := boundsText(m.Lo, m.Hi, root.Turn())
		if m.Known {
			v = m.Value.String() + " for " + root.Turn().String()
		}
		fmt.Fprintf(out, "  %-6s %s\n", m.Move, v)
	}
	return nil
}

// boundsText says what bounds lo <= value <= hi tell of a value not known
// yet, for the player side.
func boundsText(lo, hi solve.Value, side game.Color) string {
	switch {
	case lo > solve.Loss:
		return fmt.Sprintf("at least a %s for %s (a win not known yet)", lo, side)
	case hi < solve.Win:
		return fmt.Sprintf("at most a %s for %s (not a win; whether a draw, not known yet)", hi, side)
	}
	return "not known yet"
}

// rulesName names a rule set as the command line gave it: the preset and
// the switches changed.
func rulesName(rules *cheversi.Rules, sets settingsFlag) string {
	name := rules.Preset()
	for _, kv := range sets {
		name += ", " + kv.Key + " " + kv.Value
	}
	return name
}
