package tournament

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
)

// gameOverTimeout bounds telling a bot that its game is over.
const gameOverTimeout = 5 * time.Second

// play plays one scheduled game and returns its record, or nil when the
// game was abandoned because ctx was canceled (or the pool closed); ctx is
// the worker's. The game takes its engines from carry (engines the worker
// kept from its last game, see heldEngine) or from the pool. It returns
// the engines it keeps for the worker's next game, each with its gameover
// held; the others go back to the pool.
func (r *runner) play(ctx context.Context, p *pool, g schedule.Scheduled, carry []heldEngine, slot int) (rec *journal.Record, kept []heldEngine) {
	if ctx.Err() != nil {
		r.releaseHeld(ctx, p, carry)
		return nil, nil
	}
	op := r.opening(g)
	rec = &journal.Record{
		ID: g.ID, Round: g.Round, PairKey: g.PairKey,
		Opening:    journal.RecordOpening{Index: g.Opening + 1, Name: op.Name, Position: op.Position, Moves: op.Moves},
		Game:       r.rules.Game(),
		Preset:     r.rules.Preset(),
		Rules:      r.settings,
		White:      g.White,
		Black:      g.Black,
		FirstMover: r.rules.FirstMover().String(),
		Moves:      make([]journal.MoveRecord, 0, 32), // a Cheversi game, or the start of a longer one
		Start:      time.Now().UTC(),
	}
	gp := &gamePlay{r: r, p: p, rec: rec, carry: carry, slot: slot}
	gp.names[game.White], gp.names[game.Black] = g.White, g.Black
	defer func() { kept = gp.release(ctx) }()
	if o := r.opts.Observer; o != nil {
		o.GameStarted(*rec)
		defer o.GameEnded(g.ID)
	}
	if !gp.playOut(ctx, op) {
		return nil, nil
	}
	rec.DurationMS = roundMS(time.Since(rec.Start))
	return rec, nil
}

// heldEngine is an engine a worker keeps from its game for its next one,
// with the gameover of that game held (engine.HoldGameOver): when the
// next game has the same bot, the gameover goes out in the same write as
// the next newgame, which saves the bot a wake-up and the arena a system
// call; otherwise the worker writes it (releaseHeld) once it has recorded
// the game and taken its next, and gives the engine back to the pool.
type heldEngine struct {
	bot   string
	e     *engine.Engine
	game  int  // the game it played, for the log
	close bool // closed once told: its bot restarts for every game
}

// releaseHeld writes the held gameovers of engines the worker does not
// keep, and gives the engines back to the pool.
func (r *runner) releaseHeld(ctx context.Context, p *pool, held []heldEngine) {
	for _, h := range held {
		octx, cancel := context.WithTimeout(ctx, gameOverTimeout)
		err := h.e.Flush(octx)
		cancel()
		if err != nil && botsFault(err) {
			r.logf("game %d: %s: %v", h.game, h.bot, err)
		}
		p.put(h.bot, h.e, err != nil || h.close)
	}
}

// splitHeld returns the held engines the game g can use, one per side at
// most, and the others.
func splitHeld(held []heldEngine, g schedule.Scheduled) (use, rest []heldEngine) {
	want := [2]string{g.White, g.Black}
	for _, h := range held {
		if i := slices.Index(want[:], h.bot); i >= 0 {
			want[i] = "" // taken
			use = append(use, h)
			continue
		}
		rest = append(rest, h)
	}
	return use, rest
}

// gamePlay is the state of one game in progress.
type gamePlay struct {
	r   *runner
	p   *pool
	rec *journal.Record

	names  [2]string
	eng    [2]*engine.Engine
	inGame [2]bool // NewGame succeeded: owes a GameOver, held once the game is over (see heldEngine)
	broken [2]bool // unusable: close instead of returning to the pool

	carry []heldEngine // engines the worker kept for this game; e is nil once taken
	slot  int          // the worker's number, for the CPUs of its bots (affinity)
}

// pin pins the game's bots to their CPUs when the tournament sets an
// affinity (see noteAffinity): each to a CPU of its own when there are
// two per worker, else to the whole list given.
func (gp *gamePlay) pin() {
	cpus := gp.r.cpus
	if len(cpus) == 0 {
		return
	}
	for c, e := range gp.eng {
		set := cpus
		if gp.r.pinEach {
			set = cpus[2*gp.slot+c : 2*gp.slot+c+1]
		}
		if err := e.Pin(set); err != nil {
			gp.r.logf("game %d: %v", gp.rec.ID, err)
		}
	}
}

// get returns an engine of the bot playing c: one the worker kept, or one
// from the pool.
func (gp *gamePlay) get(c game.Color) (*engine.Engine, error) {
	for i, h := range gp.carry {
		if h.e != nil && h.bot == gp.names[c] {
			gp.carry[i].e = nil
			return h.e, nil
		}
	}
	return gp.p.get(gp.names[c])
}

// release returns the engines to the pool, but for those it keeps for the
// worker's next game (held gameovers; see heldEngine).
func (gp *gamePlay) release(ctx context.Context) (kept []heldEngine) {
	var unused []heldEngine
	for c, e := range gp.eng {
		switch {
		case e == nil:
		case gp.inGame[c] && !gp.broken[c] && gp.r.restartAlways[gp.names[c]]:
			// Told its game is over, then closed: a fresh process plays
			// the bot's next game.
			gp.r.releaseHeld(ctx, gp.p, []heldEngine{{bot: gp.names[c], e: e, game: gp.rec.ID, close: true}})
		case gp.inGame[c] && !gp.broken[c]: // its gameover is held (finish)
			kept = append(kept, heldEngine{bot: gp.names[c], e: e, game: gp.rec.ID})
		default:
			gp.p.put(gp.names[c], e, gp.broken[c])
		}
	}
	for _, h := range gp.carry {
		if h.e != nil {
			unused = append(unused, h)
		}
	}
	gp.r.releaseHeld(ctx, gp.p, unused)
	return kept
}

// abandon marks every engine of the game unusable (a request may be in
// flight): the game is not recorded, and a later run plays it again. A
// failure that is not the bot's fault and not a cancellation is logged.
func (gp *gamePlay) abandon(ctx context.Context, err error) bool {
	gp.broken = [2]bool{true, true}
	if err != nil && ctx.Err() == nil && !errors.Is(err, errPoolClosed) {
		gp.r.logf("game %d abandoned: %v", gp.rec.ID, err)
	}
	return false
}

// playOut plays the game to its end and fills in the record. It returns
// false when the game was abandoned.
func (gp *gamePlay) playOut(ctx context.Context, op openings.Opening) bool {
	if over, ok := gp.startEngines(ctx); over {
		return ok
	}
	st, moves, err := replayOpening(gp.r.rules, op)
	if err != nil {
		// Openings are checked when they are loaded: not reached.
		return gp.abandon(ctx, err)
	}
	t := gp.newTurns(st, moves, op)
	for {
		if out := st.Outcome(); out.Over() {
			gp.finish(ctx, out.Result, out.Reason, nil, out.Scores)
			return true
		}
		if over, ok := t.next(ctx); over {
			return ok
		}
	}
}

// startEngines takes an engine for each side and starts the game on both.
// over is true when the game ended before its first move (a forfeit, with
// ok true) or was abandoned (ok false).
func (gp *gamePlay) startEngines(ctx context.Context) (over, ok bool) {
	for _, c := range [2]game.Color{game.White, game.Black} {
		e, err := gp.get(c)
		if err != nil {
			if ctx.Err() != nil || !botsFault(err) {
				return true, gp.abandon(ctx, err)
			}
			// However it failed (a crash or a timeout in the handshake
			// included), the bot could not be restarted.
			gp.forfeitKind(ctx, c, journal.ForfeitStart, errorDetail(err))
			return true, true
		}
		gp.eng[c] = e
	}
	gp.pin()
	// Both bots prepare at once; the first mover's failure counts first.
	rules := gp.r.rules
	order := [2]game.Color{rules.FirstMover(), rules.FirstMover().Other()}
	opening := journal.OpeningLabel(gp.rec)
	errs := engine.NewGames(ctx, []*engine.Engine{gp.eng[order[0]], gp.eng[order[1]]},
		[]engine.NewGame{{Rules: rules, Color: order[0], Opponent: gp.names[order[1]], Opening: opening},
			{Rules: rules, Color: order[1], Opponent: gp.names[order[0]], Opening: opening}})
	for i, c := range order {
		gp.inGame[c] = errs[i] == nil
	}
	for i, c := range order {
		if err := errs[i]; err != nil {
			if ctx.Err() != nil || !botsFault(err) {
				return true, gp.abandon(ctx, err)
			}
			gp.broken[c] = true
			gp.forfeit(ctx, c, err)
			return true, true
		}
	}
	return false, true
}

// replayOpening plays the moves of an opening from its start position
// (the game's, or the opening's position) and returns the position after
// them and the moves so far.
func replayOpening(rules game.Rules, op openings.Opening) (game.State, []string, error) {
	st, err := op.StartState(rules)
	if err != nil {
		return nil, nil, err
	}
	moves := make([]string, 0, len(op.Moves)+64)
	for _, text := range op.Moves {
		if _, err := game.PlayText(st, text); err != nil {
			return nil, nil, fmt.Errorf("opening move %q: %w", text, err)
		}
		moves = append(moves, text)
	}
	return st, moves, nil
}

// turns is the play of a game once its opening is on the board: one ply at
// a time, the arena's random plies of a deferred opening or a bot's move.
type turns struct {
	gp    *gamePlay
	op    openings.Opening
	st    game.State
	moves []string // every ply so far, as sent to the bots

	tcs   [2]config.TimeControl
	clock *engine.Clock
	nodes [2]int64 // the search limits each bot obeys (Run checked those a bot is given by name)
	depth [2]int
	adj   *adjudicator

	legalMoves []game.Move
	legalText  []string
	random     *rand.Rand // the arena's plies of a deferred opening
}

func (gp *gamePlay) newTurns(st game.State, moves []string, op openings.Opening) *turns {
	r := gp.r
	t := &turns{gp: gp, op: op, st: st, moves: moves, adj: newAdjudicator(r.cfg.Adjudication, gp.names)}
	if id := gp.rec.ID; r.cfg.TiebreakGame(id) {
		gp.rec.Time = r.cfg.Format.TiebreakTime.String()
	}
	t.tcs = [2]config.TimeControl{r.cfg.GameTime(gp.names[game.White], gp.rec.ID), r.cfg.GameTime(gp.names[game.Black], gp.rec.ID)}
	t.clock = engine.NewClock(t.tcs[game.White].Clock(), t.tcs[game.Black].Clock())
	for c := range gp.eng {
		id := gp.eng[c].ID()
		if id.Nodes {
			t.nodes[c] = t.tcs[c].Nodes
		}
		if id.Depth {
			t.depth[c] = t.tcs[c].Depth
		}
	}
	return t
}

// next plays the next ply of a game that is not over. over is true when
// the game ended on it other than by the rules (a forfeit or an
// adjudication, with ok true) or was abandoned (ok false).
func (t *turns) next(ctx context.Context) (over, ok bool) {
	if t.op.RandomPly(t.st.Ply() + 1) {
		if err := t.randomPly(); err != nil {
			return true, t.gp.abandon(ctx, err)
		}
		return false, true
	}
	return t.botMove(ctx)
}

// randomPly plays the arena's random ply of a deferred opening.
func (t *turns) randomPly() error {
	if t.random == nil {
		t.random = t.op.Player()
	}
	text, ok, err := openings.PlayRandom(t.st, t.random)
	if err == nil && !ok {
		err = errors.New("no legal move in a game that is not over")
	}
	if err != nil {
		return fmt.Errorf("random ply %d: %w", t.st.Ply()+1, err)
	}
	t.moves = append(t.moves, text)
	t.gp.moved(journal.MoveRecord{Move: text, Random: true})
	return nil
}

// request is the move request for the bot of side, but for its deadline,
// with the time it is allowed.
func (t *turns) request(side game.Color) (req engine.MoveRequest, allowed time.Duration) {
	e := t.gp.eng[side]
	req = engine.MoveRequest{StartText: t.op.Position, Moves: t.moves, Nodes: t.nodes[side], Depth: t.depth[side], Watch: t.gp.eng[side.Other()]}
	if e.WantsLegalMoves() {
		t.legalMoves = t.st.LegalMoves(t.legalMoves[:0])
		t.legalText = t.legalText[:0]
		for _, m := range t.legalMoves {
			t.legalText = append(t.legalText, m.String())
		}
		req.Legal = t.legalText
	}
	if e.WantsFEN() {
		req.FEN = t.st.Text()
	}
	req.Clock, allowed = t.clock.Request(side)
	return req, allowed
}

// botMove asks the bot of the side to move for its move and referees
// it; over and ok are as for next.
func (t *turns) botMove(ctx context.Context) (over, ok bool) {
	gp, side := t.gp, t.st.Turn()
	req, allowed := t.request(side)
	sent := time.Now()
	req.Deadline = t.clock.Deadline(side, sent)
	reply, err := gp.eng[side].Move(ctx, req)
	if err != nil {
		if ctx.Err() != nil || !botsFault(err) {
			return true, gp.abandon(ctx, err)
		}
		gp.broken[side] = true
		if isTimeout(err) {
			gp.forfeitKind(ctx, side, journal.ForfeitTime, fmt.Sprintf("no move after %v (measured by the arena), allowed %v + margin %v",
				time.Since(sent).Round(time.Millisecond), allowed, t.tcs[side].Margin))
			return true, true
		}
		gp.forfeit(ctx, side, err)
		return true, true
	}
	elapsed := reply.Elapsed
	if elapsed <= 0 {
		elapsed = time.Since(sent)
	}
	if err := t.clock.Charge(side, elapsed); err != nil {
		gp.forfeitKind(ctx, side, journal.ForfeitTime, err.Error())
		return true, true
	}
	m, err := game.PlayText(t.st, reply.Move)
	if err != nil {
		gp.forfeitKind(ctx, side, journal.ForfeitIllegalMove, fmt.Sprintf("move %q at ply %d: %v", clipText(reply.Move, 64), t.st.Ply()+1, err))
		return true, true
	}
	text := m.String()
	t.moves = append(t.moves, text)
	info := journal.NewSearchInfo(reply.Info)
	gp.moved(journal.MoveRecord{Move: text, MS: roundMS(elapsed), Info: info})
	if t.adj != nil && !t.st.Outcome().Over() {
		if v, ok := t.adj.move(side, info, t.st.Ply()); ok {
			gp.rec.Adjudication = &journal.Adjudicated{Rule: v.rule, Detail: v.detail}
			gp.finish(ctx, v.result, journal.ReasonAdjudication, nil, nil)
			return true, true
		}
	}
	return false, true
}

// moved records a ply and tells the observer.
func (gp *gamePlay) moved(m journal.MoveRecord) {
	gp.rec.Moves = append(gp.rec.Moves, m)
	if o := gp.r.opts.Observer; o != nil {
		o.Moved(gp.rec.ID, gp.rec.Moves[len(gp.rec.Moves)-1])
	}
}

// botsFault reports whether an engine error is the bot's fault (and so a
// forfeit) rather than the arena stopping or closing it.
func botsFault(err error) bool {
	var ee *engine.Error
	if errors.As(err, &ee) {
		return ee.Kind != engine.KindCanceled && ee.Kind != engine.KindClosed && ee.Kind != engine.KindInvalid
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, errPoolClosed)
}

// isTimeout reports whether an engine error is a bot's timeout.
func isTimeout(err error) bool {
	var ee *engine.Error
	return errors.As(err, &ee) && ee.Kind == engine.KindTimeout
}

// forfeitKindOf classifies an engine error.
func forfeitKindOf(err error) string {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return journal.ForfeitError
	}
	switch ee.Kind {
	case engine.KindStart, engine.KindHandshake:
		return journal.ForfeitStart
	case engine.KindTimeout:
		return journal.ForfeitTime
	case engine.KindCrash:
		return journal.ForfeitCrash
	case engine.KindProtocol:
		return journal.ForfeitProtocol
	case engine.KindUnsupported:
		return journal.ForfeitUnsupported
	case engine.KindLimit:
		return journal.ForfeitLimit
	}
	return journal.ForfeitError
}

func (gp *gamePlay) forfeit(ctx context.Context, c game.Color, err error) {
	gp.forfeitKind(ctx, c, forfeitKindOf(err), errorDetail(err))
}

// errorDetail is the detail of a forfeit for err: an engine error without
// its kind and bot, which are recorded apart.
func errorDetail(err error) string {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Err != nil {
		return ee.Err.Error()
	}
	return err.Error()
}

// maxDetail bounds the detail of a forfeit, which may quote what a bot
// wrote (an illegal move of 60 KB, say).
const maxDetail = 512

// clipText cuts s to at most n bytes, at a UTF-8 boundary, and says how
// much it cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "... (" + strconv.Itoa(len(s)-n) + " more bytes)"
}

func (gp *gamePlay) forfeitKind(ctx context.Context, c game.Color, kind, detail string) {
	detail = clipText(detail, maxDetail)
	gp.r.forfeitNotice(gp.rec.ID, gp.names[c], c, kind, detail)
	gp.finish(ctx, game.Win(c.Other()), journal.ReasonForfeit, &journal.Forfeit{Kind: kind, Bot: gp.names[c], Detail: detail}, nil)
}

// finish fills in the result and tells both bots the game is over.
func (gp *gamePlay) finish(ctx context.Context, res game.Result, reason string, f *journal.Forfeit, scores []int) {
	rec := gp.rec
	rec.Result, rec.Reason, rec.Forfeit = res.String(), reason, f
	if w, ok := res.Winner(); ok {
		rec.Winner = gp.names[w]
	}
	if len(scores) == 2 {
		rec.Scores = &journal.Scores{White: scores[game.White], Black: scores[game.Black]}
	}
	word := reason
	if f != nil {
		word = f.Kind
	}
	// The gameovers are held, and written when the worker has recorded
	// the game and knows its next (see heldEngine).
	for c := range gp.eng {
		if !gp.inGame[c] || gp.broken[c] {
			continue
		}
		if err := gp.eng[c].HoldGameOver(ctx, res, word); err != nil {
			gp.broken[c] = true
			if botsFault(err) {
				gp.r.logf("game %d: %s: %v", rec.ID, gp.names[c], err)
			}
		}
	}
}

// roundMS converts d to milliseconds with microsecond resolution.
func roundMS(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}
