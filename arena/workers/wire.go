package workers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arena-games/arena/arena/game"
	"github.com/arena-games/arena/arena/journal"
	"github.com/arena-games/arena/arena/openings"
	"github.com/arena-games/arena/arena/schedule"
	"github.com/arena-games/arena/arena/tournament"
)

// Version is the version of what coordinator and workers say to each
// other. A worker serves only tournaments of its own version. Version 2
// added solves (info.Kind).
const Version = 2

// Names in the NATS account. Each tournament has subjects and consumers
// of its own, named after its ID.
const (
	// BatchStream holds the batches of games waiting to be played or
	// being played: a work-queue stream, from which a batch is removed
	// once a worker acknowledges it.
	BatchStream = "ARENA_BATCHES"
	// ResultStream holds the workers' messages to the coordinators (the
	// games they played, their state) until a coordinator has taken them
	// in: a work-queue stream too.
	ResultStream = "ARENA_RESULTS"
	// TournamentBucket is the key-value bucket of the tournaments being
	// played: its key is a tournament's ID, its value the tournament
	// (info, JSON).
	TournamentBucket = "arena_tournaments"

	batchSubjects  = "arena.batches."
	resultSubjects = "arena.results."
	liveSubjects   = "arena.live."
)

func batchSubject(id string) string  { return batchSubjects + id }
func resultSubject(id string) string { return resultSubjects + id }
func liveSubject(id string) string   { return liveSubjects + id }
func batchConsumer(id string) string { return "batches_" + id }
func resultConsumer(id string) string {
	return "results_" + id
}

// States of a tournament in TournamentBucket.
const (
	stateRunning = "running" // batches are handed out
	stateStopped = "stopped" // no game is to be started any more
)

// info is a tournament as the workers see it, the value of its key in
// TournamentBucket.
type info struct {
	Version     int    `json:"version"`
	ID          string `json:"id"`
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	// Config is the configuration's text, with the command line's
	// settings applied; ConfigName is its file's name, for messages.
	Config     string `json:"config"`
	ConfigName string `json:"config_name"`
	State      string `json:"state"`
	// Live asks the workers for the moves of the games in flight (the
	// coordinator shows them live).
	Live bool `json:"live,omitempty"`
	// AckWait is how long a batch stays with a worker that gives no sign
	// of life before it goes to another.
	AckWait time.Duration `json:"ack_wait"`
	Created time.Time     `json:"created"`
	// Kind is "" for a tournament, kindSolve for a solve: its work units
	// are handed out instead of batches, and Rules is its rule set (every
	// switch) instead of Config.
	Kind  string         `json:"kind,omitempty"`
	Rules []game.Setting `json:"rules,omitempty"`
}

// kindSolve is info.Kind of a solve.
const kindSolve = "solve"

// batch is a batch of games, colour-reversed pairs in schedule order.
type batch struct {
	Tournament  string      `json:"tournament"`
	Fingerprint string      `json:"fingerprint"`
	Games       []batchGame `json:"games"`
	// Token proves that the coordinator handed out these games; a
	// worker returns it with each of their results.
	Token string `json:"token"`
}

// batchGame is one game of a batch.
type batchGame struct {
	ID      int              `json:"id"`
	Round   int              `json:"round"`
	Pair    string           `json:"pair"`
	White   string           `json:"white"`
	Black   string           `json:"black"`
	Index   int              `json:"opening_index"` // 0-based, into the schedule's openings
	Opening openings.Opening `json:"opening"`
}

func (g batchGame) game() tournament.Game {
	return tournament.Game{
		Scheduled: schedule.Scheduled{ID: g.ID, Round: g.Round, Opening: g.Index, White: g.White, Black: g.Black, PairKey: g.Pair},
		Opening:   g.Opening,
	}
}

func (b *batch) ids() []int {
	ids := make([]int, len(b.Games))
	for i, g := range b.Games {
		ids[i] = g.ID
	}
	return ids
}

// label names a batch by its games in messages: "games 17-20".
func label(ids []int) string {
	switch len(ids) {
	case 0:
		return "no game"
	case 1:
		return "game " + strconv.Itoa(ids[0])
	}
	if ids[len(ids)-1]-ids[0] == len(ids)-1 {
		return fmt.Sprintf("games %d-%d", ids[0], ids[len(ids)-1])
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return "games " + strings.Join(parts, ",")
}

// Kinds of the messages on a tournament's result subject, in the
// kindHeader header.
const (
	kindHeader = "Arena-Kind"
	kindGame   = "game"   // a game played: result
	kindWorker = "worker" // a worker's state: workerState
	kindUnit   = "unit"   // a work unit of a solve solved: unitResult
)

// unitMsg is a work unit of a solve handed to the workers: a position to
// solve, on the solve's subject of BatchStream.
type unitMsg struct {
	Solve    string `json:"solve"`
	Position string `json:"position"` // its text
	// Token proves that the coordinator handed out the unit; a worker
	// returns it with its result.
	Token string `json:"token"`
}

// unitResult is a work unit a worker solved.
type unitResult struct {
	Solve  string `json:"solve"`
	Worker string `json:"worker"`
	Token  string `json:"token"`
	// Line is the unit's entry as a line of a results file.
	Line string `json:"line"`
}

// result is a game a worker played.
type result struct {
	Tournament  string          `json:"tournament"`
	Fingerprint string          `json:"fingerprint"`
	Worker      string          `json:"worker"`
	Batch       []int           `json:"batch"` // the IDs of the batch's games
	Token       string          `json:"token"`
	Record      *journal.Record `json:"record"`
}

// Worker events, in workerState.Event.
const (
	eventReady  = "ready"  // the worker checked the bots and takes batches
	eventFailed = "failed" // the worker cannot play the tournament (Detail says why) and takes none of its batches
	eventLeft   = "left"   // the worker stopped
)

// workerState is a worker's word about itself.
type workerState struct {
	Tournament  string `json:"tournament"`
	Worker      string `json:"worker"`
	Event       string `json:"event"`
	Detail      string `json:"detail,omitempty"`
	Concurrency int    `json:"concurrency,omitempty"`
	Version     string `json:"version,omitempty"` // the arena's
}

// liveEvent is a game in flight as a worker plays it, sent to a
// coordinator that shows the games live.
type liveEvent struct {
	Kind   string              `json:"kind"` // "start", "move" or "end"
	ID     int                 `json:"id"`
	Record *journal.Record     `json:"record,omitempty"` // start: the game before its first move
	Move   *journal.MoveRecord `json:"move,omitempty"`
}

// tokenOf returns the token of a batch of games: a MAC of the tournament
// and the games' IDs under the coordinator's key.
func tokenOf(key []byte, tournament string, ids []int) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(tournament))
	var b [8]byte
	for _, id := range ids {
		binary.BigEndian.PutUint64(b[:], uint64(id))
		m.Write(b[:])
	}
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// checkToken reports whether token is the one of the batch ids of
// tournament under key.
func checkToken(key []byte, tournament string, ids []int, token string) bool {
	want := tokenOf(key, tournament, ids)
	return hmac.Equal([]byte(want), []byte(token))
}

// unitToken returns the token of a solve's work unit: a MAC of the solve
// and the unit's canonical key under the coordinator's key.
func unitToken(key []byte, solve string, unit uint64) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("unit\x00" + solve))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], unit)
	m.Write(b[:])
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// tournamentID returns the ID of the tournament of manifest m: a hash of
// its schedule's fingerprint and of the time its directory was created,
// so that the same configuration played into two directories is two
// tournaments.
func tournamentID(m *journal.Manifest) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", m.Fingerprint, m.Created.UTC().Format(time.RFC3339Nano))
	return hex.EncodeToString(h.Sum(nil)[:8])
}
