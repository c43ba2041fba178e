//go:build linux

package sandbox

import (
	"os"
	"strings"
	"testing"
)

// TestProbe checks what Probe reports against what the kernel shows
// elsewhere, and says what this machine has.
func TestProbe(t *testing.T) {
	f := Probe()
	t.Logf("this machine: %v", f)
	if f.Root != (os.Geteuid() == 0) {
		t.Errorf("Root = %v as uid %d", f.Root, os.Geteuid())
	}
	if f.NetNamespace && !f.PIDNamespace || f.MountNamespace && !f.PIDNamespace {
		t.Errorf("network or mount namespaces without PID namespaces: %+v", f)
	}
	if f.Exec {
		t.Errorf("Exec in a test binary that does not call Main")
	}
	if _, err := os.Stat("/proc/self/ns/pid"); err != nil && f.PIDNamespace {
		t.Errorf("PID namespaces reported without /proc/self/ns/pid")
	}
	// A policy that needs the set-up is refused in a program that cannot
	// set bots up, and the error says why.
	err := Check(&Policy{Limits: Limits{OpenFiles: 10}})
	if err == nil || !strings.Contains(err.Error(), "engine.Supervise") {
		t.Errorf("Check without Main: %v", err)
	}
	if f.Cgroup != "" && !f.Memory && !f.Pids && !f.CPU {
		t.Errorf("cgroup %s with no controller", f.Cgroup)
	}
}
