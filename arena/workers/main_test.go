package workers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/arena/workers"
	"github.com/arena-games/arena/bots/sdk"
)

// testBotEnv makes the test binary a bot: "first" plays the first legal
// move, "first:MS" after MS milliseconds, "illegal" answers a move that
// is not one, and so loses every game.
const testBotEnv = "ARENA_WORKERS_TEST_BOT"

func TestMain(m *testing.M) {
	engine.Supervise()
	if kind := os.Getenv(testBotEnv); kind != "" {
		os.Exit(runTestBot(kind))
	}
	os.Exit(m.Run())
}

func runTestBot(kind string) int {
	kind, arg, _ := strings.Cut(kind, ":")
	delay := time.Duration(0)
	if ms, err := strconv.Atoi(arg); err == nil {
		delay = time.Duration(ms) * time.Millisecond
	}
	bot := sdk.Bot{Name: "test " + kind, Log: os.Stderr, Move: func(ctx context.Context, req sdk.Request) (string, error) {
		time.Sleep(delay)
		if kind == "illegal" {
			return "Z@z9", nil
		}
		return req.State.LegalMoves(nil)[0].String(), nil
	}}
	if err := sdk.Run(context.Background(), bot, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// testConfig is a Cheversi tournament of the test bots: name kind pairs.
func testConfig(t testing.TB, body string, bots ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(body)
	for i := 0; i+1 < len(bots); i += 2 {
		fmt.Fprintf(&b, "\n[[bots]]\nname = %q\ncommand = %q\nenv = { %s = %q }\n", bots[i], exe, testBotEnv, bots[i+1])
	}
	path := filepath.Join(t.TempDir(), "tournament.toml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const testBody = `
name = "workers"
seed = 3
concurrency = 2

[game]
name = "cheversi"

[openings]
plies = 2
count = 6

[time]
move = "5s"
`

func loadConfig(t testing.TB, path string) *config.Config {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// startServer starts a NATS server for a test, on a free port of the
// loopback interface.
func startServer(t testing.TB) *workers.Server {
	t.Helper()
	srv, err := workers.StartServer(context.Background(), workers.ServerOptions{
		Listen: workers.Listen{Host: "127.0.0.1", Port: "0"}, Store: filepath.Join(t.TempDir(), "nats"),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// logLines collects the lines of a log, safe for concurrent use.
type logLines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logLines) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(line + "\n")
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startWorker runs a worker until the test ends (or, with once, until its
// tournament is over); the returned channel gets its error.
func startWorker(t testing.TB, url, name string, concurrency int, once bool, dir string) (<-chan error, *logLines) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := &logLines{}
	done := make(chan error, 1)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		done <- workers.RunWorker(ctx, workers.WorkerOptions{
			URL: url, Name: name, Concurrency: concurrency, Once: once, Dir: dir,
			Logs: filepath.Join(t.TempDir(), "logs"), Log: log.add,
		})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(30 * time.Second):
			t.Errorf("worker %s did not stop", name)
		}
	})
	return done, log
}

// runCoordinator runs the tournament at path with its games handed to
// workers through the server at url.
func runCoordinator(t testing.TB, ctx context.Context, path, url, out string, opts workers.CoordinatorOptions, progress tournament.Progress) (*tournament.Summary, error) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opts.URL, opts.Config, opts.ConfigName = url, text, path
	c, err := workers.NewCoordinator(opts)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := tournament.Run(ctx, loadConfig(t, path), tournament.Options{Out: out, Pool: c.Pool, Progress: progress})
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if cerr := c.Close(cctx, sum); cerr != nil {
		t.Errorf("Close: %v", cerr)
	}
	return sum, err
}

// notices is a Progress that keeps the notices.
type notices struct{ logLines }

func (n *notices) Started(tournament.ProgressStart) {}
func (n *notices) Recorded(*journal.Record, string) {}
func (n *notices) Notice(msg string)                { n.add(msg) }
func (n *notices) Finished()                        {}
