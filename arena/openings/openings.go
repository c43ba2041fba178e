package openings

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// Opening is a fixed sequence of plies that a game begins with, from the
// game's start position or from Position, a position text in the game's
// notation (a Cheversi position text, a checkers FEN). Moves are in the
// game's canonical notation.
//
// An opening with Random plies is drawn as the game is played instead:
// the players play its first After plies from the start position, then
// the arena plays Random uniformly random legal plies, drawn from Seed,
// and the players go on. Its Moves are empty. Such openings leave the
// first plies, which some rules constrain, to the players, and still
// make every game different (see Deferred).
type Opening struct {
	Name string `json:"name,omitempty"`
	// Position is the position text the opening starts from; "" for the
	// game's start position.
	Position string   `json:"position,omitempty"`
	Moves    []string `json:"moves"`
	After    int      `json:"after,omitempty"`
	Random   int      `json:"random,omitempty"`
	Seed     uint64   `json:"seed,omitempty"`
}

// Deferred reports whether the opening's plies are drawn as the game is
// played (Random plies after the players' first After).
func (o Opening) Deferred() bool { return o.Random > 0 }

// RandomPly reports whether the ply of the given number (from 1 at the
// start position) is one the arena plays at random.
func (o Opening) RandomPly(ply int) bool { return ply > o.After && ply <= o.After+o.Random }

// String returns the opening's name, or its position and moves when it
// has none.
func (o Opening) String() string {
	if o.Name != "" {
		return o.Name
	}
	if o.Deferred() {
		return fmt.Sprintf("%d random plies after %d (seed %d)", o.Random, o.After, o.Seed)
	}
	switch {
	case o.Position != "" && len(o.Moves) > 0:
		return o.Position + " moves " + strings.Join(o.Moves, " ")
	case o.Position != "":
		return o.Position
	case len(o.Moves) == 0:
		return "start position"
	}
	return strings.Join(o.Moves, " ")
}

// StartState returns the position the opening starts from under rules:
// Position, or the start position.
func (o Opening) StartState(rules game.Rules) (game.State, error) {
	if o.Position == "" {
		return rules.Start(), nil
	}
	st, err := rules.ParseState(o.Position)
	if err != nil {
		return nil, fmt.Errorf("%w: position %q: %w", ErrInvalid, o.Position, err)
	}
	return st, nil
}

// ErrInvalid is wrapped by errors about opening files and decks.
var ErrInvalid = errors.New("bad openings")

// Opening decks of the ACF 3-move ballot file.
const (
	DeckACF = "acf" // the official 156 ballots: crossboard and mailplay, barred ones excluded
	DeckCTD = "ctd" // the 50 ballots of the "computer tough deck"
	DeckAll = "all" // all 174 ballots, barred ones included
)

// ballotHeader starts the header line of an ACF ballot table.
const ballotHeader = "acf_no\t"

// Max is the most openings a tournament takes: a longer opening
// file needs openings.limit, and openings.count may not exceed it.
const Max = 100_000

// MaxFileSize is the most an opening file may hold, in bytes;
// reading stops there (a device or a pipe that never ends is refused).
const MaxFileSize = 64 << 20

// maxOpeningLine is the longest line an opening file may have.
const maxOpeningLine = 1 << 20

// ReadFile reads an opening file: an ACF ballot table (of which it
// selects deck) or one opening per line. It passes over the first skip
// openings, keeps the next limit (0: all, up to Max) and reads no further
// than that.
func ReadFile(ctx context.Context, path, deck string, skip, limit int) ([]Opening, error) {
	f, err := openContext(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	defer f.Close()
	// Closing the file ends a read that waits on a pipe or a terminal.
	stop := context.AfterFunc(ctx, func() { f.Close() })
	defer stop()
	br := bufio.NewReader(&cappedReader{ctx: ctx, r: f, left: MaxFileSize})
	head, _ := br.Peek(len(ballotHeader))
	if string(head) == ballotHeader {
		return parseBallots(br, deck, skip, limit)
	}
	if deck != "" {
		return nil, fmt.Errorf("%w: deck %q needs an ACF ballot table (a file starting with the %q header)", ErrInvalid, deck, strings.TrimSpace(ballotHeader))
	}
	return parseOpenings(br, skip, limit)
}

// openContext opens a file for reading. Opening a named pipe waits for a
// writer: a canceled ctx ends the wait (the open goes on in the background
// and its file is closed when it returns).
func openContext(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened) // unbuffered: a file sent is a file received
	go func() {             // exits once the open returns
		f, err := os.Open(path)
		select {
		case ch <- opened{f, err}:
		case <-ctx.Done():
			if f != nil {
				f.Close()
			}
		}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// cappedReader reads at most left bytes from r, then fails; it also fails
// once ctx is canceled.
type cappedReader struct {
	ctx  context.Context
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if c.left <= 0 {
		return 0, fmt.Errorf("the file is larger than %d MiB", MaxFileSize>>20)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// scanError describes an error of a line scanner that stopped at line.
func scanError(err error, line int) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%w: line %d is longer than %d KiB", ErrInvalid, line, maxOpeningLine>>10)
	}
	return fmt.Errorf("%w: %w", ErrInvalid, err)
}

// errTooManyOpenings is the error for an opening list longer than
// Max without a limit.
func errTooManyOpenings() error {
	return fmt.Errorf("%w: more than %d openings (the most a tournament takes); set openings.limit to use the first ones", ErrInvalid, Max)
}

// Canonicalize plays o's moves from its start position, rewriting them in
// canonical notation. It fails when a move is not legal or when the game
// is over after the opening.
//
// An opening read from a line of an opening file holds the line's words as
// its moves: when they are a position text of the rules, or a position
// text, the word "moves" and moves, Canonicalize makes them the opening's
// Position (written as the rules write it) and moves.
func Canonicalize(rules game.Rules, o *Opening) error {
	if o.Deferred() && len(o.Moves) > 0 {
		return fmt.Errorf("%w: an opening drawn in play has no moves of its own", ErrInvalid)
	}
	asPosition, err := splitPosition(rules, o)
	if err != nil {
		return err
	}
	st, err := o.StartState(rules)
	if err != nil {
		return err
	}
	if o.Position != "" {
		o.Position = st.Text()
		if st.Outcome().Over() {
			return fmt.Errorf("%w: the game is over in the position", ErrInvalid)
		}
	}
	for i, text := range o.Moves {
		m, err := game.PlayText(st, text)
		if err != nil && i == 0 && asPosition != nil {
			// Neither moves nor a position: say what each reading found.
			return fmt.Errorf("%w: %q is neither moves (move 1 %q: %w) nor a position text (%v)", ErrInvalid, strings.Join(o.Moves, " "), text, err, asPosition)
		}
		if err != nil {
			return fmt.Errorf("%w: move %d %q: %w", ErrInvalid, i+1, text, err)
		}
		o.Moves[i] = m.String()
	}
	if st.Outcome().Over() {
		return fmt.Errorf("%w: the game is over after the opening", ErrInvalid)
	}
	return nil
}

// positionWord separates a position text from the moves that follow it in
// a line of an opening file, as in the protocol's position line.
const positionWord = "moves"

// splitPosition makes the position text that the words of o's moves begin
// with, if any, o's Position. When the words are no position, asPosition
// says why (for an error about words that are no moves either).
func splitPosition(rules game.Rules, o *Opening) (asPosition, err error) {
	if o.Position != "" || len(o.Moves) == 0 {
		return nil, nil
	}
	if i := slices.Index(o.Moves, positionWord); i > 0 {
		text := strings.Join(o.Moves[:i], " ")
		if _, err := rules.ParseState(text); err != nil {
			return nil, fmt.Errorf("%w: position %q (before %q): %w", ErrInvalid, text, positionWord, err)
		}
		o.Position, o.Moves = text, slices.Clone(o.Moves[i+1:])
		return nil, nil
	}
	text := strings.Join(o.Moves, " ")
	_, asPosition = rules.ParseState(text)
	if asPosition == nil {
		o.Position, o.Moves = text, []string{}
	}
	return asPosition, nil
}

// ParseBallots reads an ACF ballot table (tab-separated, with a header
// naming at least the acf_no, moves, class and ctd columns) and returns the
// ballots of a deck: DeckACF ("" too), DeckCTD or DeckAll. A table of more
// than Max ballots in the deck is refused.
func ParseBallots(r io.Reader, deck string) ([]Opening, error) {
	return parseBallots(r, deck, 0, 0)
}

// parseBallots is ParseBallots passing over the first skip ballots of the
// deck and keeping the next limit (0: all, up to Max), reading no further.
func parseBallots(r io.Reader, deck string, skip, limit int) ([]Opening, error) {
	skipping := skip > 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxOpeningLine)
	cols, err := ballotHeaderOf(sc)
	if err != nil {
		return nil, err
	}
	switch deck {
	case "", DeckACF, DeckCTD, DeckAll:
	default:
		return nil, fmt.Errorf("%w: unknown deck %q", ErrInvalid, deck)
	}
	var out []Opening
	line := 2
	for ; (limit == 0 || len(out) < limit) && sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		o, in, err := cols.ballot(strings.Split(text, "\t"), deck)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%w: ballot table line %d: %w", ErrInvalid, line, err)
		case !in:
			continue
		case skip > 0:
			skip--
			continue
		case len(out) == Max:
			return nil, errTooManyOpenings()
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(err, line)
	}
	if len(out) == 0 && skipping {
		return nil, fmt.Errorf("%w: ballot table: the deck %q has fewer ballots than the start asks to pass over", ErrInvalid, deck)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: ballot table: no ballots in deck %q", ErrInvalid, deck)
	}
	return out, nil
}

// ballotColumns are the columns of a ballot table, by name.
type ballotColumns map[string]int

// ballotHeaderOf reads the header line of a ballot table.
func ballotHeaderOf(sc *bufio.Scanner) (ballotColumns, error) {
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, scanError(err, 1)
		}
		return nil, fmt.Errorf("%w: empty ballot table", ErrInvalid)
	}
	cols := ballotColumns{}
	for i, h := range strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t") {
		cols[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"acf_no", "moves", "class", "ctd"} {
		if _, ok := cols[need]; !ok {
			return nil, fmt.Errorf("%w: ballot table: no %q column in the header", ErrInvalid, need)
		}
	}
	return cols, nil
}

// field returns the named field of a line's fields, "" when it has none.
func (c ballotColumns) field(f []string, name string) string {
	if i, ok := c[name]; ok && i < len(f) {
		return strings.TrimSpace(f[i])
	}
	return ""
}

// ballot returns the ballot of a line's fields, and whether it is in deck.
func (c ballotColumns) ballot(f []string, deck string) (o Opening, in bool, err error) {
	no, moves, class := c.field(f, "acf_no"), c.field(f, "moves"), c.field(f, "class")
	if no == "" || moves == "" || class == "" {
		return o, false, errors.New("missing acf_no, moves or class")
	}
	barred := class == "barred"
	ctd := strings.EqualFold(c.field(f, "ctd"), "ctd")
	switch {
	case deck == DeckCTD && !ctd:
		return o, false, nil
	case (deck == "" || deck == DeckACF) && barred:
		return o, false, nil
	}
	name := "ACF " + no
	if n := c.field(f, "name"); n != "" {
		name += " " + n
	}
	return Opening{Name: name, Moves: strings.Fields(moves)}, true, nil
}

// moveNumber matches PGN move numbers ("1.", "12...") in an opening line.
var moveNumber = regexp.MustCompile(`^[0-9]+\.+$`)

// Parse reads a file of openings: one opening per line, moves separated
// by spaces, or a position text optionally followed by the word "moves"
// and moves, then optionally a tab and a name. PGN move numbers ("1.") are
// skipped; blank lines and lines starting with '#' are ignored. The words
// are not checked against any rules: Canonicalize tells a position from
// moves and checks both. A file of more than Max openings is refused.
func Parse(r io.Reader) ([]Opening, error) {
	return parseOpenings(r, 0, 0)
}

// parseOpenings is Parse passing over the first skip openings and keeping
// the next limit (0: all, up to Max), reading no further.
func parseOpenings(r io.Reader, skip, limit int) ([]Opening, error) {
	skipping := skip > 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxOpeningLine)
	var out []Opening
	line := 1
	for ; (limit == 0 || len(out) < limit) && sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		movesText, name, _ := strings.Cut(text, "\t")
		var moves []string
		for _, tok := range strings.Fields(movesText) {
			if moveNumber.MatchString(tok) {
				continue
			}
			moves = append(moves, tok)
		}
		if len(moves) == 0 {
			return nil, fmt.Errorf("%w: line %d: no moves", ErrInvalid, line)
		}
		if skip > 0 {
			skip--
			continue
		}
		if len(out) == Max {
			return nil, errTooManyOpenings()
		}
		out = append(out, Opening{Name: strings.TrimSpace(name), Moves: moves})
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(err, line)
	}
	if len(out) == 0 && skipping {
		return nil, fmt.Errorf("%w: the file has fewer openings than the start asks to pass over", ErrInvalid)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no openings in the file", ErrInvalid)
	}
	return out, nil
}

// Random draws count distinct random legal openings of plies plies
// from the start position. The same rules, seed, plies and count always give
// the same openings. It refuses a count above Max or above the
// number of distinct openings of that length, and stops early with ctx's
// error when ctx is canceled.
func Random(ctx context.Context, rules game.Rules, seed uint64, plies, count int) ([]Opening, error) {
	if plies <= 0 || count <= 0 {
		return nil, fmt.Errorf("%w: random openings need plies and count above zero", ErrInvalid)
	}
	if count > Max {
		return nil, fmt.Errorf("%w: %d openings asked for, more than the %d a tournament takes", ErrInvalid, count, Max)
	}
	n, exact, err := countOpenings(ctx, rules, plies, count, 4*count+10_000)
	if err != nil {
		return nil, err
	}
	if exact && n < count {
		return nil, fmt.Errorf("%w: %d openings of %d plies asked for, but only %d exist", ErrInvalid, count, plies, n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e696e6773)) // stream: "openings"
	seen := make(map[string]bool, count)
	out := make([]Opening, 0, count)
	var buf []game.Move
	for attempts := 0; len(out) < count; attempts++ {
		if attempts%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if attempts >= 100*count+1000 || attempts >= 10_000 && len(out) == 0 {
			return nil, fmt.Errorf("%w: found only %d distinct openings of %d plies in %d draws (wanted %d)", ErrInvalid, len(out), plies, attempts, count)
		}
		st := rules.Start()
		moves := make([]string, 0, plies)
		ok := true
		for range plies {
			buf = st.LegalMoves(buf[:0])
			if len(buf) == 0 {
				ok = false
				break
			}
			m := buf[rng.IntN(len(buf))]
			moves = append(moves, m.String())
			if err := st.Play(m); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
			}
		}
		if !ok || st.Outcome().Over() {
			continue
		}
		key := strings.Join(moves, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Opening{Name: fmt.Sprintf("random %d", len(out)+1), Moves: moves})
	}
	return out, nil
}

// Deferred returns count openings whose random plies are drawn as the
// games are played: after the players' first after plies, plies random
// plies, each opening with its own seed drawn from seed. The same
// arguments give the same openings, and so the same random plies wherever
// the players' plies are the same: variants of a game played on them are
// paired by opening.
func Deferred(seed uint64, after, plies, count int) ([]Opening, error) {
	if after < 0 || plies <= 0 || count <= 0 {
		return nil, fmt.Errorf("%w: deferred random openings need plies and count above zero, and after not below", ErrInvalid)
	}
	if count > Max {
		return nil, fmt.Errorf("%w: %d openings asked for, more than the %d a tournament takes", ErrInvalid, count, Max)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6465666572726564)) // stream: "deferred"
	out := make([]Opening, count)
	for i := range out {
		out[i] = Opening{Name: fmt.Sprintf("random %d after %d", i+1, after), Moves: []string{}, After: after, Random: plies, Seed: rng.Uint64()}
	}
	return out, nil
}

// Orders of an opening list (the order key of the openings table).
const (
	OrderSequential = "sequential" // as the file or the deck lists them
	OrderRandom     = "random"     // shuffled, by a seed
)

// Shuffle puts list in a random order drawn from seed: the same list and
// seed always give the same order.
func Shuffle(list []Opening, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6f72646572)) // stream: "order"
	rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
}

// Player returns the random source of the plies of a deferred opening, the
// same for every game played on it.
func (o Opening) Player() *rand.Rand {
	return rand.New(rand.NewPCG(o.Seed, 0x706c69657321)) // stream: "plies!"
}

// PlayRandom plays one uniformly random legal ply of st drawn from rng and
// returns its text; ok is false when st has no legal move.
func PlayRandom(st game.State, rng *rand.Rand) (text string, ok bool, err error) {
	legal := st.LegalMoves(nil)
	if len(legal) == 0 {
		return "", false, nil
	}
	m := legal[rng.IntN(len(legal))]
	if err := st.Play(m); err != nil {
		return "", false, err
	}
	return m.String(), true, nil
}

// countOpenings counts the distinct openings of plies plies (move
// sequences from the start that leave the game unfinished), stopping at
// want. It visits at most budget positions: exact reports whether the count
// is complete (every opening counted, or want reached).
func countOpenings(ctx context.Context, rules game.Rules, plies, want, budget int) (n int, exact bool, err error) {
	var walk func(st game.State, depth int) bool // false: stop
	bufs := make([][]game.Move, plies)
	walk = func(st game.State, depth int) bool {
		if budget--; budget < 0 {
			return false
		}
		if budget%1024 == 0 && ctx.Err() != nil {
			err = ctx.Err()
			return false
		}
		if depth == plies {
			if !st.Outcome().Over() {
				n++
			}
			return n < want
		}
		bufs[depth] = st.LegalMoves(bufs[depth][:0])
		for _, m := range bufs[depth] {
			child := st.Clone()
			if child.Play(m) != nil || !walk(child, depth+1) {
				return false
			}
		}
		return true
	}
	complete := walk(rules.Start(), 0)
	return n, complete || n >= want, err
}
