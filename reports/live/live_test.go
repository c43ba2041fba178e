package live_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"

	"github.com/arena-games/arena/reports/dirreport"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/reports/live"
	"github.com/arena-games/arena/reports/viewer"
)

const liveConfig = `name = "live test"
[game]
name = "cheversi"
[openings]
plies = 2
count = 3
[[bots]]
name = "a"
builtin = "random"
[[bots]]
name = "b"
builtin = "greedy"
[[bots]]
name = "c"
builtin = "random"
`

// fixture lays out a tournament directory (manifest, empty journal) and
// returns it with its schedule and rules.
func fixture(t testing.TB) (string, *config.Config, []schedule.Scheduled, []openings.Opening) {
	t.Helper()
	cfg, err := config.Parse([]byte(liveConfig), "live.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	openings, err := config.LoadOpenings(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sched, err := schedule.New(cfg.Format.Kind, cfg.Format.Rounds, cfg.BotNames(), nil, openings)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := tournament.NewManifest(cfg, sched).Write(dir); err != nil {
		t.Fatal(err)
	}
	var games []schedule.Scheduled
	for g := range sched.Games() {
		games = append(games, g)
	}
	return dir, cfg, games, openings
}

// play plays a scheduled game with random moves and records it.
func play(t testing.TB, rules game.Rules, g schedule.Scheduled, openings []openings.Opening, seed uint64) journal.Record {
	t.Helper()
	op := openings[g.Opening]
	rec := journal.Record{
		ID: g.ID, Round: g.Round, PairKey: g.PairKey, Game: rules.Game(), Preset: rules.Preset(), Rules: rules.Settings(),
		Opening: journal.RecordOpening{Index: g.Opening + 1, Name: op.Name, Moves: op.Moves},
		White:   g.White, Black: g.Black, FirstMover: rules.FirstMover().String(), Start: time.Now().UTC(),
	}
	st := rules.Start()
	for _, m := range op.Moves {
		if _, err := game.PlayText(st, m); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	var buf []game.Move
	for !st.Outcome().Over() {
		buf = st.LegalMoves(buf[:0])
		m := buf[rng.IntN(len(buf))]
		rec.Moves = append(rec.Moves, journal.MoveRecord{Move: m.String(), MS: 1.5})
		if err := st.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	out := st.Outcome()
	rec.Result, rec.Reason = out.Result.String(), out.Reason
	if w, ok := out.Result.Winner(); ok {
		rec.Winner = map[game.Color]string{game.White: g.White, game.Black: g.Black}[w]
	}
	if out.Scores != nil {
		rec.Scores = &journal.Scores{White: out.Scores[game.White], Black: out.Scores[game.Black]}
	}
	return rec
}

// smallBuffers is a listener whose connections have small send buffers,
// so that a browser that does not read blocks the server's writes soon.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

// start runs a server on dir and returns its base URL.
func start(t *testing.T, dir string, opts live.Options) (*live.Server, string) {
	t.Helper()
	if opts.Interval == 0 {
		opts.Interval = 20 * time.Millisecond
	}
	srv := live.New(dir, opts)
	l, err := viewer.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l = smallBuffers{l}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); srv.Run(ctx) }()
	go func() { defer wg.Done(); srv.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return srv, viewer.URL(l)
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func state(t *testing.T, base string) live.State {
	t.Helper()
	code, body := get(t, base+"api/state")
	var st live.State
	if code != 200 || json.Unmarshal([]byte(body), &st) != nil {
		t.Fatalf("state: %d %s", code, body)
	}
	return st
}

// waitState polls the state until ok holds.
func waitState(t *testing.T, base, what string, ok func(live.State) bool) live.State {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st := state(t, base)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: last state %+v", what, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFollowsTheJournal appends games to a journal, the last one in two
// writes, and checks the state, the game list and the games served.
func TestFollowsTheJournal(t *testing.T) {
	dir, cfg, sched, openings := fixture(t)
	_, base := start(t, dir, live.Options{})
	st := waitState(t, base, "the manifest", func(s live.State) bool { return s.Name != "" })
	if st.Total != len(sched) || len(st.Standings) != 3 || st.Finished != 0 || st.InRun {
		t.Errorf("before any game: %+v", st)
	}
	j, _, err := journal.Open(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	var recs []journal.Record
	for i, g := range sched[:5] {
		rec := play(t, cfg.Rules, g, openings, uint64(i))
		recs = append(recs, rec)
		if err := j.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	// A sixth game arrives in two writes: half a line first.
	rec := play(t, cfg.Rules, sched[5], openings, 99)
	line, _ := json.Marshal(rec)
	f, err := os.OpenFile(filepath.Join(dir, journal.File), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(line[:len(line)/2])
	st = waitState(t, base, "five games", func(s live.State) bool { return s.Finished == 5 && s.Analyzed == 5 })
	f.Write(append(line[len(line)/2:], '\n'))
	recs = append(recs, rec)
	st = waitState(t, base, "six games", func(s live.State) bool { return s.Finished == 6 && s.Analyzed == 6 })

	want := journal.Standings(recs, cfg.BotNames())
	for _, w := range want {
		found := false
		for _, s := range st.Standings {
			if s.Name == w.Bot {
				found = true
				if s.Games != w.Games || s.Wins != w.Wins || s.Draws != w.Draws || s.Losses != w.Losses || s.Points != w.Points {
					t.Errorf("%s: %+v, want %+v", w.Bot, s, w)
				}
				if s.Interval <= 0 {
					t.Errorf("%s: no rating interval", w.Bot)
				}
			}
		}
		if !found {
			t.Errorf("no standing for %s", w.Bot)
		}
	}
	if st.Side == nil || st.Side.Games != 6 || st.Side.Wins+st.Side.Draws+st.Side.Losses != 6 || !(st.Side.Low <= st.Side.Score && st.Side.Score <= st.Side.High) {
		t.Errorf("side balance %+v", st.Side)
	}

	// The list catches up within a couple of seconds.
	deadline := time.Now().Add(30 * time.Second)
	var list viewer.List
	for {
		_, body := get(t, base+"api/games")
		if json.Unmarshal([]byte(body), &list) == nil && len(list.Rows) == 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("game list: %s", body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i, r := range list.Rows {
		if r.ID != recs[i].ID || list.Bots[r.White] != recs[i].White {
			t.Errorf("row %d: %v, want game %d of %s", i, r, recs[i].ID, recs[i].White)
		}
	}
	for _, r := range recs {
		code, body := get(t, fmt.Sprintf("%sapi/game?id=%d", base, r.ID))
		var g viewer.Game
		if code != 200 || json.Unmarshal([]byte(body), &g) != nil {
			t.Fatalf("game %d: %d %s", r.ID, code, body)
		}
		want, err := dirreport.ViewGame(&r)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Plies) != len(want.Plies) || g.Plies[len(g.Plies)-1].Text != want.Plies[len(want.Plies)-1].Text || g.Result != r.Result {
			t.Errorf("game %d served with %d plies ending %q, want %d ending %q", r.ID, len(g.Plies), g.Plies[len(g.Plies)-1].Text, len(want.Plies), want.Plies[len(want.Plies)-1].Text)
		}
	}
}

// TestTornLineCutByAResume: the page has read half of a last line, torn
// by a crash; a resume cuts it off and writes another game in its place,
// which the page lists and serves.
func TestTornLineCutByAResume(t *testing.T) {
	dir, cfg, sched, openings := fixture(t)
	path := filepath.Join(dir, journal.File)
	j, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []journal.Record
	for i, g := range sched[:2] {
		rec := play(t, cfg.Rules, g, openings, uint64(i))
		recs = append(recs, rec)
		if err := j.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	torn := play(t, cfg.Rules, sched[5], openings, 5)
	line, err := json.Marshal(torn)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Write(line[:len(line)/2])
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	_, base := start(t, dir, live.Options{})
	waitState(t, base, "two games", func(s live.State) bool { return s.Finished == 2 })
	// The page has read the half line with the two games before it.
	j, _, err = journal.Open(path) // cuts the torn line off
	if err != nil {
		t.Fatal(err)
	}
	next := play(t, cfg.Rules, sched[2], openings, 2)
	recs = append(recs, next)
	err = j.Append(&next)
	if cerr := j.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, base, "the game after the torn line", func(s live.State) bool { return s.Finished == 3 })
	for _, r := range recs {
		code, body := get(t, fmt.Sprintf("%sapi/game?id=%d", base, r.ID))
		var g viewer.Game
		if code != 200 || json.Unmarshal([]byte(body), &g) != nil || g.ID != r.ID {
			t.Errorf("game %d: %d %.200s", r.ID, code, body)
		}
	}
	if code, body := get(t, fmt.Sprintf("%sapi/game?id=%d", base, torn.ID)); code == 200 {
		t.Errorf("the torn game %d is served: %.200s", torn.ID, body)
	}
}

// TestGamesKeptWhileTheListCannotBeWritten: while the game list's
// temporary file may not grow (a full disk, here the file size limit),
// the page says why and loses no game: once the file can grow again,
// every game of the journal is listed, counted and served.
func TestGamesKeptWhileTheListCannotBeWritten(t *testing.T) {
	dir, cfg, sched, openings := fixture(t)
	j, _, err := journal.Open(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	// The list keeps a 40-byte entry per game ID: with the file limited to
	// 16 MiB, games 1 and 2 are listed, and the third game, given ID
	// 500,000, is not until the limit is lifted.
	const limit, farID = 16 << 20, 500_000
	var recs []journal.Record
	for i, g := range sched[:4] {
		rec := play(t, cfg.Rules, g, openings, uint64(i))
		if i == 2 {
			rec.ID = farID
		}
		recs = append(recs, rec)
		if err := j.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	low := lim
	low.Cur = limit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &low); err != nil {
		t.Skipf("cannot limit the file size: %v", err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer restore()
	_, base := start(t, dir, live.Options{})
	st := waitState(t, base, "the list's error", func(s live.State) bool { return s.Error != "" })
	if !strings.Contains(st.Error, "game list") || st.Finished != 2 {
		t.Errorf("while the list cannot be written: %d games finished, error %q; want 2 and the list's error", st.Finished, st.Error)
	}
	restore()
	waitState(t, base, "four games", func(s live.State) bool { return s.Finished == 4 && s.Analyzed == 4 && s.Error == "" })

	deadline := time.Now().Add(30 * time.Second)
	var list viewer.List
	for {
		_, body := get(t, base+"api/games")
		if json.Unmarshal([]byte(body), &list) == nil && len(list.Rows) == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("game list: %s", body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i, id := range []int{recs[0].ID, recs[1].ID, recs[3].ID, farID} {
		if r := list.Rows[i]; r.ID != id {
			t.Errorf("row %d: %v, want game %d", i, r, id)
		}
	}
	for _, r := range recs {
		code, body := get(t, fmt.Sprintf("%sapi/game?id=%d", base, r.ID))
		var g viewer.Game
		if code != 200 || json.Unmarshal([]byte(body), &g) != nil || g.ID != r.ID || g.Result != r.Result {
			t.Errorf("game %d: %d %.200s", r.ID, code, body)
		}
	}
}

// TestServesOnlyItsRoutes: no request reaches a file of the directory
// (or anywhere else), whatever its path; only GET is answered; a Host
// that is not loopback is refused.
func TestServesOnlyItsRoutes(t *testing.T) {
	dir, _, _, _ := fixture(t)
	const secret = "SECRET-CONTENT-42"
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte(secret), 0o644)
	os.WriteFile(filepath.Join(dir, journal.File), []byte{}, 0o644)
	_, base := start(t, dir, live.Options{})
	for _, p := range []string{"", "live.js", "live.css", "viewer.js", "viewer.css", "api/state", "api/games"} {
		if code, _ := get(t, base+p); code != 200 {
			t.Errorf("GET /%s: %d, want 200", p, code)
		}
	}
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	for _, p := range []string{
		"/secret.txt", "/manifest.json", "/games.jsonl", "/../secret.txt", "/%2e%2e/secret.txt", "/api/../secret.txt",
		"/viewer.js/../secret.txt", "/api/game?id=../../secret.txt", "/api/game?id=1", "/api/game?id=-1",
		"/" + dir + "/secret.txt", "/api/state/../../secret.txt", "/..%2fsecret.txt", "/etc/passwd", "/api/events/x",
	} {
		// Raw requests, so that no client cleans the path first.
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", p, host)
		conn.SetDeadline(time.Now().Add(30 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		body, _ := io.ReadAll(resp.Body)
		conn.Close()
		if strings.Contains(string(body), secret) || strings.Contains(string(body), `"fingerprint"`) || resp.StatusCode == 200 {
			t.Errorf("GET %s: status %d, body %.80q", p, resp.StatusCode, body)
		}
	}
	for _, m := range []string{"POST", "PUT", "DELETE"} {
		req, _ := http.NewRequest(m, base+"api/state", strings.NewReader("x"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s /api/state: %d, want 405", m, resp.StatusCode)
		}
	}
	req, _ := http.NewRequest("GET", base, nil)
	req.Host = "evil.example:80"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("GET with Host evil.example: %d, want 421", resp.StatusCode)
	}
	if code, body := get(t, base); !strings.Contains(body, `<script src="/viewer.js">`) || code != 200 {
		t.Errorf("the page: %d %.100s", code, body)
	}
}

// TestInFlightGames feeds the Observer methods a game and checks the
// position the state shows after every move.
func TestInFlightGames(t *testing.T) {
	dir, cfg, sched, openings := fixture(t)
	srv, base := start(t, dir, live.Options{InRun: true})
	rec := play(t, cfg.Rules, sched[0], openings, 5)
	header := rec
	header.Moves = nil
	srv.GameStarted(header)
	st := waitState(t, base, "the game in flight", func(s live.State) bool { return len(s.Flights) == 1 })
	want, err := dirreport.ViewGame(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if f := st.Flights[0]; f.ID != rec.ID || f.White != rec.White || f.Ply.Text != want.Plies[len(rec.Opening.Moves)].Text {
		t.Errorf("flight %+v, want game %d at %q", f, rec.ID, want.Plies[len(rec.Opening.Moves)].Text)
	}
	for i, m := range rec.Moves {
		srv.Moved(rec.ID, m)
		ply := len(rec.Opening.Moves) + i + 1
		st = waitState(t, base, fmt.Sprintf("ply %d", ply), func(s live.State) bool { return len(s.Flights) == 1 && s.Flights[0].Plies == ply })
		if got := st.Flights[0].Ply; got.Text != want.Plies[ply].Text || got.Move != m.Move {
			t.Fatalf("after ply %d: %q (%s), want %q (%s)", ply, got.Text, got.Move, want.Plies[ply].Text, m.Move)
		}
	}
	// The game in flight can be opened.
	code, body := get(t, fmt.Sprintf("%sapi/game?id=%d", base, rec.ID))
	var g viewer.Game
	if code != 200 || json.Unmarshal([]byte(body), &g) != nil || g.Result != "*" || len(g.Plies) != len(want.Plies) {
		t.Errorf("game in flight: %d %.200s", code, body)
	}
	srv.GameEnded(rec.ID)
	waitState(t, base, "no game in flight", func(s live.State) bool { return len(s.Flights) == 0 })
}

// TestStalledBrowsersDoNotBlock: browsers that connect to the event
// stream and never read do not hold up the Observer methods (which a
// tournament calls for every move), and are disconnected after the write
// timeout.
func TestStalledBrowsersDoNotBlock(t *testing.T) {
	dir, cfg, sched, openings := fixture(t)
	srv, base := start(t, dir, live.Options{InRun: true, Interval: time.Millisecond, WriteTimeout: 300 * time.Millisecond})
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	var conns []net.Conn
	for range 8 {
		d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
			return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
		}}
		conn, err := d.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET /api/events HTTP/1.1\r\nHost: %s\r\n\r\n", host)
		conns = append(conns, conn)
	}
	// Many games in flight, many moves each, for a few seconds: every move
	// changes the state, which the stalled browsers are sent until their
	// buffers fill and a write times out.
	rec := play(t, cfg.Rules, sched[0], openings, 1)
	done := make(chan int)
	go func() { // ends after three seconds of calls
		calls := 0
		for start := time.Now(); time.Since(start) < 3*time.Second; {
			for g := range 16 {
				h := rec
				h.ID, h.Moves = g+1, nil
				srv.GameStarted(h)
				for _, m := range rec.Moves {
					srv.Moved(h.ID, m)
				}
				calls += 2 + len(rec.Moves)
			}
			for g := range 16 {
				srv.GameEnded(g + 1)
			}
		}
		done <- calls
	}()
	select {
	case calls := <-done:
		t.Logf("%d Observer calls in 3s with 8 stalled browsers", calls)
	case <-time.After(2 * time.Minute):
		t.Fatal("the Observer methods blocked")
	}
	// Each stalled browser is cut off: reading it now ends in EOF (or a
	// reset) after whatever it had been sent.
	for i, conn := range conns {
		conn.SetReadDeadline(time.Now().Add(time.Minute))
		_, err := io.Copy(io.Discard, conn)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Errorf("stalled browser %d is still connected", i)
		}
	}
	// The server still answers, and catches up.
	waitState(t, base, "no game in flight", func(s live.State) bool { return len(s.Flights) == 0 })
}

// BenchmarkObserver measures one Observer call (what a tournament pays
// per move for its live page) while the page is rebuilt every millisecond
// and four browsers read it.
func BenchmarkObserver(b *testing.B) {
	dir, cfg, sched, openings := fixture(b)
	srv := live.New(dir, live.Options{InRun: true, Interval: time.Millisecond})
	l, err := viewer.Listen("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); srv.Run(ctx) }()
	go func() { defer wg.Done(); srv.Serve(ctx, l) }()
	defer func() {
		cancel()
		wg.Wait()
	}()
	for range 4 {
		req, _ := http.NewRequestWithContext(ctx, "GET", viewer.URL(l)+"api/events", nil)
		go func() { // reads until the server stops
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	rec := play(b, cfg.Rules, sched[0], openings, 1)
	header := rec
	header.Moves = nil
	b.ResetTimer()
	for i := range b.N {
		m := i % len(rec.Moves)
		if m == 0 {
			srv.GameEnded(header.ID)
			srv.GameStarted(header)
		}
		srv.Moved(header.ID, rec.Moves[m])
	}
}

// TestRateLeavesOutTheBacklog serves a directory whose journal already
// holds games (a run another process is playing, or a resumed one): they
// were played at a speed the page did not see, so the rate and the time
// left come only from the games that arrive while it follows.
func TestRateLeavesOutTheBacklog(t *testing.T) {
	dir, cfg, sched, openings := fixture(t)
	j, _, err := journal.Open(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i, g := range sched[:8] {
		rec := play(t, cfg.Rules, g, openings, uint64(i))
		if err := j.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	_, base := start(t, dir, live.Options{Interval: 20 * time.Millisecond})
	st := waitState(t, base, "the backlog", func(s live.State) bool { return s.Finished == 8 })
	if st.Rate != 0 || st.ETA != 0 {
		t.Errorf("from the backlog alone: %.1f games/s, %.0fs left; want no rate yet", st.Rate, st.ETA)
	}
	// Three games, 300 ms apart: about 3.3 games a second.
	start := time.Now()
	for i, g := range sched[8:11] {
		if i > 0 {
			time.Sleep(300 * time.Millisecond)
		}
		rec := play(t, cfg.Rules, g, openings, uint64(100+i))
		if err := j.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	st = waitState(t, base, "three more games", func(s live.State) bool { return s.Finished == 11 && s.Rate > 0 })
	if want := 2 / elapsed.Seconds(); st.Rate > 2*want || st.Rate < want/2 {
		t.Errorf("rate %.2f games/s, want about %.2f (two gaps in %v)", st.Rate, want, elapsed)
	}
	if left := float64(st.Total-st.Finished) / st.Rate; st.ETA < left*0.99 || st.ETA > left*1.01 {
		t.Errorf("%.0fs left, want %.0fs at %.2f games/s", st.ETA, left, st.Rate)
	}
}
