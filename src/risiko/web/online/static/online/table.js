/* Online table: the browser side of docs/online.md. The server decides everything; this
   script sends intentions and draws what the server sends. No inline script (CSP). */
(function () {
  "use strict";
  var root = document.getElementById("online-table");
  if (!root) { return; }
  var T = JSON.parse(document.getElementById("online-words").textContent);
  var code = root.dataset.code, lang = (root.dataset.lang || "it").slice(0, 2);
  var ws = null, st = { seq: -1 }, me = { role: null, seat: null }, sel = null, mode = "";
  var prefix = Math.random().toString(36).slice(2, 10), counter = 0, clockBase = null;
  var closing = null;  /* the server said why it closes (an error's close code, or bye) */
  var left = false;  /* this seat left the table (leave, answered by bye) */
  var $ = function (id) { return document.getElementById(id); };
  /* A count and its noun in the right number: "1 carta", "2 carte", "0 carte" ("1 card",
     "0 cards"): Italian and English say the singular for 1 only. */
  function countOf(n, one, many) { return n + " " + (n === 1 ? one : many); }
  /* The last round announced (R2): "ULTIMO giro: 4" while the game is played, "Ultimo giro:
     4" once it ended (no shouting about a game that is over). */
  function lastRoundText(game, words) {
    if (!game.last_round) { return ""; }
    var over = !!game.outcome || game.phase === "over";
    return (over ? words.last_round_over : words.last_round) + " " + game.last_round;
  }
  // a seat's name: a bot's in the viewer's language (Bot Aldo (livello 3)), a stand-in's level
  function seatName(s, words, lang) {
    var txt = (s.labels && s.labels[lang]) || s.player || words.open_seat;
    if (s.stand_in) { txt += " 🤖" + (s.level ? " (" + words.stand_in_level.replace("%(level)s", s.level) + ")" : ""); }
    return txt;
  }
  /* end of the page-free helpers (tests/web/test_online_pages.py runs them with node) */

  function send(m) { if (ws && ws.readyState === 1) { ws.send(JSON.stringify(m)); } }
  function act(action) { send({ type: "act", id: prefix + "-" + (++counter), seq: st.seq, action: action }); }
  function referee(command) { send({ type: "referee", id: prefix + "-" + (++counter), seq: null, command: command }); }

  function connect() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    // a club's table (``/c/<club>/online/...``) is served by its club's socket
    var club = location.pathname.match(/^\/c\/[-A-Za-z0-9_]+\//);
    var url = proto + location.host + (club ? club[0] : "/") + "ws/online/" + code + "/?lang=" + lang;  // the seat: by the session cookie
    ws = new WebSocket(url);
    $("ot-conn").textContent = T.connecting;
    ws.onopen = function () { $("ot-conn").textContent = ""; };
    ws.onclose = function () {
      if (closing === "bye") { $("ot-conn").textContent = ""; return; }  /* we left */
      var wait = closing ? 10000 : 1000;  /* a limit: do not knock again at once */
      closing = null;
      $("ot-conn").textContent = T.reconnecting; setTimeout(connect, wait);
    };
    ws.onmessage = function (e) { handle(JSON.parse(e.data)); };
  }

  function handle(m) {
    if (m.type === "welcome") {
      me.role = m.role; me.seat = m.seat; root.dataset.role = m.role;
      if (m.seat) { root.dataset.seat = m.seat; }
    }
    else if (m.type === "state") { st = m; st.log = m.log || []; clockBase = Date.now(); render(); }
    else if (m.type === "event") {
      if (m.seq <= st.seq) { return; }
      var first = m.entries && m.entries.length ? m.entries[0].seq : m.seq;
      if (st.seq >= 0 && first > st.seq + 1) { send({ type: "sync" }); }
      var log = (st.log || []).concat(m.entries || []);
      st = { seq: m.seq, table: m.table, game: m.game, private: m.private || st.private, clock: m.clock, log: log.slice(-300) };
      clockBase = Date.now();
      if (m.game && (m.game.phase !== "attack")) { sel = null; }
      render();
    } else if (m.type === "private") { st.private = m.private; }
    else if (m.type === "refused") { showFaults(m.faults); }
    else if (m.type === "ack") { showFaults([]); }
    else if (m.type === "odds_result") { showOdds(m); }
    else if (m.type === "error") { if (m.faults) { showFaults(m.faults); } if (m.close) { closing = m.close; } }
    else if (m.type === "bye") { closing = "bye"; hasLeft(); }
  }

  /* Leaving the table (the protocol's leave): a seat may leave a casual table's lobby (its
     seat is free again) or a game in play (a bot stands in, or the referee is asked for
     R13); the question says which, and nothing is sent before "Yes". */
  function canLeave() {
    var t = st.table || {};
    if (left || me.role !== "seat") { return false; }
    if (t.status === "lobby") { return t.kind === "casual"; }
    return t.status === "playing" || t.status === "paused";
  }
  function leaveQuestion() {
    var t = st.table || {};
    if (t.status === "lobby") { return T.leave_lobby; }
    return t.kind === "casual" && t.settings && t.settings.bot_for_absent ? T.leave_stand_in : T.leave_r13;
  }
  function askLeave(open) {
    $("ot-leave-confirm").hidden = !open;
    $("ot-leave-ask").hidden = open;
    if (open) { $("ot-leave-question").textContent = leaveQuestion(); $("ot-leave-no").focus(); }
  }
  function hasLeft() {
    left = true; me.role = "left"; root.dataset.role = "left"; root.dataset.left = "1";
    $("ot-leave").hidden = true; $("ot-controls").hidden = true; $("ot-private").hidden = true;
    $("ot-left").hidden = false;
    $("ot-left").querySelector("a").focus();
  }

  function showFaults(faults) {
    var box = $("ot-faults");
    box.textContent = "";
    faults.forEach(function (f) { var li = document.createElement("li"); li.textContent = f.message; box.appendChild(li); });
    box.hidden = faults.length === 0;
  }

  function myTurn() { return st.game && st.table && st.table.status === "playing" && me.role === "seat" && st.game.to_act === me.seat; }
  function terr(t) { return st.game.territories[t]; }

  function render() {
    var table = st.table || {}, game = st.game, priv = st.private;
    root.dataset.status = table.status || "";
    root.dataset.seq = st.seq;
    root.dataset.phase = game ? game.phase : "";
    root.dataset.round = game ? game.round : "";
    root.dataset.toAct = game && game.to_act ? game.to_act : "";
    $("ot-status").textContent = T.status[table.status] || table.status || "";
    $("ot-commitment").textContent = table.commitment || "";
    $("ot-seed").textContent = table.seed || "";
    $("ot-seed-row").hidden = !table.seed;
    // seats
    var seats = $("ot-seats"); seats.textContent = "";
    (table.seats || []).forEach(function (s, i) {
      var g = game ? game.seats[i] : null;
      var li = document.createElement("li");
      li.className = "seat s" + s.seat + (game && game.to_act === s.seat ? " to-act" : "") + (s.connected ? "" : " away");
      li.dataset.seat = s.seat;
      var txt = seatName(s, T, lang);
      if (g) { txt += " — " + countOf(g.territories, T.territory, T.territories) + ", " + countOf(g.armies, T.army, T.armies) + ", " + countOf(g.cards, T.card, T.cards); if (g.status !== "in_play") { txt += " [" + (T.seat_status[g.status] || g.status) + "]"; } if (g.late_turns) { txt += " (R3: " + g.late_turns + ")"; } if (g.objective) { txt += " — " + g.objective.number + " " + g.objective.name; } }
      if (!s.connected) { txt += " (" + T.away + ")"; }
      if (s.r13_requested) { txt += " — R13?"; }
      li.textContent = txt;
      seats.appendChild(li);
    });
    // board
    if (game) {
      document.querySelectorAll("#online-table .territory").forEach(function (el) {
        var t = +el.dataset.t, x = game.territories[t];
        el.setAttribute("class", "territory owned s" + x.owner + (sel === t ? " selected" : ""));
        el.dataset.owner = x.owner;
        el.querySelector(".army text").textContent = x.armies;
      });
      var phase = game.phase, turn = game.to_act ? table.seats[game.to_act - 1].player : "";
      $("ot-phase").textContent = (T.phase[phase] || phase) + (game.round ? " — " + T.round + " " + game.round : "") + (turn ? " — " + T.to_act + ": " + turn : "");
      var closing = lastRoundText(game, T);
      if (game.closing_band) { closing += " — " + T.closing + " " + game.closing_band[0] + "–" + game.closing_band[1]; }
      $("ot-closing").textContent = closing;
      $("ot-result").hidden = !game.outcome;
      if (game.outcome) {
        var r = $("ot-scores"); r.textContent = "";
        game.scores.forEach(function (s) { var li = document.createElement("li"); li.textContent = s.player + ": " + s.score + (s.risiko ? " (RisiKo!)" : ""); r.appendChild(li); });
        $("ot-outcome").textContent = (T.end[game.outcome.end] || game.outcome.end) + (game.outcome.winner ? " — " + game.outcome.winner : "");
      }
    }
    // my secrets
    $("ot-private").hidden = !priv;
    if (priv) {
      $("ot-objective").textContent = priv.objective.number + ". " + priv.objective.name + ": " + priv.objective.territories.join(", ");
      var cards = $("ot-cards"); cards.textContent = "";
      priv.cards.forEach(function (c) { var li = document.createElement("li"); li.textContent = c.name + " (" + c.symbol + ")"; cards.appendChild(li); });
      var sets = $("ot-sets"); sets.textContent = "";
      (myTurn() ? priv.sets : []).forEach(function (s) {
        var b = document.createElement("button"); b.type = "button"; b.className = "trade";
        b.textContent = T.trade + ": " + (s.names || s.cards).join(", ") + " = " + s.value + (s.bonus ? " +" + s.bonus : "");
        b.addEventListener("click", function () { act({ kind: "trade", cards: s.cards }); });
        sets.appendChild(b);
      });
    }
    // controls
    var mine = myTurn(), phase2 = game ? game.phase : "";
    $("ot-controls").hidden = !mine;
    if (mine) {
      $("ot-place").hidden = !(phase2 === "setup" || phase2 === "reinforce");
      $("ot-amount").max = game.pending; if (!$("ot-amount").dataset.touched || +$("ot-amount").value > game.pending) { $("ot-amount").value = game.pending; }
      $("ot-pending").textContent = game.pending;
      $("ot-attack").hidden = phase2 !== "attack";
      $("ot-move").hidden = phase2 !== "move";
      if (game.move) { $("ot-move-n").min = game.move.min; $("ot-move-n").max = game.move.max; $("ot-move-n").value = game.move.max; $("ot-move-range").textContent = game.move.from + " → " + game.move.to + " (" + game.move.min + "–" + game.move.max + ")"; }
      $("ot-hint").textContent = phase2 === "attack" ? (mode === "fortify" ? T.hint_fortify : T.hint_attack) : (phase2 === "move" ? "" : T.hint_place);
    }
    $("ot-referee").hidden = me.role !== "referee";
    $("ot-leave").hidden = !canLeave();
    if (!canLeave()) { askLeave(false); }
    // log
    var list = $("ot-log"); list.textContent = "";
    (st.log || []).slice(-60).reverse().forEach(function (e) {
      var said = e.messages ? (e.messages[lang] || e.messages.it) : e.text;  // the viewer's language
      var li = document.createElement("li"); li.textContent = said + (e.reason ? " (" + e.reason + ")" : "") + (e.undone ? " ✗" : "");
      li.title = e.seq + ". " + e.text;
      if (e.undone) { li.className = "undone"; }
      list.appendChild(li);
    });
    tickClock();
  }

  // the map's zoom: the board drawn 1 to 4 times the box's width, scrolled with a finger
  var zooms = [1, 1.5, 2, 3, 4], zoom = 0;
  function setZoom(i) {
    var box = $("ot-map"), svg = box.querySelector("svg");
    if (!svg) { return; }
    var cx = (box.scrollLeft + box.clientWidth / 2) / svg.clientWidth, cy = (box.scrollTop + box.clientHeight / 2) / Math.max(1, svg.clientHeight);
    zoom = Math.max(0, Math.min(zooms.length - 1, i));
    svg.style.width = (zooms[zoom] * 100) + "%";
    box.dataset.zoom = zooms[zoom];
    $("ot-zoom-level").textContent = zooms[zoom] + "×";
    box.scrollLeft = cx * svg.clientWidth - box.clientWidth / 2;
    box.scrollTop = cy * svg.clientHeight - box.clientHeight / 2;
  }
  $("ot-zoom-in").addEventListener("click", function () { setZoom(zoom + 1); });
  $("ot-zoom-out").addEventListener("click", function () { setZoom(zoom - 1); });

  function tickClock() {
    var c = st.clock, box = $("ot-clock");
    if (!c || !c.seconds) { box.textContent = T.clock_off; box.className = "clock"; return; }
    if (c.remaining_ms === null || c.remaining_ms === undefined) { box.textContent = "—"; return; }
    var left = c.running ? Math.max(0, c.remaining_ms - (Date.now() - clockBase)) : c.remaining_ms;
    var s = Math.ceil(left / 1000);
    box.textContent = Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2) + (c.running ? "" : " ⏸");
    box.className = "clock" + (s <= c.warning_seconds ? " warning" : "");
  }

  function showOdds(m) {
    var box = $("ot-odds");
    box.hidden = false;
    if (!m.legal) { $("ot-odds-text").textContent = m.from + " → " + m.to + ": " + m.faults.map(function (f) { return f.message; }).join("; "); $("ot-roll").hidden = true; return; }
    $("ot-odds-text").textContent = m.from + " → " + m.to + ": " + m.attacker_dice + " " + T.vs + " " + m.defender_dice + " " + T.dice + "; " + T.conquest + " " + (100 * m.conquest).toFixed(1) + "%";
    $("ot-roll").hidden = false;
    $("ot-roll").dataset.from = m.from; $("ot-roll").dataset.to = m.to;
  }

  function clickTerritory(t) {
    if (!myTurn()) { return; }
    var game = st.game, x = terr(t), phase = game.phase;
    if (phase === "setup" || phase === "reinforce") {
      if (x.owner === me.seat) { act({ kind: "place", territory: x.name, armies: +$("ot-amount").value || 1 }); }
      return;
    }
    if (phase !== "attack") { return; }
    if (x.owner === me.seat && (sel === null || terr(sel).owner === me.seat) && !(mode === "fortify" && sel !== null)) { sel = t; $("ot-odds").hidden = true; render(); return; }
    if (sel === null) { return; }
    if (mode === "fortify") {
      act({ kind: "fortify", from: terr(sel).name, to: x.name, armies: +$("ot-fortify-n").value || 1 });
      sel = null; mode = ""; return;
    }
    if (x.owner !== me.seat) { send({ type: "odds", from: terr(sel).name, to: x.name }); }
  }

  document.querySelectorAll("#online-table .territory").forEach(function (el) {
    el.addEventListener("click", function () { clickTerritory(+el.dataset.t); });
    el.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickTerritory(+el.dataset.t); } });
  });
  $("ot-amount").addEventListener("input", function () { this.dataset.touched = "1"; });
  $("ot-roll").addEventListener("click", function () { act({ kind: "attack", from: this.dataset.from, to: this.dataset.to }); });
  $("ot-end").addEventListener("click", function () { sel = null; act({ kind: "end" }); });
  $("ot-move-go").addEventListener("click", function () { act({ kind: "move", armies: +$("ot-move-n").value }); });
  $("ot-fortify").addEventListener("click", function () { mode = mode === "fortify" ? "" : "fortify"; sel = null; render(); });
  document.querySelectorAll("#ot-referee button[data-command]").forEach(function (b) {
    b.addEventListener("click", function () {
      var cmd = { kind: b.dataset.command }, reason = $("ot-ref-reason").value.trim(), seat = +$("ot-ref-seat").value;
      if (reason) { cmd.reason = reason; }
      if (seat) { cmd.seat = seat; }
      if (b.dataset.command === "penalty") { cmd.points = -Math.abs(+$("ot-ref-points").value || 1); }
      if (b.dataset.command === "bot_level") { cmd.level = +$("ot-ref-level").value || 1; }
      referee(cmd);
    });
  });
  $("ot-leave-ask").addEventListener("click", function () { askLeave(true); });
  $("ot-leave-no").addEventListener("click", function () { askLeave(false); $("ot-leave-ask").focus(); });
  $("ot-leave-yes").addEventListener("click", function () {
    this.disabled = true;
    send({ type: "leave" });
  });
  setInterval(tickClock, 250);
  connect();
})();
