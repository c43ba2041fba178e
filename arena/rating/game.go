package rating

import (
	"errors"
	"fmt"
	"math"

	"github.com/arena-games/arena/arena/game"
)

var (
	// ErrNoGames means there is no finished game to rate.
	ErrNoGames = errors.New("no games to rate")
	// ErrBadGame means a game record is unusable (missing or equal player
	// names, an unfinished result, an unknown colour).
	ErrBadGame = errors.New("bad game")
	// ErrBadOptions means an option is out of range.
	ErrBadOptions = errors.New("bad rating options")
	// ErrUnknownPlayer means a named player (for example the anchor) did
	// not play any of the games.
	ErrUnknownPlayer = errors.New("unknown player")
	// ErrNoConvergence means the rating fit did not converge.
	ErrNoConvergence = errors.New("rating fit did not converge")
)

// Game is one finished game as the rating code sees it.
type Game struct {
	White, Black string // player names by colour
	// FirstMover is the colour that moved first: game.White for Cheversi
	// and PGN input, game.Black for checkers.
	FirstMover game.Color
	Result     game.Result // from White's side: WhiteWins, BlackWins or Draw
	// Opening identifies the opening for the per-opening side balance; ""
	// if unknown. OpeningMoves, when known, are its moves as text.
	Opening      string
	OpeningMoves string
	// PairKey ties two games together: two games with the same non-empty
	// PairKey and the players' colours swapped are a colour-reversed pair
	// on the same opening (used for pentanomial statistics). A key names
	// one pair at a time: once its pair is complete a later game with the
	// key starts another (see Tally). "" if none.
	PairKey string
	// Forfeit marks a game decided by a forfeit (a crash, a time loss, an
	// illegal move) rather than by play. It counts for the ratings but not
	// for the side balance, which is about the rules, not the bots.
	Forfeit bool
}

// decidedByPlay reports whether g counts for the side balance, which is
// about the rules, not the bots: every first-mover figure (counted or
// fitted, overall, per player, per pair, per opening) is computed on the
// games decided by play and no others. Tally.Add is the one place that asks.
func (g Game) decidedByPlay() bool { return !g.Forfeit }

// first returns the first mover's name, the second mover's name and the
// first mover's points (0, 0.5 or 1).
func (g Game) first() (first, second string, points float64) {
	first, second = g.White, g.Black
	if g.FirstMover == game.Black {
		first, second = second, first
	}
	switch g.Result {
	case game.Draw:
		points = 0.5
	case game.Win(g.FirstMover):
		points = 1
	}
	return first, second, points
}

// pointsFor returns name's points in g (0, 0.5 or 1).
func (g Game) pointsFor(name string) float64 {
	switch g.Result {
	case game.Draw:
		return 0.5
	case game.WhiteWins:
		if name == g.White {
			return 1
		}
	case game.BlackWins:
		if name == g.Black {
			return 1
		}
	}
	return 0
}

func (g Game) validate() error {
	switch {
	case g.White == "" || g.Black == "":
		return fmt.Errorf("%w: missing player name", ErrBadGame)
	case g.White == g.Black:
		return fmt.Errorf("%w: %q plays itself", ErrBadGame, g.White)
	case g.FirstMover != game.White && g.FirstMover != game.Black:
		return fmt.Errorf("%w: first mover %v is not a colour", ErrBadGame, g.FirstMover)
	case g.Result != game.WhiteWins && g.Result != game.BlackWins && g.Result != game.Draw:
		return fmt.Errorf("%w: result %q is not a finished game", ErrBadGame, g.Result)
	}
	return nil
}

// Model selects the rating model.
type Model int

const (
	// BayesElo is the bayeselo model (the default).
	BayesElo Model = iota
	// Ordo is the ordo model.
	Ordo
)

// String returns "bayeselo" or "ordo".
func (m Model) String() string {
	switch m {
	case BayesElo:
		return "bayeselo"
	case Ordo:
		return "ordo"
	}
	return fmt.Sprintf("Model(%d)", int(m))
}

// ParseModel decodes "bayeselo" or "ordo".
func ParseModel(s string) (Model, error) {
	switch s {
	case "bayeselo":
		return BayesElo, nil
	case "ordo":
		return Ordo, nil
	}
	return 0, fmt.Errorf("%w: unknown model %q (want bayeselo or ordo)", ErrBadOptions, s)
}

// MarshalText encodes the model as its name.
func (m Model) MarshalText() ([]byte, error) {
	if m != BayesElo && m != Ordo {
		return nil, fmt.Errorf("%w: unknown model %d", ErrBadOptions, int(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText decodes a model name.
func (m *Model) UnmarshalText(b []byte) error {
	v, err := ParseModel(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Defaults used when the corresponding Options field is zero.
const (
	// DefaultPrior is bayeselo's default number of virtual draws.
	DefaultPrior = 2.0
	// DefaultConfidence is the level of every interval.
	DefaultConfidence = 0.95
	// DefaultDrawElo is bayeselo's starting drawElo, used when the data do
	// not determine the draw parameter.
	DefaultDrawElo = 97.3
	// DefaultMaxPairs is how many pairs of players an Analysis details by
	// default.
	DefaultMaxPairs = 2000
	// MaxLOSPlayers is the most players whose likelihoods of superiority
	// an Analysis gives for every two of them (Analysis.LOS); with more,
	// only each player's over the next (PlayerStats.LOSNext).
	MaxLOSPlayers = 100
)

// Options tunes the fit and the statistics. The zero value is the BayesElo
// model, centred ratings, 2 virtual draws and 95 % intervals.
type Options struct {
	// Model is the rating model.
	Model Model
	// Anchor, when not empty, fixes that player's rating at Offset instead
	// of centring the ratings of its group on Offset.
	Anchor string
	// Anchors fixes the rating of each player named (Ordo's -m multiple
	// anchors): a group of players with anchors is placed by them, a
	// group without one centred on Offset. With several anchors in a
	// group their differences constrain the fit. An Anchor and Anchors
	// may be given together.
	Anchors map[string]float64
	// Offset is added to every rating: the average of each group when
	// ratings are centred, the anchor's rating when anchored. 0 by default.
	Offset float64
	// Prior is the number of virtual draws per player that the BayesElo
	// model spreads over the pairs that met (0 means DefaultPrior). The
	// Ordo model uses it only when some players won or lost every game
	// against the others, where its ratings would otherwise be infinite.
	Prior float64
	// Confidence is the level of intervals, in (0, 1); 0 means
	// DefaultConfidence.
	Confidence float64
	// Standings says what the tournament's format adds to the standings
	// by points (byes, a knockout's places, Buchholz).
	Standings StandingOptions
	// MaxPairs bounds the pairs of players detailed in Analysis.Pairs (0
	// means DefaultMaxPairs): beyond it, the pairs nearest each other in
	// the ranking are kept, and Analysis.PairsOmitted counts the others.
	MaxPairs int
	// Reference, when not nil, is a side-balance figure from elsewhere that
	// the Analysis sets beside its own (human games of Cheversi, say; see
	// game.Referenced).
	Reference *Reference
	// Proved, when not nil, is what is proved of the game from its start
	// position under the tournament's rules (see game.Solution), which the
	// Analysis sets beside its side balance.
	Proved *game.Solution
}

func (o Options) withDefaults() (Options, error) {
	if o.Model != BayesElo && o.Model != Ordo {
		return o, fmt.Errorf("%w: unknown model %d", ErrBadOptions, int(o.Model))
	}
	if o.Prior == 0 {
		o.Prior = DefaultPrior
	}
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if o.MaxPairs <= 0 {
		o.MaxPairs = DefaultMaxPairs
	}
	switch {
	case math.IsNaN(o.Prior) || math.IsInf(o.Prior, 0) || o.Prior < 0:
		return o, fmt.Errorf("%w: prior %v is not a non-negative number", ErrBadOptions, o.Prior)
	case !(o.Confidence > 0 && o.Confidence < 1):
		return o, fmt.Errorf("%w: confidence %v is not in (0, 1)", ErrBadOptions, o.Confidence)
	case math.IsNaN(o.Offset) || math.IsInf(o.Offset, 0):
		return o, fmt.Errorf("%w: offset %v is not a number", ErrBadOptions, o.Offset)
	}
	if o.Reference != nil {
		if err := o.Reference.validate(); err != nil {
			return o, err
		}
	}
	return o, nil
}

// Reference is a side-balance figure from outside the tournament, counted
// from the first mover's side.
type Reference struct {
	Label string `json:"label"`
	// Source says where the figure comes from and how its games differ
	// from the tournament's, in a sentence for the reader.
	Source string `json:"source"`
	Wins   int    `json:"wins"`   // games the first mover won
	Draws  int    `json:"draws"`  // drawn games
	Losses int    `json:"losses"` // games the first mover lost
}

func (r Reference) validate() error {
	if r.Wins < 0 || r.Draws < 0 || r.Losses < 0 || r.Wins+r.Draws+r.Losses == 0 {
		return fmt.Errorf("%w: reference %q has no games", ErrBadOptions, r.Label)
	}
	return nil
}
