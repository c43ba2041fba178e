package engine

import (
	"fmt"
	"os"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"
)

// Pin lets the bot run only on cpus (all of them again when cpus is
// empty): every thread of its process, and every thread it starts later,
// which inherits the mask. A runner pins a game's bots as it takes them
// for the game; pinning a bot to the CPUs it has already costs nothing.
// Processes the bot started before are left alone.
func (e *Engine) Pin(cpus []int) error {
	e.pinMu.Lock()
	defer e.pinMu.Unlock()
	if slices.Equal(cpus, e.pinned) && (len(cpus) > 0 || e.pinnedSet) {
		return nil
	}
	var set unix.CPUSet
	if len(cpus) == 0 {
		if err := unix.SchedGetaffinity(0, &set); err != nil {
			return fmt.Errorf("pin %s: %w", e.name, err)
		}
	}
	for _, c := range cpus {
		set.Set(c)
	}
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(e.proc.pid) + "/task")
	if err != nil {
		return fmt.Errorf("pin %s: %w", e.name, err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil && err != unix.ESRCH {
			return fmt.Errorf("pin %s to CPUs %v: %w", e.name, cpus, err)
		}
	}
	e.pinned, e.pinnedSet = slices.Clone(cpus), true
	return nil
}
