package conformance

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/sandbox"
	"github.com/arena-games/arena/protocol"
)

// Config says which bot to check and how hard to press it.
type Config struct {
	// Command, Args, Dir and Env start the bot, as in engine.Spec.
	Command string
	Args    []string
	Dir     string
	Env     []string
	// StderrPath is the file the bot's standard error is appended to;
	// "" discards it.
	StderrPath string
	// Transcript adds every protocol line of every check to StderrPath,
	// stamped with the time and the process id (see engine.Spec).
	Transcript bool
	// Policy runs every process of the bot under these limits and
	// sandbox (see engine.Spec).
	Policy sandbox.Policy

	// MoveTime is the bot's time per move in the check games
	// (DefaultMoveTime when 0); games on a clock give it twenty times as
	// much for the whole game.
	MoveTime time.Duration
	// Margin is the latency allowed beyond every time limit
	// (DefaultMargin when 0).
	Margin time.Duration
	// HandshakeTimeout bounds each start and each readyok
	// (engine.DefaultHandshakeTimeout when 0).
	HandshakeTimeout time.Duration
	// QuitGrace is how long the bot has to exit after quit
	// (DefaultQuitGrace when 0).
	QuitGrace time.Duration
	// MaxPlies ends each checkers check game after that many plies
	// (DefaultMaxPlies when 0). Cheversi games are always played out.
	MaxPlies int
	// Seed seeds the arena's own moves and the positions it asks about.
	Seed uint64
}

// reasonUnfinished is the gameover reason of a check game the arena stops
// before its end.
const reasonUnfinished = "unfinished"

// Defaults for the zero values of Config.
const (
	DefaultMoveTime  = 200 * time.Millisecond
	DefaultMargin    = 500 * time.Millisecond
	DefaultQuitGrace = 2 * time.Second
	DefaultMaxPlies  = 40
)

// The search limits the checks send to bots that declare they obey them.
// The move time that comes with them is limitTimeFactor move times, so
// that the limit, not the clock, ends the search.
const (
	checkNodes      = 2000
	checkDepth      = 3
	limitTimeFactor = 20
)

// Status is the outcome of one check.
type Status int

// The statuses. A skipped check did not apply to the bot (it declares no
// options, say) or could not run because an earlier one failed.
const (
	Pass Status = iota
	Fail
	Skip
)

// String returns "PASS", "FAIL" or "SKIP".
func (s Status) String() string {
	switch s {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	case Skip:
		return "SKIP"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of one check: what was seen when it passed, why
// it failed or why it was skipped.
type Result struct {
	Name    string
	Status  Status
	Detail  string
	Elapsed time.Duration
}

// String returns the result on one line, such as
// "PASS ping: pong p1 in 0.2ms".
func (r Result) String() string {
	return fmt.Sprintf("%s %s: %s", r.Status, r.Name, r.Detail)
}

// Report is what Run found.
type Report struct {
	// ID is what the bot said in its first handshake.
	ID      protocol.ID
	Results []Result
}

// Passed reports whether no check failed (skipped checks do not count).
func (r *Report) Passed() bool {
	return !slices.ContainsFunc(r.Results, func(x Result) bool { return x.Status == Fail })
}

// Count returns how many checks have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, x := range r.Results {
		if x.Status == s {
			n++
		}
	}
	return n
}

// Result returns the result of the named check.
func (r *Report) Result(name string) (Result, bool) {
	i := slices.IndexFunc(r.Results, func(x Result) bool { return x.Name == name })
	if i < 0 {
		return Result{}, false
	}
	return r.Results[i], true
}

// ErrNoCommand means Config.Command is empty.
var ErrNoCommand = errors.New("no bot command")

// Run checks the bot cfg describes and returns the results, calling
// progress (if not nil) with each one as soon as it is known. The bot's
// failures are results, not errors: Run returns an error only for an
// unusable Config or when ctx is done (with the results so far).
func Run(ctx context.Context, cfg Config, progress func(Result)) (*Report, error) {
	if cfg.Command == "" {
		return nil, ErrNoCommand
	}
	c := &checker{cfg: cfg, progress: progress, rep: &Report{}, rng: rand.New(rand.NewPCG(cfg.Seed, 0xc0ffee))}
	c.defaults()
	defer c.closeEngine()
	err := c.run(ctx)
	return c.rep, err
}

// checker is the state of one Run.
type checker struct {
	cfg      Config
	progress func(Result)
	rep      *Report
	rng      *rand.Rand
	eng      *engine.Engine // the bot process the checks share; nil after a failure
	starts   int            // processes started, for their names

	legalSent, legalAnswered int      // move requests that carried a legal-move list
	fenSent, fenAnswered     int      // move requests that carried the position text
	nonCanonical             []string // moves accepted in a non-canonical form
	info                     infoStats
	ignored                  int64 // lines the arena ignored, from the processes closed so far
}

// infoStats sums up the info lines that came with the bot's moves.
type infoStats struct {
	moves, withInfo int      // moves answered; those with an info line
	fields          [5]int   // moves whose last info had depth, score, nodes, time, pv
	pvOff           []string // moves whose pv did not start with the move played (a few)
}

// add counts the last info line of a move that played mv.
func (s *infoStats) add(info *protocol.Info, mv string) {
	s.moves++
	if info == nil {
		return
	}
	s.withInfo++
	for i, has := range [5]bool{info.Depth > 0, info.HasScore, info.Nodes > 0, info.Time > 0, len(info.PV) > 0} {
		if has {
			s.fields[i]++
		}
	}
	if len(info.PV) > 0 && info.PV[0] != mv && len(s.pvOff) < 3 {
		s.pvOff = append(s.pvOff, fmt.Sprintf("pv %s for move %s", info.PV[0], mv))
	}
}

// fieldCounts says how many moves' last info lines carried each field:
// "the last info line before a move gave a depth for 72 moves, a score for
// 48 and a pv for 72" (the fields no line had left out).
func (s *infoStats) fieldCounts() string {
	what := [5]string{"a depth", "a score", "nodes", "a time", "a pv"}
	var parts []string
	for i, n := range s.fields {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s for %s", what[i], noun(n, "move", "moves")))
		}
	}
	switch len(parts) {
	case 0:
		return "none of them gave a depth, score, nodes, time or pv"
	case 1:
		return "the last info line before a move gave " + parts[0]
	}
	return "the last info line before a move gave " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func (c *checker) defaults() {
	if c.cfg.MoveTime <= 0 {
		c.cfg.MoveTime = DefaultMoveTime
	}
	if c.cfg.Margin <= 0 {
		c.cfg.Margin = DefaultMargin
	}
	if c.cfg.HandshakeTimeout <= 0 {
		c.cfg.HandshakeTimeout = engine.DefaultHandshakeTimeout
	}
	if c.cfg.QuitGrace <= 0 {
		c.cfg.QuitGrace = DefaultQuitGrace
	}
	if c.cfg.MaxPlies <= 0 {
		c.cfg.MaxPlies = DefaultMaxPlies
	}
}

// record adds a result and reports it.
func (c *checker) record(r Result) {
	c.rep.Results = append(c.rep.Results, r)
	if c.progress != nil {
		c.progress(r)
	}
}

func (c *checker) pass(name string, began time.Time, format string, args ...any) {
	c.record(Result{Name: name, Status: Pass, Detail: fmt.Sprintf(format, args...), Elapsed: time.Since(began)})
}

func (c *checker) fail(name string, began time.Time, format string, args ...any) {
	c.record(Result{Name: name, Status: Fail, Detail: fmt.Sprintf(format, args...), Elapsed: time.Since(began)})
}

func (c *checker) skip(name, format string, args ...any) {
	c.record(Result{Name: name, Status: Skip, Detail: fmt.Sprintf(format, args...)})
}

// spec returns the engine.Spec of a new bot process.
func (c *checker) spec(options map[string]string) engine.Spec {
	c.starts++
	name := fmt.Sprintf("bot#%d", c.starts)
	return engine.Spec{
		Name:             name,
		Command:          c.cfg.Command,
		Args:             c.cfg.Args,
		Dir:              c.cfg.Dir,
		Env:              c.cfg.Env,
		Options:          options,
		StderrPath:       c.cfg.StderrPath,
		Transcript:       c.cfg.Transcript,
		HandshakeTimeout: c.cfg.HandshakeTimeout,
		QuitGrace:        c.cfg.QuitGrace,
		Policy:           c.cfg.Policy,
	}
}

// engine returns the shared bot process, starting a fresh one when the
// last one failed.
func (c *checker) engine(ctx context.Context) (*engine.Engine, error) {
	if c.eng != nil {
		return c.eng, nil
	}
	e, err := engine.Start(ctx, c.spec(nil))
	if err != nil {
		return nil, err
	}
	c.eng = e
	return e, nil
}

// broke closes the shared process after err, unless err left it usable.
func (c *checker) broke(err error) {
	var ee *engine.Error
	if errors.As(err, &ee) && (ee.Kind == engine.KindInvalid || ee.Kind == engine.KindUnsupported) {
		return
	}
	c.closeEngine()
}

func (c *checker) closeEngine() {
	if c.eng != nil {
		c.close(c.eng)
		c.eng = nil
	}
}

// close stops a bot process, counting the lines the arena ignored.
func (c *checker) close(e *engine.Engine) {
	c.ignored += e.UnknownLines()
	_ = e.Close()
}

// canceled reports whether err comes from ctx being done.
func canceled(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		isKind(err, engine.KindCanceled))
}

func isKind(err error, k engine.Kind) bool {
	var ee *engine.Error
	return errors.As(err, &ee) && ee.Kind == k
}

// describe turns an engine error into a reason for a failed check.
func describe(err error) string {
	var ee *engine.Error
	switch {
	case !errors.As(err, &ee):
		return err.Error()
	case ee.Op == ee.Kind.String():
		return fmt.Sprintf("%s: %v", ee.Kind, ee.Err)
	}
	return fmt.Sprintf("%s during %s: %v", ee.Kind, ee.Op, ee.Err)
}

func (c *checker) run(ctx context.Context) error {
	if !c.handshake(ctx) {
		return ctx.Err()
	}
	known := c.games()
	steps := []func(context.Context){c.ping}
	if len(known) > 0 {
		steps = append(steps, func(ctx context.Context) { c.isReady(ctx, known[0]) })
	}
	for _, name := range known {
		rules, err := games.New(name, "", nil)
		if err != nil {
			return fmt.Errorf("conformance: %w", err)
		}
		steps = append(steps,
			func(ctx context.Context) { c.playGame(ctx, rules, rules.FirstMover(), false) },
			func(ctx context.Context) { c.playGame(ctx, rules, rules.FirstMover().Other(), true) },
			func(ctx context.Context) { c.positionText(ctx, rules) },
			func(ctx context.Context) { c.singleMove(ctx, rules) },
			func(ctx context.Context) { c.restart(ctx, rules) },
			func(ctx context.Context) { c.searchLimit(ctx, rules, protocol.FeatureNodes) },
			func(ctx context.Context) { c.searchLimit(ctx, rules, protocol.FeatureDepth) })
	}
	if len(known) > 0 {
		steps = append(steps, c.legalMoves, c.fen, c.infoLines, func(ctx context.Context) { c.setOption(ctx, known[0]) })
	}
	steps = append(steps, c.quit)
	for _, step := range steps {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		step(ctx)
	}
	return ctx.Err()
}

// handshake starts the bot; it reports whether the other checks can run.
func (c *checker) handshake(ctx context.Context) bool {
	const name = "handshake"
	began := time.Now()
	e, err := c.engine(ctx)
	if err != nil {
		if canceled(ctx, err) {
			return false
		}
		c.fail(name, began, "%s", describe(err))
		c.skip("other checks", "they need a bot that completes the handshake")
		return false
	}
	id := e.ID()
	c.rep.ID = id
	opts := "no options"
	if len(id.Options) > 0 {
		names := make([]string, len(id.Options))
		for i, o := range id.Options {
			names[i] = o.Name
		}
		opts = "options " + strings.Join(names, ", ")
	}
	requests := "requests nothing"
	if r := id.Requests(); len(r) > 0 {
		requests = "requests " + strings.Join(r, ", ")
	}
	c.pass(name, began, "name %q, author %q; games %s; %s; %s; readyok in %v",
		id.Name, id.Author, strings.Join(id.Games, " "), opts, requests, time.Since(began).Round(time.Millisecond))
	return true
}

// games checks the claimed games and returns the known ones.
func (c *checker) games() []string {
	const name = "games"
	began := time.Now()
	var known, unknown []string
	for _, g := range c.rep.ID.Games {
		if slices.Contains(games.Names(), g) {
			known = append(known, g)
		} else {
			unknown = append(unknown, g)
		}
	}
	switch {
	case len(known) == 0:
		c.fail(name, began, "claims no game the arena knows (claims %s; the arena plays %s)",
			strings.Join(unknown, ", "), strings.Join(games.Names(), ", "))
	case len(unknown) > 0:
		c.pass(name, began, "plays %s (also claims %s, which the arena does not know and never offers)",
			strings.Join(known, ", "), strings.Join(unknown, ", "))
	default:
		c.pass(name, began, "plays %s", strings.Join(known, ", "))
	}
	return known
}

func (c *checker) ping(ctx context.Context) {
	const name = "ping"
	began := time.Now()
	e, err := c.engine(ctx)
	if err == nil {
		err = e.Ping(ctx, c.cfg.HandshakeTimeout)
	}
	if err != nil {
		if !canceled(ctx, err) {
			c.fail(name, began, "%s", describe(err))
		}
		c.broke(err)
		return
	}
	c.pass(name, began, "answered with the same token in %v", time.Since(began).Round(10*time.Microsecond))
}

// isReady sends two newgames in a row, each followed by isready.
func (c *checker) isReady(ctx context.Context, gameName string) {
	const name = "isready"
	began := time.Now()
	rules, err := games.New(gameName, "", nil)
	if err != nil {
		c.fail(name, began, "%v", err)
		return
	}
	e, err := c.engine(ctx)
	for i := 0; err == nil && i < 2; i++ {
		err = e.NewGame(ctx, engine.NewGame{Rules: rules, Color: game.Color(i)})
	}
	if err != nil {
		if !canceled(ctx, err) {
			c.fail(name, began, "%s", describe(err))
		}
		c.broke(err)
		return
	}
	c.pass(name, began, "readyok after the handshake and after two newgames in a row")
}

// newClock returns the clock of a check game: a fixed time per move, or a
// clock of twenty move times with half a move time of increment.
func (c *checker) newClock(fixed bool) *engine.Clock {
	tc := engine.TimeControl{Move: c.cfg.MoveTime, Margin: c.cfg.Margin}
	if !fixed {
		tc = engine.TimeControl{Base: 20 * c.cfg.MoveTime, Increment: c.cfg.MoveTime / 2, Margin: c.cfg.Margin}
	}
	return engine.NewClock(tc, tc)
}

// askMove asks e for a move in the position start+moves (st is that
// position, the bot's turn) and referees the answer. It returns the move
// played on st, or an error that says what was wrong.
func (c *checker) askMove(ctx context.Context, e *engine.Engine, st game.State, startText string,
	moves []string, k *engine.Clock) (game.Move, error) {
	m, _, err := c.askLimited(ctx, e, st, startText, moves, k, 0, 0)
	return m, err
}

// askLimited is askMove with search limits, and also returns the last
// info line the bot wrote with its move.
func (c *checker) askLimited(ctx context.Context, e *engine.Engine, st game.State, startText string,
	moves []string, k *engine.Clock, nodes int64, depth int) (game.Move, *protocol.Info, error) {
	side := st.Turn()
	pc, _ := k.Request(side)
	req := engine.MoveRequest{StartText: startText, Moves: moves, Clock: pc, Nodes: nodes, Depth: depth,
		Deadline: k.Deadline(side, time.Now())}
	var legal []string
	if e.WantsLegalMoves() {
		for _, m := range st.LegalMoves(nil) {
			legal = append(legal, m.String())
		}
		c.rng.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		req.Legal = legal
		c.legalSent++
	}
	if e.WantsFEN() {
		req.FEN = st.Text()
		c.fenSent++
	}
	reply, err := e.Move(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if err := k.Charge(side, reply.Elapsed); err != nil {
		return nil, nil, err
	}
	m, err := game.PlayText(st, reply.Move)
	if err != nil {
		return nil, nil, fmt.Errorf("move %q (%s to move in %s): %w", reply.Move, side, st.Text(), err)
	}
	if legal != nil {
		c.legalAnswered++
	}
	if req.FEN != "" {
		c.fenAnswered++
	}
	info := reply.Info
	c.info.add(info, m.String())
	if s := m.String(); s != reply.Move && len(c.nonCanonical) < 3 {
		c.nonCanonical = append(c.nonCanonical, fmt.Sprintf("%q for %q", reply.Move, s))
	}
	return m, info, nil
}

// gameFailed reports a failed game check on e: the engine error or the
// illegal move, at which ply. When e is the shared process, it is closed
// unless err left it usable; a check's own process is the check's to close.
func (c *checker) gameFailed(ctx context.Context, e *engine.Engine, name string, began time.Time, ply int, err error) {
	if !canceled(ctx, err) {
		c.fail(name, began, "ply %d: %s", ply+1, describe(err))
	}
	if e == c.eng {
		c.broke(err)
	}
}

// playGame plays one check game with the bot as color against the arena's
// random moves. secondGame names it as the newgame that follows a
// gameover on the same process; it uses the clock, the first the fixed
// move time.
func (c *checker) playGame(ctx context.Context, rules game.Rules, color game.Color, secondGame bool) {
	name := fmt.Sprintf("%s: game as %s, go movetime", rules.Game(), color)
	if secondGame {
		name = fmt.Sprintf("%s: newgame after gameover, as %s, go wtime btime", rules.Game(), color)
	}
	began := time.Now()
	fresh := c.eng == nil
	e, err := c.engine(ctx)
	if err == nil {
		err = e.NewGame(ctx, engine.NewGame{Rules: rules, Color: color})
	}
	if err != nil {
		c.gameFailed(ctx, e, name, began, 0, err)
		return
	}
	st := rules.Start()
	k := c.newClock(!secondGame)
	var moves []string
	botMoves := 0
	_, short := gameLength(rules)
	for !st.Outcome().Over() && (short || st.Ply() < c.cfg.MaxPlies) {
		var m game.Move
		if st.Turn() == color {
			m, err = c.askMove(ctx, e, st, "", moves, k)
			if err != nil {
				c.gameFailed(ctx, e, name, began, st.Ply(), err)
				return
			}
			botMoves++
		} else if m, err = c.randomMove(st); err != nil {
			c.fail(name, began, "the arena's own move: %v", err)
			return
		}
		moves = append(moves, m.String())
	}
	out := st.Outcome()
	result, reason := out.Result, out.Reason
	if !out.Over() {
		result, reason = game.Ongoing, reasonUnfinished
	}
	if err := e.GameOver(ctx, result, reason); err != nil {
		c.gameFailed(ctx, e, name, began, st.Ply(), err)
		return
	}
	note := ""
	if secondGame && fresh {
		note = " (on a fresh process: the previous check stopped the bot)"
	}
	c.pass(name, began, "%s, %s by the bot, all legal; gameover result %s reason %s%s",
		noun(st.Ply(), "ply", "plies"), noun(botMoves, "move", "moves"), result, reason, note)
}

// randomMove plays a random legal move on st, which must not be over.
func (c *checker) randomMove(st game.State) (game.Move, error) {
	legal := st.LegalMoves(nil)
	if len(legal) == 0 {
		return nil, fmt.Errorf("no legal move in %s", st.Text())
	}
	m := legal[c.rng.IntN(len(legal))]
	if err := st.Play(m); err != nil {
		return nil, fmt.Errorf("move %v: %w", m, err)
	}
	return m, nil
}

// randomLine returns a random line of plies legal moves from the start
// that does not end the game, or nil if none was found.
func (c *checker) randomLine(rules game.Rules, plies int, accept func(game.State) bool) (game.State, []string) {
	for range 200 {
		st := rules.Start()
		var line []string
		for len(line) < plies && !st.Outcome().Over() {
			m, err := c.randomMove(st)
			if err != nil {
				return nil, nil
			}
			line = append(line, m.String())
		}
		if len(line) == plies && !st.Outcome().Over() && (accept == nil || accept(st)) {
			return st, line
		}
	}
	return nil, nil
}

// playMoves plays moves, in the game's notation, on st.
func playMoves(st game.State, moves []string) error {
	for _, text := range moves {
		if _, err := game.PlayText(st, text); err != nil {
			return fmt.Errorf("move %q: %w", text, err)
		}
	}
	return nil
}

// midPlies returns how deep into a game the position checks go: to the
// middle of a game of a fixed length (ply 7 of Cheversi's 16), else to ply
// 15.
func midPlies(rules game.Rules) int {
	if n, ok := gameLength(rules); ok {
		return n/2 - 1
	}
	return 15
}

// gameLength returns the most plies a game lasts under rules, when the
// game fixes it (game.Lengthed): such a game is played to its end.
func gameLength(rules game.Rules) (int, bool) {
	if l, ok := rules.(game.Lengthed); ok {
		return l.GameLength(), true
	}
	return 0, false
}

// oneMove asks the shared process for a move in st, the position
// startText+moves, in a game of its own on a fixed move time that then ends
// unfinished. It returns the bot's move, played on st; a failure is
// recorded as check name's, and the returned move is nil.
func (c *checker) oneMove(ctx context.Context, name string, began time.Time, rules game.Rules, st game.State,
	startText string, moves []string) game.Move {
	e, err := c.engine(ctx)
	if err == nil {
		err = e.NewGame(ctx, engine.NewGame{Rules: rules, Color: st.Turn()})
	}
	var m game.Move
	if err == nil {
		m, err = c.askMove(ctx, e, st, startText, moves, c.newClock(true))
	}
	if err == nil {
		err = e.GameOver(ctx, game.Ongoing, reasonUnfinished)
	}
	if err != nil {
		c.gameFailed(ctx, e, name, began, st.Ply(), err)
		return nil
	}
	return m
}

// positionText asks for a move in a position given as a position text
// followed by moves.
func (c *checker) positionText(ctx context.Context, rules game.Rules) {
	name := rules.Game() + ": position text + moves"
	began := time.Now()
	_, line := c.randomLine(rules, midPlies(rules), nil)
	if line == nil {
		c.skip(name, "no position found")
		return
	}
	// The text of the position two plies before, then those two moves.
	head, tail := line[:len(line)-2], line[len(line)-2:]
	pre := rules.Start()
	if err := playMoves(pre, head); err != nil {
		c.fail(name, began, "the arena's own line: %v", err)
		return
	}
	text := pre.Text()
	st, err := rules.ParseState(text)
	if err != nil {
		c.fail(name, began, "the arena's own position text %q: %v", text, err)
		return
	}
	if err := playMoves(st, tail); err != nil {
		c.fail(name, began, "the arena's own line: %v", err)
		return
	}
	if m := c.oneMove(ctx, name, began, rules, st, text, tail); m != nil {
		c.pass(name, began, "position text %s moves %s: played %v", text, strings.Join(tail, " "), m)
	}
}

// singleMove asks for a move in a position with exactly one legal move.
func (c *checker) singleMove(ctx context.Context, rules game.Rules) {
	name := rules.Game() + ": single legal move"
	began := time.Now()
	var st game.State
	var line []string
	for plies := 1; plies < 60 && st == nil; plies++ {
		st, line = c.randomLine(rules, plies, func(s game.State) bool { return len(s.LegalMoves(nil)) == 1 })
	}
	if st == nil {
		c.skip(name, "no such position found in random games")
		return
	}
	if m := c.oneMove(ctx, name, began, rules, st, "", line); m != nil {
		c.pass(name, began, "after %s: played the only move, %v", noun(len(line), "ply", "plies"), m)
	}
}

// restart starts a fresh process and asks it for a move in the middle of a
// game, then for a move in a position from another game.
func (c *checker) restart(ctx context.Context, rules game.Rules) {
	name := rules.Game() + ": fresh process mid-game, then an unrelated position"
	began := time.Now()
	st1, line1 := c.randomLine(rules, midPlies(rules), nil)
	st2, line2 := c.randomLine(rules, midPlies(rules)+1, nil)
	if st1 == nil || st2 == nil {
		c.skip(name, "no position found")
		return
	}
	e, err := engine.Start(ctx, c.spec(nil))
	if err != nil {
		if !canceled(ctx, err) {
			c.fail(name, began, "restart: %s", describe(err))
		}
		return
	}
	defer c.close(e)
	err = e.NewGame(ctx, engine.NewGame{Rules: rules, Color: st1.Turn()})
	if err != nil {
		c.gameFailed(ctx, e, name, began, 0, err)
		return
	}
	m1, err := c.askMove(ctx, e, st1, "", line1, c.newClock(true))
	if err != nil {
		c.gameFailed(ctx, e, name, began, st1.Ply(), err)
		return
	}
	// The same game, as far as the bot knows, but another line: a bot
	// must trust position over its memory.
	if st2.Turn() != st1.Turn() {
		if err = e.NewGame(ctx, engine.NewGame{Rules: rules, Color: st2.Turn()}); err != nil {
			c.gameFailed(ctx, e, name, began, 0, err)
			return
		}
	}
	m2, err := c.askMove(ctx, e, st2, "", line2, c.newClock(true))
	if err != nil {
		c.gameFailed(ctx, e, name, began, st2.Ply(), err)
		return
	}
	c.pass(name, began, "after %s played %v; then after %s of another line played %v",
		noun(len(line1), "ply", "plies"), m1, noun(len(line2), "ply", "plies"), m2)
}

// legalMoves sums up the legal-move lists sent.
func (c *checker) legalMoves(context.Context) {
	c.requestSummary("legalmoves", c.rep.ID.LegalMoves, "the bot does not request legal-move lists", c.legalSent,
		"%s a shuffled legal-move list; %s on it",
		noun(c.legalSent, "move request carried", "move requests carried"), noun(c.legalAnswered, "answer was", "answers were"))
	if len(c.nonCanonical) > 0 {
		c.record(Result{Name: "notation", Status: Pass,
			Detail: "accepted, but not in canonical notation: " + strings.Join(c.nonCanonical, ", ")})
	}
}

// searchLimit checks a bot that declares it obeys the given limit
// (protocol.FeatureNodes or FeatureDepth): it asks twice for a move in the
// same position under the limit, with plenty of time, and fails when an
// info line reports a search beyond the limit. A bot that reports no
// nodes (depth) cannot be checked. It notes whether the two answers were
// the same, as a limited search usually makes them.
func (c *checker) searchLimit(ctx context.Context, rules game.Rules, feature string) {
	name := rules.Game() + ": go " + feature
	began := time.Now()
	declared := c.rep.ID.Nodes
	if feature == protocol.FeatureDepth {
		declared = c.rep.ID.Depth
	}
	if !declared {
		c.skip(name, "the bot does not declare it obeys a %s limit (request %s)", feature, feature)
		return
	}
	st, line := c.randomLine(rules, midPlies(rules), nil)
	if st == nil {
		c.skip(name, "no position found")
		return
	}
	var nodes int64
	var depth int
	if feature == protocol.FeatureNodes {
		nodes = checkNodes
	} else {
		depth = checkDepth
	}
	limit := fmt.Sprintf("%s %d", feature, max(nodes, int64(depth)))
	var played [2]string
	var reported []string
	for i := range played {
		e, m, info, err := c.limitedGame(ctx, rules, st, line, nodes, depth)
		if err != nil {
			c.gameFailed(ctx, e, name, began, st.Ply(), err)
			return
		}
		played[i] = m.String()
		r, over := reportedLimit(info, nodes, depth, limit)
		if over != "" {
			c.fail(name, began, "%s", over)
			return
		}
		reported = append(reported, r)
	}
	if reported[0] == "" || reported[1] == "" {
		c.skip(name, "go ... %s answered with %s and %s, but the bot's info lines report no %s to check",
			limit, played[0], played[1], feature)
		return
	}
	same := "the same move twice"
	if played[0] != played[1] {
		same = "different moves from the same position (not reproducible)"
	}
	c.pass(name, began, "go ... %s answered within the limit (%s, then %s): %s, %s",
		limit, reported[0], reported[1], same, strings.Join(played[:], " and "))
}

// limitedGame asks the bot for a move in st, reached by line, under a
// limit of nodes or depth, in a game of its own that it then ends as
// unfinished. It returns the engine, the move and the bot's last info.
func (c *checker) limitedGame(ctx context.Context, rules game.Rules, st game.State, line []string, nodes int64, depth int) (*engine.Engine, game.Move, *protocol.Info, error) {
	e, err := c.engine(ctx)
	if err == nil {
		err = e.NewGame(ctx, engine.NewGame{Rules: rules, Color: st.Turn()})
	}
	var m game.Move
	var info *protocol.Info
	if err == nil {
		k := engine.NewClock(engine.TimeControl{Move: limitTimeFactor * c.cfg.MoveTime, Margin: c.cfg.Margin},
			engine.TimeControl{Move: limitTimeFactor * c.cfg.MoveTime, Margin: c.cfg.Margin})
		m, info, err = c.askLimited(ctx, e, st.Clone(), "", line, k, nodes, depth)
	}
	if err == nil {
		err = e.GameOver(ctx, game.Ongoing, reasonUnfinished)
	}
	return e, m, info, err
}

// reportedLimit returns what the bot's info reports of the limit of nodes
// or depth (go ... limit), "" when it reports nothing of it, or why the
// report breaks the limit.
func reportedLimit(info *protocol.Info, nodes int64, depth int, limit string) (reported, over string) {
	switch {
	case info == nil || nodes > 0 && info.Nodes == 0 || depth > 0 && info.Depth == 0:
		return "", ""
	case nodes > 0 && info.Nodes > nodes:
		return "", fmt.Sprintf("go ... %s: the bot reports %s (%q)", limit, noun(info.Nodes, "node", "nodes"), info.Raw)
	case depth > 0 && info.Depth > depth:
		return "", fmt.Sprintf("go ... %s: the bot reports depth %d (%q)", limit, info.Depth, info.Raw)
	case nodes > 0:
		return noun(info.Nodes, "node", "nodes"), ""
	}
	return fmt.Sprintf("depth %d", info.Depth), ""
}

// fen sums up the position texts sent.
func (c *checker) fen(context.Context) {
	c.requestSummary("fen", c.rep.ID.FEN, "the bot does not request the position text", c.fenSent,
		"%s the current position text, each the position the moves lead to; %s legal there",
		noun(c.fenSent, "move request carried", "move requests carried"), noun(c.fenAnswered, "answer was", "answers were"))
}

// noun returns n with the singular or plural noun: "1 ply", "2 plies".
func noun[N int | int64](n N, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// requestSummary reports on a part of the move requests that a bot gets
// only when it asks for it: skipped when it did not ask (notAsked says
// so) or when no request was sent, else passed with the detail.
func (c *checker) requestSummary(name string, asked bool, notAsked string, sent int, format string, args ...any) {
	began := time.Now()
	switch {
	case !asked:
		c.skip(name, "%s", notAsked)
	case sent == 0:
		c.skip(name, "no move request reached the bot")
	default:
		c.pass(name, began, format, args...)
	}
}

// infoLines sums up the info lines that came with the bot's moves and
// fails when the arena had to ignore lines the bot wrote (malformed info
// lines and unknown commands).
func (c *checker) infoLines(ctx context.Context) {
	const name = "info"
	began := time.Now()
	s := c.info
	ignored := c.ignored
	if c.eng != nil {
		ignored += c.eng.UnknownLines()
	}
	if ignored > 0 {
		where := "the bot's log (arena check --log FILE)"
		if c.cfg.StderrPath != "" {
			where = c.cfg.StderrPath
		}
		c.fail(name, began, "the bot wrote %s the arena ignored (malformed info lines or unknown commands); they are noted in %s",
			noun(ignored, "line", "lines"), where)
		return
	}
	if s.withInfo == 0 {
		c.skip(name, "none of the bot's %s came with an info line", noun(s.moves, "move", "moves"))
		return
	}
	detail := fmt.Sprintf("%d of %s came with info lines that parse; %s",
		s.withInfo, noun(s.moves, "move", "moves"), s.fieldCounts())
	if len(s.pvOff) > 0 {
		detail += "; a pv should start with the move played: " + strings.Join(s.pvOff, ", ")
	}
	c.pass(name, began, "%s", detail)
}

// setOption starts a fresh process with every declared option set to its
// default and asks it for a move.
func (c *checker) setOption(ctx context.Context, gameName string) {
	const name = "setoption"
	began := time.Now()
	if len(c.rep.ID.Options) == 0 {
		c.skip(name, "the bot declares no options")
		return
	}
	opts := map[string]string{}
	var set []string
	for _, o := range c.rep.ID.Options {
		opts[o.Name] = o.Default
		set = append(set, o.Name+"="+o.Default)
	}
	e, err := engine.Start(ctx, c.spec(opts))
	if err != nil {
		if !canceled(ctx, err) {
			c.fail(name, began, "setting %s: %s", strings.Join(set, ", "), describe(err))
		}
		return
	}
	defer c.close(e)
	rules, err := games.New(gameName, "", nil)
	if err == nil {
		err = e.NewGame(ctx, engine.NewGame{Rules: rules, Color: rules.FirstMover()})
	}
	if err != nil {
		c.gameFailed(ctx, e, name, began, 0, err)
		return
	}
	m, err := c.askMove(ctx, e, rules.Start(), "", nil, c.newClock(true))
	if err != nil {
		c.gameFailed(ctx, e, name, began, 0, err)
		return
	}
	c.pass(name, began, "set %s; readyok, then played %v", strings.Join(set, ", "), m)
}

// quit checks that the shared process exits by itself after quit.
func (c *checker) quit(ctx context.Context) {
	const name = "quit"
	e, err := c.engine(ctx)
	if err != nil {
		if !canceled(ctx, err) {
			c.fail(name, time.Now(), "restart: %s", describe(err))
		}
		return
	}
	began := time.Now()
	err = e.Close()
	c.eng = nil
	took := time.Since(began)
	switch {
	case took >= c.cfg.QuitGrace:
		c.fail(name, began, "still running %v after quit and the end of its input; killed", c.cfg.QuitGrace)
	case err != nil:
		c.fail(name, began, "%s", describe(err))
	default:
		c.pass(name, began, "exited %v after quit", took.Round(time.Millisecond))
	}
}
