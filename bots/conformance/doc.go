// Package conformance checks that a bot program follows the arena
// protocol (protocol/PROTOCOL.md) and the rules of the games it claims to
// play. It is what "arena check -- CMD [ARGS...]" runs.
//
// Run starts the bot through package engine, exactly as a tournament
// does, and goes through these checks in order, each giving one Result
// (pass, fail or skip) with a reason:
//
//   - handshake: "arena 1" answered with games and arenaok, then readyok
//     (the detail lists the features the bot requests);
//   - games: the bot claims at least one game the arena knows;
//   - ping: "ping <token>" answered with the same token;
//   - isready: two newgames in a row, each answered with readyok;
//   - for each game the bot claims: a game as the first mover under
//     "go movetime", a game as the second mover under "go wtime btime winc
//     binc" on the same process after gameover (newgame after gameover), a
//     position given as a position text followed by moves, a position with
//     a single legal move, and a fresh process asked to move in the middle
//     of a game (as when the arena restarts a bot), then in a position that
//     does not extend the previous one; and, for a bot that declares it
//     obeys node (depth) limits, a position asked twice with "go ... nodes
//     2000" ("depth 3") and plenty of time: the bot's info lines must not
//     report more, and the detail says whether both answers were the same;
//   - legalmoves: when the bot asks for legal-move lists, every request
//     carried one (in shuffled order) and every answer was on it;
//   - fen: when the bot asks for the position text, every request carried
//     it;
//   - info: the bot wrote no line the arena had to ignore (a malformed info
//     line, an unknown command), and which info fields its moves came with;
//   - setoption: a fresh process with every declared option set (to its
//     default) still answers readyok and plays;
//   - quit: the bot exits by itself after quit.
//
// The arena plays the other side with random legal moves from a seeded
// generator and referees every move of the bot with the reference rules.
// A Cheversi game is played to its end; a checkers game stops after
// Config.MaxPlies plies and is reported to the bot as "gameover result *
// reason unfinished" (the protocol requires bots to accept both). A bot
// that breaks a check is stopped and a fresh process is started for the
// next one, as a tournament would.
package conformance
