//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Features is what this machine lets the arena give a bot: nothing
// beyond rlimits off Linux.
type Features struct{}

// Probe reports what this machine allows.
func Probe() Features { return Features{} }

// String describes the features.
func (Features) String() string { return "no namespaces, cgroups or Landlock (not Linux)" }

// NamespacesAvailable reports whether bots can run in PID namespaces of
// their own: never off Linux.
func NamespacesAvailable() bool { return false }

// ErrUnavailable is wrapped by Check's error when the machine cannot give
// what a policy asks.
var ErrUnavailable = errors.New("not available on this machine")

// Check returns an error naming what of p this machine cannot give,
// unless p is Optional: off Linux, any limit or the sandbox.
func Check(p *Policy) error {
	if !p.needsExec() || p.Optional {
		return nil
	}
	return fmt.Errorf("%w: limits, CPU affinity and the sandbox need Linux", ErrUnavailable)
}

// Main does nothing off Linux.
func Main() {}

// Box is the confinement of one bot process: none off Linux.
type Box struct{ policy Policy }

// Prepare makes the box of one bot process under policy p.
func Prepare(p Policy, name string) (*Box, error) {
	if err := Check(&p); err != nil {
		return nil, err
	}
	return &Box{policy: p}, nil
}

// Namespaced reports whether the bot runs in a PID namespace of its own.
func (b *Box) Namespaced() bool { return false }

// Wrap fits cmd into the box: nothing to do off Linux.
func (b *Box) Wrap(cmd *exec.Cmd, path string, direct bool) error { return nil }

// Started waits for the set-up of the bot's process: none off Linux.
func (b *Box) Started() error { return nil }

// CloseAfterStart closes what Wrap added to cmd: nothing off Linux.
func CloseAfterStart(cmd *exec.Cmd) {}

// Explain names the limit that explains how the bot ended.
func (b *Box) Explain(status, last string) string { return "" }

// CPUTime returns the CPU time used by the bot: not counted off Linux.
func (b *Box) CPUTime(pid int) (time.Duration, bool) { return 0, false }

// Kill kills the processes of the box's cgroup: none off Linux.
func (b *Box) Kill() {}

// Close releases the box.
func (b *Box) Close() error { return nil }

// Describe says what the bot runs under.
func (b *Box) Describe() string { return strings.Join([]string{"no limits"}, "") }

// UsableCPUs returns the CPUs this process may run on: unknown here.
func UsableCPUs() []int { return nil }

// Describe says what a bot run under policy p gets on this machine.
func (f Features) Describe(p *Policy) string { return "no limits" }

// Missing lists what of p this machine cannot give: everything off Linux.
func (f Features) Missing(p *Policy) (fatal, weaker []string) {
	if p.needsExec() {
		fatal = append(fatal, "limits, CPU affinity and the sandbox (they need Linux)")
	}
	return fatal, nil
}
