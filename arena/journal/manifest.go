package journal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/rating"
)

// ManifestFile is the manifest's file name in a tournament's output
// directory.
const ManifestFile = "manifest.json"

// OpeningsFile is the file, in a slice's output directory, of the
// tournament's openings, which the slice's manifest names by digest
// (Manifest.OpeningsDigest) rather than holding a copy of them.
const OpeningsFile = "openings.json"

// EndPositionsFile is the file of a tournament's end positions, in its
// output directory (see Manifest.EndPositions).
const EndPositionsFile = "end-positions.txt"

// ErrScheduleChanged means an output directory holds a tournament whose
// schedule differs from the configuration's.
var ErrScheduleChanged = errors.New("the configuration changes the schedule of the tournament in the output directory")

// ErrOtherShard means an output directory holds another slice of the
// tournament (or the whole of it, or a slice where the whole was asked for).
var ErrOtherShard = errors.New("the output directory holds another slice of the tournament")

// ManifestVersion is the version of the manifests NewManifest writes.
// Version 1 had no shard and a fingerprint over every game (still read and
// resumed); version 2 records the shard and fingerprints the schedule's
// parameters.
const ManifestVersion = 2

// Manifest describes the tournament an output directory holds. It is
// written when the tournament starts; a later run resumes the tournament
// only if its schedule has the same fingerprint and the run asks for the
// same slice.
type Manifest struct {
	Version     int       `json:"version"`
	Name        string    `json:"name"`
	Config      string    `json:"config,omitempty"` // the configuration file it was started from
	Created     time.Time `json:"created"`
	Fingerprint string    `json:"fingerprint"` // of the whole schedule, also in a slice's directory
	// Shard is the slice of the schedule the directory holds; nil for
	// the whole tournament.
	Shard   *schedule.Shard `json:"shard,omitempty"`
	Games   int             `json:"games"` // scheduled games: the slice's when Shard is set
	Game    string          `json:"game"`
	Preset  string          `json:"preset"`
	Rules   []game.Setting  `json:"rules"`
	Format  string          `json:"format"`
	Rounds  int             `json:"rounds"`
	Bots    []string        `json:"bots"`
	Players []string        `json:"players,omitempty"`
	// Once is set when every opening of every pairing is played once
	// (schedule.NewOnce) rather than twice.
	Once bool `json:"once,omitempty"`
	// Plan lays out a Swiss or knockout (schedule.NewRounds); nil for the
	// other formats. Games is then the number of games expected (see
	// schedule.Rounds.Expected), set to those played once it finishes.
	Plan     *schedule.Plan     `json:"plan,omitempty"`
	Openings []openings.Opening `json:"openings,omitempty"`
	// OpeningsDigest, in a slice's manifest, is the SHA-256 of its
	// OpeningsFile, which holds the openings in the manifest's place, so
	// that reading the manifests of many slices (arena merge) costs one
	// copy of the openings, not one per slice. ReadManifest reads the file
	// into Openings and checks it against the digest.
	OpeningsDigest string `json:"openings_digest,omitempty"`
	// SPRT is the sequential test that may stop the match early, nil
	// without one. It is not part of the schedule: a run with another
	// test updates it.
	SPRT *rating.SPRTParams `json:"sprt,omitempty"`
	// EndPositions asks for the file of the games' end positions
	// (EndPositionsFile), written with the reports. It is not part of the
	// schedule: a run that asks otherwise updates it.
	EndPositions bool `json:"end_positions,omitempty"`
	// Setups records how each bot was started when the tournament
	// began, for the reports; a resumed tournament may have started its
	// bots differently. It is not part of the schedule.
	Setups []BotSetup `json:"setups,omitempty"`
}

// BotSetup is how a bot was started: its built-in name or command, its
// arguments and protocol options, its time control and the search limits
// the arena sends it (0 when none).
type BotSetup struct {
	Name    string         `json:"name"`
	Builtin string         `json:"builtin,omitempty"`
	Command string         `json:"command,omitempty"`
	Args    []string       `json:"args,omitempty"`
	Options map[string]any `json:"options,omitempty"`
	Time    string         `json:"time"`
	Nodes   int64          `json:"nodes,omitempty"`
	Depth   int            `json:"depth,omitempty"`
	// MarginMS is the margin of its time control, in milliseconds: the
	// reports count the moves whose latency stayed within it.
	MarginMS float64 `json:"margin_ms,omitempty"`
	// Limits describes its limits and sandbox as this machine gave them
	// ("" without any).
	Limits string `json:"limits,omitempty"`
}

// DataKey digests everything that decides the tournament's games: the
// schedule's fingerprint (the rules, the openings, the pairings) and how
// every bot plays (its name, its program or built-in name, arguments and
// options, its time control and search limits). Two tournaments with one
// key play the same games when their bots are deterministic, as
// node-limited built-in bots are; a fingerprint alone does not tell two
// strengths apart. The time margin, which decides only what counts as a
// loss on time, and the process limits are left out.
func (m *Manifest) DataKey() string {
	bots := make([]BotSetup, len(m.Setups))
	for i, s := range m.Setups {
		// What does not decide the games is left out: zero, its
		// omitempty field is not written.
		s.MarginMS, s.Limits = 0, ""
		bots[i] = s
	}
	h := sha256.New()
	h.Write([]byte(m.Fingerprint + "\n"))
	data, _ := json.Marshal(bots)
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// ReadManifest reads the manifest of an output directory, with its
// openings (from OpeningsFile, for a slice). The error wraps
// os.ErrNotExist when there is none.
func ReadManifest(dir string) (*Manifest, error) {
	m, err := readManifestHead(dir)
	if err != nil {
		return nil, err
	}
	if err := m.loadOpenings(dir); err != nil {
		return nil, err
	}
	return m, nil
}

// loadOpenings reads the openings a manifest names by digest from dir's
// OpeningsFile, checking them against the digest.
func (m *Manifest) loadOpenings(dir string) error {
	if m.OpeningsDigest == "" || m.Openings != nil {
		return nil
	}
	path := filepath.Join(dir, OpeningsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read the openings of %s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if d := digestOf(data); d != m.OpeningsDigest {
		return fmt.Errorf("read %s: its digest is %.12s, the manifest names openings of digest %.12s (the file was changed or replaced)", path, d, m.OpeningsDigest)
	}
	if err := json.Unmarshal(data, &m.Openings); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// readManifestHead reads the manifest of an output directory, without the
// openings a slice's manifest names by digest.
func readManifestHead(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", filepath.Join(dir, ManifestFile), err)
	}
	switch {
	case m.Version > ManifestVersion:
		return nil, fmt.Errorf("read manifest %s: version %d is from a newer arena (this one reads up to %d)", filepath.Join(dir, ManifestFile), m.Version, ManifestVersion)
	case m.Shard != nil:
		if err := m.Shard.Validate(); err != nil {
			return nil, fmt.Errorf("read manifest %s: %w", filepath.Join(dir, ManifestFile), err)
		}
	}
	return &m, nil
}

// Write stores the manifest in dir atomically. A slice's manifest names
// its openings by digest (OpeningsDigest), and they are written to
// OpeningsFile first.
func (m *Manifest) Write(dir string) error {
	head := m
	if m.Shard != nil && m.Openings != nil {
		ops, err := json.Marshal(m.Openings)
		if err != nil {
			return fmt.Errorf("write manifest: %w", err)
		}
		m.OpeningsDigest = digestOf(ops)
		if err := writeAtomic(dir, OpeningsFile, ops); err != nil {
			return fmt.Errorf("write manifest: %w", err)
		}
		c := *m
		c.Openings = nil
		head = &c
	}
	data, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := writeAtomic(dir, ManifestFile, append(data, '\n')); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

// writeAtomic writes data to dir/name through a temporary file, synced.
func writeAtomic(dir, name string, data []byte) error {
	path := filepath.Join(dir, name)
	tmp := path + ".tmp"
	if err := writeFileSync(tmp, data); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// Compatible returns nil if other (the configuration's manifest) describes
// the same schedule and slice as m (the stored one). Otherwise it returns an
// error wrapping ErrScheduleChanged that names what differs, or, for the
// same schedule, one wrapping ErrOtherShard.
func (m *Manifest) Compatible(other *Manifest) error {
	if m.Fingerprint == other.Fingerprint {
		return m.sameShard(other)
	}
	if err := m.layoutDiff(other); err != nil {
		return err
	}
	if err := m.planDiff(other); err != nil {
		return err
	}
	for i := range m.Openings {
		a, b := m.Openings[i], other.Openings[i]
		if a.Name != b.Name || !slices.Equal(a.Moves, b.Moves) || a.After != b.After || a.Random != b.Random || a.Seed != b.Seed {
			return scheduleDiff(fmt.Sprintf("opening %d", i+1), m.Openings[i], other.Openings[i])
		}
	}
	return fmt.Errorf("%w: the schedule fingerprint was %.12s, the configuration gives %.12s", ErrScheduleChanged, m.Fingerprint, other.Fingerprint)
}

// scheduleDiff is the ErrScheduleChanged saying that what was was and is
// now.
func scheduleDiff(what string, was, now any) error {
	return fmt.Errorf("%w: %s was %v, the configuration says %v", ErrScheduleChanged, what, was, now)
}

// layoutDiff returns the first difference between the game, the format,
// the bots and the number of openings of m and other, as an
// ErrScheduleChanged, or nil.
func (m *Manifest) layoutDiff(other *Manifest) error {
	switch {
	case m.Game != other.Game:
		return scheduleDiff("the game", m.Game, other.Game)
	case m.Preset != other.Preset:
		return scheduleDiff("the rules preset", m.Preset, other.Preset)
	case !slices.Equal(m.Rules, other.Rules):
		return scheduleDiff("the rule set", RulesText(m.Rules), RulesText(other.Rules))
	case m.Format != other.Format:
		return scheduleDiff("the format", m.Format, other.Format)
	case m.Rounds != other.Rounds:
		return scheduleDiff("the number of rounds", m.Rounds, other.Rounds)
	case m.Once != other.Once:
		return scheduleDiff("playing every opening once", m.Once, other.Once)
	case !slices.Equal(m.Bots, other.Bots):
		return scheduleDiff("the list of bots", strings.Join(m.Bots, ", "), strings.Join(other.Bots, ", "))
	case !slices.Equal(m.Players, other.Players):
		return scheduleDiff("the list of gauntlet players", strings.Join(m.Players, ", "), strings.Join(other.Players, ", "))
	case len(m.Openings) != len(other.Openings):
		return scheduleDiff("the number of openings", len(m.Openings), len(other.Openings))
	}
	return nil
}

// planDiff returns the first difference between the plans of Swiss or
// knockout rounds of m and other, as an ErrScheduleChanged, or nil.
func (m *Manifest) planDiff(other *Manifest) error {
	switch {
	case (m.Plan == nil) != (other.Plan == nil):
		return scheduleDiff("the format", m.Format, other.Format)
	case m.Plan == nil:
		return nil
	case !slices.Equal(m.Plan.Seeds, other.Plan.Seeds):
		return scheduleDiff("the seeding", strings.Join(m.Plan.Seeds, ", "), strings.Join(other.Plan.Seeds, ", "))
	case m.Plan.Games != other.Plan.Games || m.Plan.TiebreakPairs != other.Plan.TiebreakPairs || m.Plan.Decider != other.Plan.Decider ||
		m.Plan.TiebreakTime != other.Plan.TiebreakTime:
		return scheduleDiff("the knockout's matches", planMatches(m.Plan), planMatches(other.Plan))
	case m.Plan.ByeHalfPoints != other.Plan.ByeHalfPoints:
		return scheduleDiff("the points of a bye", float64(m.Plan.ByeHalfPoints)/2, float64(other.Plan.ByeHalfPoints)/2)
	}
	return nil
}

// sameShard returns nil if m and other hold the same slice (or both the
// whole tournament), otherwise an error wrapping ErrOtherShard.
func (m *Manifest) sameShard(other *Manifest) error {
	switch {
	case m.Shard == nil && other.Shard == nil:
		return nil
	case m.Shard == nil:
		return fmt.Errorf("%w: it holds the whole tournament, not slice %s", ErrOtherShard, other.Shard)
	case other.Shard == nil:
		return fmt.Errorf("%w: it holds slice %s, not the whole tournament (resume it with --shard %s)", ErrOtherShard, m.Shard, m.Shard)
	case *m.Shard != *other.Shard:
		return fmt.Errorf("%w: it holds slice %s, not slice %s", ErrOtherShard, m.Shard, other.Shard)
	}
	return nil
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

// planMatches describes a knockout's matches.
func planMatches(p *Plan) string {
	s := fmt.Sprintf("%d games, up to %d tiebreak pairs, then %s", p.Games, p.TiebreakPairs, p.Decider)
	if p.TiebreakTime != "" {
		s += ", the tiebreak games at " + p.TiebreakTime
	}
	return s
}

// Plan is the plan of a Swiss or knockout (schedule.Plan).
type Plan = schedule.Plan

// LayRounds lays out again the Swiss or knockout the manifest describes, as
// far as it goes before any result, and checks it against the manifest's
// fingerprint.
func (m *Manifest) LayRounds() (*schedule.Rounds, error) {
	if m.Plan == nil {
		return nil, fmt.Errorf("manifest of %q: a %s is not laid out round by round", m.Name, m.Format)
	}
	r, err := schedule.NewRounds(*m.Plan, m.Openings)
	if err != nil {
		return nil, fmt.Errorf("manifest of %q: %w", m.Name, err)
	}
	if fp := r.FingerprintV2(m.Game, m.Preset, m.Rules); fp != m.Fingerprint {
		return nil, fmt.Errorf("manifest of %q: %w: its plan does not give its fingerprint %.12s", m.Name, ErrScheduleChanged, m.Fingerprint)
	}
	return r, nil
}

// Schedule lays out again the schedule the manifest describes and checks
// it against the manifest's fingerprint. A version 1 manifest's fingerprint
// covers every game; checking it stops early with ctx's error. A Swiss or
// knockout has no such schedule (see LayRounds).
func (m *Manifest) Schedule(ctx context.Context) (*schedule.Schedule, error) {
	if m.Plan != nil {
		return nil, fmt.Errorf("manifest of %q: a %s is laid out round by round from its results, and played in one place, not in slices", m.Name, m.Format)
	}
	layout := schedule.New
	if m.Once {
		layout = schedule.NewOnce
	}
	s, err := layout(m.Format, m.Rounds, m.Bots, m.Players, m.Openings)
	if err != nil {
		return nil, fmt.Errorf("manifest of %q: %w", m.Name, err)
	}
	fp, err := m.fingerprintOf(ctx, s)
	if err != nil {
		return nil, err
	}
	if fp != m.Fingerprint {
		return nil, fmt.Errorf("manifest of %q: %w: its schedule does not give its fingerprint %.12s", m.Name, ErrScheduleChanged, m.Fingerprint)
	}
	return s, nil
}

// fingerprintOf returns the fingerprint of s under m's rules, in the
// version m is written in.
func (m *Manifest) fingerprintOf(ctx context.Context, s *schedule.Schedule) (string, error) {
	if m.Version < 2 {
		return s.FingerprintV1(ctx, m.Game, m.Preset, m.Rules)
	}
	return s.FingerprintV2(m.Game, m.Preset, m.Rules), nil
}
