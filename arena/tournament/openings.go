package tournament

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/configs"
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

// LoadOpenings returns the openings a configuration selects, each checked
// to be legal under cfg.Rules and to leave the game unfinished.
func LoadOpenings(cfg *Config) ([]Opening, error) {
	o := cfg.Openings
	var (
		list []Opening
		err  error
	)
	switch {
	case o.File != "":
		var data []byte
		if data, err = os.ReadFile(o.File); err != nil {
			return nil, cfg.errKey([]string{"openings", "file"}, fmt.Errorf("%w: %w", ErrOpenings, err))
		}
		if bytes.HasPrefix(data, []byte(ballotHeader)) {
			list, err = ParseBallots(bytes.NewReader(data), o.Deck)
		} else if o.Deck != "" {
			err = fmt.Errorf("%w: deck %q needs an ACF ballot table (a file starting with the %q header)", ErrOpenings, o.Deck, strings.TrimSpace(ballotHeader))
		} else {
			list, err = ParseOpenings(bytes.NewReader(data))
		}
		if err != nil {
			return nil, cfg.errKey([]string{"openings", "file"}, fmt.Errorf("%s: %w", o.File, err))
		}
	case o.Plies > 0:
		list, err = RandomOpenings(cfg.Rules, uint64(cfg.Seed), o.Plies, o.Count)
		if err != nil {
			return nil, cfg.errKey([]string{"openings", "plies"}, err)
		}
	case cfg.Rules.Game() == "checkers":
		if list, err = ParseBallots(bytes.NewReader(configs.Ballots), o.Deck); err != nil {
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
// ballots of a deck: DeckACF ("" too), DeckCTD or DeckAll.
func ParseBallots(r io.Reader, deck string) ([]Opening, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrOpenings, err)
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
	for line := 2; sc.Scan(); line++ {
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
		name := "ACF " + no
		if n := field(f, "name"); n != "" {
			name += " " + n
		}
		out = append(out, Opening{Name: name, Moves: strings.Fields(moves)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOpenings, err)
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
// with '#' are ignored. The moves are not checked against any rules.
func ParseOpenings(r io.Reader) ([]Opening, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var out []Opening
	for line := 1; sc.Scan(); line++ {
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
		out = append(out, Opening{Name: strings.TrimSpace(name), Moves: moves})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOpenings, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no openings in the file", ErrOpenings)
	}
	return out, nil
}

// RandomOpenings draws count distinct random legal openings of plies plies
// from the start position. The same rules, seed, plies and count always give
// the same openings.
func RandomOpenings(rules game.Rules, seed uint64, plies, count int) ([]Opening, error) {
	if plies <= 0 || count <= 0 {
		return nil, fmt.Errorf("%w: random openings need plies and count above zero", ErrOpenings)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e696e6773)) // stream: "openings"
	seen := make(map[string]bool, count)
	out := make([]Opening, 0, count)
	var buf []game.Move
	for attempts := 0; len(out) < count; attempts++ {
		if attempts >= 100*count+1000 {
			return nil, fmt.Errorf("%w: found only %d distinct openings of %d plies (wanted %d)", ErrOpenings, len(out), plies, count)
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
