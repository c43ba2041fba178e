package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/tournament"
)

const limitsBody = `
name = "limits"
concurrency = 2
[game]
name = "checkers"
[openings]
limit = 2
[adjudication]
max_plies = 50
[time]
move = "20s"
margin = "5s"
nodes = 3000
`

// TestNodeLimitedMatch plays the same node-limited match twice: every
// game must be the same, move for move, however the machine's load
// changes the bots' speed. A bot that does not obey node limits plays on
// its time alone, and the arena says so.
func TestNodeLimitedMatch(t *testing.T) {
	path := writeConfig(t, limitsBody, "limits",
		testBot{"ab1", "builtin:alphabeta"}, testBot{"ab2", "builtin:alphabeta"}, testBot{"plain", "first"})
	play := func() map[int][]string {
		out := filepath.Join(t.TempDir(), "out")
		if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out}); err != nil {
			t.Fatalf("Run: %v", err)
		}
		games := map[int][]string{}
		for _, r := range readRecords(t, out) {
			if r.Forfeit != nil {
				t.Errorf("game %d: forfeit %+v", r.ID, *r.Forfeit)
			}
			games[r.ID] = r.AllMoves()
			checkSearchInfo(t, &r)
		}
		log, err := os.ReadFile(filepath.Join(out, "arena.log"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(log), `bot "plain" does not obey a nodes limit`) {
			t.Errorf("arena.log does not say that plain ignores the node limit:\n%s", log)
		}
		return games
	}
	first, second := play(), play()
	if len(first) != 12 || len(second) != 12 {
		t.Fatalf("played %d and %d games, want 12", len(first), len(second))
	}
	for id, moves := range first {
		if !slices.Equal(moves, second[id]) {
			t.Errorf("game %d differs between the runs:\n%v\n%v", id, moves, second[id])
		}
	}
}

// TestOwnLimitNotObeyed checks that a limit set for a bot that does not
// obey it stops the tournament before it starts, naming the bot.
func TestOwnLimitNotObeyed(t *testing.T) {
	path := writeConfig(t, strings.Replace(limitsBody, "nodes = 3000", "", 1), "ownlimit",
		testBot{"ab", "builtin:alphabeta"}, testBot{"plain", "first"})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, "depth = 4\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: filepath.Join(t.TempDir(), "out")})
	if !errors.Is(err, tournament.ErrBot) || !strings.Contains(err.Error(), `bot "plain"`) || !strings.Contains(err.Error(), "request depth") {
		t.Errorf("Run = %v, want ErrBot naming plain and its missing request depth", err)
	}
}

// checkSearchInfo checks the search info recorded with each move of a
// game of TestNodeLimitedMatch: alphabeta's within the node limit, the
// test bot's as it sends it.
func checkSearchInfo(t *testing.T, r *journal.Record) {
	t.Helper()
	first, err := r.FirstMoverColor()
	if err != nil {
		t.Fatal(err)
	}
	for j, m := range r.Moves {
		mover := r.White
		if (int(first)+len(r.Opening.Moves)+j)%2 == int(game.Black) {
			mover = r.Black
		}
		in := m.Info
		switch {
		case in == nil:
			t.Errorf("game %d, move %d (%s, %s): no search info", r.ID, j+1, m.Move, mover)
		case mover == "plain" && (in.Depth != 1 || in.Text != "test bot" || in.Score != nil):
			t.Errorf("game %d, move %d: %s's info %+v, want depth 1 and the text it sends", r.ID, j+1, mover, *in)
		case mover != "plain" && (in.Depth < 1 || in.Nodes < 1 || in.Nodes > 3000 || in.Score == nil || len(in.PV) == 0):
			t.Errorf("game %d, move %d: %s's info %+v, want depth, score, pv and at most 3000 nodes", r.ID, j+1, mover, *in)
		}
	}
}

// TestAdjudicationByAgreement plays checkers between bots that report
// fixed scores: an optimist (+600) and a pessimist (-600) agree that the
// pessimist has lost; two bots reporting 0 agree on a draw. The games are
// recorded as adjudications with their details, written to the PGN/PDN
// file as such, and rated as the results they are.
func TestAdjudicationByAgreement(t *testing.T) {
	path := writeConfig(t, `
name = "agreement"
concurrency = 2
[game]
name = "checkers"
[openings]
limit = 1
[adjudication]
resign = { score = 500, moves = 3 }
draw = { score = 20, moves = 2, after_ply = 12 }
[time]
move = "5s"
`, "agreement", testBot{"up", "score:600"}, testBot{"down", "score:-600"}, testBot{"even", "score:0"}, testBot{"level", "score:0"})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	recs := readRecords(t, out) // Verify accepts every record
	checked := 0
	for _, r := range recs {
		names := r.White + "-" + r.Black
		var wantRule, wantWinner string
		switch {
		case strings.Contains(names, "up") && strings.Contains(names, "down"):
			wantRule, wantWinner = journal.AdjudicatedResign, "up"
		case strings.Contains(names, "even") && strings.Contains(names, "level"):
			wantRule = journal.AdjudicatedDraw
		default:
			continue // optimists against the even bots: no agreement
		}
		checked++
		a := r.Adjudication
		if r.Reason != journal.ReasonAdjudication || a == nil || a.Rule != wantRule || r.Winner != wantWinner || r.Forfeit != nil {
			t.Errorf("game %d (%s): reason %q, adjudication %+v, winner %q; want %s adjudicated by %q, winner %q",
				r.ID, names, r.Reason, a, r.Winner, names, wantRule, wantWinner)
			continue
		}
		plies := len(r.Opening.Moves) + len(r.Moves)
		if wantRule == journal.AdjudicatedResign && len(r.Moves) != 6 {
			t.Errorf("game %d: resigned after %d bot moves, want 6 (3 of each)", r.ID, len(r.Moves))
		}
		if wantRule == journal.AdjudicatedDraw && plies < 12 {
			t.Errorf("game %d: drawn at ply %d, before ply 12", r.ID, plies)
		}
	}
	if checked != 4 {
		t.Errorf("%d games between agreeing bots, want 4", checked)
	}
	for _, g := range dirreport.RatingGames(recs) {
		if g.Forfeit {
			t.Errorf("game %s-%s rated as a forfeit", g.White, g.Black)
		}
	}
	pdn, err := os.ReadFile(filepath.Join(out, "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pdn), `[Termination "adjudication"]`); n < 4 {
		t.Errorf("games.pdn has %d adjudications, want at least 4", n)
	}
	if !strings.Contains(string(pdn), "{adjudicated by agreement: down (") {
		t.Error("games.pdn does not say why a game was adjudicated")
	}
}

// TestTranscript turns on one bot's transcript: its log holds the whole
// exchange, stamped, and the other bot's log holds none of it.
func TestTranscript(t *testing.T) {
	path := writeConfig(t, `
name = "transcript"
concurrency = 1
[game]
name = "cheversi"
[time]
move = "5s"
`, "transcript", testBot{"talk", "first"}, testBot{"quiet", "first"})
	cfg := loadConfig(t, path)
	if err := cfg.EnableTranscripts([]string{"nobody"}); err == nil || !strings.Contains(err.Error(), "talk, quiet") {
		t.Errorf("EnableTranscripts(nobody) = %v, want an error listing the bots", err)
	}
	if err := cfg.EnableTranscripts([]string{"talk"}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	talk, err := os.ReadFile(filepath.Join(out, "logs", "talk.log"))
	if err != nil {
		t.Fatal(err)
	}
	quiet, _ := os.ReadFile(filepath.Join(out, "logs", "quiet.log"))
	stamp := `(?m)^\d\d:\d\d:\d\d\.\d\d\d \[\d+\] `
	for _, want := range []string{stamp + `→ arena 1$`, stamp + `← arenaok$`, stamp + `→ newgame game cheversi `,
		stamp + `→ go movetime 5000$`, stamp + `← info depth 1 string test bot$`, stamp + `← move [KQRBN]@[a-h][1-8]$`,
		stamp + `→ gameover result `, stamp + `→ quit$`} {
		if !regexp.MustCompile(want).Match(talk) {
			t.Errorf("talk.log has no line matching %s:\n%s", want, talk)
		}
	}
	if strings.Contains(string(quiet), "→") {
		t.Errorf("quiet.log holds a transcript:\n%s", quiet)
	}
}

// TestGameOverBeforeNextGame checks, from the bots' transcripts, that every
// bot process is told the end of each game it played before anything else
// reaches it: newgame and gameover alternate, and quit comes after the last
// gameover. The gameover is held until the worker knows its next game and
// then goes out with the next newgame or alone (see heldEngine); three
// bots at one and two games at a time give both cases.
func TestGameOverBeforeNextGame(t *testing.T) {
	for _, concurrency := range []int{1, 2} {
		path := writeConfig(t, fmt.Sprintf(`
name = "gameover"
concurrency = %d
[game]
name = "cheversi"
[time]
move = "5s"
`, concurrency), "gameover", testBot{"a", "first"}, testBot{"b", "random"}, testBot{"c", "first"})
		cfg := loadConfig(t, path)
		if err := cfg.EnableTranscripts([]string{"a", "b", "c"}); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		if _, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out}); err != nil {
			t.Fatalf("concurrency %d: Run: %v", concurrency, err)
		}
		played := map[string]int{}
		for _, rec := range readRecords(t, out) {
			played[rec.White]++
			played[rec.Black]++
		}
		line := regexp.MustCompile(`(?m)^\S+ \[(\d+)\] → (newgame|gameover|quit)\b`)
		for _, bot := range []string{"a", "b", "c"} {
			log, err := os.ReadFile(filepath.Join(out, "logs", bot+".log"))
			if err != nil {
				t.Fatal(err)
			}
			seq := map[string][]string{} // per process
			for _, m := range line.FindAllSubmatch(log, -1) {
				seq[string(m[1])] = append(seq[string(m[1])], string(m[2]))
			}
			overs := 0
			for pid, s := range seq {
				joined := strings.Join(s, " ")
				if !regexp.MustCompile(`^(newgame gameover )*quit$`).MatchString(joined) {
					t.Errorf("concurrency %d: bot %s, process %s got %s; want newgame and gameover in turn, then quit", concurrency, bot, pid, joined)
				}
				overs += strings.Count(joined, "gameover")
			}
			if overs != played[bot] || overs == 0 {
				t.Errorf("concurrency %d: bot %s got %d gameovers for %d games", concurrency, bot, overs, played[bot])
			}
		}
	}
}
