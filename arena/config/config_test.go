package config_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/arena/game"
)

// twoBots is a valid bots section (sh exists on every system the arena
// runs on; configurations only check that commands exist).
const twoBots = `
[[bots]]
name = "a"
command = "sh"

[[bots]]
name = "b"
builtin = "random"
`

func TestParseDefaults(t *testing.T) {
	cfg, err := config.Parse([]byte("[game]\nname = \"cheversi\"\n"+twoBots), "my tour.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"name", cfg.Name, "my tour"},
		{"output", cfg.Output, filepath.Join("results", "my_tour")},
		{"concurrency", cfg.Concurrency, runtime.NumCPU()},
		{"format", cfg.Format.Kind, schedule.RoundRobin},
		{"rounds", cfg.Format.Rounds, 1},
		{"move time", cfg.Time.Move, config.DefaultMoveTime},
		{"margin", cfg.Time.Margin, config.DefaultMargin},
		{"preset", cfg.Rules.Preset(), "cheversi"},
		{"bots", strings.Join(cfg.BotNames(), ","), "a,b"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !filepath.IsAbs(cfg.Bots[0].Command) {
		t.Errorf("command %q not resolved to an absolute path", cfg.Bots[0].Command)
	}
}

func TestParseRulesAndTime(t *testing.T) {
	cfg, err := config.Parse([]byte(`
[game]
name = "cheversi"
preset = "cheversi-classic"
[game.rules]
touch = "any"
bishops_opposite = true
[time]
base = "10s"
increment = "100ms"
[[bots]]
name = "a"
command = "sh"
options = { Depth = 3, Book = false, Style = "calm" }
[bots.time]
move = "50ms"
[[bots]]
name = "b"
command = "sh"
`), "t.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(cfg.Overrides())
	if want := fmt.Sprint([]game.Setting{{Key: "touch", Value: "any"}, {Key: "bishops_opposite", Value: "true"}}); got != want {
		t.Errorf("overrides = %s, want %s", got, want)
	}
	for _, s := range cfg.Rules.Settings() {
		if s.Key == "touch" && s.Value != "any" {
			t.Errorf("rules: touch = %s, want any", s.Value)
		}
	}
	if tc := cfg.BotTime("a"); !tc.Fixed() || tc.Move != 50*time.Millisecond || tc.Margin != config.DefaultMargin {
		t.Errorf("BotTime(a) = %+v, want 50ms/move with the default margin", tc)
	}
	if tc := cfg.BotTime("b"); tc.Fixed() || tc.Base != 10*time.Second || tc.Increment != 100*time.Millisecond {
		t.Errorf("BotTime(b) = %+v, want 10s+100ms", tc)
	}
}

func TestParseSearchLimitsAndPeriods(t *testing.T) {
	cfg, err := config.Parse([]byte(`
[game]
name = "checkers"
[time]
base = "60s"
moves = 40
increment = "0s"
nodes = 20000
depth = 9
[[bots]]
name = "a"
command = "sh"
nodes = 500
[[bots]]
name = "b"
builtin = "alphabeta"
[bots.time]
move = "200ms"
[[bots]]
name = "c"
builtin = "greedy"
depth = 3
`), "t.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bot  string
		want string
	}{
		{"a", "40/1m0s, depth 9, 500 nodes"},
		{"b", "200ms/move, depth 9, 20000 nodes"},
		{"c", "40/1m0s, depth 3, 20000 nodes"},
	} {
		tcl := cfg.BotTime(tc.bot)
		if got := tcl.String(); got != tc.want {
			t.Errorf("BotTime(%s) = %s, want %s", tc.bot, got, tc.want)
		}
		if tc.bot != "b" && (tcl.Clock().Moves != 40 || tcl.Clock().Base != time.Minute) {
			t.Errorf("BotTime(%s).Clock() = %+v, want 40 moves per minute", tc.bot, tcl.Clock())
		}
	}
}

func TestParseErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, toml string
		want       []string // substrings of the error
	}{
		{"unknown top-level key", "nmae = \"x\"\n[game]\nname = \"cheversi\"\n" + twoBots,
			[]string{"t.toml:1: nmae: unknown key"}},
		{"unknown bot key", "[game]\nname = \"cheversi\"\n" + twoBots + "comand = \"x\"\n",
			[]string{"t.toml:11: bots.comand: unknown key"}},
		{"wrong type", "[game]\nname = \"cheversi\"\n[format]\nrounds = \"two\"\n" + twoBots,
			[]string{"t.toml:4: format.rounds: wrong type: want an integer, got a string"}},
		{"string for a table", "game = \"cheversi\"\n" + twoBots,
			[]string{"t.toml:1: game: wrong type: want a table, got a string"}},
		{"syntax error", "[game\nname = \"cheversi\"\n", []string{"t.toml:1: expected '.' or ']' to end table name, but got the end of the line instead"}},
		// The line of the error, not the one after it (a table name left
		// open is seen at the end of its line).
		{"syntax error on line 2", "seed = 1\n[game\nname = \"cheversi\"\n", []string{"t.toml:2: "}},
		// Every value of the wrong type at once, with the unknown keys,
		// in the file's order.
		{"two wrong types", "[game]\nname = \"cheversi\"\n[format]\nrounds = \"two\"\nkind = 3\nrouns = 2\n" + twoBots,
			[]string{"t.toml:4: format.rounds: wrong type: want an integer, got a string\nt.toml:5: format.kind: wrong type: want a string, got an integer\nt.toml:6: format.rouns: unknown key (did you mean format.rounds?)"}},
		{"wrong types in bots", "[game]\nname = \"cheversi\"\n" + twoBots + "args = \"-v\"\n[bots.time]\nmove = true\n",
			[]string{"t.toml:11: bots[1].args: wrong type: want an array, got a string", "t.toml:13: bots[1].time.move: wrong type: want a duration such as \"2s\", got a boolean"}},
		// An array of tables under a wrong name, alone and beside a
		// value of the wrong type (the two are found by different paths).
		{"misspelt array of tables", "[game]\nname = \"cheversi\"\n" + strings.ReplaceAll(twoBots, "[[bots]]", "[[bot]]"),
			[]string{"t.toml:4: bot: unknown key (did you mean bots?)\nt.toml: bots: a tournament needs at least two bots, got 0"}},
		{"misspelt array of tables and a wrong type", "game = \"cheversi\"\n" + strings.ReplaceAll(twoBots, "[[bots]]", "[[bot]]"),
			[]string{"t.toml:1: game: wrong type: want a table, got a string\nt.toml:3: bot: unknown key (did you mean bots?)"}},
		{"unknown key near a key elsewhere", "rounds = 2\n[game]\nname = \"cheversi\"\n" + twoBots,
			[]string{"t.toml:1: rounds: unknown key (did you mean format.rounds?)"}},
		{"bad restart", "[game]\nname = \"cheversi\"\n" + twoBots + "restart = \"sometimes\"\n",
			[]string{`t.toml:11: bots[1].restart: unknown value "sometimes" (want "always" or "on-error")`}},
		{"misspelt bot key", "[game]\nname = \"cheversi\"\n" + twoBots + "bultin = \"x\"\n",
			[]string{"t.toml:11: bots.bultin: unknown key (did you mean bots.builtin?)"}},
		{"duplicate bot", "[game]\nname = \"cheversi\"\n" + twoBots + "\n[[bots]]\nname = \"a\"\nbuiltin = \"greedy\"\n",
			[]string{`t.toml:13: bots[2].name: duplicate bot name "a" (first used on line 5)`}},
		{"missing executable", "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\ncommand = \"no-such-bot-xyz\"\n[[bots]]\nname = \"b\"\ncommand = \"./nope\"\n",
			[]string{`t.toml:5: bots[0].command: executable "no-such-bot-xyz" not found`, `t.toml:8: bots[1].command: executable`}},
		{"command and builtin", "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\ncommand = \"sh\"\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n",
			[]string{"t.toml:6: bots[0].command: give either builtin or command"}},
		{"unknown builtin", "[game]\nname = \"cheversi\"\n" + strings.Replace(twoBots, `"random"`, `"minimax"`, 1),
			[]string{`t.toml:10: bots[1].builtin: unknown built-in bot "minimax" (want random, greedy, alphabeta, expert, perfect, human)`}},
		{"one bot", "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n",
			[]string{"bots: a tournament needs at least two bots"}},
		{"no game", twoBots, []string{"game.name: missing"}},
		{"unknown game", "[game]\nname = \"chess\"\n" + twoBots, []string{"t.toml:2: game.name:", "chess"}},
		{"bad preset", "[game]\nname = \"cheversi\"\npreset = \"nope\"\n" + twoBots, []string{"t.toml:3: game.preset:", "nope"}},
		{"bad switch", "[game]\nname = \"cheversi\"\n[game.rules]\ncolour = \"red\"\n" + twoBots, []string{"t.toml:4: game.rules.colour: bad rules: unknown cheversi switch \"colour\""}},
		{"bad second switch", "[game]\nname = \"cheversi\"\n[game.rules]\ntouch = \"any\"\nscoring = \"x\"\n" + twoBots, []string{"t.toml:5: game.rules.scoring:"}},
		{"zero rounds", "[game]\nname = \"cheversi\"\n[format]\nrounds = 0\n" + twoBots, []string{"t.toml:4: format.rounds: must be at least 1, got 0"}},
		{"negative rounds", "[game]\nname = \"cheversi\"\n[format]\nrounds = -2\n" + twoBots, []string{"t.toml:4: format.rounds: must be at least 1, got -2"}},
		{"zero concurrency", "concurrency = 0\n[game]\nname = \"cheversi\"\n" + twoBots, []string{"t.toml:1: concurrency: must be at least 1, got 0"}},
		{"huge concurrency", "concurrency = 20000\n[game]\nname = \"cheversi\"\n" + twoBots, []string{"t.toml:1: concurrency: must be at most 1024, got 20000"}},
		{"bad switch type", "[game]\nname = \"cheversi\"\n[game.rules]\ntouch = [1]\n" + twoBots, []string{"t.toml:4: game.rules.touch: want a string"}},
		{"after without plies", "[game]\nname = \"cheversi\"\n[openings]\nafter = 2\n" + twoBots, []string{"t.toml:4: openings.after: leaves plies to the players before random ones: set plies too"}},
		{"negative after", "[game]\nname = \"cheversi\"\n[openings]\nplies = 2\nafter = -1\n" + twoBots, []string{"t.toml:5: openings.after: must not be negative, got -1"}},
		{"bad format", "[game]\nname = \"cheversi\"\n[format]\nkind = \"dutch\"\n" + twoBots, []string{"t.toml:4: format.kind: unknown format \"dutch\""}},
		{"knockout rounds", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\nrounds = 3\n" + twoBots,
			[]string{"t.toml:5: format.rounds: a knockout's rounds follow from its bots"}},
		{"odd match", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ngames = 3\n" + twoBots,
			[]string{"t.toml:5: format.games: a match plays colour-reversed pairs of games: want an even number, at least 2, got 3"}},
		{"bad decider", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ndecider = \"coin\"\n" + twoBots,
			[]string{"t.toml:5: format.decider: unknown decider \"coin\""}},
		{"negative tiebreaks", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ntiebreak_pairs = -1\n" + twoBots,
			[]string{"t.toml:5: format.tiebreak_pairs: must not be negative, got -1"}},
		{"tiebreak time without knockout", "[game]\nname = \"cheversi\"\n[format]\nkind = \"swiss\"\ntiebreak_time = { move = \"50ms\" }\n" + twoBots,
			[]string{"t.toml:5: format.tiebreak_time: only a \"knockout\" format takes tiebreak_time"}},
		{"tiebreak time integer", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ntiebreak_time = { move = 50 }\n" + twoBots,
			[]string{"format.tiebreak_time.move: want a duration such as \"500ms\" or \"2s\", got the integer 50"}},
		{"tiebreak time both", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ntiebreak_time = { move = \"50ms\", base = \"1s\" }\n" + twoBots,
			[]string{"t.toml:5: format.tiebreak_time: give either move (fixed time per move) or base (a clock), not both"}},
		{"tiebreak time empty", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ntiebreak_time = { margin = \"1s\" }\n" + twoBots,
			[]string{"t.toml:5: format.tiebreak_time: give move (a fixed time per move) or base (a clock)"}},
		{"tiebreak time nodes", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ntiebreak_time = { move = \"50ms\", nodes = 100 }\n" + twoBots,
			[]string{"t.toml:5: format.tiebreak_time: search limits (nodes, depth) are set in [time] or per bot"}},
		{"tiebreak time without tiebreak games", "[game]\nname = \"cheversi\"\n[format]\nkind = \"knockout\"\ntiebreak_pairs = 0\ndecider = \"seed\"\ntiebreak_time = { move = \"50ms\" }\n" + twoBots,
			[]string{"format.tiebreak_time: no game is a tiebreak game: tiebreak_pairs is 0 and the decider is \"seed\""}},
		{"games without knockout", "[game]\nname = \"cheversi\"\n[format]\nkind = \"swiss\"\ngames = 4\n" + twoBots,
			[]string{"t.toml:5: format.games: only a \"knockout\" format takes games"}},
		{"bye without swiss", "[game]\nname = \"cheversi\"\n[format]\nbye = 1\n" + twoBots,
			[]string{"t.toml:4: format.bye: only a \"swiss\" format takes bye"}},
		{"bad bye", "[game]\nname = \"cheversi\"\n[format]\nkind = \"swiss\"\nbye = 0.7\n" + twoBots,
			[]string{"t.toml:5: format.bye: a bye scores 0, 0.5, 1, 1.5 or 2 points"}},
		{"seeding by rating without ratings", "[game]\nname = \"cheversi\"\n[format]\nkind = \"swiss\"\nseeding = \"rating\"\n" + twoBots,
			[]string{"bots[0]: seeding = \"rating\" needs a rating for every bot; bot \"a\" has none"}},
		{"seeding without swiss", "[game]\nname = \"cheversi\"\n[format]\nseeding = \"order\"\n" + twoBots,
			[]string{"t.toml:4: format.seeding: only a \"swiss\" or \"knockout\" format takes seeding"}},
		{"swiss once", "[game]\nname = \"cheversi\"\n[format]\nkind = \"swiss\"\n[openings]\nonce = true\n" + twoBots,
			[]string{"t.toml:6: openings.once: a swiss plays every pairing as a colour-reversed pair of games"}},
		{"gauntlet player", "[game]\nname = \"cheversi\"\n[format]\nkind = \"gauntlet\"\nplayers = [\"zed\"]\n" + twoBots,
			[]string{"t.toml:5: format.players: no bot is named \"zed\""}},
		{"players without gauntlet", "[game]\nname = \"cheversi\"\n[format]\nplayers = [\"a\"]\n" + twoBots,
			[]string{"format.players: only a \"gauntlet\" format takes players"}},
		{"two time controls", "[game]\nname = \"cheversi\"\n[time]\nmove = \"1s\"\nbase = \"1m\"\n" + twoBots,
			[]string{"t.toml:3: time: give either move"}},
		{"bad duration", "[game]\nname = \"cheversi\"\n[time]\nmove = \"fast\"\n" + twoBots, []string{"t.toml:4: time.move: invalid duration"}},
		{"sprt with three bots", "[game]\nname = \"cheversi\"\n[sprt]\nelo0 = 0\nelo1 = 10\n" + twoBots + "[[bots]]\nname = \"c\"\nbuiltin = \"random\"\n",
			[]string{"t.toml:3: sprt: a sequential test needs a match of exactly two bots, not 3"}},
		{"sprt bounds", "[game]\nname = \"cheversi\"\n[sprt]\nelo0 = 10\nelo1 = 0\n" + twoBots,
			[]string{"t.toml:3: sprt:"}},
		{"no draw rule", "[game]\nname = \"checkers\"\n[adjudication]\nrepetition = -1\nquiet_moves = -1\nmax_plies = -1\n" + twoBots,
			[]string{"t.toml:3: adjudication: repetition, quiet_moves and max_plies are all off"}},
		{"adjudication for cheversi", "[game]\nname = \"cheversi\"\n[adjudication]\nmax_plies = 100\n" + twoBots,
			[]string{"t.toml:4: adjudication.max_plies: applies to checkers only"}},
		{"bad deck", "[game]\nname = \"checkers\"\n[openings]\ndeck = \"mine\"\n" + twoBots, []string{"t.toml:4: openings.deck: unknown deck"}},
		{"bad memory", "[game]\nname = \"cheversi\"\n[limits]\nmemory = \"lots\"\n" + twoBots, []string{"t.toml:4: limits.memory:", "want a number of bytes"}},
		{"tiny memory", "[game]\nname = \"cheversi\"\n[limits]\nmemory = 4096\n" + twoBots, []string{"t.toml:4: limits.memory: 4 KiB is less than 1 MiB"}},
		{"negative processes", "[game]\nname = \"cheversi\"\n[limits]\nprocesses = -1\n" + twoBots, []string{"t.toml:4: limits.processes: must not be negative"}},
		{"cpu time in nanoseconds", "[game]\nname = \"cheversi\"\n[limits]\ncpu_time = 30\n" + twoBots, []string{"t.toml:4: limits.cpu_time: want a duration"}},
		{"missing read path", "[game]\nname = \"cheversi\"\n[limits]\nread = [\"/no/such/dir\"]\n" + twoBots, []string{"t.toml:4: limits.read: \"/no/such/dir\" does not exist"}},
		{"bot's open files", "[game]\nname = \"cheversi\"\n" + twoBots + "[bots.limits]\nopen_files = 2\n", []string{"t.toml:12: bots[1].limits.open_files: 2 is too few"}},
		{"bad affinity", "affinity = \"some\"\n[game]\nname = \"cheversi\"\n" + twoBots, []string{"t.toml:1: affinity: want \"off\", \"auto\" or a CPU list"}},
		{"affinity beyond the CPUs", "affinity = \"0-4095\"\n[game]\nname = \"cheversi\"\n" + twoBots, []string{"t.toml:1: affinity: CPU 4095 does not exist"}},
		{"deck for cheversi", "[game]\nname = \"cheversi\"\n[openings]\ndeck = \"acf\"\n" + twoBots, []string{"t.toml:4: openings.deck: selects ACF ballots, which are checkers openings"}},
		{"file and plies", "[game]\nname = \"cheversi\"\n[openings]\nfile = \"x.txt\"\nplies = 2\n" + twoBots,
			[]string{"t.toml:5: openings.plies: random openings and an opening file exclude each other"}},
		{"bad bot name", "[game]\nname = \"cheversi\"\n" + strings.Replace(twoBots, `"a"`, `"a b"`, 1), []string{"t.toml:5: bots[0].name:"}},
		{"bot time without move", "[game]\nname = \"cheversi\"\n" + twoBots + "[bots.time]\nmargin = \"1s\"\n",
			[]string{"t.toml:11: bots[1].time: give move or base"}},
		{"absurd rounds", "[game]\nname = \"cheversi\"\n[format]\nrounds = 1000000000\n" + twoBots,
			[]string{"t.toml:4: format.rounds: 1000000000 rounds of at least 2 games each is more than the 100000000 games"}},
		{"absurd opening count", "[game]\nname = \"cheversi\"\n[openings]\nplies = 1\ncount = 1000000000\n" + twoBots,
			[]string{"t.toml:5: openings.count: 1000000000 openings is more than the 100000 a tournament takes"}},
		{"missing bot dir", "[game]\nname = \"cheversi\"\n" + twoBots + "dir = \"no/such/dir\"\n", []string{"t.toml:11: bots[1].dir:"}},
		{"integer move time", "[game]\nname = \"cheversi\"\n[time]\nmove = 50\n" + twoBots,
			[]string{`t.toml:4: time.move: want a duration such as "500ms" or "2s", got the integer 50`}},
		{"zero move time", "[game]\nname = \"cheversi\"\n[time]\nmove = \"0ms\"\n" + twoBots,
			[]string{`t.toml:4: time.move: "0ms": must be more than zero`}},
		{"zero margin", "[game]\nname = \"cheversi\"\n[time]\nmargin = \"0s\"\n" + twoBots,
			[]string{`t.toml:4: time.margin: "0s": must be more than zero`}},
		{"float base", "[game]\nname = \"cheversi\"\n[time]\nbase = 1.5\n" + twoBots, []string{"t.toml:4: time.base:"}},
		{"zero bot move time", "[game]\nname = \"cheversi\"\n" + twoBots + "[bots.time]\nmove = \"0s\"\n",
			[]string{`t.toml:12: bots[1].time.move: "0s": must be more than zero`}},
		{"integer handshake timeout", "[game]\nname = \"cheversi\"\n" + twoBots + "handshake_timeout = 10\n",
			[]string{"t.toml:11: bots[1].handshake_timeout: want a duration"}},
		{"moves without base", "[game]\nname = \"cheversi\"\n[time]\nmoves = 40\n" + twoBots,
			[]string{"t.toml:3: time: moves per period need a base time"}},
		{"moves with move", "[game]\nname = \"cheversi\"\n[time]\nmove = \"1s\"\nmoves = 40\n" + twoBots,
			[]string{"t.toml:3: time: give either move"}},
		{"negative nodes", "[game]\nname = \"cheversi\"\n[time]\nnodes = -5\n" + twoBots,
			[]string{"t.toml:3: time: nodes and depth must not be negative"}},
		{"nodes in a bot's time", "[game]\nname = \"cheversi\"\n" + twoBots + "[bots.time]\nmove = \"1s\"\nnodes = 5\n",
			[]string{"t.toml:11: bots[1].time: a bot's search limits are the bot's own keys"}},
		{"resign for cheversi", "[game]\nname = \"cheversi\"\n[adjudication.resign]\nscore = 500\nmoves = 3\n" + twoBots,
			[]string{"t.toml:3: adjudication.resign: applies to checkers only"}},
		{"resign without a score", "[game]\nname = \"checkers\"\n[adjudication]\nresign = { moves = 3 }\n" + twoBots,
			[]string{"t.toml:4: adjudication.resign: score must be more than 0"}},
		{"draw without moves", "[game]\nname = \"checkers\"\n[adjudication.draw]\nscore = 10\n" + twoBots,
			[]string{"t.toml:3: adjudication.draw: moves must be at least 1"}},
		{"unknown draw key", "[game]\nname = \"checkers\"\n[adjudication.draw]\nscore = 10\nmoves = 4\nply = 30\n" + twoBots,
			[]string{"t.toml:6: adjudication.draw.ply: unknown key"}},
		{"negative bot depth", "[game]\nname = \"cheversi\"\n" + twoBots + "depth = -1\n",
			[]string{"t.toml:11: bots[1].depth: must not be negative"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse([]byte(tc.toml), "t.toml", dir)
			if err == nil {
				t.Fatalf("Parse succeeded, want an error containing %q", tc.want)
			}
			if !errors.Is(err, config.ErrInvalid) {
				t.Errorf("error does not wrap ErrConfig: %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestOverrides sets keys on top of a file, as arena run --set does.
func TestOverrides(t *testing.T) {
	file := "name = \"t\"\n[game]\nname = \"cheversi\"\n[game.rules]\ntouch = \"any\"\n[time]\nmove = \"1s\"\n" + twoBots
	set := func(kv ...string) []config.Override {
		var out []config.Override
		for _, s := range kv {
			o, err := config.ParseOverride("--set", s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, o)
		}
		return out
	}
	cfg, err := config.Parse([]byte(file), "t.toml", t.TempDir(), set(
		"time.move=200ms", "format.rounds=3", "seed=7", "name=123", "bishops_opposite=true",
		"game.rules.touch=none", `bots.a.args=["--x", "1"]`, "bots.b.options.Depth=4", "bots.b.time.move=50ms",
		"sprt.elo1=5", "concurrency=2", "openings.plies=2")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"time.move", cfg.Time.Move, 200 * time.Millisecond},
		{"rounds", cfg.Format.Rounds, 3},
		{"seed", cfg.Seed, int64(7)},
		{"name (text that looks like a number)", cfg.Name, "123"},
		{"rules in order", fmt.Sprint(cfg.Overrides()), "[{touch none} {bishops_opposite true}]"},
		{"args", fmt.Sprint(cfg.Bots[0].Args), "[--x 1]"},
		{"options", fmt.Sprint(cfg.Bots[1].Options), "map[Depth:4]"},
		{"bot time", cfg.BotTime("b").Move, 50 * time.Millisecond},
		{"sprt", fmt.Sprint(cfg.SPRT.Elo0, cfg.SPRT.Elo1), "0 5"},
		{"concurrency", cfg.Concurrency, 2},
		{"openings", cfg.Openings.Plies, 2},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}

	for _, c := range []struct {
		sets []string
		want []string
	}{
		{[]string{"format.rounds=0"}, []string{"--set format.rounds=0: must be at least 1, got 0"}},
		{[]string{"concurrency=0"}, []string{"--set concurrency=0: must be at least 1, got 0"}},
		{[]string{"time.move=fast"}, []string{"--set time.move=fast: time.move: invalid duration"}},
		{[]string{"format.rounds=two"}, []string{"--set format.rounds=two: wrong type: want an integer, got a string"}},
		{[]string{"time.base=1m"}, []string{"t.toml:6: time: give either move"}},
		{[]string{"time.bogus=1"}, []string{"--set time.bogus=1: time.bogus: unknown key"}},
		{[]string{"colour=red"}, []string{`--set colour=red: bad rules: unknown cheversi switch "colour"`}},
		{[]string{"bots.zed.args=[]"}, []string{`--set bots.zed.args=[]: no bot is named "zed"`}},
		{[]string{"bots.b.name=a"}, []string{`--set bots.b.name=a: duplicate bot name "a" (first used on line 10)`}},
		{[]string{"seed.x=1"}, []string{"--set seed.x=1: seed is not a table"}},
		{[]string{"format.rounds=0", "sprt.elo0=9"}, []string{"--set format.rounds=0: must be", "--set sprt.elo0=9: sprt:"}},
		// Errors about the file's own keys keep their lines.
		{[]string{"seed=1"}, nil},
	} {
		_, err := config.Parse([]byte(file), "t.toml", t.TempDir(), set(c.sets...)...)
		if len(c.want) == 0 {
			if err != nil {
				t.Errorf("%q: %v", c.sets, err)
			}
			continue
		}
		if !errors.Is(err, config.ErrInvalid) {
			t.Errorf("%q: error %v does not wrap ErrConfig", c.sets, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error\n%v\nwant it to contain %q", c.sets, err, w)
			}
		}
	}
	_, err = config.Parse([]byte(file+"bogus = 1\n"), "t.toml", t.TempDir(), set("seed=2")...)
	if err == nil || !strings.Contains(err.Error(), "t.toml:16: bots.bogus: unknown key") {
		t.Errorf("unknown key of the file under overrides: %v, want it located on line 16", err)
	}
	for _, bad := range []string{"noequals", "=1", "a..b=1", "bots.x y=1"} {
		if _, err := config.ParseOverride("--set", bad); err == nil {
			t.Errorf("ParseOverride(%q) succeeded", bad)
		}
	}
}

func TestConfigErrorAs(t *testing.T) {
	_, err := config.Parse([]byte("[game]\nname = \"cheversi\"\nbogus = 1\n"+twoBots), "t.toml", t.TempDir())
	var ce *config.Error
	if !errors.As(err, &ce) {
		t.Fatalf("errors.As(%v, *ConfigError) = false", err)
	}
	if ce.Line != 3 || ce.Key != "game.bogus" {
		t.Errorf("ConfigError line %d key %q, want 3 game.bogus", ce.Line, ce.Key)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[game]\nname = \"cheversi\"\n" + twoBots))
	f.Add([]byte("name = 'x'\n[[bots]]\nname = \"a\"\nenv = { A = \"1\", \"b.c\" = '2' }\n[bots.time]\nmove = \"1s\"\n"))
	f.Add([]byte("a.b.\"c\" = \"\"\"\nmulti\n\"\"\"\n[[x.y]]\n[x.y.z]\nk = [1, [2, 3], {a = 1}]\n"))
	// Many keys in error: each error used to scan every key for its line,
	// so that a few thousand took the fuzzer tens of seconds.
	f.Add(manyUnknownKeys(1000))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := config.Parse(data, "fuzz.toml", dir)
		if err == nil && cfg.Rules == nil {
			t.Errorf("Parse succeeded without rules")
		}
		if err != nil && !errors.Is(err, config.ErrInvalid) {
			t.Errorf("error does not wrap ErrConfig: %v", err)
		}
	})
}

// manyUnknownKeys returns a configuration with n array tables, each with
// an unknown key.
func manyUnknownKeys(n int) []byte {
	var b strings.Builder
	b.WriteString("[game]\nname = \"cheversi\"\n")
	for i := range n {
		fmt.Fprintf(&b, "[[x]]\nk%d = 1\n", i)
	}
	return []byte(b.String())
}

// BenchmarkParseManyErrors measures Parse on 4000 unknown keys, each of
// which gets an error naming its line.
func BenchmarkParseManyErrors(b *testing.B) {
	data := manyUnknownKeys(4000)
	dir := b.TempDir()
	for b.Loop() {
		if _, err := config.Parse(data, "many.toml", dir); err == nil {
			b.Fatal("Parse accepted unknown keys")
		}
	}
}

// TestFileCheckedBeforeFlags checks that a value of the file that a flag
// replaces is still checked, with the file's line and the flag named: the
// file is wrong whatever the command line says.
func TestFileCheckedBeforeFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		file string
		set  config.Override
		want []string // substrings of the error; none: no error
	}{
		{"concurrency = -5\n[game]\nname = \"cheversi\"\n" + twoBots,
			config.Override{Key: "concurrency", Value: "2", Source: "--concurrency 2"},
			[]string{"t.toml:1: concurrency: must be at least 1, got -5 (the file's value, which --concurrency 2 replaces: the file must be right too)"}},
		{"[game]\nname = \"cheversi\"\n[format]\nrounds = \"x\"\n" + twoBots,
			config.Override{Key: "format.rounds", Value: "2", Source: "--rounds 2"},
			[]string{"t.toml:4: format.rounds: wrong type: want an integer, got a string (the file's value, which --rounds 2 replaces"}},
		{"[game]\nname = \"cheversi\"\n[time]\nmove = \"-1s\"\n" + twoBots,
			config.Override{Key: "time.move", Value: "1s", Source: "--movetime 1s"},
			[]string{"t.toml:3: time: times must not be negative (the file's value, which --movetime 1s replaces"}},
		// Both wrong: both reported.
		{"concurrency = -5\n[game]\nname = \"cheversi\"\n" + twoBots,
			config.Override{Key: "concurrency", Value: "0", Source: "--concurrency 0"},
			[]string{"t.toml:1: concurrency: must be at least 1, got -5", "--concurrency 0: must be at least 1, got 0"}},
		// What the file lacks, a flag may give.
		{"[game]\nname = \"chess\"\n" + twoBots,
			config.Override{Key: "game.name", Value: "cheversi", Source: "--game cheversi"},
			[]string{`t.toml:2: game.name: bad rules: unknown game "chess" (want cheversi or checkers) (the file's value, which --game cheversi replaces`}},
		{"[game]\n" + twoBots,
			config.Override{Key: "game.name", Value: "cheversi", Source: "--game cheversi"}, nil},
		{"concurrency = 3\n[game]\nname = \"cheversi\"\n" + twoBots,
			config.Override{Key: "concurrency", Value: "2", Source: "--concurrency 2"}, nil},
	} {
		cfg, err := config.Parse([]byte(c.file), "t.toml", dir, c.set)
		if c.want == nil {
			if err != nil {
				t.Errorf("%s with %s: %v", c.file, c.set.Source, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s with %s: no error (%+v)", c.file, c.set.Source, cfg.Concurrency)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) || !errors.Is(err, config.ErrInvalid) {
				t.Errorf("%s with %s: error\n%v\nwant it to contain %q", c.file, c.set.Source, err, w)
			}
		}
	}
}

// A knockout's tiebreak games (after the regular games of each match's
// block of IDs) are played at tiebreak_time by every bot, with [time]'s
// margin and each bot's search limits; its regular games at the bots' own.
func TestGameTimeTiebreak(t *testing.T) {
	cfg, err := config.Parse([]byte(`
[game]
name = "cheversi"
[format]
kind = "knockout"
games = 4
tiebreak_pairs = 1
tiebreak_time = { base = "5s", increment = "50ms" }
[time]
move = "1s"
margin = "300ms"
[[bots]]
name = "a"
command = "sh"
nodes = 500
[[bots]]
name = "b"
command = "sh"
[bots.time]
move = "2s"
`), "t.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Blocks of 4 + 2 + 2 IDs: games 1-4, tiebreak pair 5-6, decider 7.
	for _, tt := range []struct {
		bot  string
		id   int
		want string
	}{
		{"a", 1, "1s/move, 500 nodes"}, {"b", 4, "2s/move"},
		{"a", 5, "5s+50ms, 500 nodes"}, {"b", 7, "5s+50ms"},
		{"b", 9, "2s/move"}, {"a", 13, "5s+50ms, 500 nodes"},
	} {
		tc := cfg.GameTime(tt.bot, tt.id)
		if got := tc.String(); got != tt.want || tc.Margin != 300*time.Millisecond {
			t.Errorf("GameTime(%s, game %d) = %s, margin %v; want %s, margin 300ms", tt.bot, tt.id, got, tc.Margin, tt.want)
		}
		if cfg.TiebreakGame(tt.id) != strings.HasPrefix(tt.want, "5s") {
			t.Errorf("TiebreakGame(%d) = %v", tt.id, cfg.TiebreakGame(tt.id))
		}
	}
}
