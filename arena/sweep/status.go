package sweep

import (
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/metrics"
	"github.com/arena-games/arena/arena/race"
	"github.com/arena-games/arena/arena/rating"
)

// Status is the state of a sweep, for its reports: how the race is set,
// and every variant with its race, its games and their design metrics. It
// encodes to JSON as is.
type Status struct {
	Name   string `json:"name"`
	Game   string `json:"game"`
	Preset string `json:"preset"`
	// Base holds the switches every variant starts from, as the
	// configuration sets them on the preset.
	Base []game.Setting `json:"base,omitempty"`
	// Bots are the players' names.
	Bots []string `json:"bots"`
	// Race is the race's configuration; ArmAlpha and ContrastAlpha the
	// error rates of each interval after Bonferroni's correction.
	Race          race.Config `json:"race"`
	ArmAlpha      float64     `json:"arm_alpha"`
	ContrastAlpha float64     `json:"contrast_alpha"`
	// Batch is the number of openings between looks; Looks the looks
	// taken; Openings the length of the shared opening list.
	Batch    int  `json:"batch"`
	Looks    int  `json:"looks"`
	Openings int  `json:"openings"`
	Done     bool `json:"done"`
	// Key identifies everything that decides the games: every variant's
	// rules, the openings and the bots with their limits (a digest of the
	// variants' keys; see Variant.Key).
	Key      string    `json:"key"`
	Variants []Variant `json:"variants"`
	// Reference is a figure from elsewhere set beside the sweep's result
	// ("" for none).
	Reference string `json:"reference,omitempty"`
}

// Variant is one arm of the race: a variant at a strength.
type Variant struct {
	// Name names the variant by the switches it sets ("komi=1.5
	// touch=any"; "base" for none).
	Name     string         `json:"name"`
	Switches []game.Setting `json:"switches,omitempty"`
	// Strength is the bots' limit ("10000 nodes"); Group the index of the
	// strength, within which variants are compared.
	Strength string `json:"strength"`
	Group    int    `json:"group"`
	// Dir is the variant's tournament directory.
	Dir string `json:"dir"`
	// Key is a digest of what decides its games: the schedule's
	// fingerprint (rules, openings, players) and every bot's setup,
	// limits included.
	Key string `json:"key"`
	// Arm is the race's view of the variant: openings, score and
	// interval, distance from the target, and why it stopped.
	Arm race.Arm `json:"arm"`
	// Counts are the first mover's wins, draws and losses over the games
	// the race took; Forfeits the games among them a forfeit decided
	// (counted with the result the forfeit gave).
	Counts   rating.WDL `json:"counts"`
	Forfeits int        `json:"forfeits,omitempty"`
	// Versus is the paired difference from the first variant of the same
	// strength (nil for that one, and before enough shared openings).
	Versus *race.Difference `json:"versus,omitempty"`
	// VersusStrength is the paired difference from the same variant at the
	// first strength (nil at that strength, and before enough shared
	// openings).
	VersusStrength *race.Difference `json:"versus_strength,omitempty"`
	// Proved is what is proved of the variant's rules from the start
	// position with perfect play (games.Solved); nil when nothing is.
	Proved *game.Solution `json:"proved,omitempty"`
	// Metrics are the design metrics of the games the race took.
	Metrics metrics.Summary `json:"metrics"`
}

// Active returns the variants still in the race.
func (s *Status) Active() []Variant {
	var out []Variant
	for _, v := range s.Variants {
		if v.Arm.Reason == race.Running {
			out = append(out, v)
		}
	}
	return out
}

// Groups returns the number of strengths.
func (s *Status) Groups() int {
	n := 0
	for _, v := range s.Variants {
		n = max(n, v.Group+1)
	}
	return n
}
