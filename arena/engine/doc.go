// Package engine supervises bot processes: it starts a bot, speaks the
// arena protocol (package protocol) with it under deadlines, and stops it
// without leaving anything behind.
//
// Start launches the bot's command in a process group of its own with its
// stdin and stdout on pipes and its stderr copied to a Log (a file capped
// so that a flooding bot can neither block nor fill the disk, which keeps
// the newest output past the cap and may be shared by every process of a
// bot; the caller may add its own lines, such as transcripts), then runs the
// handshake: "arena 1", the bot's id, options and games up to "arenaok",
// the requested options, and "isready" answered by "readyok". The returned
// Engine plays games: NewGame announces a game (NewGames to the bots of a
// game at once, which prepare at the same time while the caller waits
// once), Move asks for one move, GameOver reports the result (or
// HoldGameOver, which holds the line until the bot's next request and
// sends both in one write), Ping checks liveness.
//
// Move needs one round trip: the position, the legal moves (for bots that
// asked for them) and go are written together and the bot answers with
// info lines and a move. The move text is returned raw, with the last
// well-formed info line (bounded in size: a bot streaming info lines
// costs the arena no memory); refereeing the move against the game is the
// caller's business.
//
// A call reads the bot's answer itself, in the caller's goroutine,
// straight from the pipe. The arena's ends of the bot's stdin and stdout
// are outside the Go runtime's network poller: a call that must wait
// blocks in poll(2) on the pipe and on a wake-up descriptor of the Engine
// (an eventfd on Linux, a pipe elsewhere), with the call's deadline as the
// timeout, so that the bot's answer wakes the calling thread straight from
// the kernel and costs one poll and one read, with no hand-off between
// threads or goroutines. Before each request a call checks, with a read
// that does not wait, for lines the bot wrote since its last exchange;
// a Move whose MoveRequest.Watch names the idle opponent looks at that
// bot's output in the same poll, and spares the opponent's next call the
// check when it saw nothing there. Close, the end of the caller's context and the
// bot's exit wake the poll through that descriptor and cut the call short.
// A call that waits holds its OS thread in the kernel, as blocking file
// I/O does: a program playing N games at a time has about N such threads.
// Since such a goroutine would otherwise never pass through Go's scheduler
// (and after 10 ms be preempted by a signal as one that hogs its
// processor), the waits of an Engine yield to the scheduler every few
// milliseconds.
//
// Every failure is an *Error whose Kind says what happened: the bot did
// not start, failed the handshake, ran out of time, crashed (exited or
// closed its output), broke the protocol (garbage, an over-long or
// non-UTF-8 line, a message out of place, a move nobody asked for, a flood
// of unknown lines), reached a limit of its Policy, or the caller canceled.
// Lines with unknown commands are ignored, counted and noted in the log.
// After a failure the Engine is unusable; the caller closes it and starts
// a new one for the next game.
//
// Close sends quit, gives the bot a grace period, kills the whole process
// group (children the bot spawned included) and reaps the bot. A bot that
// exits on its own is noticed at once (Exited) but reaped only by Close,
// after the group kill, so that its process group id cannot have been
// reused by an unrelated process when the kill is sent. Each Engine runs
// two goroutines: one that learns of the bot's exit and reaps it, and the
// stderr copier (none when stderr is discarded). Close waits for both,
// unless the kernel keeps a killed bot past the reap timeout (the reaper
// then stays until it can reap), and for a third it runs itself while the
// bot quits, which reads and discards the bot's last output so that it
// cannot block on a full pipe, and ends at the end of that output or once
// the bot is reaped. A context that can be canceled, given to a
// call that has to wait, runs a short function when it ends that wakes the
// call's poll; the Engine keeps that function registered while calls come
// with the same context, and unregisters it at Close.
//
// On Linux each bot is the first process of a PID namespace of its own
// (see package sandbox), where the kernel allows it (as root, or with
// user namespaces): when the bot ends, or is killed at Close, or the
// arena dies in any way (the bot's parent-death signal), the kernel kills
// every process the bot started, even one that left its process group or
// session. No extra process is needed for that, and the arena waits for
// the bot's exit through a pidfd in the runtime's poller, so an idle bot
// costs the arena no thread. A Spec's Policy adds limits (memory,
// processes, open files, file size, CPU time per game), the sandbox and
// CPU pinning; a bot that reaches a limit fails with KindLimit, and the
// error of a crash ends with the bot's last line on stderr.
//
// Where namespaces are not allowed, in a program that calls Supervise
// first thing in main, each bot runs under a supervisor: the program's own
// executable, started in a mode that launches the bot in a process group
// of its own, with the arena's pipes as its stdin, stdout and stderr (no
// copy on the way), and becomes the reaper of every orphaned descendant
// of the bot. When the arena closes the bot, or dies in any way (the
// supervisor's parent-death signal), the supervisor kills the bot's group
// and every process the bot left behind, reaps them and exits. The
// supervisor reports the bot's pid and exit status to the arena on a pipe
// of its own, so that an Engine reports the bot's exit exactly as it would
// for its own child. Exit ends a program that has no time to close its
// engines, every bot with it.
//
// Without namespaces and without Supervise (and off Linux) bots are the
// arena's children: a bot is killed by its parent-death signal if the
// arena dies, but a process it started outside its process group is
// beyond the arena's reach.
// Elsewhere than Linux there is no parent-death signal at all, so a bot
// whose arena is killed outright sees only its stdin close, and a bot is
// reaped as soon as it exits rather than at Close. Windows is not
// supported: it has no process groups to kill a bot's whole tree with.
package engine
