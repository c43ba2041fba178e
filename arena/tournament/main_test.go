package tournament_test

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-games/arena/arena/config"

	"github.com/arena-games/arena/arena/engine"
	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/tournament"
	"github.com/arena-games/arena/bots/builtin"
	"github.com/arena-games/arena/protocol"
)

// The test binary doubles as the bots of the end-to-end tests and as the
// arena process of the kill-and-resume test: with testBotEnv set it speaks
// the bot protocol on stdin/stdout; with testRunEnv set it runs a
// tournament. Either way it exits without running the tests.
const (
	testBotEnv        = "ARENA_TOURNAMENT_TEST_BOT"
	testRunEnv        = "ARENA_TOURNAMENT_TEST_RUN"        // "CONFIG|OUTDIR"
	testTranscriptEnv = "ARENA_TOURNAMENT_TEST_TRANSCRIPT" // a file the bot appends every line it reads to
)

func TestMain(m *testing.M) {
	engine.Supervise()
	if kind := os.Getenv(testBotEnv); kind != "" {
		os.Exit(runTestBot(kind))
	}
	if spec := os.Getenv(testRunEnv); spec != "" {
		os.Exit(runTestTournament(spec))
	}
	os.Exit(m.Run())
}

// runTestTournament plays a tournament in this process, for the test that
// kills the arena.
func runTestTournament(spec string) int {
	path, out, _ := strings.Cut(spec, "|")
	cfg, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := tournament.Run(context.Background(), cfg, tournament.Options{Out: out}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// runTestBot is a bot whose behaviour is chosen by kind:
//
//	first        plays the first legal move, at once
//	random:SEED  plays a random legal move
//	legal        asks for the legal moves and plays the last one listed
//	slow:MS      plays the first legal move after MS milliseconds
//	crash        exits at its second move of every game
//	floodcrash   writes 3 MB to stderr, then exits, at its second move
//	hang         never answers go
//	garbage      writes a line that is not UTF-8 at its second move
//	illegal      repeats the opponent's last move at its second move
//	badnotation  answers "Z@z9" at its second move
//	nohandshake  never finishes the handshake
//	othergame    declares a game that does not exist
//	exitearly    exits right after the handshake
//	onlyonce:F   the first process (the one that creates file F) plays
//	             like crash; later ones exit at once
//	hugemove     answers a 60 KB move at its second move
//	failstart:F  the first process (the one that creates file F) exits
//	             before the handshake; later ones play like first
//	startlog:F   appends "BEGIN END" (Unix nanoseconds) to file F around a
//	             handshake it takes 100ms to answer, then plays like first
//	builtin:NAME the built-in bot NAME (package builtin) with its defaults
//	score:N      plays the first legal move, reporting the score N
//	hash:SEED    plays the legal move a hash of SEED and the moves so far
//	             picks: each game's moves depend on the game alone, not
//	             on what the process played before
//	slowhash:SEED plays like hash:SEED after 15 milliseconds
func runTestBot(kind string) int {
	kind, arg, _ := strings.Cut(kind, ":")
	if kind == "builtin" {
		if err := builtin.Run(context.Background(), arg, builtin.DefaultOptions(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	in := protocol.NewReader(bufio.NewReader(os.Stdin))
	out := protocol.NewWriter(os.Stdout)
	var transcript *os.File
	if path := os.Getenv(testTranscriptEnv); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer f.Close()
		transcript = f
	}
	send := func(ms ...protocol.Message) {
		if err := out.WriteMessage(ms...); err != nil {
			os.Exit(2)
		}
	}
	if kind == "onlyonce" {
		f, err := os.OpenFile(arg, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "refusing to start again")
			return 3
		}
		f.Close()
		kind = "crash"
	}
	seed, _ := strconv.ParseUint(arg, 10, 64)
	rng := rand.New(rand.NewPCG(seed, 1))
	var (
		rules     game.Rules
		st        game.State
		played    []string
		startText string // the position text the moves of played follow; "" for the start position
		legal     []string
		myMoves   int
		given     protocol.Clock // of the last go command
		buf       []game.Move
	)
	for {
		line, err := in.ReadLine()
		if err != nil {
			if _, ok := err.(*protocol.ProtocolError); ok {
				continue
			}
			return 0 // EOF: the arena is gone
		}
		if transcript != nil {
			fmt.Fprintln(transcript, line)
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		msg, err := protocol.Parse(line)
		if err != nil {
			continue
		}
		switch m := msg.(type) {
		case protocol.Hello:
			switch kind {
			case "nohandshake":
				time.Sleep(time.Hour)
			case "failstart":
				if f, err := os.OpenFile(arg, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
					f.Close()
					return 3
				}
			case "startlog":
				begin := time.Now().UnixNano()
				time.Sleep(100 * time.Millisecond)
				f, err := os.OpenFile(arg, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					return 3
				}
				fmt.Fprintf(f, "%d %d\n", begin, time.Now().UnixNano())
				f.Close()
			case "othergame":
				send(protocol.IDName{Name: kind}, protocol.Games{Games: []string{"go"}}, protocol.ArenaOK{})
				continue
			}
			ms := []protocol.Message{protocol.IDName{Name: "test-" + kind}, protocol.IDAuthor{Author: "tests"},
				protocol.Games{Games: games.Names()}}
			if kind == "legal" {
				ms = append(ms, protocol.Request{Feature: protocol.FeatureLegalMoves})
			}
			send(append(ms, protocol.ArenaOK{})...)
		case protocol.IsReady:
			send(protocol.ReadyOK{})
			if kind == "exitearly" {
				return 0
			}
		case protocol.Ping:
			//lint:ignore S1016 a Pong that converts the Ping would say less about what goes back
			send(protocol.Pong{Token: m.Token})
		case protocol.NewGame:
			r, err := games.New(m.Game, m.Preset, m.Settings)
			if err != nil {
				fmt.Fprintln(os.Stderr, "newgame:", err)
				return 3
			}
			rules, myMoves = r, 0
		case protocol.Position:
			if rules == nil {
				return 3
			}
			// Replay only what is new since the last position.
			if st == nil || m.Text != startText || len(m.Moves) < len(played) || !equalPrefix(played, m.Moves) {
				st, played, startText = rules.Start(), nil, m.Text
				if m.Text != "" {
					var err error
					if st, err = rules.ParseState(m.Text); err != nil {
						fmt.Fprintln(os.Stderr, "position:", err)
						return 3
					}
				}
			}
			for _, t := range m.Moves[len(played):] {
				mv, err := st.ParseMove(t)
				if err != nil {
					fmt.Fprintln(os.Stderr, "position:", err)
					return 3
				}
				if err := st.Play(mv); err != nil {
					return 3
				}
				played = append(played, t)
			}
		case protocol.LegalMoves:
			legal = m.Moves
		case protocol.Go:
			myMoves++
			given = m.Clock
			if kind == "hang" {
				time.Sleep(time.Hour)
			}
			if myMoves == 2 {
				switch kind {
				case "crash":
					fmt.Fprintln(os.Stderr, "crashing on purpose")
					return 3
				case "floodcrash":
					line := strings.Repeat("flood ", 100) + "\n"
					for n := 0; n < 3<<20; n += len(line) {
						os.Stderr.WriteString(line)
					}
					fmt.Fprintf(os.Stderr, "crashing on purpose, process %d\n", os.Getpid())
					return 3
				case "garbage":
					os.Stdout.Write([]byte("move \xff\xfe\n"))
					continue
				case "illegal":
					send(protocol.Move{Move: played[len(played)-1]})
					continue
				case "hugemove":
					send(protocol.Move{Move: strings.Repeat("Z", 60<<10)})
					continue
				case "hog": // allocates until it dies
					for {
						b := make([]byte, 8<<20)
						for i := 0; i < len(b); i += 4096 {
							b[i] = 1
						}
						hogged = append(hogged, b)
					}
				case "badnotation":
					send(protocol.Move{Move: "Z@z9"})
					continue
				}
			}
			buf = st.LegalMoves(buf[:0])
			if len(buf) == 0 {
				return 3
			}
			var mv string
			switch kind {
			case "random":
				mv = buf[rng.IntN(len(buf))].String()
			case "legal":
				mv = legal[len(legal)-1]
			case "hash", "slowhash", "hashtime":
				if kind == "slowhash" {
					time.Sleep(15 * time.Millisecond)
				}
				h := fnv.New64a()
				fmt.Fprintf(h, "%s|%s", arg, strings.Join(played, " "))
				mv = buf[h.Sum64()%uint64(len(buf))].String()
			case "slow":
				ms, _ := strconv.Atoi(arg)
				time.Sleep(time.Duration(ms) * time.Millisecond)
				mv = buf[0].String()
			default:
				mv = buf[0].String()
			}
			info := protocol.Info{Depth: 1, String: "test bot"}
			if kind == "hashtime" { // says the time control it was given
				info.String = fmt.Sprintf("movetime %v wtime %v winc %v", given.MoveTime, given.WTime, given.WInc)
			}
			if kind == "score" {
				n, _ := strconv.Atoi(arg)
				info = protocol.Info{Depth: 1, Score: n, HasScore: true}
			}
			send(info, protocol.Move{Move: mv})
		case protocol.GameOver:
			st, played = nil, nil
		case protocol.Quit:
			return 0
		}
	}
}

// hogged keeps what the "hog" bot allocates.
var hogged [][]byte

func equalPrefix(prefix, s []string) bool {
	for i := range prefix {
		if s[i] != prefix[i] {
			return false
		}
	}
	return true
}
