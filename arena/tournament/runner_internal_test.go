package tournament

import (
	"runtime"
	"testing"
)

// TestPreflightParallelismFollowsGOMAXPROCS checks that the pre-tournament
// check starts as many bots at a time as the CPUs the process may use
// (which a container or a batch job limits), not the machine's, and at
// least two.
func TestPreflightParallelismFollowsGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, runtime.NumCPU() + 1} {
		runtime.GOMAXPROCS(procs)
		if got, want := preflightParallelism(), max(2, procs); got != want {
			t.Errorf("with GOMAXPROCS %d: preflightParallelism() = %d, want %d", procs, got, want)
		}
	}
}
