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
	op := r.sched.Openings[g.Opening]
	rec = &journal.Record{
		ID: g.ID, Round: g.Round, PairKey: g.PairKey,
		Opening:    journal.RecordOpening{Index: g.Opening + 1, Name: op.Name, Moves: op.Moves},
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
	bot  string
	e    *engine.Engine
	game int // the game it played, for the log
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
		p.put(h.bot, h.e, err != nil)
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
// affinity: the worker's own two CPUs when there are two per worker, else
// CPUs shared with other workers' bots, spread evenly.
func (gp *gamePlay) pin() {
	cpus := gp.r.cpus
	if len(cpus) == 0 {
		return
	}
	for c, e := range gp.eng {
		cpu := cpus[(2*gp.slot+c)%len(cpus)]
		if err := e.Pin([]int{cpu}); err != nil {
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
	for c, e := range gp.eng {
		switch {
		case e == nil:
		case gp.inGame[c] && !gp.broken[c]: // its gameover is held (finish)
			kept = append(kept, heldEngine{bot: gp.names[c], e: e, game: gp.rec.ID})
		default:
			gp.p.put(gp.names[c], e, gp.broken[c])
		}
	}
	var unused []heldEngine
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
	r := gp.r
	for _, c := range [2]game.Color{game.White, game.Black} {
		e, err := gp.get(c)
		if err != nil {
			if ctx.Err() != nil || !botsFault(err) {
				return gp.abandon(ctx, err)
			}
			// However it failed (a crash or a timeout in the handshake
			// included), the bot could not be restarted.
			gp.forfeitKind(ctx, c, journal.ForfeitStart, errorDetail(err))
			return true
		}
		gp.eng[c] = e
	}
	gp.pin()
	// Both bots prepare at once; the first mover's failure counts first.
	order := [2]game.Color{r.rules.FirstMover(), r.rules.FirstMover().Other()}
	errs := engine.NewGames(ctx, []*engine.Engine{gp.eng[order[0]], gp.eng[order[1]]},
		[]engine.NewGame{{Rules: r.rules, Color: order[0]}, {Rules: r.rules, Color: order[1]}})
	for i, c := range order {
		gp.inGame[c] = errs[i] == nil
	}
	for i, c := range order {
		if err := errs[i]; err != nil {
			if ctx.Err() != nil || !botsFault(err) {
				return gp.abandon(ctx, err)
			}
			gp.broken[c] = true
			gp.forfeit(ctx, c, err)
			return true
		}
	}

	st := r.rules.Start()
	moves := make([]string, 0, len(op.Moves)+64)
	for _, text := range op.Moves {
		if _, err := game.PlayText(st, text); err != nil {
			// Openings are checked when they are loaded: not reached.
			return gp.abandon(ctx, fmt.Errorf("opening move %q: %w", text, err))
		}
		moves = append(moves, text)
	}

	tcs := [2]config.TimeControl{r.cfg.BotTime(gp.names[game.White]), r.cfg.BotTime(gp.names[game.Black])}
	clock := engine.NewClock(tcs[game.White].Clock(), tcs[game.Black].Clock())
	// The search limits go to the bots that obey them (Run checked those
	// a bot is given by name).
	var nodes [2]int64
	var depth [2]int
	for c := range gp.eng {
		id := gp.eng[c].ID()
		if id.Nodes {
			nodes[c] = tcs[c].Nodes
		}
		if id.Depth {
			depth[c] = tcs[c].Depth
		}
	}
	adj := newAdjudicator(r.cfg.Adjudication, gp.names)
	var (
		legalMoves []game.Move
		legalText  []string
		random     *rand.Rand // the arena's plies of a deferred opening
	)
	for {
		out := st.Outcome()
		if out.Over() {
			gp.finish(ctx, out.Result, out.Reason, nil, out.Scores)
			return true
		}
		if op.RandomPly(st.Ply() + 1) {
			if random == nil {
				random = op.Player()
			}
			text, ok, err := openings.PlayRandom(st, random)
			if err == nil && !ok {
				err = errors.New("no legal move in a game that is not over")
			}
			if err != nil {
				return gp.abandon(ctx, fmt.Errorf("random ply %d: %w", st.Ply()+1, err))
			}
			moves = append(moves, text)
			gp.rec.Moves = append(gp.rec.Moves, journal.MoveRecord{Move: text, Random: true})
			if o := r.opts.Observer; o != nil {
				o.Moved(gp.rec.ID, gp.rec.Moves[len(gp.rec.Moves)-1])
			}
			continue
		}
		side := st.Turn()
		e := gp.eng[side]
		var legal []string
		if e.WantsLegalMoves() {
			legalMoves = st.LegalMoves(legalMoves[:0])
			legalText = legalText[:0]
			for _, m := range legalMoves {
				legalText = append(legalText, m.String())
			}
			legal = legalText
		}
		var fen string
		if e.WantsFEN() {
			fen = st.Text()
		}
		pc, allowed := clock.Request(side)
		sent := time.Now()
		reply, err := e.Move(ctx, engine.MoveRequest{
			Moves:    moves,
			Legal:    legal,
			FEN:      fen,
			Clock:    pc,
			Nodes:    nodes[side],
			Depth:    depth[side],
			Deadline: clock.Deadline(side, sent),
			Watch:    gp.eng[side.Other()],
		})
		if err != nil {
			if ctx.Err() != nil || !botsFault(err) {
				return gp.abandon(ctx, err)
			}
			gp.broken[side] = true
			if isTimeout(err) {
				gp.forfeitKind(ctx, side, journal.ForfeitTime, fmt.Sprintf("no move after %v (measured by the arena), allowed %v + margin %v",
					time.Since(sent).Round(time.Millisecond), allowed, tcs[side].Margin))
				return true
			}
			gp.forfeit(ctx, side, err)
			return true
		}
		elapsed := reply.Elapsed
		if elapsed <= 0 {
			elapsed = time.Since(sent)
		}
		if err := clock.Charge(side, elapsed); err != nil {
			gp.forfeitKind(ctx, side, journal.ForfeitTime, err.Error())
			return true
		}
		m, err := game.PlayText(st, reply.Move)
		if err != nil {
			gp.forfeitKind(ctx, side, journal.ForfeitIllegalMove, fmt.Sprintf("move %q at ply %d: %v", clipText(reply.Move, 64), st.Ply()+1, err))
			return true
		}
		text := m.String()
		moves = append(moves, text)
		info := journal.NewSearchInfo(reply.Info)
		gp.rec.Moves = append(gp.rec.Moves, journal.MoveRecord{Move: text, MS: roundMS(elapsed), Info: info})
		if o := r.opts.Observer; o != nil {
			o.Moved(gp.rec.ID, gp.rec.Moves[len(gp.rec.Moves)-1])
		}
		if adj != nil && !st.Outcome().Over() {
			if v, ok := adj.move(side, info, st.Ply()); ok {
				gp.rec.Adjudication = &journal.Adjudicated{Rule: v.rule, Detail: v.detail}
				gp.finish(ctx, v.result, journal.ReasonAdjudication, nil, nil)
				return true
			}
		}
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
