// The board a person plays on. The position, the legal moves and the
// pieces left come from the bot process, which computed them with the
// rules; this page draws them, turns clicks into a move and sends it.
// Whether a move is legal is decided by the bot process, which answers
// with the rules' reason when it is not.
(function () {
  "use strict";

  const $ = function (id) { return document.getElementById(id); };
  let state = null;
  let received = 0; // when the state arrived (ms)
  let piece = ""; // Cheversi: the piece picked in the palette
  let from = 0; // checkers: the square picked
  let sending = false;

  function squareName(game, sq) {
    return game === "checkers" ? String(sq) : "abcdefgh".charAt(sq & 7) + String((sq >> 3) + 1);
  }

  function clock(ms) {
    if (ms < 0) {
      ms = 0;
    }
    const s = Math.floor(ms / 1000);
    if (s >= 60) {
      return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    }
    return (ms / 1000).toFixed(1) + "s";
  }

  function refuse(text) {
    $("refused").textContent = text;
  }

  // targets lists the squares the legal moves reach from the current
  // choice: for a picked Cheversi piece, the squares it may go on; for a
  // picked checkers piece, the squares it may end on.
  function targets() {
    const out = [];
    if (!state || state.status !== "move" || !state.legal) {
      return out;
    }
    for (const m of state.legal) {
      if (state.game === "checkers") {
        const parts = m.split(/[-x]/).map(Number);
        if (parts[0] === from) {
          out.push(parts[parts.length - 1]);
        }
      } else if (piece && m.indexOf(piece + "@") === 0) {
        const sq = m.slice(2);
        out.push((sq.charCodeAt(1) - 49) * 8 + (sq.charCodeAt(0) - 97));
      }
    }
    return out;
  }

  function draw() {
    const s = state;
    const box = $("board");
    box.textContent = "";
    if (!s || !s.ply) {
      return;
    }
    const b = ArenaViewer.board(s.game, s.ply.p, {
      flip: s.color === "black",
      marks: s.ply.h, captured: s.ply.x, attacked: s.ply.a,
      targets: targets(),
      selected: s.game === "checkers" && from ? from : undefined,
      onClick: click,
      label: "your board",
    });
    box.appendChild(b);
  }

  function palette() {
    const box = $("palette");
    box.textContent = "";
    const s = state;
    if (!s || s.game !== "cheversi" || !s.unplaced) {
      return;
    }
    for (const p of ["K", "Q", "R", "B", "N"]) {
      const n = s.unplaced[p] || 0;
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("data-piece", p);
      b.setAttribute("aria-pressed", piece === p ? "true" : "false");
      b.textContent = p + " \u00D7" + n;
      b.disabled = n === 0;
      b.addEventListener("click", function () {
        piece = p;
        refuse("");
        palette();
        draw();
      });
      box.appendChild(b);
    }
  }

  function click(sq) {
    const s = state;
    if (!s || s.status !== "move" || sending) {
      refuse(s && s.status === "over" ? "The game is over." : "It is not your move.");
      return;
    }
    if (s.game === "cheversi") {
      if (!piece) {
        refuse("Pick a piece first, then the square to place it on.");
        return;
      }
      send({ move: piece + "@" + squareName(s.game, sq) });
      return;
    }
    // Checkers: a piece of one's own picks it; another square moves it.
    const pos = ArenaViewer.parseCheckers(s.ply.p);
    const mine = pos.squares[sq] && (pos.squares[sq].toLowerCase() === s.color.charAt(0));
    if (mine && sq === from && targets().indexOf(sq) >= 0) {
      // A king's capture that goes round back to its square.
      send({ from: from, to: sq });
      return;
    }
    if (mine) {
      from = sq === from ? 0 : sq;
      refuse("");
      draw();
      return;
    }
    if (!from) {
      refuse("Pick one of your pieces first, then the square it goes to.");
      return;
    }
    send({ from: from, to: sq });
  }

  function send(body) {
    sending = true;
    $("choices").textContent = "";
    fetch("/move", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (reply) {
        if (reply.ok) {
          refuse("");
          piece = "";
          from = 0;
          return;
        }
        refuse(reply.reason || "The move was refused.");
        // A refused checkers move starts over from picking a piece.
        from = 0;
        draw();
        if (reply.choices) {
          for (const c of reply.choices) {
            const b = document.createElement("button");
            b.type = "button";
            b.textContent = c;
            b.setAttribute("data-move", c);
            b.addEventListener("click", function () { send({ move: c }); });
            $("choices").appendChild(b);
          }
        }
      })
      .catch(function () { refuse("The move could not be sent; is the arena still running?"); })
      .then(function () { sending = false; });
  }

  function render() {
    const s = state;
    const status = $("status");
    status.setAttribute("data-status", s.status);
    const side = s.color ? " You play " + s.color.charAt(0).toUpperCase() + s.color.slice(1) + "." : "";
    $("title").textContent = s.game ? "Your board: " + s.game + (s.opponent ? " against " + s.opponent : "") : "Your board";
    $("game-info").textContent = s.opening ? "Opening: " + s.opening : "";
    switch (s.status) {
      case "waiting":
        status.textContent = "Waiting for the arena to start a game\u2026";
        break;
      case "opponent":
        status.textContent = "Your opponent is thinking\u2026" + side;
        break;
      case "move":
        status.textContent = "Your move." + side;
        break;
      case "over":
        status.textContent = "Game over: " + s.result + (s.reason ? " (" + s.reason + ")" : "") + ". " + (s.message || "") + " The next game starts when the arena is ready.";
        break;
    }
    if (s.status !== "move") {
      piece = "";
      from = 0;
      $("choices").textContent = "";
    }
    if (s.ply && s.ply.s) {
      $("score").textContent = "Score: White " + s.ply.s[0] + ", Black " + s.ply.s[1];
    } else {
      $("score").textContent = "";
    }
    $("hint").textContent = s.status === "move" ? (s.game === "cheversi" ? "Pick a piece, then an empty square; green dots mark where it may go." : "Click one of your pieces, then the square it goes to.") : "";
    $("legend").hidden = s.game !== "cheversi";
    // The moves in numbered pairs, the first mover's first ("1. 9-13
    // 22-18"); a game from a position with the second mover to move
    // starts "1. … 22-18".
    const moves = $("moves");
    moves.textContent = "";
    const list = (s.moves || []).slice();
    if (list.length && s.start_turn && s.first_mover && s.start_turn !== s.first_mover) {
      list.unshift("\u2026");
    }
    for (let i = 0; i < list.length; i += 2) {
      const li = document.createElement("li");
      li.setAttribute("data-number", String(i / 2 + 1));
      li.textContent = list.slice(i, i + 2).join(" ");
      moves.appendChild(li);
    }
    palette();
    draw();
  }

  function tick() {
    const c = $("clock");
    if (state && state.status === "move" && state.time_left_ms) {
      const left = state.time_left_ms - (Date.now() - received);
      c.textContent = "Your time: " + clock(left);
      c.classList.toggle("low", left < 10000);
    } else {
      c.textContent = "";
    }
  }

  const events = new EventSource("/events");
  events.addEventListener("state", function (e) {
    state = JSON.parse(e.data);
    received = Date.now();
    render();
    tick();
  });
  events.addEventListener("error", function () {
    $("status").setAttribute("data-status", "lost");
    $("status").textContent = "Lost the connection to the arena; retrying\u2026 (the tournament may be over)";
  });
  setInterval(tick, 100);
})();
