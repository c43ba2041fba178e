// ArenaViewer draws the arena's boards and game lists. Positions arrive as
// position text computed by the arena's rules (with the squares each move
// touched, the scores and the attacked squares); this script parses that
// text and draws it, and never decides what a move does.
(function (global) {
  "use strict";

  const SVGNS = "http://www.w3.org/2000/svg";
  const CELL = 50; // board square size in SVG units
  const MARGIN = 18; // room for the coordinates
  const PAGE = 50; // game list rows per page

  function svg(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) {
      e.setAttribute(k, attrs[k]);
    }
    if (parent) {
      parent.appendChild(e);
    }
    return e;
  }

  function h(tag, attrs, children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "text") {
        e.textContent = attrs[k];
      } else if (k === "class") {
        e.className = attrs[k];
      } else {
        e.setAttribute(k, attrs[k]);
      }
    }
    for (const c of children || []) {
      if (c !== null && c !== undefined) {
        e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
      }
    }
    return e;
  }

  // --- Position text (notation only; see the rules packages) ---

  // parseCheversi reads "8/8/8/8/4K3/8/8/8 b 1 e4": squares[0] is a1,
  // squares[63] h8; a piece is its letter, upper case for White.
  function parseCheversi(text) {
    const f = String(text).split(" ");
    const squares = new Array(64).fill("");
    const ranks = (f[0] || "").split("/");
    for (let r = 0; r < 8 && r < ranks.length; r++) {
      let file = 0;
      for (const ch of ranks[r]) {
        if (ch >= "1" && ch <= "8") {
          file += ch.charCodeAt(0) - 48;
        } else if (file < 8) {
          squares[(7 - r) * 8 + file] = ch;
          file++;
        }
      }
    }
    return { squares: squares, turn: f[1] === "b" ? "black" : "white", ply: parseInt(f[2] || "0", 10), last: f[3] || "-" };
  }

  // parseCheckers reads PDN FEN "W:W21,22,K30:B1,2": squares[1..32] hold
  // "b", "B" (a black king), "w" or "W".
  function parseCheckers(text) {
    const squares = new Array(33).fill("");
    const fields = String(text).replace(/\.$/, "").split(":");
    for (const field of fields.slice(1)) {
      const side = field.charAt(0).toLowerCase();
      for (const item of field.slice(1).split(",")) {
        const king = item.charAt(0) === "K";
        const spec = king ? item.slice(1) : item;
        const range = spec.split("-");
        const lo = parseInt(range[0], 10), hi = parseInt(range[range.length - 1], 10);
        for (let sq = lo; sq <= hi && sq >= 1 && sq <= 32; sq++) {
          squares[sq] = king ? side.toUpperCase() : side;
        }
      }
    }
    return { squares: squares, turn: fields[0] === "B" ? "black" : "white" };
  }

  function squareName(sq) {
    return "abcdefgh".charAt(sq & 7) + String((sq >> 3) + 1);
  }

  // cell returns the column and row (0..7 from the top left) of a square.
  function cell(game, sq, flip) {
    let col, row;
    if (game === "checkers") {
      const r = (sq - 1) >> 2, i = (sq - 1) & 3;
      row = r;
      col = 2 * i + (r % 2 === 0 ? 1 : 0);
    } else {
      col = sq & 7;
      row = 7 - (sq >> 3);
    }
    return flip ? { col: 7 - col, row: 7 - row } : { col: col, row: row };
  }

  function hexHas(hex, sq) {
    if (!hex) {
      return false;
    }
    const digit = parseInt(hex.charAt(15 - (sq >> 2)), 16);
    return ((digit >> (sq & 3)) & 1) === 1;
  }

  // board returns an SVG drawing of a position. Options:
  //   flip       draw the board from Black's side
  //   marks      squares the last move touched (highlighted)
  //   captured   squares of pieces the last move captured (crossed)
  //   attacked   [white, black] hex bitboards of attacked empty squares
  //   targets    squares to outline (e.g. legal destinations)
  //   selected   a square to outline strongly
  //   onClick    function(square) called when a square is clicked
  //   label      accessible label
  function board(game, text, opt) {
    opt = opt || {};
    const checkers = game === "checkers";
    const pos = checkers ? parseCheckers(text) : parseCheversi(text);
    const size = 8 * CELL + MARGIN;
    const root = svg("svg", {
      xmlns: SVGNS, viewBox: "0 0 " + size + " " + size, class: "av-board",
      role: "img", "aria-label": opt.label || "board", "data-text": text, "data-game": game,
    });
    const squares = checkers ? 32 : 64;
    const first = checkers ? 1 : 0;
    const marks = new Set(opt.marks || []);
    const targets = new Set(opt.targets || []);
    const captured = new Set(opt.captured || []);
    // Every square of the 8x8 grid; the playing squares carry data-sq.
    const grid = svg("g", { class: "av-grid" }, root);
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const dark = checkers ? (row + col) % 2 === 1 : (row + col) % 2 === 1;
        svg("rect", { x: MARGIN + col * CELL, y: row * CELL, width: CELL, height: CELL, class: dark ? "av-dark" : "av-light" }, grid);
      }
    }
    const layer = svg("g", { class: "av-squares" }, root);
    const pieces = svg("g", { class: "av-pieces" }, root);
    for (let sq = first; sq < first + squares; sq++) {
      const c = cell(game, sq, opt.flip);
      const x = MARGIN + c.col * CELL, y = c.row * CELL;
      const name = checkers ? String(sq) : squareName(sq);
      const cls = ["av-sq"];
      if (marks.has(sq)) {
        cls.push("av-mark");
      }
      if (!checkers && opt.attacked && !pos.squares[sq]) {
        const w = hexHas(opt.attacked[0], sq), b = hexHas(opt.attacked[1], sq);
        if (w && b) {
          cls.push("av-att-both");
        } else if (w) {
          cls.push("av-att-white");
        } else if (b) {
          cls.push("av-att-black");
        }
      }
      const r = svg("rect", { x: x, y: y, width: CELL, height: CELL, class: cls.join(" "), "data-sq": name }, layer);
      if (targets.has(sq)) {
        svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 7, class: "av-target" }, layer);
      }
      if (opt.selected === sq) {
        svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "av-selected" }, layer);
      }
      if (checkers) {
        svg("text", { x: x + 3, y: y + 11, class: "av-num" }, layer).textContent = name;
      }
      if (opt.onClick) {
        r.addEventListener("click", function () { opt.onClick(sq); });
        r.classList.add("av-click");
      }
      const p = pos.squares[sq];
      if (p) {
        const white = checkers ? p.toLowerCase() === "w" : p === p.toUpperCase();
        const g = svg("g", { class: "av-piece " + (white ? "av-white" : "av-black"), "data-sq": name, "data-piece": p }, pieces);
        svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38 }, g);
        const letter = checkers ? (p === p.toUpperCase() ? "K" : "") : p.toUpperCase();
        if (checkers && letter) {
          svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.25, class: "av-crown" }, g);
        }
        if (letter) {
          svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 7, "text-anchor": "middle" }, g).textContent = letter;
        }
        if (opt.onClick) {
          g.addEventListener("click", function () { opt.onClick(sq); });
          g.classList.add("av-click");
        }
      }
      if (captured.has(sq)) {
        svg("path", { d: "M" + (x + 12) + " " + (y + 12) + "L" + (x + CELL - 12) + " " + (y + CELL - 12) + "M" + (x + CELL - 12) + " " + (y + 12) + "L" + (x + 12) + " " + (y + CELL - 12), class: "av-captured" }, pieces);
      }
    }
    if (!checkers) {
      for (let i = 0; i < 8; i++) {
        const file = opt.flip ? 7 - i : i, rank = opt.flip ? i + 1 : 8 - i;
        svg("text", { x: MARGIN + i * CELL + CELL / 2, y: 8 * CELL + 13, "text-anchor": "middle", class: "av-coord" }, root).textContent = "abcdefgh".charAt(file);
        svg("text", { x: MARGIN / 2, y: i * CELL + CELL / 2 + 4, "text-anchor": "middle", class: "av-coord" }, root).textContent = String(rank);
      }
    }
    return root;
  }

  // --- Formatting ---

  // seconds formats a duration in milliseconds: "0.4 ms", "120 ms",
  // "1.5 s", "2m05s".
  function seconds(ms) {
    if (ms === undefined || ms === null) {
      return "";
    }
    if (ms < 10) {
      return ms.toFixed(1) + " ms";
    }
    if (ms < 1000) {
      return Math.round(ms) + " ms";
    }
    if (ms < 60000) {
      return (ms / 1000).toFixed(1) + " s";
    }
    const s = Math.round(ms / 1000);
    return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
  }

  function infoText(i) {
    if (!i) {
      return "";
    }
    const parts = [];
    if (i.depth) {
      parts.push("depth " + i.depth);
    }
    if (i.score !== undefined && i.score !== null) {
      parts.push("score " + (i.score > 0 ? "+" : "") + i.score);
    }
    if (i.nodes) {
      parts.push(i.nodes + " nodes");
    }
    if (i.time_ms) {
      parts.push(i.time_ms + " ms");
    }
    if (i.pv && i.pv.length) {
      parts.push("pv " + i.pv.join(" "));
    }
    if (i.text) {
      parts.push(i.text);
    }
    return parts.join(", ");
  }

  const RESULTS = ["1-0", "0-1", "1/2-1/2"];

  function resultWords(g) {
    if (g.result === "1-0") {
      return "White (" + g.white + ") wins";
    }
    if (g.result === "0-1") {
      return "Black (" + g.black + ") wins";
    }
    if (g.result === "1/2-1/2") {
      return "Draw";
    }
    return "In progress";
  }

  const REASONS = {
    "score": "on score",
    "no-moves": "the side to move has no legal move",
    "repetition": "repetition",
    "quiet-moves": "too many moves without a capture or a man move",
    "max-plies": "the length cap was reached",
    "forfeit": "forfeit",
    "adjudication": "adjudicated",
  };

  // --- One game ---

  // gameView shows one game: board, controls, move list and the end.
  function gameView(container, g, opt) {
    opt = opt || {};
    const checkers = g.game === "checkers";
    let ply = opt.ply === undefined ? g.plies.length - 1 : opt.ply;
    let showAttacks = !checkers;
    container.textContent = "";
    // The first mover first: Black in checkers.
    const title = h("h3", { class: "av-title", text: "Game " + g.id + ": " + (checkers ?
      g.black + " (Black) vs " + g.white + " (White)" : g.white + " (White) vs " + g.black + " (Black)") });
    const clocks = g.clocks && g.clocks[0] ? (checkers ? "time: Black " + g.clocks[1] + ", White " + g.clocks[0] :
      "time: White " + g.clocks[0] + ", Black " + g.clocks[1]) : "";
    const sub = h("p", { class: "av-sub", text: [g.opening ? "Opening " + g.opening : "", g.round ? "round " + g.round : "", clocks].filter(Boolean).join(", ") });
    const boardBox = h("div", { class: "av-boardbox" });
    const status = h("div", { class: "av-status", "aria-live": "polite" });
    const btn = function (label, title, fn) {
      const b = h("button", { type: "button", title: title, "aria-label": title, text: label });
      b.addEventListener("click", fn);
      return b;
    };
    const controls = h("div", { class: "av-controls" }, [
      btn("\u00AB", "start", function () { go(0); }),
      btn("\u2039", "back", function () { go(ply - 1); }),
      btn("\u203A", "forward", function () { go(ply + 1); }),
      btn("\u00BB", "end", function () { go(g.plies.length - 1); }),
    ]);
    if (!checkers) {
      const box = h("input", { type: "checkbox", class: "av-attacks" });
      box.checked = showAttacks;
      box.addEventListener("change", function () { showAttacks = box.checked; draw(); });
      controls.appendChild(h("label", { class: "av-toggle" }, [box, " attacked squares"]));
    }
    const text = h("code", { class: "av-text" });
    const moves = h("ol", { class: "av-moves" });
    const end = h("div", { class: "av-end" });
    g.plies.forEach(function (p, i) {
      if (i === 0) {
        return;
      }
      // The side that moved is the side to move in the position before.
      const prev = g.plies[i - 1].p;
      const mover = (checkers ? parseCheckers(prev) : parseCheversi(prev)).turn;
      const li = h("li", { class: "av-move" + (i <= g.opening_plies ? " av-opening" : ""), "data-ply": String(i) }, [
        h("span", { class: "av-side av-side-" + mover, title: mover }),
        h("span", { class: "av-mv", text: p.m }),
        i <= g.opening_plies ? h("span", { class: "av-meta", text: "opening" }) : h("span", { class: "av-meta", text: seconds(p.t) }),
        p.i ? h("span", { class: "av-info", text: infoText(p.i) }) : null,
      ]);
      li.addEventListener("click", function () { go(i); });
      moves.appendChild(li);
    });
    // The end of the game.
    const words = [resultWords(g)];
    if (g.reason && g.reason !== "forfeit") {
      words.push("(" + (REASONS[g.reason] || g.reason) + ")");
    }
    end.appendChild(h("p", { class: "av-result", text: g.result + ": " + words.join(" ") }));
    const last = g.plies[g.plies.length - 1];
    if (last.s) {
      const label = g.reason === "score" ? "Final score" : "Score when the game ended";
      end.appendChild(h("p", { class: "av-final-score", text: label + ": White " + last.s[0] + ", Black " + last.s[1] }));
    }
    if (g.adjudication) {
      end.appendChild(h("p", { class: "av-adjudication", text: "Adjudicated by the arena: " + g.adjudication }));
    }
    if (g.forfeit) {
      end.appendChild(h("div", { class: "av-forfeit" }, [
        h("strong", { text: g.forfeit.bot + " (" + g.forfeit.color + ") forfeits: " + g.forfeit.kind }),
        g.forfeit.detail ? h("div", { class: "av-detail", text: g.forfeit.detail }) : null,
      ]));
    }
    container.appendChild(h("div", { class: "av-game-inner" }, [
      title, sub,
      h("div", { class: "av-cols" }, [
        h("div", { class: "av-left" }, [boardBox, controls, status, text]),
        h("div", { class: "av-right" }, [moves, end]),
      ]),
    ]));

    function draw() {
      const p = g.plies[ply];
      const b = board(g.game, p.p, {
        flip: opt.flip, marks: p.h, captured: p.x,
        attacked: showAttacks ? p.a : null,
        label: "Game " + g.id + " after ply " + ply,
      });
      b.setAttribute("data-ply", String(ply));
      boardBox.textContent = "";
      boardBox.appendChild(b);
      let s = "Ply " + ply + " of " + (g.plies.length - 1);
      if (ply > 0) {
        s += ": " + g.plies[ply].m;
      }
      if (p.s) {
        s += " \u2014 score White " + p.s[0] + ", Black " + p.s[1];
      }
      status.textContent = s;
      text.textContent = p.p;
      Array.prototype.forEach.call(moves.children, function (li) {
        const cur = Number(li.getAttribute("data-ply")) === ply;
        li.classList.toggle("av-current", cur);
        if (cur && (li.offsetTop < moves.scrollTop || li.offsetTop + li.offsetHeight > moves.scrollTop + moves.clientHeight)) {
          // Keep the current move in sight within the list.
          moves.scrollTop = li.offsetTop - moves.clientHeight / 2;
        }
      });
      end.style.display = ply === g.plies.length - 1 ? "" : "none";
    }

    function go(n) {
      ply = Math.max(0, Math.min(g.plies.length - 1, n));
      draw();
    }
    draw();
    return {
      go: go,
      ply: function () { return ply; },
      length: function () { return g.plies.length; },
      game: g,
    };
  }

  // --- Game list and viewer ---

  // viewer builds a filterable game list with a game view under root.
  // source has list (a List), note (a sentence about the data), has(id)
  // (whether a game's plies are available) and load(id) (a Promise of the
  // game, or of null).
  function viewer(root, source) {
    let list = source.list;
    let current = null; // the open game's view
    let page = 0;
    root.textContent = "";
    const selects = {};
    const filterBox = h("div", { class: "av-filters" });
    function addSelect(key, label) {
      const s = h("select", { "aria-label": label, "data-filter": key });
      s.addEventListener("change", function () { page = 0; render(); });
      selects[key] = s;
      filterBox.appendChild(h("label", {}, [label + " ", s]));
    }
    addSelect("bot", "Bot");
    addSelect("vs", "Opponent");
    addSelect("opening", "Opening");
    addSelect("result", "Result");
    addSelect("reason", "Reason");
    const reset = h("button", { type: "button", text: "Clear" });
    reset.addEventListener("click", function () {
      for (const k in selects) {
        selects[k].value = "";
      }
      page = 0;
      render();
    });
    filterBox.appendChild(reset);
    const count = h("p", { class: "av-count" });
    const table = h("table", { class: "av-list" });
    // The players in the order they move: Black first in checkers (see
    // render).
    const heads = ["#", "Round", "White", "Black", "Opening", "Result", "Reason", "Plies"].map(function (t) { return h("th", { text: t }); });
    const thead = h("thead", {}, [h("tr", {}, heads)]);
    const tbody = h("tbody");
    table.appendChild(thead);
    table.appendChild(tbody);
    const prev = h("button", { type: "button", text: "\u00AB previous", class: "av-prev" });
    const next = h("button", { type: "button", text: "next \u00BB", class: "av-next" });
    const pageLabel = h("span", { class: "av-page" });
    prev.addEventListener("click", function () { page--; render(); });
    next.addEventListener("click", function () { page++; render(); });
    const pager = h("div", { class: "av-pager" }, [prev, pageLabel, next]);
    const note = h("p", { class: "av-note" });
    const gameBox = h("div", { class: "av-game", id: "av-game" });
    root.appendChild(h("div", { class: "av-root" }, [filterBox, count, h("div", { class: "av-scroll" }, [table]), pager, note, gameBox]));

    function fillSelects() {
      const keep = {};
      for (const k in selects) {
        keep[k] = selects[k].value;
      }
      const fill = function (s, values, labels) {
        s.textContent = "";
        s.appendChild(h("option", { value: "", text: "any" }));
        values.forEach(function (v, i) {
          s.appendChild(h("option", { value: String(v), text: labels ? labels[i] : String(v) }));
        });
      };
      const sorted = function (names) {
        return names.map(function (n, i) { return i; }).sort(function (a, b) { return names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0; });
      };
      const bots = sorted(list.bots);
      fill(selects.bot, bots, bots.map(function (i) { return list.bots[i]; }));
      fill(selects.vs, bots, bots.map(function (i) { return list.bots[i]; }));
      const openings = list.openings.map(function (n, i) { return i; });
      fill(selects.opening, openings, openings.map(function (i) { return list.openings[i]; }));
      fill(selects.result, [0, 1, 2], RESULTS);
      const reasons = sorted(list.reasons);
      fill(selects.reason, reasons, reasons.map(function (i) { return list.reasons[i]; }));
      for (const k in selects) {
        selects[k].value = keep[k];
        if (selects[k].selectedIndex < 0) {
          selects[k].value = "";
        }
      }
    }

    function matching() {
      const f = {};
      for (const k in selects) {
        f[k] = selects[k].value === "" ? -1 : Number(selects[k].value);
      }
      return list.rows.filter(function (r) {
        if (f.bot >= 0 && r[2] !== f.bot && r[3] !== f.bot) {
          return false;
        }
        if (f.vs >= 0 && r[2] !== f.vs && r[3] !== f.vs) {
          return false;
        }
        return (f.opening < 0 || r[4] === f.opening) && (f.result < 0 || r[5] === f.result) && (f.reason < 0 || r[6] === f.reason);
      });
    }

    function render() {
      const blackFirst = list && list.game === "checkers";
      heads[2].textContent = blackFirst ? "Black" : "White";
      heads[3].textContent = blackFirst ? "White" : "Black";
      const rows = matching();
      const pages = Math.max(1, Math.ceil(rows.length / PAGE));
      page = Math.max(0, Math.min(page, pages - 1));
      count.textContent = rows.length + " of " + list.rows.length + " games";
      count.setAttribute("data-count", String(rows.length));
      tbody.textContent = "";
      rows.slice(page * PAGE, (page + 1) * PAGE).forEach(function (r) {
        const has = source.has(r[0]);
        const tr = h("tr", { "data-id": String(r[0]), class: has ? "av-row" : "av-row av-nodata", tabindex: "0" }, [
          h("td", { class: "num", text: String(r[0]) }), h("td", { class: "num", text: String(r[1]) }),
          h("td", { text: list.bots[r[blackFirst ? 3 : 2]] }), h("td", { text: list.bots[r[blackFirst ? 2 : 3]] }),
          h("td", { text: list.openings[r[4]] }), h("td", { text: RESULTS[r[5]] }),
          h("td", { text: list.reasons[r[6]] }), h("td", { class: "num", text: String(r[7]) }),
        ]);
        tr.addEventListener("click", function () { open(r[0], true); });
        tr.addEventListener("keydown", function (e) {
          if (e.key === "Enter") {
            open(r[0], true);
          }
        });
        tbody.appendChild(tr);
      });
      pageLabel.textContent = " page " + (page + 1) + " of " + pages + " ";
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
      note.textContent = source.note || "";
    }

    function open(id, scroll) {
      gameBox.textContent = "";
      current = null;
      if (!source.has(id)) {
        gameBox.appendChild(h("p", { class: "av-missing", text: "The moves of game " + id + " are not in this page. " + (source.missing || "") }));
        return Promise.resolve(null);
      }
      gameBox.appendChild(h("p", { text: "Loading game " + id + "\u2026" }));
      return source.load(id).then(function (g) {
        if (!g) {
          gameBox.textContent = "";
          gameBox.appendChild(h("p", { class: "av-missing", text: "Game " + id + " could not be loaded." }));
          return null;
        }
        current = gameView(gameBox, g, {});
        gameBox.setAttribute("data-id", String(id));
        if (scroll && gameBox.scrollIntoView) {
          gameBox.scrollIntoView({ block: "start" });
        }
        return current;
      });
    }

    // Routes: #games?bot=NAME&vs=NAME&opening=NAME&result=1-0&reason=NAME
    // filters the list; #game=ID opens a game.
    function route() {
      const hash = decodeURIComponent(location.hash.replace(/^#/, ""));
      if (hash.indexOf("game=") === 0) {
        open(Number(hash.slice(5)), true);
        return;
      }
      if (hash.indexOf("games") !== 0) {
        return;
      }
      const q = new URLSearchParams(location.hash.replace(/^#games\??/, ""));
      const pick = function (key, names) {
        if (!q.has(key)) {
          selects[key].value = "";
          return;
        }
        const i = names.indexOf(q.get(key));
        selects[key].value = i < 0 ? "" : String(i);
      };
      pick("bot", list.bots);
      pick("vs", list.bots);
      pick("opening", list.openings);
      pick("result", RESULTS);
      pick("reason", list.reasons);
      page = 0;
      render();
      root.scrollIntoView({ block: "start" });
    }

    document.addEventListener("keydown", function (e) {
      if (!current || e.altKey || e.ctrlKey || e.metaKey) {
        return;
      }
      const t = e.target && e.target.tagName;
      if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA") {
        return;
      }
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (e.key in moves) {
        current.go(current.ply() + moves[e.key]);
        e.preventDefault();
      } else if (e.key === "Home") {
        current.go(0);
        e.preventDefault();
      } else if (e.key === "End") {
        current.go(current.length() - 1);
        e.preventDefault();
      }
    });
    window.addEventListener("hashchange", route);
    fillSelects();
    render();
    route();
    return {
      // setList replaces the list (a running tournament's grows), keeping
      // the filters and the open game.
      setList: function (l) {
        list = l;
        fillSelects();
        render();
      },
      open: open,
      current: function () { return current; },
    };
  }

  // embedded is a source for data embedded in the page: {list, games, note}.
  function embedded(data) {
    const games = data.games || {};
    return {
      list: data.list,
      note: data.note || "",
      missing: data.missing || "",
      has: function (id) { return Object.prototype.hasOwnProperty.call(games, String(id)); },
      load: function (id) { return Promise.resolve(games[String(id)] || null); },
    };
  }

  global.ArenaViewer = {
    board: board,
    gameView: gameView,
    viewer: viewer,
    embedded: embedded,
    parseCheversi: parseCheversi,
    parseCheckers: parseCheckers,
    seconds: seconds,
    infoText: infoText,
  };
})(window);
