package config_test

import (
	"strings"
	"testing"

	"github.com/arena-games/arena/arena/config"
)

// TestHumanPlaysOneGameAtATime: a configuration with a person among its
// bots plays one game at a time; asking for more is an error on the key.
func TestHumanPlaysOneGameAtATime(t *testing.T) {
	const bots = "[game]\nname = \"cheversi\"\n[[bots]]\nname = \"me\"\nbuiltin = \"human\"\nargs = [\"--listen\", \"127.0.0.1:8765\"]\n[[bots]]\nname = \"b\"\nbuiltin = \"random\"\n"
	cfg, err := config.Parse([]byte(bots), "h.toml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Concurrency != 1 {
		t.Errorf("concurrency %d, want 1", cfg.Concurrency)
	}
	_, err = config.Parse([]byte("concurrency = 4\n"+bots), "h.toml", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "h.toml:1: concurrency: a person") {
		t.Errorf("concurrency 4 with a person: %v", err)
	}
	_, err = config.Parse([]byte(strings.Replace(bots, `"human"`, `"humane"`, 1)), "h.toml", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), ", human)") {
		t.Errorf("unknown built-in: %v", err)
	}
}
