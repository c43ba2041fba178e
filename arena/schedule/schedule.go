package schedule

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/openings"

	"github.com/arena-games/arena/arena/game"
)

// Tournament formats.
const (
	RoundRobin = "round-robin" // every pair of bots meets
	Gauntlet   = "gauntlet"    // the named players meet every other bot, not each other
)

// Scheduled is one game of the schedule.
type Scheduled struct {
	ID      int    // 1-based, stable: the same configuration gives the same IDs
	Round   int    // 1-based
	Opening int    // index into Schedule.Openings
	White   string // bot playing the white pieces
	Black   string // bot playing the black pieces
	// PairKey is shared by the two games that play one opening of one
	// pairing in one round with the colours reversed.
	PairKey string
}

// Schedule is every game of a tournament, in the order they are started.
// It holds only the parameters of the layout: each game is computed from
// its ID (Game), so a schedule of millions of games takes no more memory
// than its openings and pairings.
type Schedule struct {
	Openings []openings.Opening

	rounds int
	pairs  []pairing
	total  int  // games
	once   bool // each opening of each pairing is played once, not twice
}

// pairing is one meeting of two bots; a plays White in the first game of
// each colour-reversed pair.
type pairing struct{ a, b string }

// MaxGames is the largest schedule New lays out.
const MaxGames = 100_000_000

// ErrInvalid is wrapped by errors about impossible schedules.
var ErrInvalid = errors.New("bad schedule")

// ErrTooManyGames is wrapped by the error about a schedule of more than
// MaxGames games.
var ErrTooManyGames = fmt.Errorf("%w: too many games", ErrInvalid)

// New lays out a tournament. For RoundRobin every pair of bots
// meets; for Gauntlet every bot in players meets every bot not in players.
// Each round plays every opening of every pairing twice, colours reversed;
// the games of a round are ordered by opening, then by pairing, the two
// colour assignments next to each other. A schedule of more than MaxGames
// games is refused with an error wrapping ErrTooManyGames.
func New(format string, rounds int, bots, players []string, openings []openings.Opening) (*Schedule, error) {
	return newSchedule(format, rounds, bots, players, openings, false)
}

// NewOnce lays out a tournament as New does, but plays every opening of
// every pairing once: the first bot of the pairing has White on the
// even-numbered openings of odd rounds (counting from 0 and 1) and Black
// on the others, so that the colours alternate from one opening to the
// next. Games have no PairKey. It suits bots playing themselves, whose
// two games of an opening would be alike: distinct openings measure more
// for the same games.
func NewOnce(format string, rounds int, bots, players []string, openings []openings.Opening) (*Schedule, error) {
	return newSchedule(format, rounds, bots, players, openings, true)
}

func newSchedule(format string, rounds int, bots, players []string, openings []openings.Opening, once bool) (*Schedule, error) {
	if rounds < 1 {
		return nil, fmt.Errorf("%w: rounds must be at least 1, got %d", ErrInvalid, rounds)
	}
	if len(openings) == 0 {
		return nil, fmt.Errorf("%w: no openings", ErrInvalid)
	}
	var pairs []pairing
	switch format {
	case RoundRobin:
		for i := range bots {
			for j := i + 1; j < len(bots); j++ {
				pairs = append(pairs, pairing{bots[i], bots[j]})
			}
		}
	case Gauntlet:
		for _, p := range players {
			if !slices.Contains(bots, p) {
				return nil, fmt.Errorf("%w: gauntlet player %q is not a bot", ErrInvalid, p)
			}
			for _, b := range bots {
				if !slices.Contains(players, b) {
					pairs = append(pairs, pairing{p, b})
				}
			}
		}
	default:
		return nil, fmt.Errorf("%w: unknown format %q", ErrInvalid, format)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("%w: no pairings (need at least two bots)", ErrInvalid)
	}
	colours := 2
	if once {
		colours = 1
	}
	total, ok := mulCapped(MaxGames, rounds, len(openings), len(pairs), colours)
	if !ok {
		return nil, fmt.Errorf("%w: %d rounds of %d openings × %d pairings × %d colours is more than %d games",
			ErrTooManyGames, rounds, len(openings), len(pairs), colours, MaxGames)
	}
	return &Schedule{Openings: openings, rounds: rounds, pairs: pairs, total: total, once: once}, nil
}

// Once reports whether every opening of every pairing is played once
// (NewOnce) rather than twice.
func (s *Schedule) Once() bool { return s.once }

// mulCapped returns the product of factors (all positive) and true, or
// false when it exceeds limit.
func mulCapped(limit int, factors ...int) (int, bool) {
	p := uint64(1)
	for _, f := range factors {
		hi, lo := bits.Mul64(p, uint64(f))
		if hi != 0 || lo > uint64(limit) {
			return 0, false
		}
		p = lo
	}
	return int(p), true
}

// Len returns the number of games.
func (s *Schedule) Len() int { return s.total }

// Pairs returns the number of colour-reversed pairs of games: Len()/2, or
// 0 when every opening is played once.
func (s *Schedule) Pairs() int {
	if s.once {
		return 0
	}
	return s.total / 2
}

// units returns the number of units of two consecutive games (the last
// may have one) by which slices are dealt: the colour-reversed pairs, or
// two openings played once.
func (s *Schedule) units() int { return (s.total + 1) / 2 }

// Game returns the game with the given ID, and false when the schedule has
// no such game.
func (s *Schedule) Game(id int) (Scheduled, bool) {
	if id < 1 || id > s.total {
		return Scheduled{}, false
	}
	if s.once {
		k := id - 1
		perRound := len(s.Openings) * len(s.pairs)
		round, rest := k/perRound+1, k%perRound
		opening, p := rest/len(s.pairs), s.pairs[rest%len(s.pairs)]
		g := Scheduled{ID: id, Round: round, Opening: opening, White: p.a, Black: p.b}
		if (opening+round-1)%2 == 1 {
			g.White, g.Black = p.b, p.a
		}
		return g, true
	}
	k := (id - 1) / 2 // the colour-reversed pair
	perRound := len(s.Openings) * len(s.pairs)
	round, rest := k/perRound+1, k%perRound
	opening, p := rest/len(s.pairs), s.pairs[rest%len(s.pairs)]
	g := Scheduled{ID: id, Round: round, Opening: opening, White: p.a, Black: p.b, PairKey: pairKey(round, opening, p)}
	if (id-1)%2 == 1 {
		g.White, g.Black = p.b, p.a
	}
	return g, true
}

func pairKey(round, opening int, p pairing) string {
	b := make([]byte, 0, 16+len(p.a)+len(p.b))
	b = append(b, 'r')
	b = strconv.AppendInt(b, int64(round), 10)
	b = append(b, "/o"...)
	b = strconv.AppendInt(b, int64(opening+1), 10)
	b = append(append(append(append(b, '/'), p.a...), '/'), p.b...)
	return string(b)
}

// Games iterates over every game in schedule order.
func (s *Schedule) Games() iter.Seq[Scheduled] { return s.Slice(nil) }

// Slice iterates over the games of one slice of the schedule in schedule
// order; a nil shard means every game.
func (s *Schedule) Slice(sh *Shard) iter.Seq[Scheduled] {
	first, step := 0, 1
	if sh != nil {
		first, step = sh.Index, sh.Count
	}
	return func(yield func(Scheduled) bool) {
		for k := first; k < s.units(); k += step {
			for id := 2*k + 1; id <= min(2*k+2, s.total); id++ {
				g, _ := s.Game(id)
				if !yield(g) {
					return
				}
			}
		}
	}
}

// SliceLen returns the number of games of one slice; a nil shard means
// every game.
func (s *Schedule) SliceLen(sh *Shard) int {
	if sh == nil {
		return s.total
	}
	u := s.units()
	if sh.Index >= u {
		return 0
	}
	n := 2 * ((u-sh.Index-1)/sh.Count + 1)
	if s.total%2 == 1 && (u-1)%sh.Count == sh.Index {
		n-- // the last unit has one game
	}
	return n
}

// Shard is one of Count slices of a schedule, numbered from 0: the k-th
// colour-reversed pair of games (k from 0, in schedule order) belongs to
// slice k mod Count. Every slice is thus an even sample of the schedule,
// and both colours of a pairing and opening are always in one slice. A
// schedule that plays every opening once (NewOnce) is dealt the same way,
// two consecutive games at a time.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ErrShard is wrapped by errors about a malformed or out-of-range shard.
var ErrShard = errors.New("bad shard")

// ParseShard decodes "I/N", slice I of N (0 <= I < N).
func ParseShard(text string) (Shard, error) {
	is, ns, ok := strings.Cut(text, "/")
	if !ok {
		return Shard{}, fmt.Errorf("%w %q: want I/N, slice I of N counted from 0 (for example 3/16)", ErrShard, text)
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%w %q: I and N must be whole numbers (for example 3/16)", ErrShard, text)
	}
	sh := Shard{Index: i, Count: n}
	if err := sh.Validate(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

// Validate reports whether sh names a slice: Count at least 1 and Index in
// 0..Count-1.
func (sh Shard) Validate() error {
	switch {
	case sh.Count < 1:
		return fmt.Errorf("%w %s: N must be at least 1", ErrShard, sh)
	case sh.Index < 0 || sh.Index >= sh.Count:
		return fmt.Errorf("%w %s: I must be from 0 to N-1 (%d)", ErrShard, sh, sh.Count-1)
	}
	return nil
}

// String returns "I/N".
func (sh Shard) String() string { return strconv.Itoa(sh.Index) + "/" + strconv.Itoa(sh.Count) }

// Has reports whether the game with the given ID belongs to the slice.
func (sh Shard) Has(id int) bool { return id >= 1 && ((id-1)/2)%sh.Count == sh.Index }

// SliceOf returns the index of the slice of count that holds the game.
func SliceOf(id, count int) int { return ((id - 1) / 2) % count }

// Fingerprint identifies the schedule together with the rules: two runs
// with the same fingerprint play the same games. It is a hex SHA-256 digest
// of the rules and of the parameters that determine every game (rounds,
// openings and pairings in order), so its cost does not depend on the
// number of games.
func (s *Schedule) Fingerprint(rules game.Rules) string {
	return s.FingerprintV2(rules.Game(), rules.Preset(), rules.Settings())
}

// FingerprintV2 is Fingerprint for the rules given by the game's name, the
// preset and every setting, as a manifest of version 2 records them.
func (s *Schedule) FingerprintV2(gameName, preset string, settings []game.Setting) string {
	h := sha256.New()
	b := fingerprintHead(nil, "v2", gameName, preset, settings)
	b = append(b, "rounds "...)
	b = strconv.AppendInt(b, int64(s.rounds), 10)
	b = append(b, '\n')
	if s.once {
		b = append(b, "once\n"...)
	}
	for _, o := range s.Openings {
		b = appendOpening(append(b, "opening "...), o)
		b = append(b, '\n')
		h.Write(b)
		b = b[:0]
	}
	for _, p := range s.pairs {
		b = append(b, "pair "...)
		b = strconv.AppendQuote(b, p.a)
		b = append(b, ' ')
		b = strconv.AppendQuote(b, p.b)
		b = append(b, '\n')
		h.Write(b)
		b = b[:0]
	}
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// FingerprintV1 is the fingerprint manifests of version 1 hold: a digest
// over every game, one line per game. It is computed game by game, in
// constant memory, and stops early with ctx's error.
func (s *Schedule) FingerprintV1(ctx context.Context, gameName, preset string, settings []game.Setting) (string, error) {
	h := sha256.New()
	b := fingerprintHead(nil, "v1", gameName, preset, settings)
	// Every quoted field but the numbers is formatted once: a quoted pair
	// key is the quoted names between its round and opening numbers, as
	// quoting works character by character.
	openings := make([][]byte, len(s.Openings))
	for i, o := range s.Openings {
		openings[i] = appendOpening([]byte(" opening "), o)
	}
	type quoted struct{ white, black, key []byte }
	pairs := make([][2]quoted, len(s.pairs))
	for i, p := range s.pairs {
		qa, qb := strconv.Quote(p.a), strconv.Quote(p.b)
		key := []byte("/" + qa[1:len(qa)-1] + "/" + qb[1:len(qb)-1] + "\"\n")
		pairs[i] = [2]quoted{
			{[]byte(" white " + qa), []byte(" black " + qb), key},
			{[]byte(" white " + qb), []byte(" black " + qa), key},
		}
	}
	id := 0
	for r := 1; r <= s.rounds; r++ {
		for o := range s.Openings {
			if err := ctx.Err(); err != nil {
				return "", err
			}
			for _, p := range pairs {
				for _, q := range p {
					id++
					b = append(b, "game "...)
					b = strconv.AppendInt(b, int64(id), 10)
					b = append(b, " round "...)
					b = strconv.AppendInt(b, int64(r), 10)
					b = append(b, openings[o]...)
					b = append(b, q.white...)
					b = append(b, q.black...)
					b = append(b, ` pair "r`...)
					b = strconv.AppendInt(b, int64(r), 10)
					b = append(b, "/o"...)
					b = strconv.AppendInt(b, int64(o+1), 10)
					b = append(b, q.key...)
					if len(b) >= 32<<10 {
						h.Write(b)
						b = b[:0]
					}
				}
			}
		}
	}
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fingerprintHead formats the first lines of a fingerprinted document.
// Every field is %q-quoted, so no two documents collide.
func fingerprintHead(b []byte, version, gameName, preset string, settings []game.Setting) []byte {
	b = append(b, "arena schedule "...)
	b = append(b, version...)
	b = append(b, "\ngame "...)
	b = strconv.AppendQuote(b, gameName)
	b = append(b, " preset "...)
	b = strconv.AppendQuote(b, preset)
	b = append(b, '\n')
	for _, kv := range settings {
		b = append(b, "rule "...)
		b = strconv.AppendQuote(b, kv.Key)
		b = append(b, ' ')
		b = strconv.AppendQuote(b, kv.Value)
		b = append(b, '\n')
	}
	return b
}

// appendOpening appends an opening's name and moves, each quoted, and its
// position when it has one.
func appendOpening(b []byte, o openings.Opening) []byte {
	b = strconv.AppendQuote(b, o.Name)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, strings.Join(o.Moves, " "))
	if o.Deferred() {
		b = fmt.Appendf(b, " random %d after %d seed %d", o.Random, o.After, o.Seed)
	}
	if o.Position != "" {
		b = append(b, " position "...)
		b = strconv.AppendQuote(b, o.Position)
	}
	return b
}
