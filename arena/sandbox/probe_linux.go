package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Features is what this machine lets the arena give a bot.
type Features struct {
	// Root is whether the arena runs as root (then it needs no user
	// namespace for the others).
	Root bool
	// UserNamespace is whether the arena, not being root, may make user
	// namespaces, inside which it may make the others.
	UserNamespace bool
	// PIDNamespace, NetNamespace and MountNamespace are whether a bot can
	// be started in namespaces of these kinds of its own.
	PIDNamespace, NetNamespace, MountNamespace bool
	// Cgroup is "v2", "v1" or "" (no cgroup the arena may write); Memory,
	// Pids and CPU say which controllers it may use there.
	Cgroup            string
	Memory, Pids, CPU bool
	// Landlock is the Landlock ABI version of the kernel, 0 without it.
	Landlock int
	// Exec is whether this program can set up a bot's process (it calls
	// Main first thing).
	Exec bool
}

var probed struct {
	once sync.Once
	f    Features
}

// Probe reports what this machine allows. It starts a short-lived process
// once to learn which namespaces the arena may make, and remembers the
// answer.
func Probe() Features {
	probed.once.Do(func() { probed.f = probe() })
	return probed.f
}

// EnvNamespaces, set to "off" in the environment of a program, makes it
// start bots without namespaces, as on a machine that denies them (for
// tests of what then takes their place).
const EnvNamespaces = "ARENA_SANDBOX_NAMESPACES"

func probe() Features {
	f := Features{Root: os.Geteuid() == 0, Exec: mainCalled}
	f.PIDNamespace = os.Getenv(EnvNamespaces) != "off" && tryClone(syscall.CLONE_NEWPID)
	if !f.Root && f.PIDNamespace {
		f.UserNamespace = true
	}
	f.NetNamespace = f.PIDNamespace && tryClone(syscall.CLONE_NEWPID|syscall.CLONE_NEWNET)
	f.MountNamespace = f.PIDNamespace && tryClone(syscall.CLONE_NEWPID|syscall.CLONE_NEWNS)
	f.Cgroup, f.Memory, f.Pids, f.CPU = probeCgroups()
	if v, err := llsys.LandlockGetABIVersion(); err == nil {
		f.Landlock = v
	}
	return f
}

// tryClone reports whether a process can be started in new namespaces of
// the kinds flags names (in a user namespace too when not root).
func tryClone(flags uintptr) bool {
	path, err := exec.LookPath("true")
	if err != nil {
		return false
	}
	cmd := exec.Command(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: flags}
	addUserNamespace(cmd.SysProcAttr, flags&syscall.CLONE_NEWNS != 0)
	return cmd.Run() == nil
}

// addUserNamespace adds a user namespace to attr when the arena is not
// root, mapping the arena's user and group to themselves, or to root in
// the namespace when the process must mount (a process keeps its
// capabilities in its user namespace across exec only as root there).
func addUserNamespace(attr *syscall.SysProcAttr, asRoot bool) {
	if os.Geteuid() == 0 {
		return
	}
	uid, gid := os.Geteuid(), os.Getegid()
	if asRoot {
		uid, gid = 0, 0
	}
	attr.Cloneflags |= syscall.CLONE_NEWUSER
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: os.Geteuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: os.Getegid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}

// NamespacesAvailable reports whether bots can run in PID namespaces of
// their own (see the package documentation).
func NamespacesAvailable() bool { return Probe().PIDNamespace }

// String describes the features, such as "PID, network and mount
// namespaces; cgroup v1 (memory, pids, cpu); Landlock ABI 7".
func (f Features) String() string {
	var ns []string
	if f.PIDNamespace {
		ns = append(ns, "PID")
	}
	if f.NetNamespace {
		ns = append(ns, "network")
	}
	if f.MountNamespace {
		ns = append(ns, "mount")
	}
	var parts []string
	switch {
	case len(ns) == 0:
		parts = append(parts, "no namespaces")
	case f.UserNamespace:
		parts = append(parts, joinAnd(ns)+" namespaces (in a user namespace)")
	default:
		parts = append(parts, joinAnd(ns)+" namespaces")
	}
	if f.Cgroup == "" {
		parts = append(parts, "no writable cgroup")
	} else {
		var c []string
		for _, x := range []struct {
			ok   bool
			name string
		}{{f.Memory, "memory"}, {f.Pids, "pids"}, {f.CPU, "cpu"}} {
			if x.ok {
				c = append(c, x.name)
			}
		}
		parts = append(parts, "cgroup "+f.Cgroup+" ("+strings.Join(c, ", ")+")")
	}
	if f.Landlock > 0 {
		parts = append(parts, fmt.Sprintf("Landlock ABI %d", f.Landlock))
	} else {
		parts = append(parts, "no Landlock")
	}
	return strings.Join(parts, "; ")
}

func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Missing lists what of p this machine cannot give, each a short phrase
// such as "a memory limit per bot (no cgroup memory controller; the
// address space is limited instead)". Things that have a stand-in are
// listed too: Check decides what is fatal.
func (f Features) Missing(p *Policy) (fatal, weaker []string) {
	if p.needsExec() && !f.Exec {
		fatal = append(fatal, "limits and the sandbox (this program does not set up bot processes: it must call engine.Supervise first thing in main)")
	}
	if p.Memory > 0 && !f.Memory {
		weaker = append(weaker, "a memory limit over all of a bot's processes (no cgroup memory controller the arena may use: each process's address space is limited instead)")
	}
	if p.Processes > 0 && !f.Pids {
		if f.Root {
			fatal = append(fatal, "a process limit (no cgroup pids controller the arena may use, and the process rlimit does not hold for root)")
		} else {
			weaker = append(weaker, "a process limit per bot (no cgroup pids controller the arena may use: the limit counts every process of the user instead)")
		}
	}
	if p.CPUTime > 0 && !f.CPU {
		weaker = append(weaker, "CPU time over all of a bot's processes (no cgroup cpu controller: the bot's own process and the children it waited for are counted)")
	}
	if p.Isolate {
		if !f.NetNamespace {
			if f.Landlock >= 4 {
				weaker = append(weaker, "a network namespace per bot (TCP is forbidden by Landlock instead; UDP and other protocols are not)")
			} else {
				fatal = append(fatal, "no network for the bot (no network namespace the arena may make, and no Landlock ABI 4)")
			}
		}
		if f.Landlock == 0 {
			fatal = append(fatal, "a restricted view of the file system (the kernel has no Landlock)")
		}
		if !f.MountNamespace {
			weaker = append(weaker, "a private /tmp (no mount namespace the arena may make: TMPDIR points into the bot's directory and /tmp is not writable)")
		}
	}
	return fatal, weaker
}

// ErrUnavailable is wrapped by Check's error when the machine cannot give
// what a policy asks.
var ErrUnavailable = errors.New("not available on this machine")

// Check returns an error naming what of p this machine cannot give, unless
// p is Optional; what it gives in a weaker form is not an error. A policy
// that sets nothing is always fine.
func Check(p *Policy) error {
	if !p.needsExec() || p.Optional {
		return nil
	}
	fatal, _ := Probe().Missing(p)
	if len(fatal) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnavailable, strings.Join(fatal, "; "))
}

// landlockConfig is the Landlock ABI the sandbox asks for: the newest the
// library knows, down to what the kernel has.
var landlockConfig = landlock.V7.BestEffort()

// UsableCPUs returns the CPUs this process may run on.
func UsableCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for c := 0; c < 1024 && len(cpus) < set.Count(); c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}
