package workers_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-games/arena/arena/cheversi"
	"github.com/arena-games/arena/arena/cheversi/solve"
	"github.com/arena-games/arena/arena/workers"
)

// solveRoot is a position at ply 6 that Black wins: 21 units at ply 8,
// 623 at ply 9.
const solveRoot = "8/8/5R2/4r3/3Q4/2q5/1K6/r7 w 6 a1"

func solveSetup(t *testing.T) (*cheversi.Rules, cheversi.Position) {
	t.Helper()
	rules, err := cheversi.New("", nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := rules.ParsePosition(solveRoot)
	if err != nil {
		t.Fatal(err)
	}
	return rules, root
}

// solveLocally solves root in units at ply cut with the driver's own job.
func solveLocally(t *testing.T, rules *cheversi.Rules, root cheversi.Position, cut int) (solve.Value, *solve.Results) {
	t.Helper()
	res, err := solve.OpenResults(filepath.Join(t.TempDir(), "results.txt"), rules)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	d := &solve.Driver{Results: res, Cut: cut, Jobs: 1, Table: solve.NewTable(16 << 20)}
	v, err := d.Run(context.Background(), &root)
	if err != nil {
		t.Fatal(err)
	}
	return v, res
}

// sameUnits fails unless every unit of got has the value want gives it.
func sameUnits(t *testing.T, got, want *solve.Results) {
	t.Helper()
	for _, e := range got.Entries() {
		if w, ok := want.GetKey(e.Key); ok && w.Value != e.Value {
			t.Errorf("%s: %s, solved locally %s", e.Position.Text(), e.Value, w.Value)
		}
	}
}

// solvedHere returns how many units a worker's log says it solved.
func solvedHere(log string) int {
	m := regexp.MustCompile(`is over: (\d+) units solved here`).FindStringSubmatch(log)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestWorkersSolve: a solve's units handed to two workers give the value
// and unit values of a local solve; both workers solve units and end with
// the solve, and nothing of it is left on the server.
func TestWorkersSolve(t *testing.T) {
	rules, root := solveSetup(t)
	const cut = 9
	want, local := solveLocally(t, rules, root, cut)

	srv := startServer(t)
	done1, log1 := startWorker(t, srv.ClientURL(), "w1", 1, true, "")
	done2, log2 := startWorker(t, srv.ClientURL(), "w2", 2, true, "")
	var log logLines
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pool, err := workers.StartSolve(ctx, workers.SolveOptions{URL: srv.ClientURL(), Dir: t.TempDir(), Rules: rules, Name: "test solve", Log: log.add})
	if err != nil {
		t.Fatal(err)
	}
	res, err := solve.OpenResults(filepath.Join(t.TempDir(), "results.txt"), rules)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	// A worker started before the coordinator looks for it once a second;
	// the solve takes about that long, so it waits for both to be there
	// (they see the solve at once then) before handing out units.
	for _, l := range []*logLines{log1, log2} {
		waitForLine(t, l, "connected to NATS")
	}
	d := &solve.Driver{Results: res, Cut: cut, Pool: pool}
	got, err := d.Run(ctx, &root)
	if cerr := pool.Close(ctx, err == nil); cerr != nil {
		t.Errorf("Close: %v", cerr)
	}
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	if got != want || got != solve.Loss {
		t.Errorf("value %s through workers, %s locally; want loss", got, want)
	}
	sameUnits(t, res, local)
	for i, done := range []<-chan error{done1, done2} {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("worker %d with Once: %v", i+1, err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("worker %d with Once did not end with the solve", i+1)
		}
	}
	n1, n2 := solvedHere(log1.String()), solvedHere(log2.String())
	if n1 <= 0 || n2 <= 0 || n1+n2 < res.Len()-1 {
		t.Errorf("workers solved %d and %d units, the results hold %d:\n%s\n%s", n1, n2, res.Len(), log1, log2)
	}
	// The coordinator's count of a worker's units may miss a unit sent
	// after the value was known.
	for _, w := range []string{"w1 ready, 1 units at a time", "w2 ready, 2 units at a time", "start workers with: arena worker ",
		"w1 solved ", "w2 solved "} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("the coordinator's notices lack %q:\n%s", w, log.String())
		}
	}
	assertServerEmpty(t, srv.ClientURL())
}

// assertServerEmpty fails if anything of a tournament or solve is left on
// the server at url.
func assertServerEmpty(t *testing.T, url string) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	kv, err := js.KeyValue(ctx, workers.TournamentBucket)
	if err != nil {
		t.Fatal(err)
	}
	if keys, err := kv.Keys(ctx); !errors.Is(err, jetstream.ErrNoKeysFound) {
		t.Errorf("entries left: %v %v", keys, err)
	}
	for _, name := range []string{workers.BatchStream, workers.ResultStream} {
		st, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs != 0 || info.State.Consumers != 0 {
			t.Errorf("stream %s keeps %d messages and %d consumers", name, info.State.Msgs, info.State.Consumers)
		}
	}
}

// TestWorkersSolveLostAndForged: a unit taken by a worker that dies goes
// to another after the deadline; a result with a forged token is refused
// and its unit solved again; a coordinator stopped before the value is
// known leaves its units out, and started again on the same directory
// does not hand them out again, takes in what came meanwhile and ends the
// solve.
func TestWorkersSolveLostAndForged(t *testing.T) {
	rules, root := solveSetup(t)
	const cut = 8
	want, local := solveLocally(t, rules, root, cut)

	srv := startServer(t)
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	res, err := solve.OpenResults(filepath.Join(t.TempDir(), "results.txt"), rules)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var log logLines
	opts := workers.SolveOptions{URL: srv.ClientURL(), Dir: dir, Rules: rules, Name: "test solve", AckWait: 2 * time.Second, Log: log.add}

	// First run, no worker: the driver hands out its first unit (it waits
	// for a position's first move before the others) and is stopped.
	pool, err := workers.StartSolve(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	rctx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() {
		_, err := (&solve.Driver{Results: res, Cut: cut, Pool: pool}).Run(rctx, &root)
		ran <- err
	}()
	waitForUnit(ctx, t, js)
	stop()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v", err)
	}
	if err := pool.Close(ctx, false); err != nil {
		t.Fatal(err)
	}

	// A worker that dies: it takes the unit and goes silent; the unit
	// comes back after AckWait. A forger sends a result for another unit
	// with a bad token.
	var id string
	if kv, err := js.KeyValue(ctx, workers.TournamentBucket); err != nil {
		t.Fatal(err)
	} else if keys, err := kv.Keys(ctx); err != nil || len(keys) != 1 {
		t.Fatalf("solves declared: %v %v", keys, err)
	} else {
		id = keys[0]
	}
	cons, err := js.Consumer(ctx, workers.BatchStream, "batches_"+id)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var taken struct{ Position, Token string }
	for m := range batch.Messages() {
		json.Unmarshal(m.Data(), &taken) // and never acknowledged
	}
	if taken.Position == "" {
		t.Fatal("no unit in the stream after the first run")
	}
	p, err := rules.ParsePosition(taken.Position)
	if err != nil {
		t.Fatal(err)
	}
	all := solve.PositionsAt(&root, cut)
	other := all[len(all)-1]
	forged := solve.Entry{Key: solve.CanonicalKey(&other), Position: other, Value: solve.Win}
	data, _ := json.Marshal(map[string]string{"solve": id, "worker": "forger", "token": "00" + taken.Token[2:], "line": forged.Line()})
	m := nats.NewMsg("arena.results." + id)
	m.Header.Set("Arena-Kind", "unit")
	m.Data = data
	if _, err := js.PublishMsg(ctx, m); err != nil {
		t.Fatal(err)
	}

	// Second run, with a worker: the value is the local one.
	pool, err = workers.StartSolve(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	done, wlog := startWorker(t, srv.ClientURL(), "w1", 1, true, "")
	got, err := (&solve.Driver{Results: res, Cut: cut, Pool: pool}).Run(ctx, &root)
	if cerr := pool.Close(ctx, err == nil); cerr != nil {
		t.Errorf("Close: %v", cerr)
	}
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, log.String())
	}
	if got != want {
		t.Errorf("value %s through workers, %s locally", got, want)
	}
	sameUnits(t, res, local)
	if _, ok := res.Get(&p); !ok {
		t.Errorf("the unit the dead worker took is not solved")
	}
	if e, ok := res.Get(&other); ok && e.Positions == 0 {
		t.Errorf("the forged result was recorded: %+v", e)
	}
	if err := <-done; err != nil {
		t.Errorf("worker: %v", err)
	}
	text := log.String()
	for _, w := range []string{"units of an earlier run queued or being solved: 1;", "refused unit " + other.Text() + ": not handed out by this solve (bad token) from worker forger"} {
		if !strings.Contains(text, w) {
			t.Errorf("the coordinator's notices lack %q:\n%s", w, text)
		}
	}
	if n := solvedHere(wlog.String()); n < 1 {
		t.Errorf("worker log:\n%s", wlog)
	}
	assertServerEmpty(t, srv.ClientURL())
}

// waitForUnit returns once a unit waits in BatchStream.
func waitForUnit(ctx context.Context, t *testing.T, js jetstream.JetStream) {
	t.Helper()
	for {
		if st, err := js.Stream(ctx, workers.BatchStream); err == nil {
			if info, err := st.Info(ctx); err == nil && info.State.Msgs > 0 {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no unit handed out: %v", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// BenchmarkSolveTransport measures what handing a solve's units to
// workers costs: the same position solved in units by the driver's own
// two jobs, and by one worker solving two at a time through a NATS server
// in this process, at ply 9 (623 units of about 7,000 positions: the
// transport's cost shows) and at ply 8 (21 units of about 200,000). It
// reports units/s; each pass starts with empty tables.
//
//	go test -run '^$' -bench SolveTransport -benchtime=3x ./arena/workers
func BenchmarkSolveTransport(b *testing.B) {
	rules, err := cheversi.New("", nil)
	if err != nil {
		b.Fatal(err)
	}
	root, err := rules.ParsePosition(solveRoot)
	if err != nil {
		b.Fatal(err)
	}
	for _, cut := range []int{9, 8} {
		b.Run("cut"+strconv.Itoa(cut)+"/local", func(b *testing.B) {
			units := 0
			for range b.N {
				res, err := solve.OpenResults(filepath.Join(b.TempDir(), "results.txt"), rules)
				if err != nil {
					b.Fatal(err)
				}
				d := &solve.Driver{Results: res, Cut: cut, Jobs: 2, Table: solve.NewTable(64 << 20)}
				if _, err := d.Run(context.Background(), &root); err != nil {
					b.Fatal(err)
				}
				units += res.Len() - 1
				res.Close()
			}
			b.ReportMetric(float64(units)/b.Elapsed().Seconds(), "units/s")
		})
		b.Run("cut"+strconv.Itoa(cut)+"/worker", func(b *testing.B) {
			srv := startServer(b)
			units := 0
			for range b.N {
				ctx, cancel := context.WithCancel(context.Background())
				wdone := make(chan error, 1)
				go func() {
					wdone <- workers.RunWorker(ctx, workers.WorkerOptions{URL: srv.ClientURL(), Name: "w", Concurrency: 2, SolveMemory: 64 << 20, Once: true})
				}()
				pool, err := workers.StartSolve(ctx, workers.SolveOptions{URL: srv.ClientURL(), Dir: b.TempDir(), Rules: rules, Name: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				res, err := solve.OpenResults(filepath.Join(b.TempDir(), "results.txt"), rules)
				if err != nil {
					b.Fatal(err)
				}
				_, err = (&solve.Driver{Results: res, Cut: cut, Pool: pool}).Run(ctx, &root)
				pool.Close(ctx, true)
				if err != nil {
					b.Fatal(err)
				}
				if err := <-wdone; err != nil {
					b.Fatal(err)
				}
				cancel()
				units += res.Len() - 1
				res.Close()
			}
			b.ReportMetric(float64(units)/b.Elapsed().Seconds(), "units/s")
		})
	}
}

// waitForLine waits until log has a line with s, for up to 30 seconds.
func waitForLine(t *testing.T, log *logLines, s string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(log.String(), s); {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in 30s:\n%s", s, log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
