package builtin

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/arena-games/arena/arena/game"
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
