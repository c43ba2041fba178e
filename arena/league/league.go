package league

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/schedule"
)

// Files and directories of a league directory.
const (
	RosterFile  = "league.toml" // the roster: a configuration with a [league] table
	StagesDir   = "stages"      // one directory per bot that joined
	StageFile   = "stage.json"  // a stage's bot, place and pool
	StageConfig = "stage.toml"  // a stage's gauntlet, when it has games
	GamesDir    = "games"       // a stage's tournament output directory
)

// ErrDamaged marks a stage directory that cannot be read back.
var ErrDamaged = errors.New("league stage damaged")

// Stage is one bot's joining of the league.
type Stage struct {
	// Index is the bot's place in the order of joining, from 1.
	Index int `json:"index"`
	// Bot is the name the bot joined under.
	Bot string `json:"bot"`
	// Pool is the bots it plays, in the order they joined; empty for the
	// first bot.
	Pool []string `json:"pool"`
	// Joined is when the stage was laid out.
	Joined time.Time `json:"joined"`
	// Dir is the stage's directory (not stored).
	Dir string `json:"-"`
}

// Games returns the stage's tournament output directory.
func (s Stage) Games() string { return filepath.Join(s.Dir, GamesDir) }

// Config returns the path of the stage's configuration.
func (s Stage) Config() string { return filepath.Join(s.Dir, StageConfig) }

// dirName is the stage's directory name: its place and the bot's name.
func (s Stage) dirName() string {
	return fmt.Sprintf("%03d-%s", s.Index, config.SafeFileName(s.Bot))
}

// Stages reads the stages of the league directory dir in the order their
// bots joined. A stage that cannot be read, or places that do not follow
// each other, are an error wrapping ErrDamaged.
func Stages(dir string) ([]Stage, error) {
	root := filepath.Join(dir, StagesDir)
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Stage
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		s, err := readStage(filepath.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Stage) int { return a.Index - b.Index })
	seen := map[string]bool{}
	for i, s := range out {
		if s.Index != i+1 {
			return nil, fmt.Errorf("%w: %s: place %d, want %d (the stages' places run from 1 without a gap)", ErrDamaged, s.Dir, s.Index, i+1)
		}
		if seen[s.Bot] {
			return nil, fmt.Errorf("%w: %s: %q joined twice", ErrDamaged, s.Dir, s.Bot)
		}
		seen[s.Bot] = true
	}
	return out, nil
}

// readStage reads the stage of directory dir.
func readStage(dir string) (Stage, error) {
	var s Stage
	path := filepath.Join(dir, StageFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return s, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("%w: %s: %w", ErrDamaged, path, err)
	}
	s.Dir = dir
	switch {
	case s.Index < 1 || s.Bot == "":
		return s, fmt.Errorf("%w: %s: no place or no bot", ErrDamaged, path)
	case filepath.Base(dir) != s.dirName():
		return s, fmt.Errorf("%w: %s: the stage of %q at place %d belongs in %s", ErrDamaged, path, s.Bot, s.Index, s.dirName())
	case slices.Contains(s.Pool, s.Bot):
		return s, fmt.Errorf("%w: %s: %q in its own pool", ErrDamaged, path, s.Bot)
	}
	return s, nil
}

// Roster is a league's roster and what it has played.
type Roster struct {
	Dir    string
	Config *config.Config
	Stages []Stage
	// Members are the names, on the roster, of the bots that have
	// joined, in the order they joined.
	Members []string
	// canonical maps every name a stage's games use (a bot's current name
	// or an earlier one) to the bot's name on the roster, or to itself for
	// a bot taken off the roster.
	canonical map[string]string
}

// Open reads the league of directory dir: its roster (already loaded as
// cfg) and its stages.
func Open(dir string, cfg *config.Config) (*Roster, error) {
	if cfg.League == nil {
		return nil, fmt.Errorf("%s has no [league] table: a league's roster needs one (it may be empty)", cfg.Path)
	}
	stages, err := Stages(dir)
	if err != nil {
		return nil, err
	}
	r := &Roster{Dir: dir, Config: cfg, Stages: stages, canonical: map[string]string{}}
	for _, b := range cfg.Bots {
		r.canonical[b.Name] = b.Name
		for _, old := range cfg.League.Synonyms[b.Name] {
			r.canonical[old] = b.Name
		}
	}
	for _, s := range stages {
		if name, ok := r.canonical[s.Bot]; ok {
			r.Members = append(r.Members, name)
		}
	}
	return r, nil
}

// Name returns the name a bot of the league's games goes by: its name on
// the roster, which its earlier names (synonyms) map to.
func (r *Roster) Name(bot string) string {
	if name, ok := r.canonical[bot]; ok {
		return name
	}
	return bot
}

// Joined reports whether the roster's bot name has a stage.
func (r *Roster) Joined(name string) bool { return slices.Contains(r.Members, name) }

// Newcomers returns the roster's bots that have not joined, in the
// roster's order.
func (r *Roster) Newcomers() []string {
	var out []string
	for _, b := range r.Config.Bots {
		if !r.Joined(b.Name) {
			out = append(out, b.Name)
		}
	}
	return out
}

// Retired returns the names of the bots that joined and are no longer on
// the roster: their games stay in the league.
func (r *Roster) Retired() []string {
	var out []string
	for _, s := range r.Stages {
		if _, ok := r.canonical[s.Bot]; !ok {
			out = append(out, s.Bot)
		}
	}
	return out
}

// Pool returns the bots the next newcomer plays: every member, or a
// sample of Config.League.Sample of them drawn from the seed and the
// newcomer's place, in the order they joined.
func (r *Roster) Pool() []string {
	pool := slices.Clone(r.Members)
	n := r.Config.League.Sample
	if n <= 0 || n >= len(pool) {
		return pool
	}
	rng := rand.New(rand.NewPCG(uint64(r.Config.Seed), uint64(len(r.Stages)+1)))
	pick := rng.Perm(len(pool))[:n]
	slices.Sort(pick)
	out := make([]string, n)
	for i, p := range pick {
		out[i] = pool[p]
	}
	return out
}

// Join lays out the stage of the roster's bot name against pool: its
// directory, its StageFile and, when pool is not empty, its gauntlet's
// configuration, written from the roster's text. The bot becomes a
// member. A stage half written (a crash) leaves a directory without its
// StageFile, which Stages refuses: the file is written last, in one step.
func (r *Roster) Join(name string, pool []string, roster []byte) (Stage, error) {
	s := Stage{Index: len(r.Stages) + 1, Bot: name, Pool: pool, Joined: time.Now().UTC().Truncate(time.Second)}
	s.Dir = filepath.Join(r.Dir, StagesDir, s.dirName())
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return s, err
	}
	if len(pool) > 0 {
		text, err := stageText(roster, r.Config.Path, r.Config.Name, s)
		if err != nil {
			return s, err
		}
		if err := os.WriteFile(s.Config(), text, 0o644); err != nil {
			return s, err
		}
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return s, err
	}
	tmp := filepath.Join(s.Dir, StageFile+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return s, err
	}
	if err := os.Rename(tmp, filepath.Join(s.Dir, StageFile)); err != nil {
		return s, err
	}
	r.Stages = append(r.Stages, s)
	r.Members = append(r.Members, name)
	return s, nil
}

// stageText returns the configuration of stage s: the roster's, less the
// bots outside the stage and the league table, as a gauntlet of the
// newcomer against its pool.
func stageText(roster []byte, path, name string, s Stage) ([]byte, error) {
	d, err := config.ReadDocument(roster, path)
	if err != nil {
		return nil, err
	}
	d.KeepBots(append([]string{s.Bot}, s.Pool...))
	for _, o := range []config.Override{
		{Key: "league", Unset: true},
		{Key: "output", Unset: true},
		{Key: "name", Value: name + "-" + strconv.Itoa(s.Index) + "-" + s.Bot},
		{Key: "format.kind", Value: schedule.Gauntlet},
	} {
		if err := d.Set(o); err != nil {
			return nil, err
		}
	}
	if err := d.SetValue("format.players", []string{s.Bot}, "league"); err != nil {
		return nil, err
	}
	return d.Encode()
}

// LoadStage loads the configuration of stage s, whose relative paths
// (opening file, bots' commands and directories) are the roster's,
// relative to the league directory dir.
func LoadStage(dir string, s Stage) (*config.Config, error) {
	data, err := os.ReadFile(s.Config())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return config.Parse(data, s.Config(), dir)
}
