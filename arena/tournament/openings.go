package tournament

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"

	"github.com/arena-games/arena/arena/game"
)

// Opening is a fixed sequence of plies from the start position that a game
// begins with. Moves are in the game's canonical notation.
type Opening struct {
	Name  string   `json:"name,omitempty"`
	Moves []string `json:"moves"`
}

// String returns the opening's name, or its moves when it has none.
func (o Opening) String() string {
	if o.Name != "" {
		return o.Name
	}
	if len(o.Moves) == 0 {
		return "start position"
	}
	return strings.Join(o.Moves, " ")
}

// ErrOpenings is wrapped by errors about opening files and decks.
var ErrOpenings = errors.New("bad openings")

// ballotHeader starts the header line of an ACF ballot table.
const ballotHeader = "acf_no\t"

// MaxOpenings is the most openings a tournament takes: a longer opening
// file needs openings.limit, and openings.count may not exceed it.
const MaxOpenings = 100_000

// MaxOpeningsFileSize is the most an opening file may hold, in bytes;
// reading stops there (a device or a pipe that never ends is refused).
const MaxOpeningsFileSize = 64 << 20

// maxOpeningLine is the longest line an opening file may have.
const maxOpeningLine = 1 << 20

// LoadOpenings returns the openings a configuration selects, each checked
// to be legal under cfg.Rules and to leave the game unfinished. An opening
// file is read only as far as needed: up to openings.limit openings, and
// never more than MaxOpenings openings or MaxOpeningsFileSize bytes. It
// stops early with ctx's error when ctx is canceled.
func LoadOpenings(ctx context.Context, cfg *Config) ([]Opening, error) {
	list, err := loadOpenings(ctx, cfg)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return list, err
}

func loadOpenings(ctx context.Context, cfg *Config) ([]Opening, error) {
	o := cfg.Openings
	var (
		list []Opening
		err  error
	)
	switch {
	case o.File != "":
		if list, err = readOpeningsFile(ctx, o.File, o.Deck, o.Limit); err != nil {
			return nil, cfg.errKey([]string{"openings", "file"}, fmt.Errorf("%s: %w", o.File, err))
		}
	case o.Plies > 0:
		list, err = RandomOpenings(ctx, cfg.Rules, uint64(cfg.Seed), o.Plies, o.Count)
		if err != nil {
			return nil, cfg.errKey([]string{"openings", "count"}, err)
		}
	case ballots(cfg.Rules) != nil:
		if list, err = ParseBallots(ballots(cfg.Rules).Ballots(), o.Deck); err != nil {
			return nil, cfg.errKey([]string{"openings"}, err)
		}
	default:
		if o.Deck != "" {
			return nil, cfg.errKey([]string{"openings", "deck"}, fmt.Errorf("%w: ballots are checkers openings", ErrOpenings))
		}
		list = []Opening{{Name: "start position", Moves: []string{}}}
	}
	if o.Limit > 0 && o.Limit < len(list) {
		list = list[:o.Limit]
	}
	for i := range list {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err := CanonicalizeOpening(cfg.Rules, &list[i]); err != nil {
			key := "file"
			if o.File == "" {
				key = "deck"
			}
			return nil, cfg.errKey([]string{"openings", key}, fmt.Errorf("opening %d (%s): %w", i+1, list[i], err))
		}
	}
	return list, nil
}

// ballots returns the table of standard openings of rules, nil when it
// has none.
func ballots(rules game.Rules) game.Ballots {
	b, _ := rules.(game.Ballots)
	return b
}

// readOpeningsFile reads an opening file: an ACF ballot table (of which it
// selects deck) or one opening per line. It keeps the first limit openings
// (0: all, up to MaxOpenings) and reads no further than that.
func readOpeningsFile(ctx context.Context, path, deck string, limit int) ([]Opening, error) {
	f, err := openContext(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOpenings, err)
	}
	defer f.Close()
	// Closing the file ends a read that waits on a pipe or a terminal.
	stop := context.AfterFunc(ctx, func() { f.Close() })
	defer stop()
	br := bufio.NewReader(&cappedReader{ctx: ctx, r: f, left: MaxOpeningsFileSize})
	head, _ := br.Peek(len(ballotHeader))
	if string(head) == ballotHeader {
		return parseBallots(br, deck, limit)
	}
	if deck != "" {
		return nil, fmt.Errorf("%w: deck %q needs an ACF ballot table (a file starting with the %q header)", ErrOpenings, deck, strings.TrimSpace(ballotHeader))
	}
	return parseOpenings(br, limit)
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
		return 0, fmt.Errorf("the file is larger than %d MiB", MaxOpeningsFileSize>>20)
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
		return fmt.Errorf("%w: line %d is longer than %d KiB", ErrOpenings, line, maxOpeningLine>>10)
	}
	return fmt.Errorf("%w: %w", ErrOpenings, err)
}

// errTooManyOpenings is the error for an opening list longer than
// MaxOpenings without a limit.
func errTooManyOpenings() error {
	return fmt.Errorf("%w: more than %d openings (the most a tournament takes); set openings.limit to use the first ones", ErrOpenings, MaxOpenings)
}

// CanonicalizeOpening plays o's moves from the start position, rewriting
// them in canonical notation. It fails when a move is not legal or when the
// game is over after the opening.
func CanonicalizeOpening(rules game.Rules, o *Opening) error {
	st := rules.Start()
	for i, text := range o.Moves {
		m, err := game.PlayText(st, text)
		if err != nil {
			return fmt.Errorf("%w: move %d %q: %w", ErrOpenings, i+1, text, err)
		}
		o.Moves[i] = m.String()
	}
	if st.Outcome().Over() {
		return fmt.Errorf("%w: the game is over after the opening", ErrOpenings)
	}
	return nil
}

// ParseBallots reads an ACF ballot table (tab-separated, with a header
// naming at least the acf_no, moves, class and ctd columns) and returns the
// ballots of a deck: DeckACF ("" too), DeckCTD or DeckAll. A table of more
// than MaxOpenings ballots in the deck is refused.
func ParseBallots(r io.Reader, deck string) ([]Opening, error) {
	return parseBallots(r, deck, 0)
}

// parseBallots is ParseBallots keeping the first limit ballots (0: all, up
// to MaxOpenings) and reading no further.
func parseBallots(r io.Reader, deck string, limit int) ([]Opening, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxOpeningLine)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, scanError(err, 1)
		}
		return nil, fmt.Errorf("%w: empty ballot table", ErrOpenings)
	}
	col := map[string]int{}
	for i, h := range strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t") {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"acf_no", "moves", "class", "ctd"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%w: ballot table: no %q column in the header", ErrOpenings, need)
		}
	}
	switch deck {
	case "", DeckACF, DeckCTD, DeckAll:
	default:
		return nil, fmt.Errorf("%w: unknown deck %q", ErrOpenings, deck)
	}
	field := func(f []string, name string) string {
		if i, ok := col[name]; ok && i < len(f) {
			return strings.TrimSpace(f[i])
		}
		return ""
	}
	var out []Opening
	line := 2
	for ; (limit == 0 || len(out) < limit) && sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		no, moves, class := field(f, "acf_no"), field(f, "moves"), field(f, "class")
		if no == "" || moves == "" || class == "" {
			return nil, fmt.Errorf("%w: ballot table line %d: missing acf_no, moves or class", ErrOpenings, line)
		}
		barred := class == "barred"
		ctd := strings.EqualFold(field(f, "ctd"), "ctd")
		switch {
		case deck == DeckCTD && !ctd:
			continue
		case (deck == "" || deck == DeckACF) && barred:
			continue
		}
		if len(out) == MaxOpenings {
			return nil, errTooManyOpenings()
		}
		name := "ACF " + no
		if n := field(f, "name"); n != "" {
			name += " " + n
		}
		out = append(out, Opening{Name: name, Moves: strings.Fields(moves)})
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(err, line)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: ballot table: no ballots in deck %q", ErrOpenings, deck)
	}
	return out, nil
}

// moveNumber matches PGN move numbers ("1.", "12...") in an opening line.
var moveNumber = regexp.MustCompile(`^[0-9]+\.+$`)

// ParseOpenings reads a file of opening move sequences: one opening per
// line, moves separated by spaces, optionally followed by a tab and a
// name. PGN move numbers ("1.") are skipped; blank lines and lines starting
// with '#' are ignored. The moves are not checked against any rules. A file
// of more than MaxOpenings openings is refused.
func ParseOpenings(r io.Reader) ([]Opening, error) {
	return parseOpenings(r, 0)
}

// parseOpenings is ParseOpenings keeping the first limit openings (0: all,
// up to MaxOpenings) and reading no further.
func parseOpenings(r io.Reader, limit int) ([]Opening, error) {
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
			return nil, fmt.Errorf("%w: line %d: no moves", ErrOpenings, line)
		}
		if len(out) == MaxOpenings {
			return nil, errTooManyOpenings()
		}
		out = append(out, Opening{Name: strings.TrimSpace(name), Moves: moves})
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(err, line)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no openings in the file", ErrOpenings)
	}
	return out, nil
}

// RandomOpenings draws count distinct random legal openings of plies plies
// from the start position. The same rules, seed, plies and count always give
// the same openings. It refuses a count above MaxOpenings or above the
// number of distinct openings of that length, and stops early with ctx's
// error when ctx is canceled.
func RandomOpenings(ctx context.Context, rules game.Rules, seed uint64, plies, count int) ([]Opening, error) {
	if plies <= 0 || count <= 0 {
		return nil, fmt.Errorf("%w: random openings need plies and count above zero", ErrOpenings)
	}
	if count > MaxOpenings {
		return nil, fmt.Errorf("%w: %d openings asked for, more than the %d a tournament takes", ErrOpenings, count, MaxOpenings)
	}
	n, exact, err := countOpenings(ctx, rules, plies, count, 4*count+10_000)
	if err != nil {
		return nil, err
	}
	if exact && n < count {
		return nil, fmt.Errorf("%w: %d openings of %d plies asked for, but only %d exist", ErrOpenings, count, plies, n)
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
			return nil, fmt.Errorf("%w: found only %d distinct openings of %d plies in %d draws (wanted %d)", ErrOpenings, len(out), plies, attempts, count)
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
				return nil, fmt.Errorf("%w: %w", ErrOpenings, err)
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
