/* The board entry page: the end board of a table, kept in the browser and posted as JSON.
 *
 * State: {seats: [{position, objective, abandoned, armies: {"<territory 0..41>": n}}]}.
 * Tap (or click, or Enter/Space on) a territory: it goes to the selected seat and opens in
 * the editor (armies, remove). Every change re-draws the board and posts the state to the
 * scoring endpoint (htmx, form #board-preview, event "board-changed"); the save form carries
 * the same JSON. Works with mouse, touch and keyboard; no build step. */
(function () {
  "use strict";
  var root = document.getElementById("board-entry");
  if (!root) { return; }
  var svg = root.querySelector("svg.board-svg");
  var initial = JSON.parse(document.getElementById("board-initial").textContent || "{}");
  var previewForm = document.getElementById("board-preview");
  var saveForm = document.getElementById("board-save");
  var seatButtons = Array.prototype.slice.call(root.querySelectorAll("[data-seat]"));
  var territories = {};
  Array.prototype.forEach.call(svg.querySelectorAll(".territory"), function (g) {
    territories[g.getAttribute("data-t")] = g;
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
  });

  var seats = {};      // position -> {position, objective, abandoned, armies}
  var order = [];      // positions in turn order
  seatButtons.forEach(function (b) {
    var p = Number(b.getAttribute("data-seat"));
    order.push(p);
    seats[p] = {position: p, player: b.getAttribute("data-player"), objective: null,
                abandoned: false, armies: {}};
  });
  (initial.seats || []).forEach(function (s) {
    var seat = seats[s.position];
    if (!seat) { return; }
    seat.objective = s.objective || null;
    seat.abandoned = !!s.abandoned;
    Object.keys(s.armies || {}).forEach(function (t) { seat.armies[t] = s.armies[t]; });
  });

  var current = order.length ? order[0] : null;
  var selected = null;   // territory being edited ("0".."41")

  function ownerOf(t) {
    for (var i = 0; i < order.length; i++) {
      if (Object.prototype.hasOwnProperty.call(seats[order[i]].armies, t)) { return order[i]; }
    }
    return null;
  }

  function assign(t, position) {
    var armies = null;
    order.forEach(function (p) {
      if (Object.prototype.hasOwnProperty.call(seats[p].armies, t)) {
        armies = seats[p].armies[t];
        delete seats[p].armies[t];
      }
    });
    seats[position].armies[t] = armies === null ? 1 : armies;
  }

  function state() {
    return {seats: order.map(function (p) {
      var s = seats[p];
      return {position: p, objective: s.objective, abandoned: s.abandoned, armies: s.armies};
    })};
  }

  function territoryName(t) { return territories[t].getAttribute("data-name"); }

  // ------------------------------------------------------------------ drawing
  function drawBoard() {
    Object.keys(territories).forEach(function (t) {
      var g = territories[t];
      var owner = ownerOf(t);
      for (var i = 1; i <= 6; i++) { g.classList.remove("s" + i); }
      g.classList.toggle("owned", owner !== null);
      g.classList.toggle("selected", t === selected);
      if (owner !== null) {
        g.classList.add("s" + (((owner - 1) % 6) + 1));
        g.setAttribute("data-owner", String(owner));
      } else {
        g.removeAttribute("data-owner");
      }
      var text = g.querySelector(".army text");
      if (text) { text.textContent = owner !== null ? String(seats[owner].armies[t]) : ""; }
      var label = territoryName(t) + (owner !== null ?
        " — " + seats[owner].player + ", " + seats[owner].armies[t] : "");
      g.setAttribute("aria-label", label);
    });
  }

  function drawSeats() {
    seatButtons.forEach(function (b) {
      var p = Number(b.getAttribute("data-seat"));
      b.setAttribute("aria-pressed", p === current ? "true" : "false");
      var count = b.querySelector("[data-count-for]");
      if (count) { count.textContent = String(Object.keys(seats[p].armies).length); }
    });
    if (current === null) { return; }
    var seat = seats[current];
    document.getElementById("panel-player").textContent = seat.player;
    document.getElementById("panel-swatch").className = "swatch s" + (((current - 1) % 6) + 1);
    document.getElementById("panel-objective").value = seat.objective ? String(seat.objective) : "";
    document.getElementById("panel-abandoned").checked = seat.abandoned;
    var list = document.getElementById("panel-territories");
    while (list.firstChild) { list.removeChild(list.firstChild); }
    var owned = Object.keys(seat.armies).sort(function (a, b) { return Number(a) - Number(b); });
    document.getElementById("panel-empty").hidden = owned.length > 0;
    owned.forEach(function (t) {
      var li = document.createElement("li");
      var label = document.createElement("label");
      var name = document.createElement("span");
      name.textContent = territoryName(t);
      var input = document.createElement("input");
      input.type = "number";
      input.min = "1";
      input.max = "999";
      input.inputMode = "numeric";
      input.value = String(seat.armies[t]);
      input.setAttribute("data-t", t);
      label.appendChild(name);
      label.appendChild(input);
      li.appendChild(label);
      list.appendChild(li);
    });
  }

  function drawEditor() {
    var editor = document.getElementById("territory-editor");
    var owner = selected === null ? null : ownerOf(selected);
    if (owner === null) { editor.hidden = true; return; }
    editor.hidden = false;
    editor.querySelector(".editor-name").textContent = territoryName(selected);
    editor.querySelector(".editor-owner").textContent = seats[owner].player;
    var input = document.getElementById("editor-armies");
    if (document.activeElement !== input) { input.value = String(seats[owner].armies[selected]); }
  }

  var timer = null;
  function post() {
    var json = JSON.stringify(state());
    previewForm.querySelector("input[name=state]").value = json;
    saveForm.querySelector("input[name=state]").value = json;
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(function () {
      if (window.htmx) { window.htmx.trigger(previewForm, "board-changed"); }
    }, 250);
  }

  function changed(skipPanel) {
    drawBoard();
    if (!skipPanel) { drawSeats(); } else { drawCounts(); }
    drawEditor();
    post();
  }

  function drawCounts() {
    seatButtons.forEach(function (b) {
      var p = Number(b.getAttribute("data-seat"));
      var count = b.querySelector("[data-count-for]");
      if (count) { count.textContent = String(Object.keys(seats[p].armies).length); }
    });
  }

  function armiesValue(raw) {
    var text = String(raw).trim();
    return /^\d+$/.test(text) ? Number(text) : text;  // the server names a bad count
  }

  // ------------------------------------------------------------------ events
  function tap(g) {
    if (current === null) { return; }
    var t = g.getAttribute("data-t");
    if (ownerOf(t) !== current) { assign(t, current); }
    selected = t;
    changed();
  }

  svg.addEventListener("click", function (e) {
    var g = e.target.closest ? e.target.closest(".territory") : null;
    if (g) { tap(g); }
  });
  svg.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") { return; }
    var g = e.target.closest ? e.target.closest(".territory") : null;
    if (g) { e.preventDefault(); tap(g); }
  });

  seatButtons.forEach(function (b) {
    b.addEventListener("click", function () {
      current = Number(b.getAttribute("data-seat"));
      selected = null;
      changed();
    });
  });

  document.getElementById("panel-objective").addEventListener("change", function (e) {
    seats[current].objective = e.target.value ? Number(e.target.value) : null;
    changed(true);
  });
  document.getElementById("panel-abandoned").addEventListener("change", function (e) {
    seats[current].abandoned = e.target.checked;
    changed(true);
  });
  document.getElementById("panel-territories").addEventListener("input", function (e) {
    var t = e.target.getAttribute("data-t");
    if (t === null) { return; }
    seats[current].armies[t] = armiesValue(e.target.value);
    selected = t;
    changed(true);
  });

  var editorInput = document.getElementById("editor-armies");
  editorInput.addEventListener("input", function () {
    var owner = ownerOf(selected);
    if (owner === null) { return; }
    seats[owner].armies[selected] = armiesValue(editorInput.value);
    changed(true);
    var twin = document.querySelector('#panel-territories input[data-t="' + selected + '"]');
    if (twin) { twin.value = editorInput.value; }
  });
  Array.prototype.forEach.call(root.querySelectorAll("#territory-editor .step"), function (b) {
    b.addEventListener("click", function () {
      var owner = ownerOf(selected);
      if (owner === null) { return; }
      var n = Number(seats[owner].armies[selected]) || 0;
      seats[owner].armies[selected] = Math.max(1, n + Number(b.getAttribute("data-step")));
      editorInput.value = String(seats[owner].armies[selected]);
      changed();
    });
  });
  document.getElementById("editor-remove").addEventListener("click", function () {
    var owner = ownerOf(selected);
    if (owner !== null) { delete seats[owner].armies[selected]; }
    selected = null;
    changed();
  });

  var zoom = root.querySelector(".zoom-toggle");
  if (zoom) {
    zoom.addEventListener("click", function () {
      var on = root.classList.toggle("zoomed");
      zoom.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  // Faults from the live score: outline the territories they name.
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (!e.target || e.target.id !== "board-scores") { return; }
    var box = e.target.querySelector("[data-fault-territories]");
    var bad = box ? box.getAttribute("data-fault-territories").split(",") : [];
    var missing = bad.filter(function (t) { return t && ownerOf(t) === null; }).length;
    Object.keys(territories).forEach(function (t) {
      var show = bad.indexOf(t) >= 0 && (ownerOf(t) !== null || missing <= 6);
      territories[t].classList.toggle("fault", show);
    });
  });

  saveForm.addEventListener("submit", function () {
    saveForm.querySelector("input[name=state]").value = JSON.stringify(state());
  });

  drawBoard();
  drawSeats();
  drawEditor();
  previewForm.querySelector("input[name=state]").value = JSON.stringify(state());
}());
