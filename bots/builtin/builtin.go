package builtin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/game"
)

// Names of the built-in bots, as "arena bot NAME" takes them.
const (
	NameRandom    = "random"
	NameGreedy    = "greedy"
	NameAlphaBeta = "alphabeta"
	NameExpert    = "expert"
)

// Names returns the names of the built-in bots, weakest first.
func Names() []string {
	return []string{NameRandom, NameGreedy, NameAlphaBeta, NameExpert, NamePerfect}
}

var (
	// ErrUnknownBot means a name that is not one of Names.
	ErrUnknownBot = errors.New("unknown built-in bot")
	// ErrUnsupported means a game.State whose game a Player cannot search.
	ErrUnsupported = errors.New("unsupported game state")
	// ErrNoMoves means the game is over: there is no move to choose.
	ErrNoMoves = errors.New("no legal move")
)

// Limits bound one call of Player.Choose. The zero Limits has no bound:
// Choose then searches until ctx is done or, for alphabeta, until the
// search is exhaustive (the end of a Cheversi game; practically never in
// checkers).
type Limits struct {
	// Time is how long the player may think; 0 means no time limit.
	// Choose returns within Time plus a little bookkeeping. Without a
	// Depth or Nodes limit alphabeta also declines to start an iteration
	// it does not expect to finish in Time; with one, Time only stops the
	// search when it runs out.
	Time time.Duration
	// Depth is the deepest iteration alphabeta and expert start, in
	// plies; 0 means no limit. Random and greedy ignore it.
	Depth int
	// Nodes stops alphabeta's search once it has visited this many
	// positions; 0 means no limit. A node budget (with a Time that does
	// not run out first) makes a search reproducible whatever the
	// machine's speed. Random and greedy ignore it.
	Nodes int64
	// Progress, if set, is called after each completed iteration of
	// alphabeta and expert with the result so far. It runs on the searching
	// goroutine and should return quickly.
	Progress func(Result)
}

// Result is a Player's choice and what its search found.
type Result struct {
	// Move is the chosen move, legal in the State given to Choose (a
	// cheversi.Move or a checkers.Move).
	Move game.Move
	// Score is the evaluation of the position for the side to move, in
	// Cheversi score points or checkers hundredths of a man; win and loss
	// scores are beyond ±WinScore/2. Expert's Cheversi scores are in
	// sixteenths of a point, and a result its search has proved is
	// +10000 (a win by score), 0 (a draw) or -10000. Random reports 0.
	Score int
	// Depth is the depth of the last completed iteration (1 for greedy,
	// 0 for random).
	Depth int
	// Nodes counts the positions visited.
	Nodes int64
	// PV is the expected line of play, starting with Move.
	PV []game.Move
	// Elapsed is the time Choose took.
	Elapsed time.Duration
}

// WinScore is the score of a won position (less the plies to the win);
// a lost one scores the negative.
const WinScore = 30000

// Player chooses moves in-process. A Player is not safe for concurrent
// use; give each goroutine its own.
type Player interface {
	// Name returns the bot's name, one of Names.
	Name() string
	// Choose returns a legal move for the side to move in st, which it
	// does not modify. It returns an error wrapping ErrNoMoves when the
	// game is over and ErrUnsupported for a State it cannot search. When
	// ctx is done it returns the best move found so far (a legal move
	// still), with ctx's error only if it had found none.
	Choose(ctx context.Context, st game.State, lim Limits) (Result, error)
}

// Config holds the settings of New's players.
type Config struct {
	// Seed seeds random's choices and greedy's and expert's tie-breaks.
	Seed uint64
	// HashMB is the size of alphabeta's and expert's transposition table in MiB;
	// 0 means DefaultHashMB.
	HashMB int
}

// DefaultHashMB is alphabeta's default transposition table size in MiB.
const DefaultHashMB = 16

// MaxHashMB is the largest transposition table alphabeta accepts.
const MaxHashMB = 4096

// New returns the named built-in player.
func New(name string, cfg Config) (Player, error) {
	switch name {
	case NameRandom:
		return NewRandom(cfg.Seed), nil
	case NameGreedy:
		return NewGreedy(cfg.Seed), nil
	case NameAlphaBeta:
		if cfg.HashMB < 0 || cfg.HashMB > MaxHashMB {
			return nil, fmt.Errorf("alphabeta: hash size %d MiB out of range 0..%d", cfg.HashMB, MaxHashMB)
		}
		return NewAlphaBeta(cfg.HashMB), nil
	case NameExpert:
		if cfg.HashMB < 0 || cfg.HashMB > MaxHashMB {
			return nil, fmt.Errorf("expert: hash size %d MiB out of range 0..%d", cfg.HashMB, MaxHashMB)
		}
		return NewExpert(cfg.Seed, cfg.HashMB), nil
	case NamePerfect:
		if cfg.HashMB < 0 || cfg.HashMB > MaxHashMB {
			return nil, fmt.Errorf("perfect: hash size %d MiB out of range 0..%d", cfg.HashMB, MaxHashMB)
		}
		return NewPerfect(cfg.Seed, cfg.HashMB), nil
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrUnknownBot, name, strings.Join(Names(), ", "))
}

// noMoves returns the error for choosing in a finished game.
func noMoves(st game.State) error {
	o := st.Outcome()
	return fmt.Errorf("%w: %w (%s by %s)", ErrNoMoves, game.ErrGameOver, o.Result, o.Reason)
}

// unsupported returns the error for a State of an unknown type.
func unsupported(name string, st game.State) error {
	return fmt.Errorf("%s: %w %T (want *cheversi.State or *checkers.State)", name, ErrUnsupported, st)
}
