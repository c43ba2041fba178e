package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/openings"
)

// OpeningsFile is the file of a sweep's output directory that holds the
// openings every variant plays, one per line.
const OpeningsFile = "openings.txt"

// resolve returns path relative to dir unless it is absolute.
func resolve(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// excluded is what the excluded configurations' openings are known by:
// their moves, the positions they reach, and each side's moves as a set
// (in a placement game the same pieces placed in another order make the
// same board, which the position text may tell apart by its last move).
type excluded struct {
	moves, positions, sets map[string]bool
}

// moveSets returns each side's moves, sorted, as one key.
func moveSets(moves []string) string {
	var sides [2][]string
	for i, m := range moves {
		sides[i%2] = append(sides[i%2], m)
	}
	slices.Sort(sides[0])
	slices.Sort(sides[1])
	return strings.Join(sides[0], " ") + " | " + strings.Join(sides[1], " ")
}

// loadExcluded reads the openings of the configurations to exclude.
func loadExcluded(ctx context.Context, paths []string) (*excluded, error) {
	ex := &excluded{moves: map[string]bool{}, positions: map[string]bool{}, sets: map[string]bool{}}
	for _, p := range paths {
		cfg, err := config.Load(p)
		if err != nil {
			return nil, fmt.Errorf("excluded openings: %w", err)
		}
		list, err := config.LoadOpenings(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("excluded openings of %s: %w", p, err)
		}
		for _, o := range list {
			if o.Deferred() {
				continue // no fixed plies to repeat
			}
			ex.moves[strings.Join(o.Moves, " ")] = true
			ex.sets[moveSets(o.Moves)] = true
			st := cfg.Rules.Start()
			for _, m := range o.Moves {
				if _, err := game.PlayText(st, m); err != nil {
					return nil, fmt.Errorf("excluded openings of %s: %s: %w", p, o, err)
				}
			}
			ex.positions[st.Text()] = true
		}
	}
	return ex, nil
}

// has reports whether an opening, which reached the position text, is
// excluded.
func (ex *excluded) has(moves []string, text string) bool {
	return ex.moves[strings.Join(moves, " ")] || ex.positions[text] || ex.sets[moveSets(moves)]
}

// sharedOpenings returns the openings every variant plays: the base's
// random openings drawn again so that each is legal under every variant
// and repeats none of the excluded ones, or the base's list as it is.
func (c *Config) sharedOpenings(ctx context.Context) ([]openings.Opening, error) {
	o := c.Base.Openings
	var rules []game.Rules
	for _, v := range c.Variants {
		r, err := c.VariantRules(v)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	ex, err := loadExcluded(ctx, c.Exclude)
	if err != nil {
		return nil, err
	}
	if o.Plies == 0 || o.After > 0 {
		list, err := config.LoadOpenings(ctx, c.Base)
		if err != nil {
			return nil, err
		}
		for i, op := range list {
			if op.Deferred() {
				if len(c.Exclude) > 0 && i == 0 {
					return nil, c.Base.KeyError([]string{"sweep", "exclude"}, errors.New("openings drawn in play (openings.after) have no fixed plies to exclude"))
				}
				continue
			}
			for k, r := range rules {
				st, err := play(r, op.Moves)
				if err != nil {
					return nil, c.Base.KeyError([]string{"openings"}, fmt.Errorf("opening %d (%s) under variant %d (%s): %w", i+1, op, k+1, VariantName(c.Variants[k]), err))
				}
				if ex.has(op.Moves, st.Text()) {
					return nil, c.Base.KeyError([]string{"openings"}, fmt.Errorf("opening %d (%s) is one of the excluded openings", i+1, op))
				}
			}
		}
		return list, nil
	}
	return c.drawOpenings(ctx, rules, ex)
}

// drawOpenings draws the base's count of distinct random openings of its
// plies under the base rules, keeping those legal (and unfinished) under
// every variant and not excluded.
func (c *Config) drawOpenings(ctx context.Context, rules []game.Rules, ex *excluded) ([]openings.Opening, error) {
	o := c.Base.Openings
	rng := rand.New(rand.NewPCG(uint64(c.Base.Seed), 0x7377656570)) // stream: "sweep"
	seen := map[string]bool{}
	out := make([]openings.Opening, 0, o.Count)
	var buf []game.Move
	for attempts := 0; len(out) < o.Count; attempts++ {
		if attempts%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if attempts >= 100*o.Count+10_000 {
			return nil, c.Base.KeyError([]string{"openings", "count"}, fmt.Errorf("found only %d openings of %d plies legal under every variant in %d draws (wanted %d)", len(out), o.Plies, attempts, o.Count))
		}
		st := c.Base.Rules.Start()
		moves := make([]string, 0, o.Plies)
		for range o.Plies {
			buf = st.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			if err := st.Play(m); err != nil {
				return nil, err
			}
			moves = append(moves, m.String())
		}
		key := strings.Join(moves, " ")
		if len(moves) < o.Plies || st.Outcome().Over() || seen[key] {
			continue
		}
		ok := true
		for _, r := range rules {
			vst, err := play(r, moves)
			if err != nil || vst.Outcome().Over() || ex.has(moves, vst.Text()) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		seen[key] = true
		out = append(out, openings.Opening{Name: fmt.Sprintf("sweep %d", len(out)+1), Moves: moves})
	}
	return out, nil
}

// play plays moves from the start position of rules.
func play(rules game.Rules, moves []string) (game.State, error) {
	st := rules.Start()
	for _, m := range moves {
		if _, err := game.PlayText(st, m); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// openingsText writes openings one per line: the moves, a tab and the
// name, as openings.Parse reads them.
func openingsText(list []openings.Opening) []byte {
	var b bytes.Buffer
	b.WriteString("# the openings every variant of the sweep plays, in order\n")
	for _, o := range list {
		fmt.Fprintf(&b, "%s\t%s\n", strings.Join(o.Moves, " "), o.Name)
	}
	return b.Bytes()
}

// writeOpenings stores the shared openings in dir, or checks that the
// stored ones are the same: a sweep resumed with other openings is another
// sweep.
func writeOpenings(dir string, list []openings.Opening) (string, error) {
	path := filepath.Join(dir, OpeningsFile)
	text := openingsText(list)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, text):
		return path, nil
	case err == nil:
		return "", fmt.Errorf("%s holds other openings than the configuration gives: this is another sweep (use another output directory, or restore the configuration)", path)
	case !errors.Is(err, os.ErrNotExist):
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Slices starting together write the same text, each through a
	// temporary file of its own.
	f, err := os.CreateTemp(dir, OpeningsFile+".*.tmp")
	if err != nil {
		return "", err
	}
	_, err = f.Write(text)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return path, nil
}
