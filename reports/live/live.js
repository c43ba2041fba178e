// The live page: it follows the server's state stream and draws the
// progress, standings, side balance and games in flight; finished games
// open in the viewer (viewer.js), loaded from the server on demand.
(function () {
  "use strict";

  const $ = function (id) { return document.getElementById(id); };
  let viewer = null; // the game list and viewer, once there are games
  let listRows = 0; // games in the list the page has
  let listBusy = false;
  let listWanted = false;
  let finished = 0;
  let state = null;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      e.setAttribute(k, attrs[k]);
    }
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  function pct(x) {
    return (100 * x).toFixed(1) + "%";
  }

  // count says "1 game", "2 games".
  function count(n, noun, plural) {
    return n + " " + (n === 1 ? noun : plural || noun + "s");
  }

  function duration(s) {
    s = Math.round(s);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
    }
    return Math.floor(s / 3600) + "h" + String(Math.floor(s / 60) % 60).padStart(2, "0") + "m";
  }

  function render(st) {
    state = st;
    if (st.waiting) {
      $("title").textContent = "Waiting for the tournament to start…";
      return;
    }
    document.title = st.name + ": live";
    $("title").textContent = st.name;
    $("meta").textContent = "Game: " + st.game + " (" + st.rules + ")." + (st.error ? " Problem: " + st.error : "");
    const done = st.total > 0 && st.finished >= st.total;
    $("bar").style.width = (st.total ? Math.min(100, 100 * st.finished / st.total) : 0) + "%";
    let p = st.finished + " of " + count(st.total, "game") + " finished";
    if (st.total) {
      p += " (" + Math.floor(100 * st.finished / st.total) + "%)";
    }
    if (st.rate > 0 && !done) {
      p += ", " + st.rate.toFixed(st.rate < 10 ? 2 : 1) + " games/s";
      if (st.eta > 0) {
        p += ", about " + duration(st.eta) + " left";
      }
    }
    if (done) {
      p += ": the tournament is complete.";
    }
    $("progress").textContent = p;
    $("progress").setAttribute("data-finished", String(st.finished));
    renderStandings(st);
    renderSide(st);
    renderFlights(st);
    if (st.finished !== finished || !viewer) {
      finished = st.finished;
      wantList();
    }
  }

  function renderStandings(st) {
    const body = $("standings").tBodies[0];
    body.textContent = "";
    $("level").textContent = "\u00B1 " + (st.level || "");
    $("standings-note").textContent = st.analyzed ? "Ratings of " + (st.analyzed === st.finished ? "the " : "the first ") + count(st.analyzed, "finished game") + "; \u00B1 is the " + st.level + " interval." : "No game has finished yet.";
    for (const s of st.standings) {
      const tr = el("tr", { "data-bot": s.name });
      const cells = [
        [String(s.rank), true], [s.name, false],
        [s.games ? String(Math.round(s.elo)) : "\u2013", true], [s.games ? String(Math.round(s.interval)) : "\u2013", true],
        [String(s.games), true], [String(s.wins), true], [String(s.draws), true], [String(s.losses), true],
        [String(s.points), true], [s.games ? pct(s.score) : "\u2013", true], [String(s.forfeits), true],
      ];
      for (const c of cells) {
        tr.appendChild(el("td", c[1] ? { class: "num" } : {}, c[0]));
      }
      body.appendChild(tr);
    }
  }

  function renderSide(st) {
    const box = $("side");
    box.textContent = "";
    const s = st.side;
    if (!s || !s.games) {
      box.appendChild(el("p", { class: "meta" }, "No game has finished on the board yet."));
      return;
    }
    const first = s.first_mover.charAt(0).toUpperCase() + s.first_mover.slice(1);
    box.appendChild(el("p", {}, "First mover (" + first + "): " + count(s.wins, "win") + ", " + count(s.draws, "draw") + ", " + count(s.losses, "loss", "losses") + " in " + count(s.games, "game") + "; score " + pct(s.score) + " [" + pct(s.low) + ", " + pct(s.high) + "], the " + st.level + " interval" + (s.forfeits ? "; " + count(s.forfeits, "forfeit") + " left out." : ".")));
    const bar = el("div", { class: "sidebar", title: "first mover's wins, draws and losses" });
    for (const part of [["w", s.wins], ["d", s.draws], ["l", s.losses]]) {
      const span = el("span", { class: part[0] });
      span.style.width = (100 * part[1] / s.games) + "%";
      bar.appendChild(span);
    }
    box.appendChild(bar);
  }

  function renderFlights(st) {
    const box = $("flights");
    box.textContent = "";
    if (!st.in_run) {
      $("flights-note").textContent = "Games in flight are shown only by the arena playing them (arena run --serve); this page follows the journal, so it shows each game once it is finished.";
      return;
    }
    $("flights-note").textContent = st.flights.length ? (st.more_flights ? "and " + st.more_flights + " more not shown." : "") : "None at the moment.";
    for (const f of st.flights) {
      const card = el("div", { class: "flight", "data-id": String(f.id), tabindex: "0" });
      // The first mover first (Black in checkers), each with its colour.
      const names = st.game === "checkers" ? f.black + " (Black) \u2013 " + f.white + " (White)" : f.white + " (White) \u2013 " + f.black + " (Black)";
      card.appendChild(el("p", { class: "names", title: names }, names));
      card.appendChild(ArenaViewer.board(st.game, f.ply.p, {
        marks: f.ply.h, captured: f.ply.x, label: "game " + f.id + " in flight",
      }));
      let line = "Game " + f.id + ", ply " + f.plies;
      if (f.ply.m) {
        line += ": " + f.ply.m;
      }
      if (f.ply.s) {
        line += " (" + f.ply.s[0] + "\u2013" + f.ply.s[1] + ")";
      }
      card.appendChild(el("p", {}, line));
      card.addEventListener("click", function () { open(f.id); });
      box.appendChild(card);
    }
    // Keep an open game in flight up to date.
    if (viewer && viewer.current()) {
      const cur = viewer.current();
      const f = st.flights.find(function (x) { return x.id === cur.game.id; });
      if (f && cur.game.result === "*" && f.plies > cur.length() - 1 && cur.ply() === cur.length() - 1) {
        viewer.open(f.id, false);
      }
    }
  }

  function source(list) {
    return {
      list: list,
      note: "Every game is loaded from the server when opened.",
      has: function () { return true; },
      load: function (id) {
        return fetch("/api/game?id=" + encodeURIComponent(id)).then(function (r) {
          return r.ok ? r.json() : null;
        }).catch(function () { return null; });
      },
    };
  }

  function open(id) {
    if (!viewer) {
      viewer = ArenaViewer.viewer($("game-viewer"), source({ game: state.game, bots: [], openings: [], reasons: [], rows: [] }));
    }
    viewer.open(id, true);
  }

  // wantList fetches the game list, one request at a time.
  function wantList() {
    listWanted = true;
    if (listBusy) {
      return;
    }
    listWanted = false;
    listBusy = true;
    fetch("/api/games").then(function (r) { return r.json(); }).then(function (list) {
      if (list && list.rows) {
        listRows = list.rows.length;
        if (!viewer) {
          viewer = ArenaViewer.viewer($("game-viewer"), source(list));
        } else {
          viewer.setList(list);
        }
        $("game-viewer").setAttribute("data-rows", String(listRows));
      }
    }).catch(function () {}).then(function () {
      listBusy = false;
      // The server rebuilds its list every two seconds at most: ask again
      // if it is behind.
      if (listWanted || listRows < finished) {
        setTimeout(wantList, 1000);
      }
    });
  }

  const conn = $("connection");
  const events = new EventSource("/api/events");
  events.addEventListener("state", function (e) {
    conn.textContent = "Live: updated " + new Date().toLocaleTimeString() + ".";
    conn.setAttribute("data-state", "live");
    render(JSON.parse(e.data));
  });
  events.addEventListener("error", function () {
    conn.textContent = "Connection lost; retrying\u2026 (the arena may have stopped)";
    conn.setAttribute("data-state", "lost");
  });
})();
