package protocol

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arena-games/arena/arena/game"
)

// Version is the protocol's major version, sent in Hello. Minor versions
// (MinorVersion) add only features a bot asks for with a Request, so a bot
// written for version 1.0 sees exactly what it saw then.
const Version = 1

// MinorVersion is the minor version of the protocol this package speaks:
// version 1.1 adds the features FeatureFEN, FeatureNodes, FeatureDepth and
// FeatureMovesToGo, version 1.2 FeatureGameInfo.
const MinorVersion = 2

// MaxLineLength is the hard limit on the length of a line in bytes, not
// counting the line end. A longer line breaks the protocol.
const MaxLineLength = 64 << 10

// Features a bot asks for with "request <feature>" during the handshake.
// The arena sends nothing a bot did not ask for.
const (
	// FeatureLegalMoves: the list of legal moves (LegalMoves) before every
	// go (version 1.0).
	FeatureLegalMoves = "legalmoves"
	// FeatureFEN: the current position as a position text (FEN) before
	// every go (version 1.1).
	FeatureFEN = "fen"
	// FeatureNodes: the bot obeys a node limit, Go.Nodes (version 1.1).
	FeatureNodes = "nodes"
	// FeatureDepth: the bot obeys a depth limit, Go.Depth (version 1.1).
	FeatureDepth = "depth"
	// FeatureMovesToGo: go carries Clock.MovesToGo under a time control of
	// moves per period (version 1.1).
	FeatureMovesToGo = "movestogo"
	// FeatureGameInfo: GameInfo, the opponent's name and the opening,
	// after every newgame (version 1.2).
	FeatureGameInfo = "gameinfo"
)

// Reasons a game ends that the arena adds to the rule-based ones of package
// game (game.ReasonScore, game.ReasonNoMoves, ...): the side that lost
// forfeited. They appear in GameOver; a bot must accept other words too.
const (
	// ReasonTimeout: the side that lost did not answer in time.
	ReasonTimeout = "timeout"
	// ReasonIllegalMove: the side that lost answered with a move that is
	// illegal or not in the game's notation.
	ReasonIllegalMove = "illegal-move"
	// ReasonProtocol: the side that lost broke the protocol (an over-long
	// or non-UTF-8 line, a malformed or unexpected message).
	ReasonProtocol = "protocol-error"
	// ReasonCrash: the side that lost exited or closed its output.
	ReasonCrash = "crash"
)

// Message is one line of the protocol. The concrete types are the message
// structs of this package; handle them with a type switch.
type Message interface {
	// Command returns the message's first word, such as "go" or "move".
	Command() string
	// AppendText appends the message's line, without the line end, to b.
	// It fails with an error wrapping ErrInvalid when a field cannot be
	// carried by the protocol.
	AppendText(b []byte) ([]byte, error)
}

// Format returns the line of m without the line end. Parse(Format(m))
// returns a message equal to m up to the normalisations Parse applies
// (trimmed texts, single spaces in a position text).
func Format(m Message) (string, error) {
	b, err := m.AppendText(nil)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// str returns the line of m for display, or a placeholder when m cannot be
// formatted.
func str(m Message) string {
	s, err := Format(m)
	if err != nil {
		return m.Command() + " <" + err.Error() + ">"
	}
	return s
}

// Hello opens the handshake (arena to bot): "arena <version>".
type Hello struct {
	Version int
}

// IDName gives the bot's name (bot to arena): "id name <text>".
type IDName struct {
	Name string
}

// IDAuthor gives the bot's author (bot to arena): "id author <text>".
type IDAuthor struct {
	Author string
}

// Games lists the games a bot plays (bot to arena): "games <game>...".
type Games struct {
	Games []string
}

// Request asks the arena for an optional feature during the handshake (bot
// to arena): "request <feature>", one of the Feature constants; the arena
// ignores others.
type Request struct {
	Feature string
}

// ArenaOK ends the bot's part of the handshake (bot to arena): "arenaok".
type ArenaOK struct{}

// SetOption sets an option the bot declared (arena to bot):
// "setoption name <name> value <text>".
type SetOption struct {
	Name, Value string
}

// IsReady asks the bot to answer ReadyOK once it has processed everything
// before it (arena to bot): "isready".
type IsReady struct{}

// ReadyOK answers IsReady (bot to arena): "readyok".
type ReadyOK struct{}

// NewGame starts a game (arena to bot):
// "newgame game <game> preset <preset> rules <key=value>... color <color>".
// Settings holds every switch of the rule set with its value, so a bot need
// not know the presets.
type NewGame struct {
	Game     string
	Preset   string
	Settings []game.Setting
	Color    game.Color
}

// Position gives the position before a move request (arena to bot):
// "position startpos [moves <move>...]" or
// "position text <position text> [moves <move>...]". An empty Text means
// the game's start position. Moves are the moves played from that position.
type Position struct {
	Text  string
	Moves []string
}

// LegalMoves lists the legal moves of the position (arena to bot, only to
// bots that requested FeatureLegalMoves): "legalmoves <move>...".
type LegalMoves struct {
	Moves []string
}

// FEN gives the current position, the one the next go asks a move in, as
// a position text (arena to bot, only to bots that requested FeatureFEN):
// "fen <position text>". The text may contain spaces.
type FEN struct {
	Text string
}

// Go asks the bot for a move in the last position (arena to bot):
// "go wtime <ms> btime <ms> winc <ms> binc <ms> [movestogo <n>]" or
// "go movetime <ms>", followed by the search limits that are set:
// "[depth <n>] [nodes <n>]".
type Go struct {
	Clock Clock
	// Nodes, when positive, is the most nodes the bot may search for this
	// move (sent only to bots that requested FeatureNodes).
	Nodes int64
	// Depth, when positive, is the deepest the bot may search, in plies
	// (sent only to bots that requested FeatureDepth).
	Depth int
}

// Clock is the time control of one move request. With MoveTime > 0 the bot
// has that much time for this move; otherwise WTime and BTime are the
// remaining times of White and Black and WInc and BInc the increments each
// side gains after its move. MovesToGo, when positive, is how many moves
// the side to move has left to play before its clock gains another period
// (sent only to bots that requested FeatureMovesToGo). The protocol
// carries whole milliseconds.
type Clock struct {
	WTime, BTime time.Duration
	WInc, BInc   time.Duration
	MoveTime     time.Duration
	MovesToGo    int
}

// Remaining returns the time side has for the current move: MoveTime when
// it is set, else side's remaining clock time.
func (c Clock) Remaining(side game.Color) time.Duration {
	if c.MoveTime > 0 {
		return c.MoveTime
	}
	if side == game.Black {
		return c.BTime
	}
	return c.WTime
}

// Increment returns the increment side gains after its move (0 with a
// fixed move time).
func (c Clock) Increment(side game.Color) time.Duration {
	if c.MoveTime > 0 {
		return 0
	}
	if side == game.Black {
		return c.BInc
	}
	return c.WInc
}

// Info reports search progress (bot to arena):
// "info [depth <n>] [score <n>] [nodes <n>] [time <ms>] [pv <move>...] [string <text>]".
// Zero values mean "not given", except for Score, which counts only when
// HasScore is set.
type Info struct {
	Depth    int
	Score    int // from the point of view of the side to move, in the bot's own unit
	HasScore bool
	Nodes    int64
	Time     time.Duration
	PV       []string
	String   string // free text
	// Raw is the line as received; Parse sets it, AppendText ignores it.
	Raw string
}

// Move answers Go with one move (bot to arena): "move <move>".
type Move struct {
	Move string
}

// Ping asks the other side for a Pong with the same token; both sides may
// send it: "ping [<token>]".
type Ping struct {
	Token string
}

// Pong answers Ping: "pong [<token>]".
type Pong struct {
	Token string
}

// GameOver ends a game (arena to bot): "gameover result <result> reason <reason>".
// Reason is one of the game.Reason constants or this package's Reason
// constants; a bot must accept any other word too.
type GameOver struct {
	Result game.Result
	Reason string
}

// Quit tells the bot to exit (arena to bot): "quit".
type Quit struct{}

// Command names.
const (
	cmdHello      = "arena"
	cmdID         = "id"
	cmdOption     = "option"
	cmdGames      = "games"
	cmdRequest    = "request"
	cmdArenaOK    = "arenaok"
	cmdSetOption  = "setoption"
	cmdIsReady    = "isready"
	cmdReadyOK    = "readyok"
	cmdNewGame    = "newgame"
	cmdPosition   = "position"
	cmdLegalMoves = "legalmoves"
	cmdFEN        = "fen"
	cmdGameInfo   = "gameinfo"
	cmdGo         = "go"
	cmdInfo       = "info"
	cmdMove       = "move"
	cmdPing       = "ping"
	cmdPong       = "pong"
	cmdGameOver   = "gameover"
	cmdQuit       = "quit"
)

// Command returns "arena".
func (Hello) Command() string { return cmdHello }

// Command returns "id".
func (IDName) Command() string { return cmdID }

// Command returns "id".
func (IDAuthor) Command() string { return cmdID }

// Command returns "option".
func (Option) Command() string { return cmdOption }

// Command returns "games".
func (Games) Command() string { return cmdGames }

// Command returns "request".
func (Request) Command() string { return cmdRequest }

// Command returns "arenaok".
func (ArenaOK) Command() string { return cmdArenaOK }

// Command returns "setoption".
func (SetOption) Command() string { return cmdSetOption }

// Command returns "isready".
func (IsReady) Command() string { return cmdIsReady }

// Command returns "readyok".
func (ReadyOK) Command() string { return cmdReadyOK }

// Command returns "newgame".
func (NewGame) Command() string { return cmdNewGame }

// Command returns "position".
func (Position) Command() string { return cmdPosition }

// Command returns "legalmoves".
func (LegalMoves) Command() string { return cmdLegalMoves }

// Command returns "fen".
func (FEN) Command() string { return cmdFEN }

// Command returns "go".
func (Go) Command() string { return cmdGo }

// Command returns "info".
func (Info) Command() string { return cmdInfo }

// Command returns "move".
func (Move) Command() string { return cmdMove }

// Command returns "ping".
func (Ping) Command() string { return cmdPing }

// Command returns "pong".
func (Pong) Command() string { return cmdPong }

// Command returns "gameover".
func (GameOver) Command() string { return cmdGameOver }

// Command returns "quit".
func (Quit) Command() string { return cmdQuit }

// String returns the line of the message.
func (m Hello) String() string { return str(m) }

// String returns the line of the message.
func (m IDName) String() string { return str(m) }

// String returns the line of the message.
func (m IDAuthor) String() string { return str(m) }

// String returns the line of the message.
func (m Option) String() string { return str(m) }

// String returns the line of the message.
func (m Games) String() string { return str(m) }

// String returns the line of the message.
func (m Request) String() string { return str(m) }

// String returns the line of the message.
func (m ArenaOK) String() string { return str(m) }

// String returns the line of the message.
func (m SetOption) String() string { return str(m) }

// String returns the line of the message.
func (m IsReady) String() string { return str(m) }

// String returns the line of the message.
func (m ReadyOK) String() string { return str(m) }

// String returns the line of the message.
func (m NewGame) String() string { return str(m) }

// String returns the line of the message.
func (m Position) String() string { return str(m) }

// String returns the line of the message.
func (m LegalMoves) String() string { return str(m) }

// String returns the line of the message.
func (m FEN) String() string { return str(m) }

// String returns the line of the message.
func (m Go) String() string { return str(m) }

// String returns the line of the message.
func (m Move) String() string { return str(m) }

// String returns the line of the message.
func (m Ping) String() string { return str(m) }

// String returns the line of the message.
func (m Pong) String() string { return str(m) }

// String returns the line of the message.
func (m GameOver) String() string { return str(m) }

// String returns the line of the message.
func (m Quit) String() string { return str(m) }

// Info has a String field, so it cannot have a String method; Format it.

// AppendText appends "arena <version>".
func (m Hello) AppendText(b []byte) ([]byte, error) {
	if m.Version < 1 || m.Version > math.MaxInt32 {
		return b, invalidErr(cmdHello, "version %d out of range", m.Version)
	}
	b = append(b, cmdHello...)
	b = append(b, ' ')
	return strconv.AppendInt(b, int64(m.Version), 10), nil
}

// AppendText appends "id name <name>".
func (m IDName) AppendText(b []byte) ([]byte, error) {
	name := trim(m.Name)
	if err := checkText(cmdID, "name", name, false); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdID...), "name", name), nil
}

// AppendText appends "id author <author>".
func (m IDAuthor) AppendText(b []byte) ([]byte, error) {
	author := trim(m.Author)
	if err := checkText(cmdID, "author", author, false); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdID...), "author", author), nil
}

// AppendText appends "games <game>...".
func (m Games) AppendText(b []byte) ([]byte, error) {
	if len(m.Games) == 0 {
		return b, invalidErr(cmdGames, "no games")
	}
	if err := checkTokens(cmdGames, "game", m.Games); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdGames...), m.Games...), nil
}

// AppendText appends "request <feature>".
func (m Request) AppendText(b []byte) ([]byte, error) {
	if err := checkToken(cmdRequest, "feature", m.Feature); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdRequest...), m.Feature), nil
}

// AppendText appends "arenaok".
func (ArenaOK) AppendText(b []byte) ([]byte, error) { return append(b, cmdArenaOK...), nil }

// AppendText appends "setoption name <name> value <value>".
func (m SetOption) AppendText(b []byte) ([]byte, error) {
	if err := checkToken(cmdSetOption, "name", m.Name); err != nil {
		return b, err
	}
	value := trim(m.Value)
	if err := checkText(cmdSetOption, "value", value, true); err != nil {
		return b, err
	}
	b = appendWords(append(b, cmdSetOption...), "name", m.Name, "value")
	if value != "" {
		b = appendWords(b, value)
	}
	return b, nil
}

// AppendText appends "isready".
func (IsReady) AppendText(b []byte) ([]byte, error) { return append(b, cmdIsReady...), nil }

// AppendText appends "readyok".
func (ReadyOK) AppendText(b []byte) ([]byte, error) { return append(b, cmdReadyOK...), nil }

// AppendText appends "newgame game <game> preset <preset> rules <k=v>... color <color>".
func (m NewGame) AppendText(b []byte) ([]byte, error) {
	if err := checkToken(cmdNewGame, "game", m.Game); err != nil {
		return b, err
	}
	if err := checkToken(cmdNewGame, "preset", m.Preset); err != nil {
		return b, err
	}
	if m.Color != game.White && m.Color != game.Black {
		return b, invalidErr(cmdNewGame, "bad color %v", m.Color)
	}
	for _, s := range m.Settings {
		if err := checkToken(cmdNewGame, "rule key", s.Key); err != nil {
			return b, err
		}
		if err := checkToken(cmdNewGame, "rule value", s.Value); err != nil {
			return b, err
		}
		if strings.Contains(s.Key, "=") {
			return b, invalidErr(cmdNewGame, "rule key %q contains '='", s.Key)
		}
	}
	b = appendWords(append(b, cmdNewGame...), "game", m.Game, "preset", m.Preset)
	if len(m.Settings) > 0 {
		b = appendWords(b, "rules")
		for _, s := range m.Settings {
			b = append(b, ' ')
			b = append(b, s.Key...)
			b = append(b, '=')
			b = append(b, s.Value...)
		}
	}
	return appendWords(b, "color", m.Color.String()), nil
}

// AppendText appends "position startpos|text <text> [moves <move>...]".
func (m Position) AppendText(b []byte) ([]byte, error) {
	orig := b
	b = append(b, cmdPosition...)
	if m.Text == "" {
		b = appendWords(b, "startpos")
	} else {
		if err := checkText(cmdPosition, "text", m.Text, false); err != nil {
			return orig, err
		}
		words := splitWords(m.Text)
		if len(words) == 0 {
			return orig, invalidErr(cmdPosition, "position text is blank")
		}
		for _, w := range words {
			if w == "moves" {
				return orig, invalidErr(cmdPosition, "position text contains the word \"moves\"")
			}
		}
		b = appendWords(b, "text")
		b = appendWords(b, words...)
	}
	if len(m.Moves) > 0 {
		if err := checkTokens(cmdPosition, "move", m.Moves); err != nil {
			return orig, err
		}
		b = appendWords(b, "moves")
		b = appendWords(b, m.Moves...)
	}
	return b, nil
}

// AppendText appends "legalmoves <move>...".
func (m LegalMoves) AppendText(b []byte) ([]byte, error) {
	if err := checkTokens(cmdLegalMoves, "move", m.Moves); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdLegalMoves...), m.Moves...), nil
}

// AppendText appends "fen <text>".
func (m FEN) AppendText(b []byte) ([]byte, error) {
	text := trim(m.Text)
	if text == "" {
		return b, invalidErr(cmdFEN, "empty position text")
	}
	if err := checkText(cmdFEN, "text", text, false); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdFEN...), text), nil
}

// AppendText appends "go movetime <ms>" when MoveTime is set, else
// "go wtime <ms> btime <ms> winc <ms> binc <ms>" (and both when both are
// set), with "movestogo <n>" after the clock times when MovesToGo is set,
// then "depth <n>" and "nodes <n>" when they are set. A Go with no time at
// all but a limit carries the limit alone ("go nodes 5000").
func (m Go) AppendText(b []byte) ([]byte, error) {
	c := m.Clock
	for _, d := range [...]time.Duration{c.WTime, c.BTime, c.WInc, c.BInc, c.MoveTime} {
		if d < 0 {
			return b, invalidErr(cmdGo, "negative time %v", d)
		}
	}
	if c.MovesToGo < 0 || c.MovesToGo > math.MaxInt32 || m.Depth < 0 || m.Depth > math.MaxInt32 || m.Nodes < 0 {
		return b, invalidErr(cmdGo, "movestogo, depth or nodes out of range")
	}
	clock := c.WTime != 0 || c.BTime != 0 || c.WInc != 0 || c.BInc != 0
	b = append(b, cmdGo...)
	if clock || c.MoveTime == 0 && m.Nodes == 0 && m.Depth == 0 {
		b = appendMillis(b, "wtime", c.WTime)
		b = appendMillis(b, "btime", c.BTime)
		b = appendMillis(b, "winc", c.WInc)
		b = appendMillis(b, "binc", c.BInc)
	}
	if c.MovesToGo > 0 {
		b = strconv.AppendInt(append(b, " movestogo "...), int64(c.MovesToGo), 10)
	}
	if c.MoveTime != 0 {
		b = appendMillis(b, "movetime", c.MoveTime)
	}
	if m.Depth > 0 {
		b = strconv.AppendInt(append(b, " depth "...), int64(m.Depth), 10)
	}
	if m.Nodes > 0 {
		b = strconv.AppendInt(append(b, " nodes "...), m.Nodes, 10)
	}
	return b, nil
}

// AppendText appends "info" and the fields that are set, in the order
// depth, score, nodes, time, pv, string. Raw is ignored.
func (m Info) AppendText(b []byte) ([]byte, error) {
	if m.Depth < 0 || m.Depth > math.MaxInt32 || m.Nodes < 0 || m.Time < 0 {
		return b, invalidErr(cmdInfo, "depth, nodes or time out of range")
	}
	if m.HasScore && (m.Score < math.MinInt32 || m.Score > math.MaxInt32) {
		return b, invalidErr(cmdInfo, "score %d out of range", m.Score)
	}
	if err := checkTokens(cmdInfo, "pv move", m.PV); err != nil {
		return b, err
	}
	for _, mv := range m.PV {
		if mv == "string" {
			return b, invalidErr(cmdInfo, "pv move %q is a keyword", mv)
		}
	}
	text := trim(m.String)
	if err := checkText(cmdInfo, "string", text, true); err != nil {
		return b, err
	}
	b = append(b, cmdInfo...)
	if m.Depth > 0 {
		b = strconv.AppendInt(append(b, " depth "...), int64(m.Depth), 10)
	}
	if m.HasScore {
		b = strconv.AppendInt(append(b, " score "...), int64(m.Score), 10)
	}
	if m.Nodes > 0 {
		b = strconv.AppendInt(append(b, " nodes "...), m.Nodes, 10)
	}
	if m.Time > 0 {
		b = appendMillis(b, "time", m.Time)
	}
	if len(m.PV) > 0 {
		b = appendWords(b, "pv")
		b = appendWords(b, m.PV...)
	}
	if text != "" {
		b = appendWords(b, "string", text)
	}
	return b, nil
}

// AppendText appends "move <move>".
func (m Move) AppendText(b []byte) ([]byte, error) {
	if err := checkToken(cmdMove, "move", m.Move); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdMove...), m.Move), nil
}

// AppendText appends "ping [<token>]".
func (m Ping) AppendText(b []byte) ([]byte, error) { return appendPing(b, cmdPing, m.Token) }

// AppendText appends "pong [<token>]".
func (m Pong) AppendText(b []byte) ([]byte, error) { return appendPing(b, cmdPong, m.Token) }

func appendPing(b []byte, cmd, token string) ([]byte, error) {
	if token == "" {
		return append(b, cmd...), nil
	}
	if err := checkToken(cmd, "token", token); err != nil {
		return b, err
	}
	return appendWords(append(b, cmd...), token), nil
}

// AppendText appends "gameover result <result> reason <reason>".
func (m GameOver) AppendText(b []byte) ([]byte, error) {
	switch m.Result {
	case game.Ongoing, game.WhiteWins, game.BlackWins, game.Draw:
	default:
		return b, invalidErr(cmdGameOver, "bad result %d", m.Result)
	}
	if err := checkToken(cmdGameOver, "reason", m.Reason); err != nil {
		return b, err
	}
	return appendWords(append(b, cmdGameOver...), "result", m.Result.String(), "reason", m.Reason), nil
}

// AppendText appends "quit".
func (Quit) AppendText(b []byte) ([]byte, error) { return append(b, cmdQuit...), nil }

// appendWords appends each word after a space.
func appendWords(b []byte, words ...string) []byte {
	for _, w := range words {
		b = append(b, ' ')
		b = append(b, w...)
	}
	return b
}

func appendMillis(b []byte, key string, d time.Duration) []byte {
	b = append(b, ' ')
	b = append(b, key...)
	b = append(b, ' ')
	return strconv.AppendInt(b, d.Milliseconds(), 10)
}

// isSpace reports whether c separates words: a space or a tab.
func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func trim(s string) string { return strings.Trim(s, " \t") }

// splitWords splits s at runs of spaces and tabs.
func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
}

// hasLineBreak reports whether s contains a CR or an LF. Two byte searches
// are many times faster than strings.ContainsAny on a long move list.
func hasLineBreak(s string) bool {
	return strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0
}

// checkToken reports whether s can be sent as one word: not empty, valid
// UTF-8, no spaces, tabs or line breaks.
func checkToken(cmd, what, s string) error {
	if s == "" {
		return invalidErr(cmd, "empty %s", what)
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			return invalidErr(cmd, "%s %q contains white space", what, s)
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if !ascii && !utf8.ValidString(s) {
		return invalidErr(cmd, "%s %q is not valid UTF-8", what, s)
	}
	return nil
}

func checkTokens(cmd, what string, ss []string) error {
	for _, s := range ss {
		if err := checkToken(cmd, what, s); err != nil {
			return err
		}
	}
	return nil
}

// checkText reports whether s can be sent as free text: valid UTF-8 without
// line breaks, and not empty unless emptyOK.
func checkText(cmd, what, s string, emptyOK bool) error {
	if s == "" && !emptyOK {
		return invalidErr(cmd, "empty %s", what)
	}
	if !utf8.ValidString(s) {
		return invalidErr(cmd, "%s %q is not valid UTF-8", what, s)
	}
	if hasLineBreak(s) {
		return invalidErr(cmd, "%s %q contains a line break", what, s)
	}
	return nil
}
