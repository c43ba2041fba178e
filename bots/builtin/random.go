package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/protocol"
)

// Random plays a uniformly random legal move. Its choices are a function
// of its seed and of the sequence of requests: the same seed replays the
// same moves for the same positions in the same order.
type Random struct {
	rng   *rand.Rand
	moves []game.Move
}

// NewRandom returns a Random player seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, seedStream))}
}

// seedStream is the second word of the PCG seeds: any fixed constant.
const seedStream = 0x5eed5eed5eed5eed

// Name returns "random".
func (r *Random) Name() string { return NameRandom }

// Choose returns a random legal move of st; it plays any game.State.
func (r *Random) Choose(ctx context.Context, st game.State, _ Limits) (Result, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	r.moves = st.LegalMoves(r.moves[:0])
	if len(r.moves) == 0 {
		return Result{}, noMoves(st)
	}
	m := r.moves[r.rng.IntN(len(r.moves))]
	return Result{Move: m, Nodes: 1, PV: []game.Move{m}, Elapsed: time.Since(start)}, nil
}

// runRandom plays random as a process, like Run but without the SDK's
// goroutines: it reads its input and answers go in the caller's
// goroutine, and it asks for the legal moves and picks among them, so
// that a move costs little more than a read and a write. It makes the
// same choices as Random (the arena lists the legal moves in the order of
// State.LegalMoves); when no list comes it works them out from the
// position. ctx is checked between lines.
func runRandom(ctx context.Context, o Options, in io.Reader, out, log io.Writer) error {
	b, err := NewBot(NameRandom, o)
	if err != nil {
		return err
	}
	s := &randomSession{id: b.ID(), rnd: NewRandom(o.Seed), log: log}
	s.id.LegalMoves = true
	r := protocol.NewReader(in)
	w := protocol.NewWriter(out)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := r.ReadMessage()
		if err != nil {
			var pe *protocol.ProtocolError
			if errors.As(err, &pe) {
				fmt.Fprintf(log, "random: ignored input line: %v\n", err)
				continue
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil
			}
			return err
		}
		if _, quit := m.(protocol.Quit); quit {
			return nil
		}
		reply, err := s.handle(m)
		if err != nil {
			return err
		}
		if len(reply) > 0 {
			if err := w.WriteMessage(reply...); err != nil {
				return err
			}
		}
	}
}

// randomSession is what runRandom knows between two messages.
type randomSession struct {
	id     protocol.ID
	rnd    *Random
	log    io.Writer
	rules  game.Rules
	pos    protocol.Position
	legal  []string
	hasPos bool
	cache  positionCache
}

// handle answers the message m of the arena: the reply to write (none for
// a message ignored, with a note in the log), or the error that ends the
// session.
func (s *randomSession) handle(m protocol.Message) ([]protocol.Message, error) {
	switch m := m.(type) {
	case protocol.Hello:
		if m.Version != protocol.Version {
			return nil, fmt.Errorf("random: the arena speaks protocol version %d, the bot version %d", m.Version, protocol.Version)
		}
		return s.id.Messages(), nil
	case protocol.IsReady:
		return []protocol.Message{protocol.ReadyOK{}}, nil
	case protocol.Ping:
		return []protocol.Message{protocol.Pong(m)}, nil
	case protocol.SetOption:
		opt, ok := s.id.Option(m.Name)
		n, err := strconv.ParseUint(m.Value, 10, 64)
		if !ok || err != nil || opt.Check(m.Value) != nil {
			fmt.Fprintf(s.log, "random: ignored setoption %s %q\n", m.Name, m.Value)
			return nil, nil
		}
		s.rnd = NewRandom(n)
	case protocol.NewGame:
		rules, err := games.New(m.Game, m.Preset, m.Settings)
		if err != nil {
			return nil, fmt.Errorf("random: newgame: %w", err)
		}
		s.rules, s.hasPos, s.legal, s.cache = rules, false, nil, positionCache{}
	case protocol.Position:
		s.pos, s.hasPos, s.legal = m, true, nil
	case protocol.LegalMoves:
		s.legal = m.Moves
	case protocol.Go:
		return s.move()
	case protocol.GameOver:
		s.hasPos, s.legal = false, nil
	}
	return nil, nil
}

// move answers go with a random one of the legal moves.
func (s *randomSession) move() ([]protocol.Message, error) {
	if !s.hasPos || s.rules == nil {
		fmt.Fprintln(s.log, "random: ignored go: no newgame and position before it")
		return nil, nil
	}
	rules, pos := s.rules, s.pos
	move, err := s.rnd.pick(s.legal, func() (game.State, error) { return s.cache.state(rules, pos) })
	if err != nil {
		return nil, fmt.Errorf("random: %w", err)
	}
	return []protocol.Message{protocol.Move{Move: move}}, nil
}

// pick chooses among legal as Choose would among the same moves, or, when
// legal is empty, among the legal moves of the position state returns.
func (r *Random) pick(legal []string, state func() (game.State, error)) (string, error) {
	if len(legal) > 0 {
		return legal[r.rng.IntN(len(legal))], nil
	}
	st, err := state()
	if err != nil {
		return "", err
	}
	res, err := r.Choose(context.Background(), st, Limits{})
	if err != nil {
		return "", err
	}
	return res.Move.String(), nil
}

// positionCache decodes positions, playing only the moves added since the
// last one when a position extends it.
type positionCache struct {
	text  string
	moves []string
	st    game.State
}

func (c *positionCache) state(rules game.Rules, p protocol.Position) (game.State, error) {
	if c.st == nil || c.text != p.Text || len(c.moves) > len(p.Moves) || !slices.Equal(c.moves, p.Moves[:len(c.moves)]) {
		var err error
		c.st, c.moves, c.text = rules.Start(), c.moves[:0], p.Text
		if p.Text != "" {
			if c.st, err = rules.ParseState(p.Text); err != nil {
				c.st = nil
				return nil, fmt.Errorf("position: %w", err)
			}
		}
	}
	for _, text := range p.Moves[len(c.moves):] {
		if _, err := game.PlayText(c.st, text); err != nil {
			c.st = nil
			return nil, fmt.Errorf("position: move %q: %w", text, err)
		}
		c.moves = append(c.moves, text)
	}
	return c.st, nil
}
