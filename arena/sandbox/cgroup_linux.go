package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/containerd/cgroups/v3"
	"github.com/containerd/cgroups/v3/cgroup1"
	"github.com/containerd/cgroups/v3/cgroup2"
	"github.com/opencontainers/runtime-spec/specs-go"
)

// A bot's cgroup. The arena makes one per bot process under its own
// cgroup (arena-PID-N), sets its limits, and the bot's process joins it
// (Main) before the bot's command runs; the arena removes it once the bot
// is gone. With cgroup v1 the bot's cgroup is made in the memory, pids
// and cpuacct hierarchies; with v2 in the arena's own cgroup, whose
// subtree must have (or be able to enable) the memory, pids and cpu
// controllers: the arena's cgroup must be delegated to its user (root, or
// a delegated systemd unit such as systemd-run --user --scope -p
// Delegate=yes), and if the arena's cgroup has no controllers enabled
// for its children yet and the arena is alone in it, the arena moves
// itself into a leaf of it ("arena") to enable them.

// v1Controllers are the cgroup v1 controllers a bot's cgroup uses.
var v1Controllers = []cgroup1.Name{cgroup1.Memory, cgroup1.Pids, cgroup1.Cpuacct}

// cgroupSeq numbers the cgroups this process makes.
var cgroupSeq atomic.Int64

// botCgroup is the cgroup of one bot process.
type botCgroup struct {
	v1    cgroup1.Cgroup
	v2    *cgroup2.Manager
	v2dir string
	dirs  map[string]string // controller ("memory", "pids", "cpu") → directory
}

// probeCgroups reports which cgroup hierarchy the arena may use and which
// of its controllers, by making (and removing) a cgroup.
func probeCgroups() (version string, memory, pids, cpu bool) {
	cg, err := newCgroup(Limits{}, "probe")
	if err != nil {
		return "", false, false, false
	}
	defer cg.remove()
	version = "v1"
	if cg.v2 != nil {
		version = "v2"
	}
	return version, cg.dirs["memory"] != "", cg.dirs["pids"] != "", cg.dirs["cpu"] != ""
}

// newCgroup makes a cgroup with limits l; name tells it apart in its
// path.
func newCgroup(l Limits, name string) (*botCgroup, error) {
	group := fmt.Sprintf("arena-%d-%d-%s", os.Getpid(), cgroupSeq.Add(1), name)
	if cgroups.Mode() == cgroups.Unified {
		return newCgroup2(l, group)
	}
	return newCgroup1(l, group)
}

func newCgroup1(l Limits, group string) (*botCgroup, error) {
	res := &specs.LinuxResources{}
	if l.Memory > 0 {
		// Swap counts too, where the kernel accounts for it.
		res.Memory = &specs.LinuxMemory{Limit: &l.Memory}
	}
	if l.Processes > 0 {
		n := int64(l.Processes)
		res.Pids = &specs.LinuxPids{Limit: &n}
	}
	hier := func() ([]cgroup1.Subsystem, error) {
		all, err := cgroup1.Default()
		if err != nil {
			return nil, err
		}
		var out []cgroup1.Subsystem
		for _, s := range all {
			for _, n := range v1Controllers {
				if s.Name() == n {
					out = append(out, s)
				}
			}
		}
		return out, nil
	}
	cg, err := cgroup1.New(cgroup1.NestedPath(group), res, cgroup1.WithHierarchy(hier))
	if err != nil {
		return nil, fmt.Errorf("cgroup v1: %w", err)
	}
	b := &botCgroup{v1: cg, dirs: map[string]string{}}
	for _, s := range cg.Subsystems() {
		p, ok := s.(interface{ Path(string) string })
		if !ok {
			continue
		}
		rel, err := cgroup1.NestedPath(group)(s.Name())
		if err != nil {
			continue
		}
		key := string(s.Name())
		if s.Name() == cgroup1.Cpuacct {
			key = "cpu"
		}
		b.dirs[key] = p.Path(rel)
	}
	return b, nil
}

func newCgroup2(l Limits, group string) (*botCgroup, error) {
	own, err := cgroup2.NestedGroupPath("")
	if err != nil {
		return nil, fmt.Errorf("cgroup v2: %w", err)
	}
	const mount = "/sys/fs/cgroup"
	if err := enableControllers(filepath.Join(mount, own)); err != nil {
		return nil, fmt.Errorf("cgroup v2: %w", err)
	}
	res := &cgroup2.Resources{}
	if l.Memory > 0 {
		res.Memory = &cgroup2.Memory{Max: &l.Memory}
	}
	if l.Processes > 0 {
		res.Pids = &cgroup2.Pids{Max: int64(l.Processes)}
	}
	m, err := cgroup2.NewManager(mount, filepath.Join(own, group), res)
	if err != nil {
		return nil, fmt.Errorf("cgroup v2: %w", err)
	}
	dir := filepath.Join(mount, own, group)
	b := &botCgroup{v2: m, v2dir: dir, dirs: map[string]string{}}
	ctrls, _ := m.Controllers()
	for _, c := range ctrls {
		if c == "memory" || c == "pids" || c == "cpu" {
			b.dirs[c] = dir
		}
	}
	b.dirs["cpu"] = dir // cpu.stat's usage is there without the controller
	return b, nil
}

// enableControllers makes the memory, pids and cpu controllers available
// to the children of the arena's cgroup dir. A cgroup with processes in
// it cannot give controllers to its children, so when it has none yet and
// the arena is alone in it, the arena moves into a leaf "arena" first.
func enableControllers(dir string) error {
	want := []string{"memory", "pids", "cpu"}
	have, _ := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	missing := false
	for _, c := range want {
		if !bytes.Contains(have, []byte(c)) {
			missing = true
		}
	}
	if !missing {
		return nil
	}
	avail, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return err
	}
	procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return err
	}
	if f := strings.Fields(string(procs)); len(f) > 0 && !(len(f) == 1 && f[0] == strconv.Itoa(os.Getpid())) {
		return fmt.Errorf("the arena's cgroup %s holds other processes and gives its children no controllers (run the arena in a cgroup of its own, such as systemd-run --user --scope -p Delegate=yes)", dir)
	} else if len(f) == 1 {
		leaf := filepath.Join(dir, "arena")
		if err := os.Mkdir(leaf, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
		if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte("0"), 0); err != nil {
			return err
		}
	}
	var add []string
	for _, c := range want {
		if bytes.Contains(avail, []byte(c)) {
			add = append(add, "+"+c)
		}
	}
	return os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte(strings.Join(add, " ")), 0)
}

// procsFiles returns the cgroup.procs files a process writes "0" to in
// order to join the cgroup.
func (b *botCgroup) procsFiles() []string {
	if b.v2 != nil {
		return []string{filepath.Join(b.v2dir, "cgroup.procs")}
	}
	var files []string
	for _, d := range b.dirs {
		files = append(files, filepath.Join(d, "cgroup.procs"))
	}
	return files
}

// events reports whether the memory and process limits were reached.
func (b *botCgroup) events() (memory, pids bool) {
	if d := b.dirs["pids"]; d != "" {
		pids = counter(filepath.Join(d, "pids.events"), "max") > 0
	}
	if b.v2 != nil {
		if d := b.dirs["memory"]; d != "" {
			memory = counter(filepath.Join(d, "memory.events"), "oom_kill") > 0 ||
				counter(filepath.Join(d, "memory.events"), "max") > 0
		}
		return memory, pids
	}
	if d := b.dirs["memory"]; d != "" {
		memory = counter(filepath.Join(d, "memory.oom_control"), "oom_kill") > 0 ||
			readInt(filepath.Join(d, "memory.failcnt")) > 0
	}
	return memory, pids
}

// cpuTime returns the CPU time the processes of the cgroup have used.
func (b *botCgroup) cpuTime() (time.Duration, bool) {
	d := b.dirs["cpu"]
	if d == "" {
		return 0, false
	}
	if b.v2 != nil {
		n := counter(filepath.Join(d, "cpu.stat"), "usage_usec")
		return time.Duration(n) * time.Microsecond, n >= 0
	}
	n := readInt(filepath.Join(d, "cpuacct.usage"))
	return time.Duration(n), n >= 0
}

// kill kills every process in the cgroup.
func (b *botCgroup) kill() {
	if b.v2 != nil {
		_ = b.v2.Kill()
		return
	}
	for range 50 {
		procs, err := b.v1.Processes(cgroup1.Pids, true)
		if err != nil || len(procs) == 0 {
			if procs, err = b.v1.Processes(cgroup1.Memory, true); err != nil || len(procs) == 0 {
				return
			}
		}
		for _, p := range procs {
			_ = syscall.Kill(p.Pid, syscall.SIGKILL)
		}
		time.Sleep(time.Millisecond)
	}
}

// remove removes the cgroup once its processes are gone, waiting up to a
// second for the kernel to let them go.
func (b *botCgroup) remove() error {
	var err error
	for deadline := time.Now().Add(time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b.v2 != nil {
			err = b.v2.Delete()
		} else {
			err = b.v1.Delete()
		}
		if err == nil || errors.Is(err, cgroup1.ErrCgroupDeleted) || time.Now().After(deadline) {
			return err
		}
	}
}

// counter returns the value of the line "name N" of a flat keyed file,
// -1 if there is none.
func counter(path, name string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		if ok && k == name {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// readInt returns the number a file holds, -1 if it cannot be read.
func readInt(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return -1
	}
	return n
}
