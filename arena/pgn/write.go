package pgn

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/arena-games/arena/arena/games"
	"github.com/arena-games/arena/arena/journal"

	"github.com/arena-games/arena/arena/game"
)

// FileName returns the name of the file holding a game's games in text
// form: "games.pdn" for a game written in PDN (game.PDN: checkers),
// "games.pgn" otherwise.
func FileName(gameName string) string {
	if _, ok := pdnGameType(gameName); ok {
		return "games.pdn"
	}
	return "games.pgn"
}

// pdnGameType returns the PDN GameType of a game written in PDN; ok is
// false for a game written in PGN (or unknown).
func pdnGameType(gameName string) (string, bool) {
	r, err := games.Default(gameName)
	if err != nil {
		return "", false
	}
	if p, ok := r.(game.PDN); ok {
		return p.PDNGameType(), true
	}
	return "", false
}

// AppendRecord appends rec as one PGN game (PDN for checkers) followed by
// a blank line. The tags White, Black and Result are the players of the
// real colours and the result from White's side; Opening names the opening
// and OpeningMoves lists its moves; the move text holds the opening and the
// played moves and ends with the result token. Games written in PDN carry
// their GameType ("21" for checkers); other games a Variant tag naming the
// preset.
func AppendRecord(b []byte, rec *journal.Record, event string) []byte {
	b = appendTags(b, rec, event)
	b = append(b, '\n')
	return appendMoveText(b, rec)
}

// appendTags appends the tag pairs of rec, one a line.
func appendTags(b []byte, rec *journal.Record, event string) []byte {
	tag := func(name, value string) {
		b = append(b, '[')
		b = append(b, name...)
		b = append(b, ' ')
		b = appendPGNString(b, value)
		b = append(b, "]\n"...)
	}
	tag("Event", event)
	tag("Site", "arena")
	date := "????.??.??"
	if !rec.Start.IsZero() {
		date = rec.Start.UTC().Format("2006.01.02")
	}
	tag("Date", date)
	tag("Round", strconv.Itoa(rec.Round))
	tag("White", rec.White)
	tag("Black", rec.Black)
	tag("Result", rec.Result)
	if gt, ok := pdnGameType(rec.Game); ok {
		tag("GameType", gt)
	} else {
		tag("Variant", rec.Preset)
	}
	tag("Game", rec.Game)
	tag("Rules", journal.RulesText(rec.Rules))
	tag("GameId", strconv.Itoa(rec.ID))
	tag("PairKey", rec.PairKey)
	tag("Opening", journal.OpeningLabel(rec))
	if rec.Opening.Position != "" {
		// The game starts from a position: PGN's SetUp and FEN (which
		// PDN reads alone).
		tag("SetUp", "1")
		tag("FEN", rec.Opening.Position)
	}
	if len(rec.Opening.Moves) > 0 {
		tag("OpeningMoves", strings.Join(rec.Opening.Moves, " "))
	}
	tag("Termination", termination(rec))
	if rec.Scores != nil {
		tag("Score", fmt.Sprintf("%d-%d", rec.Scores.White, rec.Scores.Black))
	}
	tag("PlyCount", strconv.Itoa(len(rec.Opening.Moves)+len(rec.Moves)))
	return b
}

// appendMoveText appends the move text of rec in lines of at most 79
// bytes: the numbered moves with the comments of those played, the
// forfeit or adjudication, and the result token, then a blank line.
func appendMoveText(b []byte, rec *journal.Record) []byte {
	lineStart := len(b)
	word := func(w string) {
		if len(b) > lineStart {
			if len(b)-lineStart+1+len(w) > 79 {
				b = append(b, '\n')
				lineStart = len(b)
			} else {
				b = append(b, ' ')
			}
		}
		b = append(b, w...)
	}
	moves := rec.AllMoves()
	opening := len(rec.Opening.Moves)
	shift := moveShift(rec)
	var comment []byte
	for i, m := range moves {
		// A move number starts each pair of plies, the first mover's first
		// (Black's in checkers, as PDN expects).
		switch {
		case i == 0 && shift == 1:
			word("1...")
		case (i+shift)%2 == 0:
			word(strconv.Itoa((i+shift)/2+1) + ".")
		}
		word(m)
		if i >= opening {
			comment = appendMoveComment(comment[:0], &rec.Moves[i-opening])
			word(string(comment))
		}
	}
	if rec.Forfeit != nil {
		word(pgnComment(fmt.Sprintf("%s forfeits: %s", rec.Forfeit.Bot, strings.TrimSpace(rec.Forfeit.Kind+" "+rec.Forfeit.Detail))))
	}
	if a := rec.Adjudication; a != nil {
		word(pgnComment("adjudicated by agreement: " + a.Detail))
	}
	word(rec.Result)
	return append(b, "\n\n"...)
}

// moveShift is 1 for a game from a position where the second mover is to
// move, which starts with that move, numbered "1...", and 0 otherwise.
func moveShift(rec *journal.Record) int {
	if first, err := rec.FirstMoverColor(); err == nil && rec.Opening.Position != "" {
		if turn, err := rec.StartTurn(); err == nil && turn != first {
			return 1
		}
	}
	return 0
}

// appendMoveComment appends the comment of a played move in the form
// cutechess writes and rating and viewing tools read: "{+0.35/12 0.21s}",
// the bot's score divided by 100 (pawns, or men for checkers bots that
// report hundredths of a man) from the mover's point of view with its
// sign, the depth, and the time the arena measured, in seconds with fewer
// decimals as it grows. The score appears whenever the bot reported one,
// with the depth it reported (0 when it reported none, or depth 0); the
// time always does. A ply the arena played at random
// (of an opening drawn in play) reads "{random ply}".
func appendMoveComment(b []byte, m *journal.MoveRecord) []byte {
	if m.Random {
		return append(b, "{random ply}"...)
	}
	b = append(b, '{')
	if in := m.Info; in != nil && in.Score != nil {
		if *in.Score > 0 {
			b = append(b, '+')
		}
		b = strconv.AppendFloat(b, float64(*in.Score)/100, 'f', 2, 64)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(in.Depth), 10)
		b = append(b, ' ')
	}
	ms := int64(math.Round(m.MS))
	prec := 0
	switch {
	case ms == 0:
		return append(b, "0s}"...)
	case ms < 100:
		prec = 3
	case ms < 1000:
		prec = 2
	case ms < 10000:
		prec = 1
	}
	b = strconv.AppendFloat(b, float64(ms)/1000, 'f', prec, 64)
	return append(b, "s}"...)
}

// termination returns the PGN Termination tag value.
func termination(rec *journal.Record) string {
	switch {
	case rec.Forfeit != nil && rec.Forfeit.Kind == journal.ForfeitTime:
		return "time forfeit"
	case rec.Forfeit != nil:
		return "rules infraction"
	case rec.Reason == game.ReasonMaxPlies || rec.Reason == game.ReasonRepetition || rec.Reason == game.ReasonQuietMoves,
		rec.Reason == journal.ReasonAdjudication:
		return "adjudication"
	}
	return "normal"
}

// appendPGNString appends s as a PGN string token: quoted, with backslash
// and quote escaped and line breaks replaced by spaces.
func appendPGNString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n', '\r', '\t':
			b = append(b, ' ')
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// pgnComment returns s as a brace comment (braces in s are replaced).
func pgnComment(s string) string {
	r := strings.NewReplacer("{", "(", "}", ")", "\n", " ", "\r", " ")
	return "{" + r.Replace(s) + "}"
}

// WriteRecords writes every record as PGN/PDN.
func WriteRecords(w io.Writer, recs []journal.Record, event string) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for i := range recs {
		buf = AppendRecord(buf[:0], &recs[i], event)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// RewriteFile regenerates the PGN/PDN file of a tournament directory
// from its records, replacing the file atomically. The caller holds the
// directory's lock (LockDir).
func RewriteFile(dir, gameName string, recs []journal.Record, event string) error {
	g, err := NewFileRewrite(dir, gameName, event)
	if err != nil {
		return err
	}
	defer g.Abort()
	for i := range recs {
		if err := g.Add(&recs[i]); err != nil {
			return err
		}
	}
	return g.Commit()
}

// FileRewrite rebuilds the PGN/PDN file of a tournament directory
// game by game, into a temporary file that takes the file's place when
// commit is called.
type FileRewrite struct {
	path  string
	event string
	tmp   *os.File
	w     *bufio.Writer
	buf   []byte
}

// NewFileRewrite starts rebuilding the PGN/PDN file of dir. The file
// is rebuilt only under the directory's lock (a run, arena report, a
// merge): a temporary file of an earlier rebuild found then was left by a
// process that was killed, and is removed.
func NewFileRewrite(dir, gameName, event string) (*FileRewrite, error) {
	path := filepath.Join(dir, FileName(gameName))
	removeStaleGameText(dir)
	tmp, err := os.CreateTemp(dir, gameTextTemp)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &FileRewrite{path: path, event: event, tmp: tmp, w: bufio.NewWriterSize(tmp, 256<<10)}, nil
}

// gameTextTemp is the pattern of the temporary files of FileRewrite.
const gameTextTemp = ".games-*.tmp"

// removeStaleGameText removes the temporary files that rebuilds of the
// PGN/PDN file of dir left behind.
func removeStaleGameText(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // CreateTemp says what is wrong with dir
	}
	prefix, suffix, _ := strings.Cut(gameTextTemp, "*")
	for _, e := range entries {
		if name := e.Name(); e.Type().IsRegular() && len(name) > len(prefix)+len(suffix) &&
			strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// Add appends a game.
func (g *FileRewrite) Add(rec *journal.Record) error {
	g.buf = AppendRecord(g.buf[:0], rec, g.event)
	if _, err := g.w.Write(g.buf); err != nil {
		return fmt.Errorf("write %s: %w", g.path, err)
	}
	return nil
}

// Commit puts the rebuilt file in place.
func (g *FileRewrite) Commit() error {
	tmp := g.tmp
	g.tmp = nil
	err := g.w.Flush()
	// CreateTemp makes the file private; the game file is read like every
	// other output.
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), g.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", g.path, err)
	}
	return nil
}

// Abort removes the temporary file, unless Commit put it in place.
func (g *FileRewrite) Abort() {
	if g.tmp != nil {
		g.tmp.Close()
		os.Remove(g.tmp.Name())
		g.tmp = nil
	}
}
