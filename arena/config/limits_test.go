package config_test

import (
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"
	"github.com/arena-games/arena/arena/sandbox"
)

// TestBotPolicy checks that a bot's [bots.limits] overrides the
// tournament's key by key, and that the flags of arena match reach them.
func TestBotPolicy(t *testing.T) {
	const text = `
affinity = "auto"
[game]
name = "cheversi"
[limits]
memory = "512MiB"
processes = 64
cpu_time = "30s"
sandbox = true
read = ["/usr"]
[[bots]]
name = "a"
builtin = "random"
[[bots]]
name = "b"
builtin = "random"
[bots.limits]
memory = "1GiB"
sandbox = false
required = false
read = ["/etc"]
`
	cfg, err := config.Parse([]byte(text), "t.toml", t.TempDir(), config.Override{Key: "limits.open_files", Value: "100", Source: "--open-files 100"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := cfg.BotPolicy("a"), cfg.BotPolicy("b")
	wantA := sandbox.Limits{Memory: 512 << 20, Processes: 64, OpenFiles: 100, CPUTime: 30 * time.Second}
	if a.Limits != wantA || !a.Isolate || a.Optional || len(a.Read) != 1 {
		t.Errorf("bot a: %+v, want %+v in the sandbox, required, reading /usr", a, wantA)
	}
	wantB := wantA
	wantB.Memory = 1 << 30
	if b.Limits != wantB || b.Isolate || !b.Optional || len(b.Read) != 2 {
		t.Errorf("bot b: %+v, want %+v outside the sandbox, optional, reading /usr and /etc", b, wantB)
	}
	if len(cfg.AffinityCPUs()) == 0 {
		t.Errorf("affinity auto gives no CPUs")
	}
}
