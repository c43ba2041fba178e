package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits are the resource limits of one bot; a zero field means no limit.
type Limits struct {
	// Memory caps the memory of the bot and every process it starts, in
	// bytes: the cgroup's memory limit, or each process's address space
	// where cgroups are not available.
	Memory int64
	// Processes caps the processes and threads the bot may have at once.
	Processes int
	// OpenFiles caps the files each of its processes may have open.
	OpenFiles int
	// FileSize caps the size of a file the bot writes, in bytes.
	FileSize int64
	// CPUTime caps the CPU time the bot (with everything it starts) may
	// use in one game.
	CPUTime time.Duration
}

// IsZero reports whether l sets no limit.
func (l Limits) IsZero() bool { return l == Limits{} }

// String lists the limits set, such as "memory 512 MiB, processes 64".
func (l Limits) String() string {
	var parts []string
	if l.Memory > 0 {
		parts = append(parts, "memory "+FormatBytes(l.Memory))
	}
	if l.Processes > 0 {
		parts = append(parts, "processes "+strconv.Itoa(l.Processes))
	}
	if l.OpenFiles > 0 {
		parts = append(parts, "open files "+strconv.Itoa(l.OpenFiles))
	}
	if l.FileSize > 0 {
		parts = append(parts, "file size "+FormatBytes(l.FileSize))
	}
	if l.CPUTime > 0 {
		parts = append(parts, "CPU time "+l.CPUTime.String()+" per game")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Policy is what one bot gets: its limits, whether it runs in the
// sandbox, and the CPUs it may run on.
type Policy struct {
	Limits
	// Isolate runs the bot in the sandbox: no network, the file system
	// read-only but for Dir and beyond reach but for the system's
	// directories and Read, a private /tmp, no new privileges.
	Isolate bool
	// Dir is the bot's working directory, which it may read and write in
	// the sandbox; it must be set when Isolate is.
	Dir string
	// Read lists further files and directories a sandboxed bot may read
	// and execute (the bot's command and its directory are added by the
	// engine).
	Read []string
	// CPUs, when not empty, are the CPUs the bot may run on.
	CPUs []int
	// Optional lets a bot run without what the machine cannot give of the
	// policy (Check then says what that is) instead of refusing to start.
	Optional bool
}

// needsExec reports whether the policy is set up by Main in the bot's
// process before the bot's command runs.
func (p *Policy) needsExec() bool {
	return !p.Limits.IsZero() || p.Isolate || len(p.CPUs) > 0
}

// FormatBytes writes n bytes in the largest binary unit that divides it,
// such as "512 MiB" or "1536 KiB".
func FormatBytes(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 40, "TiB"}, {1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}

// ParseBytes reads a size such as "512MiB", "512 MiB", "2G", "64k" or
// "1000000" (bytes). The units are binary (K, M, G and T, with or without
// "iB" or "B").
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("size %q: want a number of bytes with an optional unit (KiB, MiB, GiB)", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %w", s, err)
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "b"), "i")
	shift := map[string]uint{"": 0, "k": 10, "m": 20, "g": 30, "t": 40}
	sh, ok := shift[unit]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown unit %q (use KiB, MiB, GiB)", s, strings.TrimSpace(t[i:]))
	}
	if n > (1<<62)>>sh {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n << sh, nil
}

// ParseCPUs reads a CPU list such as "0-3,6" (the form of taskset and
// /sys/devices/system/cpu/online).
func ParseCPUs(s string) ([]int, error) {
	var cpus []int
	seen := map[int]bool{}
	for _, part := range strings.Split(strings.TrimSpace(s), ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err != nil || a < 0 || b < a || b >= 1<<16 {
			return nil, fmt.Errorf("CPU list %q: bad element %q (want numbers and ranges such as 0-3,6)", s, part)
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				cpus = append(cpus, c)
			}
		}
	}
	return cpus, nil
}

// FormatCPUs writes a CPU list in the form ParseCPUs reads: "0-3,6".
func FormatCPUs(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}
