#!/usr/bin/env python3
"""A bot for the arena in plain Python 3 (standard library only).

It asks the arena for the list of legal moves before every move request
("request legalmoves"), so it needs no rules engine: it plays one of the
listed moves. The choice is random, with one simple preference: in
checkers it takes the longest capture on offer (a capture lists every
landing square, so the longest text jumps the most pieces); in Cheversi
it prefers the pieces that attack the most squares (Q, then R, B, N, K).

It also shows the additions of protocol version 1.1: it asks for the
current position text ("request fen") and reads the material balance of a
checkers position from it, reports what it did in an "info" line, and
declares that it obeys node and depth limits ("request nodes", "request
depth"): it looks at one candidate move per node, one ply deep.

The protocol is described in protocol/PROTOCOL.md. Standard output carries
the protocol; notes go to standard error, which the arena keeps in a log.
"""

import random
import sys
import time

NAME = "python-random"
AUTHOR = "arena examples"
GAMES = ("cheversi", "checkers")

# Cheversi piece letters, most attacking first.
PIECE_ORDER = "QRBNK"


def send(line):
    """Writes one protocol line and flushes it at once."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def note(text):
    """Writes a note to standard error (the arena's log of this bot)."""
    sys.stderr.write("python bot: " + text + "\n")
    sys.stderr.flush()


def rank(move, game):
    """Returns a sort key for a legal move: greater is preferred."""
    if game == "checkers":
        return move.count("x")
    if "@" in move and move[0] in PIECE_ORDER:
        return len(PIECE_ORDER) - PIECE_ORDER.index(move[0])
    return 0


def choose(legal, game, rng):
    """Picks a random move among the preferred legal moves."""
    best = max(rank(m, game) for m in legal)
    return rng.choice([m for m in legal if rank(m, game) == best])


def go_limits(args):
    """Reads the node and depth limits of a go line (0: none).

    go carries keyword-value pairs (wtime 1000, movestogo 9, nodes 500...);
    keywords this bot does not use are skipped with their values.
    """
    limits = {"nodes": 0, "depth": 0}
    for key, value in zip(args[::2], args[1::2]):
        if key in limits and value.isdigit():
            limits[key] = int(value)
    return limits["nodes"], limits["depth"]


def material(fen):
    """Returns the material balance of a checkers position text for the
    side to move, in hundredths of a man (a man 100, a king 130), or None
    when the text is not a checkers position.

    The text is PDN FEN: side to move, then each side's squares, kings
    prefixed with K: "B:W21,22,K30:B1,2,K13".
    """
    fields = fen.split(":")
    if len(fields) != 3 or fields[0] not in ("W", "B"):
        return None
    value = {}
    for field in fields[1:]:
        color, squares = field[:1], field[1:]
        value[color] = sum(130 if sq.startswith("K") else 100 for sq in squares.split(",") if sq)
    other = "W" if fields[0] == "B" else "B"
    return value.get(fields[0], 0) - value.get(other, 0)


def main():
    rng = random.Random(0)
    game = ""
    legal = []
    fen = ""
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        if cmd == "arena":
            if args != ["1"]:
                note("unsupported protocol version: " + " ".join(args))
                return 1
            send("id name " + NAME)
            send("id author " + AUTHOR)
            send("option name Seed type spin default 0 min 0 max 2147483647")
            send("games " + " ".join(GAMES))
            send("request legalmoves")
            send("request fen")
            send("request nodes")
            send("request depth")
            send("arenaok")
        elif cmd == "setoption":
            # setoption name <name> value <value>
            if len(args) >= 4 and args[0] == "name" and args[1] == "Seed" and args[2] == "value":
                try:
                    rng.seed(int(args[3]))
                except ValueError:
                    note("bad Seed value: " + args[3])
        elif cmd == "isready":
            send("readyok")
        elif cmd == "ping":
            # Answer with the same token, if there was one.
            send(" ".join(["pong"] + args[:1]))
        elif cmd == "newgame":
            # newgame game <game> preset ... rules ... color ...
            if "game" in args and args.index("game") + 1 < len(args):
                game = args[args.index("game") + 1]
        elif cmd == "position":
            legal, fen = [], ""
        elif cmd == "fen":
            # The current position; it may contain spaces (Cheversi).
            fen = " ".join(args)
        elif cmd == "legalmoves":
            legal = args
        elif cmd == "go":
            if not legal:
                note("go without a legal-move list; cannot move")
                return 1
            started = time.monotonic()
            nodes, depth = go_limits(args)
            # One node per candidate looked at; a depth limit of 1 or more
            # allows this one-ply look.
            candidates = legal[:nodes] if nodes > 0 else legal
            move = choose(candidates, game, rng)
            info = "info depth 1"
            score = material(fen) if game == "checkers" else None
            if score is not None:
                info += " score %d" % score
            ms = int((time.monotonic() - started) * 1000)
            send("%s nodes %d time %d pv %s" % (info, len(candidates), ms, move))
            send("move " + move)
            legal = []
        elif cmd == "quit":
            return 0
        # gameover and anything unknown: nothing to do.
    return 0


if __name__ == "__main__":
    sys.exit(main())
