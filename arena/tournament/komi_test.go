package tournament_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/pgn"
)

// TestGameTextKomi: a Cheversi game under a komi, written as PGN and read
// back, names rules that rebuild the same rule set, komi included; its
// moves replayed under them give the same position text and the result
// the komi decided, which the board's scores alone would not.
func TestGameTextKomi(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, komi := range []string{"0.5", "-2", "6.5"} {
		rules, err := games.New("cheversi", "cheversi", []game.Setting{{Key: "komi", Value: komi}})
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		st := rules.Start()
		for !st.Outcome().Over() {
			legal := st.LegalMoves(nil)
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, m.String())
			if err := st.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		out := st.Outcome()
		rec := journal.Record{ID: 1, Round: 1, PairKey: "r1/o1/a/b", Game: "cheversi", Preset: "cheversi",
			Rules: rules.Settings(), White: "a", Black: "b", FirstMover: "white",
			Opening: journal.RecordOpening{Index: 1, Moves: moves[:2]},
			Result:  out.Result.String(), Reason: out.Reason,
			Scores: &journal.Scores{White: out.Scores[game.White], Black: out.Scores[game.Black]}}
		for _, m := range moves[2:] {
			rec.Moves = append(rec.Moves, journal.MoveRecord{Move: m, MS: 1})
		}
		if w, ok := out.Result.Winner(); ok {
			rec.Winner = map[game.Color]string{game.White: "a", game.Black: "b"}[w]
		}
		var buf bytes.Buffer
		if err := pgn.WriteRecords(&buf, []journal.Record{rec}, "Komi"); err != nil {
			t.Fatal(err)
		}
		read, err := pgn.ReadAll(bytes.NewReader(buf.Bytes()), "komi.pgn")
		if err != nil || len(read) != 1 {
			t.Fatalf("komi %s: read back %d games, %v\n%s", komi, len(read), err, buf.String())
		}
		r := &read[0]
		var settings []game.Setting
		for _, kv := range strings.Fields(r.Tag("Rules")) {
			k, v, _ := strings.Cut(kv, "=")
			settings = append(settings, game.Setting{Key: k, Value: v})
		}
		back, err := games.New(r.Tag("Game"), r.Tag("Variant"), settings)
		if err != nil {
			t.Fatalf("komi %s: the rules read back (%q): %v", komi, r.Tag("Rules"), err)
		}
		if got, want := back.(*cheversi.Rules).Options(), rules.(*cheversi.Rules).Options(); got != want {
			t.Errorf("komi %s: rules read back as %+v, want %+v", komi, got, want)
		}
		_, tokens := parsePGN(t, buf.String())
		replay := back.Start()
		for _, tok := range tokens {
			if strings.Contains(tok, "@") {
				if _, err := game.PlayText(replay, tok); err != nil {
					t.Fatalf("komi %s: move %s read back: %v", komi, tok, err)
				}
			}
		}
		if replay.Text() != st.Text() || replay.Outcome().Result != out.Result || r.Result != out.Result {
			t.Errorf("komi %s: read back and replayed to %q with %v (tag %v), want %q with %v",
				komi, replay.Text(), replay.Outcome().Result, r.Result, st.Text(), out.Result)
		}
		if want := strconv.Itoa(out.Scores[0]) + "-" + strconv.Itoa(out.Scores[1]); r.Tag("Score") != want {
			t.Errorf("komi %s: Score tag %q, want the board's %q", komi, r.Tag("Score"), want)
		}
	}
}

// TestParseKomi: the komi is a switch of the configuration's rules like
// the others, written as a TOML number or string or set from the command
// line, and a bad one is refused with its key and line.
func TestParseKomi(t *testing.T) {
	const head = "name = \"t\"\n[game]\nname = \"cheversi\"\n[game.rules]\n"
	const bots = "\n[[bots]]\nname = \"a\"\nbuiltin = \"random\"\n\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
	for _, tc := range []struct {
		rules string
		set   []string
		want  int16
	}{
		{"komi = 6.5", nil, 13},
		{"komi = -2", nil, -4},
		{`komi = "0.5"`, nil, 1},
		{"komi = 6.5", []string{"game.rules.komi=-0.5"}, -1},
		{"", []string{"komi=3"}, 6},
	} {
		var overrides []config.Override
		for _, s := range tc.set {
			o, err := config.ParseOverride("--set", s)
			if err != nil {
				t.Fatal(err)
			}
			overrides = append(overrides, o)
		}
		cfg, err := config.Parse([]byte(head+tc.rules+bots), "t.toml", t.TempDir(), overrides...)
		if err != nil {
			t.Errorf("%q %v: %v", tc.rules, tc.set, err)
			continue
		}
		if got := cfg.Rules.(*cheversi.Rules).Options().Komi; got != tc.want {
			t.Errorf("%q %v: komi %d half-points, want %d", tc.rules, tc.set, got, tc.want)
		}
	}
	for _, tc := range []struct{ rules, want string }{
		{"touch = \"any\"\nkomi = 6.25", "t.toml:6: game.rules.komi: bad rules: komi = \"6.25\": want a whole or half number of points"},
		{"komi = 101", "t.toml:5: game.rules.komi: bad rules: komi = \"101\": want at most 100 points either way"},
		{"komi = true", "t.toml:5: game.rules.komi: bad rules: komi = \"true\""},
	} {
		_, err := config.Parse([]byte(head+tc.rules+bots), "t.toml", t.TempDir())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.rules, err, tc.want)
		}
	}
}
