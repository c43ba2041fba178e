// Package sdk lets a Go program play in the arena as a bot: implement one
// function from a position and a clock to a move, and call Run (or Main).
//
// The SDK speaks the arena protocol (package protocol, specified in
// protocol/PROTOCOL.md) on the bot's behalf: it answers the handshake with
// the bot's name, options and games, checks and applies setoption, answers
// isready and ping, builds the game's rules from newgame (through package
// games), decodes every position into a game.State, runs Bot.Move when
// the arena says go (while still answering ping), writes the move, and
// stops on gameover, quit or the end of its input.
//
// The optional features of protocol version 1.1 are fields of Bot: WantFEN
// asks for the current position text with every request (Request.FEN),
// NodeLimit and DepthLimit declare that Move obeys Request.Nodes and
// Request.Depth, which a tournament may then set. The SDK always asks for
// the moves left in a moves-per-period clock (Request.Clock.MovesToGo),
// which Budget takes into account.
//
// A minimal bot:
//
//	func main() {
//		sdk.Main(sdk.Bot{
//			Name: "first",
//			Move: func(ctx context.Context, req sdk.Request) (string, error) {
//				return req.State.LegalMoves(nil)[0].String(), nil
//			},
//		})
//	}
package sdk
