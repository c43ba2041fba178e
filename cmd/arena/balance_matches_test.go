package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/reports/dirreport"
)

// The matches of "The bot" in docs/balance.md (expert against alphabeta)
// are checked against their games, committed in docs/balance/matches.tsv.gz:
// for each match its data key (journal.Manifest.DataKey: the schedule and
// how each bot plays, its clock or node limit included), then one line per
// game with its opening, its colours, its result and its moves. The test
// requires the key and every game's opening and colours to be those the
// match's configuration gives, and each row of the document's table to
// hold what the arena's report computes from the games. Node-limited games
// are played again and must repeat move for move. After the matches are
// played again into results/study,
//
//	go test ./cmd/arena -run TestBalanceMatches -balance.update
//
// rewrites the data file and the figures of the table; the prose is the
// author's.
const balanceMatches = "../../docs/balance/matches.tsv.gz"

// matchGame is one committed game of a match: its schedule id, its
// opening's moves, its colours, its result's letter (resultLetters) and
// the moves after the opening.
type matchGame struct {
	id           int
	opening      string
	white, black string
	result       string
	moves        []string
}

// matchData is one committed match: its data key and its games in the
// order of ids.
type matchData struct {
	key   string
	games []matchGame
}

// writeMatches reads the journals of the named matches under results/study
// and writes the data file.
func writeMatches(t *testing.T, names []string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for _, name := range names {
		m, recs, err := journal.LoadDir(filepath.Join(studyResults, name))
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(recs, func(a, b journal.Record) int { return a.ID - b.ID })
		fmt.Fprintf(zw, "match\t%s\t%s\n", name, m.DataKey())
		for _, r := range recs {
			key := r.Result
			if r.Forfeit != nil {
				key += " forfeit"
			}
			l, ok := resultLetters[key]
			if !ok {
				t.Fatalf("%s: game %d: result %q", name, r.ID, key)
			}
			moves := make([]string, len(r.Moves))
			for i, mv := range r.Moves {
				moves[i] = mv.Move
			}
			fmt.Fprintf(zw, "game\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", name, r.ID,
				strings.Join(r.Opening.Moves, " "), r.White, r.Black, l, strings.Join(moves, " "))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(balanceMatches, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readMatches reads the data file.
func readMatches(t *testing.T) map[string]*matchData {
	t.Helper()
	zr := openGzip(t, balanceMatches)
	out := map[string]*matchData{}
	sc := bufio.NewScanner(zr)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "\t")
		switch {
		case len(fields) == 3 && fields[0] == "match":
			out[fields[1]] = &matchData{key: fields[2]}
		case len(fields) == 8 && fields[0] == "game" && out[fields[1]] != nil:
			id, err := strconv.Atoi(fields[2])
			if err != nil {
				t.Fatalf("%s:%d: game id %q: %v", balanceMatches, line, fields[2], err)
			}
			md := out[fields[1]]
			md.games = append(md.games, matchGame{id: id, opening: fields[3], white: fields[4], black: fields[5],
				result: fields[6], moves: strings.Fields(fields[7])})
		default:
			t.Fatalf("%s:%d: line %q is neither a match (3 fields) nor a game of one (8 fields)", balanceMatches, line, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// matchRecords checks a committed match against its configuration (its
// data key, and each game's opening and colours against the schedule) and
// returns its games as journal records.
func matchRecords(t *testing.T, name string, md *matchData) (*journal.Manifest, []journal.Record) {
	t.Helper()
	cfg, m, sched := studySchedule(t, name)
	if k := m.DataKey(); k != md.key {
		t.Fatalf("%s: the configuration's data key is %s, the committed games' %s", name, k, md.key)
	}
	if len(md.games) != sched.Len() {
		t.Fatalf("%s: %d games committed for %d scheduled", name, len(md.games), sched.Len())
	}
	letters := map[string]string{}
	for k, v := range resultLetters {
		letters[v] = k
	}
	recs := make([]journal.Record, len(md.games))
	for i, g := range md.games {
		s, ok := sched.Game(g.id)
		op := sched.Openings[s.Opening]
		if !ok || g.id != i+1 || s.White != g.white || s.Black != g.black || strings.Join(op.Moves, " ") != g.opening {
			t.Fatalf("%s: game %d (%s, %s against %s) is not the schedule's game %d (%s, %s against %s)",
				name, g.id, g.opening, g.white, g.black, i+1, strings.Join(op.Moves, " "), s.White, s.Black)
		}
		res, forfeit, _ := strings.Cut(letters[g.result], " ")
		if res == "" {
			t.Fatalf("%s: game %d has result %q", name, g.id, g.result)
		}
		recs[i] = journal.Record{ID: g.id, PairKey: s.PairKey, White: g.white, Black: g.black,
			FirstMover: cfg.Rules.FirstMover().String(), Result: res,
			Opening: journal.RecordOpening{Index: s.Opening + 1, Moves: op.Moves}}
		if forfeit != "" {
			recs[i].Forfeit = &journal.Forfeit{Kind: journal.ForfeitError}
		}
	}
	return m, recs
}

// matchFigures are the figures of one row of the document's table, from
// the first bot's side, as the cells show them.
type matchFigures struct {
	wdl, score, elo, oneColour string
}

// matchFiguresOf computes a match's figures as the arena's report does
// (the pairs table): the first bot's W / D / L and score over the games,
// and the Elo difference of its pair scores with its 95 % margin; and the
// colour-reversed pairs whose two games one colour won.
func matchFiguresOf(t *testing.T, name string, m *journal.Manifest, recs []journal.Record) matchFigures {
	t.Helper()
	a, err := rating.Analyze(dirreport.RatingGames(recs), dirreport.RatingOptions(m))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Pairs) != 1 || a.Pairs[0].A != m.Bots[0] || a.Pairs[0].Pentanomial == nil {
		t.Fatalf("%s: the analysis has pairs %+v; want %s first, with colour-reversed pairs", name, a.Pairs, m.Bots[0])
	}
	p := a.Pairs[0]
	pe := p.Pentanomial
	if pe.Elo == nil || pe.Margin == nil {
		t.Fatalf("%s: the pairs give no Elo difference", name)
	}
	oneColour := 0
	for i := 0; i+1 < len(recs); i += 2 {
		if recs[i].PairKey != recs[i+1].PairKey {
			t.Fatalf("%s: games %d and %d are not a pair", name, recs[i].ID, recs[i+1].ID)
		}
		if recs[i].Result == recs[i+1].Result && recs[i].Result != "1/2-1/2" {
			oneColour++
		}
	}
	return matchFigures{
		wdl:       fmt.Sprintf("%d / %d / %d", p.Wins, p.Draws, p.Losses),
		score:     fmt.Sprintf("%.1f %%", 100*p.Score),
		elo:       fmt.Sprintf("%+.0f ± %.0f", *pe.Elo, *pe.Margin),
		oneColour: fmt.Sprintf("%d of %d", oneColour, pe.Pairs),
	}
}

// matchColumns are the headers of the table's columns the test computes,
// and of the one naming the command.
var matchColumns = []string{"expert's W / D / L", "expert's score", "Elo difference, 95 %", "pairs one colour won twice", "command"}

// matchCommand finds the configuration a row's command plays.
var matchCommand = regexp.MustCompile("^`arena run (--concurrency 1 )?configs/study/(match-[a-z0-9-]+)\\.toml`$")

// matchTable is the document's table of matches: its rows' cells, and the
// index of each of matchColumns.
type matchTable struct {
	start, end int // of the rows in the document
	rows       [][]string
	cols       []int
}

func cells(line string) []string {
	c := strings.Split(strings.Trim(line, "|"), "|")
	for i := range c {
		c[i] = strings.TrimSpace(c[i])
	}
	return c
}

// readMatchTable finds the table of matches between the document's markers.
func readMatchTable(t *testing.T, doc string) matchTable {
	t.Helper()
	i, j, ok := section(doc, "matches")
	if !ok {
		t.Fatalf("%s has no table of matches (<!-- balance:matches --> ... <!-- /balance:matches -->)", balanceDoc)
	}
	lines := strings.SplitAfter(doc[i:j], "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[1], "|---") {
		t.Fatalf("%s: the table of matches has no header", balanceDoc)
	}
	head := cells(strings.TrimSpace(lines[0]))
	tb := matchTable{start: i + len(lines[0]) + len(lines[1]), end: j}
	for _, c := range matchColumns {
		k := slices.Index(head, c)
		if k < 0 {
			t.Fatalf("%s: the table of matches has no column %q (its columns: %q)", balanceDoc, c, head)
		}
		tb.cols = append(tb.cols, k)
	}
	for _, l := range lines[2:] {
		if l = strings.TrimSpace(l); l != "" {
			if c := cells(l); len(c) == len(head) {
				tb.rows = append(tb.rows, c)
				continue
			}
			t.Fatalf("%s: row %q of the table of matches has not %d cells", balanceDoc, l, len(head))
		}
	}
	return tb
}

// TestBalanceMatches checks the table of matches of docs/balance.md
// against the committed games (see balanceMatches).
func TestBalanceMatches(t *testing.T) {
	data, err := os.ReadFile(balanceDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	tb := readMatchTable(t, doc)
	names := make([]string, len(tb.rows))
	for i, row := range tb.rows {
		cmd := matchCommand.FindStringSubmatch(row[tb.cols[4]])
		if cmd == nil {
			t.Fatalf("row %d of the table of matches: command %s does not play a configuration of configs/study as it is", i+1, row[tb.cols[4]])
		}
		names[i] = cmd[2]
	}
	if *balanceUpdate {
		writeMatches(t, names)
	}
	matches := readMatches(t)
	var rows strings.Builder
	for i, row := range tb.rows {
		md, ok := matches[names[i]]
		if !ok {
			t.Fatalf("%s has no games of %s", balanceMatches, names[i])
		}
		delete(matches, names[i])
		m, recs := matchRecords(t, names[i], md)
		f := matchFiguresOf(t, names[i], m, recs)
		for k, want := range []string{f.wdl, f.score, f.elo, f.oneColour} {
			if got := strings.Trim(row[tb.cols[k]], "*"); got != want {
				if !rewriteBalanceDoc() {
					t.Errorf("%s, %s: the document says %s, the games %s (-balance.update rewrites it)", names[i], matchColumns[k], got, want)
				}
				row[tb.cols[k]] = strings.Replace(row[tb.cols[k]], got, want, 1)
			}
		}
		rows.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	for name := range matches {
		t.Errorf("%s holds games of %s, which the table of matches does not show", balanceMatches, name)
	}
	all := readMatches(t)
	for _, c := range balancePairedMatches {
		if all[c.a] == nil || all[c.b] == nil {
			t.Fatalf("%s has not the games of both %s and %s", balanceMatches, c.a, c.b)
		}
		_, recsA := matchRecords(t, c.a, all[c.a])
		ma, recsB := matchRecords(t, c.b, all[c.b])
		if want := pairedDifference(t, c.a, c.b, recsA, recsB, ma.Bots[0]); !strings.Contains(strings.Join(strings.Fields(doc), " "), want) {
			t.Errorf("%s does not say %q", balanceDoc, want)
		}
	}
	if rewriteBalanceDoc() {
		doc = doc[:tb.start] + rows.String() + doc[tb.end:]
		if err := os.WriteFile(balanceDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBalanceMatchReplay plays again, in-process, games of the node-limited
// matches (the first and the last of each; with -short the first) and
// requires the committed moves and results: the games are those of the
// configuration and the current bots.
func TestBalanceMatchReplay(t *testing.T) {
	for name, md := range readMatches(t) {
		cfg, m, sched := studySchedule(t, name)
		if cfg.BotTime(cfg.Bots[0].Name).Nodes == 0 {
			continue // a clock or a time a move: not repeatable
		}
		t.Run(name, func(t *testing.T) {
			matchRecords(t, name, md)
			players := studyPlayers(t, cfg)
			games := []matchGame{md.games[0], md.games[len(md.games)-1]}
			if testing.Short() {
				games = games[:1]
			}
			for _, g := range games {
				s, _ := sched.Game(g.id)
				op := sched.Openings[s.Opening]
				moves, result := replayStudyGame(t, cfg, op, [2]string{g.white, g.black}, players)
				if !slices.Equal(moves, g.moves) || result != g.result {
					t.Errorf("%s game %d: played again\n%s %s\nthe match recorded\n%s %s (data key %.12s)",
						name, g.id, strings.Join(moves, " "), result, strings.Join(g.moves, " "), g.result, m.DataKey())
				}
			}
		})
	}
}

// balancePairedMatches are the matches the document compares pair by pair
// on the openings they share: the first bot's score in each, and the
// difference with its 95 % interval over the shared openings.
var balancePairedMatches = []struct{ a, b string }{
	{"match-nodes-100k", "match-nodes"},
	{"match-clock-double", "match-clock"},
}

// pairPoints returns the first bot's points in each colour-reversed pair
// of a match, by the pair's opening.
func pairPoints(recs []journal.Record, bot string) map[string]float64 {
	pts := map[string]float64{}
	for _, r := range recs {
		p := 0.5
		switch {
		case r.Result == "1-0" && r.White == bot, r.Result == "0-1" && r.Black == bot:
			p = 1
		case r.Result != "1/2-1/2":
			p = 0
		}
		pts[strings.Join(r.Opening.Moves, " ")] += p
	}
	return pts
}

// pairedDifference states the difference of the first bot's score between
// two matches pair by pair, on the openings they share: the mean of the
// differences of its pair scores (in points of 100) with the normal 95 %
// interval of that mean.
func pairedDifference(t *testing.T, a, b string, recsA, recsB []journal.Record, bot string) string {
	t.Helper()
	pa, pb := pairPoints(recsA, bot), pairPoints(recsB, bot)
	var d []float64
	for op, x := range pa {
		if y, ok := pb[op]; ok {
			d = append(d, 100*(x-y)/2)
		}
	}
	if len(d) < 2 {
		t.Fatalf("%s and %s share %d openings", a, b, len(d))
	}
	var mean, ss float64
	for _, x := range d {
		mean += x / float64(len(d))
	}
	for _, x := range d {
		ss += (x - mean) * (x - mean)
	}
	half := 1.959964 * math.Sqrt(ss/float64(len(d)-1)/float64(len(d)))
	return fmt.Sprintf("`%s` against `%s`, pair by pair on their %d shared openings: %+.1f \\[%+.1f, %+.1f\\] points of score",
		a, b, len(d), mean, mean-half, mean+half)
}
