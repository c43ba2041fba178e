// Package sandbox confines bot processes: resource limits (memory,
// processes and threads, open files, the size of a file written, CPU time
// per game), an optional sandbox for bots one did not write (no network,
// no view of the file system beyond the system's read-only directories
// and the bot's own, a private /tmp, no new privileges), the CPUs a bot
// may run on, and the kernel's own guarantee that nothing a bot starts
// outlives it.
//
// A Policy says what a bot gets. Probe reports what this machine allows
// (namespaces, cgroups and their controllers, the Landlock ABI), Check
// says what of a Policy it cannot give, and Prepare makes a Box for one
// bot process: the engine hands the Box its exec.Cmd before starting it,
// and asks the Box afterwards which limit, if any, explains how the bot
// ended.
//
// The means, chosen by what the kernel offers:
//
//   - Supervision. Every bot is the first process (pid 1) of a PID
//     namespace of its own, created with the process (clone(2) with
//     CLONE_NEWPID, in a user namespace of its own when the arena is not
//     root), and gets SIGKILL when the arena dies (its parent-death
//     signal). When the first process of a PID namespace ends, the kernel
//     kills every other process in it, however it left the bot's process
//     group or session: no process of a bot outlives the bot, and no bot
//     outlives the arena, at no cost in processes. Where namespaces are
//     not allowed (NamespacesAvailable reports false) the engine falls back
//     to a supervisor process per bot.
//   - Limits. Memory, processes and CPU time are counted in a cgroup of
//     the bot's own (cgroup v2, or the memory, pids and cpuacct
//     controllers of cgroup v1), made with github.com/containerd/cgroups;
//     without cgroups memory is limited by the address space (RLIMIT_AS)
//     and processes by RLIMIT_NPROC (which counts every process of the
//     user). Open files and the file size are rlimits (RLIMIT_NOFILE,
//     RLIMIT_FSIZE). CPU time per game is measured by the engine between
//     moves.
//   - The sandbox. The network is cut by a network namespace of the bot's
//     own (only a loopback interface, down); the file system by Landlock
//     (github.com/landlock-lsm/go-landlock): the system's directories
//     (/usr, /lib, /bin, /etc, ...) and the bot's command may be read and
//     executed, the bot's working directory read and written, nothing
//     else; /tmp is a fresh tmpfs in a mount namespace of the bot's own,
//     which also gets a /proc of its PID namespace (it sees no other
//     process); no_new_privs forbids gaining privileges through setuid
//     programs.
//
// The limits and the sandbox are set in the bot's process just before it
// becomes the bot: the engine starts the arena's own executable in a mode
// (see Main) that joins the cgroup, mounts /tmp and /proc, sets the
// rlimits, the CPU affinity, no_new_privs and the Landlock rules, and then
// executes the bot's command in its place, so the bot pays one exec more
// at its start and nothing afterwards. A program that starts bots must
// call Main (engine.Supervise does) first thing in main.
package sandbox
