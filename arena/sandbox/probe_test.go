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

// TestMissing checks what a machine without some features cannot give.
func TestMissing(t *testing.T) {
	full := Features{Root: true, PIDNamespace: true, NetNamespace: true, MountNamespace: true,
		Cgroup: "v1", Memory: true, Pids: true, CPU: true, Landlock: 7, Exec: true}
	strict := &Policy{Isolate: true, Dir: "/", Limits: Limits{Memory: 1 << 30, Processes: 64, CPUTime: 1}}
	tests := []struct {
		name          string
		f             func(*Features)
		fatal, weaker []string // words each must hold, in order
	}{
		{name: "everything", f: func(*Features) {}},
		{name: "no set-up", f: func(f *Features) { f.Exec = false }, fatal: []string{"engine.Supervise"}},
		{name: "no cgroups as root", f: func(f *Features) { f.Cgroup, f.Memory, f.Pids, f.CPU = "", false, false, false },
			fatal: []string{"process limit"}, weaker: []string{"address space", "CPU time"}},
		{name: "no cgroups as a user", f: func(f *Features) { f.Root, f.Cgroup, f.Memory, f.Pids, f.CPU = false, "", false, false, false },
			weaker: []string{"address space", "every process of the user", "CPU time"}},
		{name: "no Landlock", f: func(f *Features) { f.Landlock = 0 }, fatal: []string{"Landlock"}},
		{name: "no namespaces", f: func(f *Features) { f.PIDNamespace, f.NetNamespace, f.MountNamespace = false, false, false },
			weaker: []string{"TCP is forbidden by Landlock", "private /tmp"}},
		{name: "no namespaces, old Landlock", f: func(f *Features) { f.NetNamespace, f.Landlock = false, 3 },
			fatal: []string{"no network"}},
	}
	for _, tt := range tests {
		f := full
		tt.f(&f)
		fatal, weaker := f.Missing(strict)
		check := func(what string, got, want []string) {
			if len(got) != len(want) {
				t.Errorf("%s: %s = %q, want %d items", tt.name, what, got, len(want))
				return
			}
			for i := range want {
				if !strings.Contains(got[i], want[i]) {
					t.Errorf("%s: %s[%d] = %q, want it to say %q", tt.name, what, i, got[i], want[i])
				}
			}
		}
		check("fatal", fatal, tt.fatal)
		check("weaker", weaker, tt.weaker)
	}
}
