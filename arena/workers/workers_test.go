package workers_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/rating"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/arena/workers"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		in      string
		servers string
		listen  string // HOST:PORT
		user    string
		bad     bool
	}{
		{in: "nats://10.0.0.1:4222", servers: "nats://10.0.0.1:4222"},
		{in: "nats://a:4222,nats://b:4222", servers: "nats://a:4222,nats://b:4222"},
		{in: "tls://u:p@nats.example:4443", servers: "tls://u:p@nats.example:4443"},
		{in: "listen://0.0.0.0:4222", listen: "0.0.0.0:4222"},
		{in: "listen://127.0.0.1", listen: "127.0.0.1:4222"},
		{in: "listen://arena:secret@0.0.0.0:5000", listen: "0.0.0.0:5000", user: "arena"},
		{in: "", bad: true},
		{in: "http://x:4222", bad: true},
		{in: "nats://", bad: true},
		{in: "10.0.0.1:4222", bad: true},
		{in: "listen://0.0.0.0:99999", bad: true},
		{in: "listen://0.0.0.0:4222/path", bad: true},
	} {
		servers, l, err := workers.ParseURL(tc.in)
		if tc.bad {
			if !errors.Is(err, workers.ErrURL) {
				t.Errorf("ParseURL(%q) = %q, %v, %v; want ErrURL", tc.in, servers, l, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseURL(%q): %v", tc.in, err)
			continue
		}
		got := ""
		if l != nil {
			got = l.String()
			if l.User != tc.user {
				t.Errorf("ParseURL(%q): user %q, want %q", tc.in, l.User, tc.user)
			}
		}
		if servers != tc.servers || got != tc.listen {
			t.Errorf("ParseURL(%q) = %q, listen %q; want %q, %q", tc.in, servers, got, tc.servers, tc.listen)
		}
	}
}

// untimed returns the records of dir by ID, without what depends on
// timing.
func untimed(t testing.TB, dir string) map[int]journal.Record {
	t.Helper()
	recs, err := journal.Read(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]journal.Record{}
	for _, r := range recs {
		if err := journal.Verify(&r); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
		if _, dup := out[r.ID]; dup {
			t.Errorf("%s: game %d recorded twice", dir, r.ID)
		}
		r.Start, r.DurationMS = time.Time{}, 0
		for i := range r.Moves {
			r.Moves[i].MS = 0
		}
		out[r.ID] = r
	}
	return out
}

// sameGames checks that every game of got is the game of want with its
// ID, timing aside.
func sameGames(t testing.TB, got, want map[int]journal.Record) {
	t.Helper()
	for id, g := range got {
		w, ok := want[id]
		a, _ := json.Marshal(g)
		b, _ := json.Marshal(w)
		if !ok || string(a) != string(b) {
			t.Errorf("game %d differs from the local run's:\n%s\n%s", id, a, b)
		}
	}
}

// TestWorkersPlayTournament: a tournament whose games two workers play
// over a real NATS server has the journal of a local run, every game
// once; the workers say they are ready, each is tested against the other,
// and the tournament's state is removed from NATS when it is over.
func TestWorkersPlayTournament(t *testing.T) {
	path := testConfig(t, testBody, "a", "first", "b", "first:5", "c", "first")
	local := filepath.Join(t.TempDir(), "local")
	if _, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: local}); err != nil {
		t.Fatalf("local run: %v", err)
	}

	srv := startServer(t)
	done1, log1 := startWorker(t, srv.ClientURL(), "w1", 2, true, "")
	done2, _ := startWorker(t, srv.ClientURL(), "w2", 1, true, "")
	out := filepath.Join(t.TempDir(), "out")
	var progress notices
	sum, err := runCoordinator(t, context.Background(), path, srv.ClientURL(), out, workers.CoordinatorOptions{BatchPairs: 1}, &progress)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !sum.Complete || sum.Played != sum.Total || sum.Total != 36 {
		t.Errorf("played %d of %d games (complete %v); want all 36", sum.Played, sum.Total, sum.Complete)
	}
	got := untimed(t, out)
	if len(got) != sum.Total {
		t.Errorf("journal has %d games, want %d", len(got), sum.Total)
	}
	sameGames(t, got, untimed(t, local))
	for _, done := range []<-chan error{done1, done2} {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("worker with Once: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("a worker with Once did not end with its tournament")
		}
	}
	text := progress.String()
	for _, want := range []string{"w1 ready, 2 games at a time", "w2 ready, 1 games at a time", "w1 played", "w2 played", "start workers with: arena worker " + srv.ClientURL()} {
		if !strings.Contains(text, want) {
			t.Errorf("the coordinator's notices lack %q:\n%s", want, text)
		}
	}
	if !strings.Contains(log1.String(), "is over") {
		t.Errorf("worker log:\n%s", log1)
	}

	// Nothing of the tournament is left on the server.
	assertServerEmpty(t, srv.ClientURL())
}

// TestWorkersStopOnSPRT: a sequential test that decides stops the workers:
// no batch is handed out after it, the games in flight are finished and
// recorded (the ratings count them, the test does not), and the workers
// end with the tournament.
func TestWorkersStopOnSPRT(t *testing.T) {
	body := strings.Replace(testBody, "count = 6", "count = 100", 1) + "\n[sprt]\nelo0 = 0\nelo1 = 50\n"
	path := testConfig(t, body, "strong", "first:10", "weak", "illegal:10")
	srv := startServer(t)
	var dones []<-chan error
	for _, name := range []string{"w1", "w2", "w3"} {
		done, _ := startWorker(t, srv.ClientURL(), name, 2, true, "")
		dones = append(dones, done)
	}
	out := filepath.Join(t.TempDir(), "out")
	var progress notices
	sum, err := runCoordinator(t, context.Background(), path, srv.ClientURL(), out, workers.CoordinatorOptions{BatchPairs: 2}, &progress)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sum.SPRT == nil || sum.SPRT.Decision != rating.AcceptH1 || sum.Complete {
		t.Fatalf("SPRT %+v, complete %v: want H1 accepted early", sum.SPRT, sum.Complete)
	}
	recs := untimed(t, out)
	if len(recs) != sum.Recorded || len(recs) >= sum.Total/2 {
		t.Errorf("recorded %d games (summary %d) of %d", len(recs), sum.Recorded, sum.Total)
	}
	for _, done := range dones {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("worker: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("a worker did not end once the test decided")
		}
	}
	if !strings.Contains(progress.String(), "stopping the match") {
		t.Errorf("notices:\n%s", progress.String())
	}
	// The decision is the one a later run reads from the journal, and the
	// later run plays nothing.
	again, err := tournament.Run(context.Background(), loadConfig(t, path), tournament.Options{Out: out})
	if err != nil || again.Played != 0 || *again.SPRT != *sum.SPRT {
		t.Errorf("second run: %v, played %d, SPRT %+v; want %+v", err, again.Played, again.SPRT, sum.SPRT)
	}
}

// TestWorkerCannotPlay: a worker that cannot start a bot says so to the
// coordinator, which reports it, and takes none of the games; another
// worker plays them all.
func TestWorkerCannotPlay(t *testing.T) {
	// The bot b is "./bot" in the configuration's directory: the
	// coordinator's has it, the directory of the worker "bare" does not.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := testConfig(t, testBody, "a", "first")
	appendBot := "\n[[bots]]\nname = \"b\"\ncommand = \"./bot\"\nenv = { " + "ARENA_WORKERS_TEST_BOT" + " = \"first\" }\n"
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(appendBot)
	f.Close()
	dir := filepath.Dir(path)
	if err := os.Symlink(exe, filepath.Join(dir, "bot")); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t)
	bare, bareLog := startWorker(t, srv.ClientURL(), "bare", 2, true, t.TempDir())
	good, _ := startWorker(t, srv.ClientURL(), "good", 2, true, dir)
	out := filepath.Join(t.TempDir(), "out")
	var progress notices
	sum, err := runCoordinator(t, context.Background(), path, srv.ClientURL(), out, workers.CoordinatorOptions{}, &progress)
	if err != nil || !sum.Complete {
		t.Fatalf("Run: %v (complete %v)", err, sum != nil && sum.Complete)
	}
	select {
	case err := <-bare:
		if !errors.Is(err, workers.ErrCannotPlay) || !strings.Contains(err.Error(), "bots[1].command") {
			t.Errorf("the worker without the bot ended with %v; want ErrCannotPlay naming the bot", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the worker without the bot did not end")
	}
	<-good
	text := progress.String()
	if !strings.Contains(text, "bare cannot play this tournament and takes none of its games") {
		t.Errorf("the coordinator does not report the worker that cannot play:\n%s", text)
	}
	if strings.Contains(text, "bare played") || !strings.Contains(text, "good played 12 games") {
		t.Errorf("want every game played by good:\n%s", text)
	}
	if !strings.Contains(bareLog.String(), "cannot play") {
		t.Errorf("worker log:\n%s", bareLog)
	}
}

// TestCoordinatorRefuses: messages that are not games this coordinator
// handed out are refused and logged: another tournament's, a game whose
// token does not match, a game that does not replay. The games are
// recorded as the workers play them, once.
func TestCoordinatorRefuses(t *testing.T) {
	path := testConfig(t, testBody, "a", "first:20", "b", "first")
	srv := startServer(t)
	out := filepath.Join(t.TempDir(), "out")
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// A worker of our own that sends forged results before each real one
	// is what this test needs: take the tournament's first batch by hand.
	type batchMsg struct {
		Tournament, Fingerprint, Token string
		Games                          []struct {
			ID, Round    int
			Pair         string
			White, Black string
			Index        int `json:"opening_index"`
			Opening      struct {
				Name  string
				Moves []string
			}
		} `json:"games"`
	}
	settings := loadConfig(t, path).Rules.Settings()
	forged := make(chan error, 1)
	go func() {
		forged <- func() error {
			var id string
			for id == "" {
				kv, err := js.KeyValue(ctx, workers.TournamentBucket)
				if err == nil {
					if keys, err := kv.Keys(ctx); err == nil && len(keys) > 0 {
						id = keys[0]
						break
					}
				}
				if ctx.Err() != nil {
					return ctx.Err()
				}
				time.Sleep(50 * time.Millisecond)
			}
			m, err := js.Stream(ctx, workers.BatchStream)
			if err != nil {
				return err
			}
			var msg *jetstream.RawStreamMsg
			for msg == nil {
				if msg, err = m.GetMsg(ctx, 1, jetstream.WithGetMsgSubject("arena.batches."+id)); err != nil {
					if ctx.Err() != nil {
						return ctx.Err()
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			var b batchMsg
			if err := json.Unmarshal(msg.Data, &b); err != nil {
				return err
			}
			g := b.Games[0]
			// The scheduled game, with a move that is not legal.
			rec := journal.Record{
				ID: g.ID, Round: g.Round, PairKey: g.Pair, White: g.White, Black: g.Black,
				Opening: journal.RecordOpening{Index: g.Index + 1, Name: g.Opening.Name, Moves: g.Opening.Moves},
				Game:    "cheversi", Preset: "cheversi", Rules: settings, FirstMover: "white",
				Moves: []journal.MoveRecord{{Move: "Z@z9"}}, Result: "1-0", Winner: g.White, Reason: "score",
			}
			send := func(v map[string]any) error {
				data, _ := json.Marshal(v)
				m := nats.NewMsg("arena.results." + id)
				m.Header.Set("Arena-Kind", "game")
				m.Data = data
				_, err := js.PublishMsg(ctx, m)
				return err
			}
			ids := []int{}
			for _, g := range b.Games {
				ids = append(ids, g.ID)
			}
			for _, v := range []map[string]any{
				{"tournament": "0000000000000000", "fingerprint": b.Fingerprint, "worker": "forger", "batch": ids, "token": b.Token, "record": rec},
				{"tournament": id, "fingerprint": b.Fingerprint, "worker": "forger", "batch": ids, "token": "00" + b.Token[2:], "record": rec},
				{"tournament": id, "fingerprint": b.Fingerprint, "worker": "forger", "batch": ids, "token": b.Token, "record": rec},
			} {
				if err := send(v); err != nil {
					return err
				}
			}
			return nil
		}()
	}()
	startWorker(t, srv.ClientURL(), "w1", 2, true, "")
	var progress notices
	sum, err := runCoordinator(t, ctx, path, srv.ClientURL(), out, workers.CoordinatorOptions{BatchPairs: 1}, &progress)
	if err != nil || !sum.Complete {
		t.Fatalf("Run: %v", err)
	}
	if err := <-forged; err != nil {
		t.Fatalf("forging: %v", err)
	}
	recs := untimed(t, out)
	if len(recs) != sum.Total {
		t.Errorf("journal has %d games, want %d", len(recs), sum.Total)
	}
	text := progress.String()
	var refused []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "refused") && strings.Contains(line, "forger") {
			refused = append(refused, line)
		}
	}
	for _, want := range []string{workers.ErrOtherTournament.Error(), workers.ErrNotHandedOut.Error(), "does not verify"} {
		if !slices.ContainsFunc(refused, func(l string) bool { return strings.Contains(l, want) }) {
			t.Errorf("no refusal says %q:\n%s", want, strings.Join(refused, "\n"))
		}
	}
}
