package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/arena-games/arena/arena/sandbox"
)

// Size is a number of bytes, written in a configuration as "512MiB",
// "2 GiB", "64k" or a plain number of bytes (see sandbox.ParseBytes).
type Size int64

// UnmarshalText reads a size such as "512MiB".
func (s *Size) UnmarshalText(b []byte) error {
	n, err := sandbox.ParseBytes(string(b))
	if err != nil {
		return err
	}
	*s = Size(n)
	return nil
}

// MarshalText writes the size as "512 MiB".
func (s Size) MarshalText() ([]byte, error) { return []byte(sandbox.FormatBytes(int64(s))), nil }

// Limits is the [limits] table: the resource limits and the sandbox of
// every bot, which a bot's own [bots.limits] table overrides key by key.
// A zero value sets no limit. Required (true by default) refuses to start
// a tournament whose limits or sandbox this machine cannot give; false
// plays under what it can give (arena check and the log say what that
// is).
type Limits struct {
	Memory    Size          `toml:"memory"`
	Processes int           `toml:"processes"`
	OpenFiles int           `toml:"open_files"`
	FileSize  Size          `toml:"file_size"`
	CPUTime   time.Duration `toml:"cpu_time"`
	Sandbox   *bool         `toml:"sandbox"`
	// Read lists files and directories a sandboxed bot may read and
	// execute besides the system's (an interpreter's installation under
	// a home directory, say); a bot's own list adds to the tournament's.
	Read     []string `toml:"read"`
	Required *bool    `toml:"required"`
}

// Affinity values besides a CPU list.
const (
	AffinityOff  = "off"
	AffinityAuto = "auto"
)

// validate checks the limits of the table at path.
func (l *Limits) validate(c *Config, path []string) []error {
	var errs []error
	add := func(key string, format string, args ...any) {
		errs = append(errs, c.KeyError(append(append([]string{}, path...), key), fmt.Errorf(format, args...)))
	}
	if l.Memory < 0 {
		add("memory", "must not be negative")
	} else if l.Memory > 0 && l.Memory < 1<<20 {
		add("memory", "%s is less than 1 MiB: no bot can start in it", sandbox.FormatBytes(int64(l.Memory)))
	}
	if l.Processes < 0 {
		add("processes", "must not be negative")
	}
	if l.OpenFiles < 0 {
		add("open_files", "must not be negative")
	} else if l.OpenFiles > 0 && l.OpenFiles < 8 {
		add("open_files", "%d is too few for a bot to start (its pipes alone take 3)", l.OpenFiles)
	}
	if l.FileSize < 0 {
		add("file_size", "must not be negative")
	}
	if l.CPUTime < 0 {
		add("cpu_time", "must not be negative")
	}
	for i, p := range l.Read {
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Dir, p)
			l.Read[i] = p
		}
		if _, err := os.Stat(p); err != nil {
			add("read", "%q does not exist", p)
		}
	}
	return errs
}

// validateAffinity checks the affinity key.
func (c *Config) validateAffinity() []error {
	switch c.Affinity {
	case "", AffinityOff, AffinityAuto:
		return nil
	}
	cpus, err := sandbox.ParseCPUs(c.Affinity)
	if err != nil {
		return []error{c.KeyError([]string{"affinity"}, fmt.Errorf("want %q, %q or a CPU list such as \"0-3,6\": %v", AffinityOff, AffinityAuto, err))}
	}
	if n, top := runtime.NumCPU(), slices.Max(cpus); top >= n {
		return []error{c.KeyError([]string{"affinity"}, fmt.Errorf("CPU %d does not exist (this machine has CPUs 0-%d)", top, n-1))}
	}
	return nil
}

// BotPolicy returns the limits and the sandbox of the named bot: its own
// [bots.limits] over the tournament's [limits], key by key.
func (c *Config) BotPolicy(name string) sandbox.Policy {
	l := c.Limits
	for _, b := range c.Bots {
		if b.Name != name || b.Limits == nil {
			continue
		}
		o := b.Limits
		if o.Memory != 0 {
			l.Memory = o.Memory
		}
		if o.Processes != 0 {
			l.Processes = o.Processes
		}
		if o.OpenFiles != 0 {
			l.OpenFiles = o.OpenFiles
		}
		if o.FileSize != 0 {
			l.FileSize = o.FileSize
		}
		if o.CPUTime != 0 {
			l.CPUTime = o.CPUTime
		}
		if o.Sandbox != nil {
			l.Sandbox = o.Sandbox
		}
		if o.Required != nil {
			l.Required = o.Required
		}
		l.Read = append(slices.Clone(l.Read), o.Read...)
	}
	return sandbox.Policy{
		Limits: sandbox.Limits{Memory: int64(l.Memory), Processes: l.Processes, OpenFiles: l.OpenFiles,
			FileSize: int64(l.FileSize), CPUTime: l.CPUTime},
		Isolate:  l.Sandbox != nil && *l.Sandbox,
		Read:     l.Read,
		Optional: l.Required != nil && !*l.Required,
	}
}

// AffinityCPUs returns the CPUs bots are pinned to: nil when affinity is
// off, the CPUs this process may use for "auto", or the listed ones.
func (c *Config) AffinityCPUs() []int {
	switch c.Affinity {
	case "", AffinityOff:
		return nil
	case AffinityAuto:
		return usableCPUs()
	}
	cpus, _ := sandbox.ParseCPUs(c.Affinity)
	return cpus
}

// usableCPUs returns the CPUs this process may run on.
func usableCPUs() []int {
	cpus := sandbox.UsableCPUs()
	if len(cpus) == 0 {
		for i := range runtime.NumCPU() {
			cpus = append(cpus, i)
		}
	}
	return cpus
}
