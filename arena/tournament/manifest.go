package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/game"
)

// ManifestFile is the manifest's file name in a tournament's output
// directory.
const ManifestFile = "manifest.json"

// ErrScheduleChanged means an output directory holds a tournament whose
// schedule differs from the configuration's.
var ErrScheduleChanged = errors.New("the configuration changes the schedule of the tournament in the output directory")

// Manifest describes the tournament an output directory holds. It is
// written when the tournament starts; a later run resumes the tournament
// only if its schedule has the same fingerprint.
type Manifest struct {
	Version     int            `json:"version"`
	Name        string         `json:"name"`
	Config      string         `json:"config,omitempty"` // the configuration file it was started from
	Created     time.Time      `json:"created"`
	Fingerprint string         `json:"fingerprint"`
	Games       int            `json:"games"` // scheduled games
	Game        string         `json:"game"`
	Preset      string         `json:"preset"`
	Rules       []game.Setting `json:"rules"`
	Format      string         `json:"format"`
	Rounds      int            `json:"rounds"`
	Bots        []string       `json:"bots"`
	Players     []string       `json:"players,omitempty"`
	Openings    []Opening      `json:"openings"`
}

// NewManifest describes the tournament of cfg with schedule s.
func NewManifest(cfg *Config, s *Schedule) *Manifest {
	return &Manifest{
		Version:     1,
		Name:        cfg.Name,
		Config:      cfg.Path,
		Created:     time.Now().UTC(),
		Fingerprint: s.Fingerprint(cfg.Rules),
		Games:       len(s.Games),
		Game:        cfg.Rules.Game(),
		Preset:      cfg.Rules.Preset(),
		Rules:       cfg.Rules.Settings(),
		Format:      cfg.Format.Kind,
		Rounds:      cfg.Format.Rounds,
		Bots:        cfg.BotNames(),
		Players:     slices.Clone(cfg.Format.Players),
		Openings:    s.Openings,
	}
}

// ReadManifest reads the manifest of an output directory. The error wraps
// os.ErrNotExist when there is none.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}

// Write stores the manifest in dir atomically.
func (m *Manifest) Write(dir string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	path := filepath.Join(dir, ManifestFile)
	tmp := path + ".tmp"
	if err := writeFileSync(tmp, append(data, '\n')); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return syncDir(dir)
}

// Compatible returns nil if other (the configuration's manifest) describes
// the same schedule as m (the stored one), and otherwise an error wrapping
// ErrScheduleChanged that names what differs.
func (m *Manifest) Compatible(other *Manifest) error {
	if m.Fingerprint == other.Fingerprint {
		return nil
	}
	diff := func(what string, was, now any) error {
		return fmt.Errorf("%w: %s was %v, the configuration says %v", ErrScheduleChanged, what, was, now)
	}
	switch {
	case m.Game != other.Game:
		return diff("the game", m.Game, other.Game)
	case m.Preset != other.Preset:
		return diff("the rules preset", m.Preset, other.Preset)
	case !slices.Equal(m.Rules, other.Rules):
		return diff("the rule set", rulesText(m.Rules), rulesText(other.Rules))
	case m.Format != other.Format:
		return diff("the format", m.Format, other.Format)
	case m.Rounds != other.Rounds:
		return diff("the number of rounds", m.Rounds, other.Rounds)
	case !slices.Equal(m.Bots, other.Bots):
		return diff("the list of bots", strings.Join(m.Bots, ", "), strings.Join(other.Bots, ", "))
	case !slices.Equal(m.Players, other.Players):
		return diff("the list of gauntlet players", strings.Join(m.Players, ", "), strings.Join(other.Players, ", "))
	case len(m.Openings) != len(other.Openings):
		return diff("the number of openings", len(m.Openings), len(other.Openings))
	}
	for i := range m.Openings {
		if m.Openings[i].Name != other.Openings[i].Name || !slices.Equal(m.Openings[i].Moves, other.Openings[i].Moves) {
			return diff(fmt.Sprintf("opening %d", i+1), m.Openings[i], other.Openings[i])
		}
	}
	return fmt.Errorf("%w: the schedule fingerprint was %.12s, the configuration gives %.12s", ErrScheduleChanged, m.Fingerprint, other.Fingerprint)
}

func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
