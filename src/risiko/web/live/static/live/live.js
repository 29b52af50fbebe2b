/* Live pages (issue 18): a saved change arrives over ws/live/ within a second.
 * A public page (<meta name="risiko-live" content="public">) swaps its <main> for the
 * fragment the server rendered; while the socket is open the 10 s poll runs only once a
 * minute (SLOW_POLL: a second line behind the push, should a change ever miss it), when it
 * fails the poll goes on every 10 s (the fallback) and the socket is tried again, waiting
 * longer each time. A national ranking's page ("national", issue 21) swaps its <main> too;
 * it has no htmx poll: this script fetches the page itself every 10 s while the socket is
 * not open, once a minute while it is, and takes the answer's <main>. A console page ("console") reloads itself, unless the referee is filling a form:
 * then it shows "aggiornato da X" with a button to reload. No inline script (CSP). */
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="risiko-live"]');
  if (!meta || !window.WebSocket) { return; }
  var audience = meta.getAttribute("content");
  var lang = (document.documentElement.getAttribute("lang") || "it").slice(0, 2);
  var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host +
    "/ws/live/?path=" + encodeURIComponent(location.pathname) + "&lang=" + lang;
  var SLOW_POLL = 60000;  // ms between two polls while the socket is open
  var seq = 0, open = false, wait = 1000, editing = false, leaving = false;
  var fresh = Date.now();  // when the page last got the standings (poll or push)

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;  // the poll, while the push is on: once a minute
    if (!elt || elt.id !== "standings-live") { return; }
    if (open && Date.now() - fresh < SLOW_POLL) { e.preventDefault(); return; }
    fresh = Date.now();
  });
  document.addEventListener("input", function (e) {
    if (e.target && e.target.form) { editing = true; }
  }, true);
  document.addEventListener("submit", function () { leaving = true; }, true);
  document.addEventListener("click", function (e) {
    if (e.target && e.target.closest && e.target.closest("[data-live-reload]")) {
      location.reload();
    }
  });

  function filling() {
    var a = document.activeElement;
    return editing || (a && a.form && a.tagName !== "BUTTON");
  }

  function apply(m) {
    var main = document.getElementById("main");
    if (!main || m.seq <= seq) { return; }  // an older round than the page shows
    seq = m.seq;
    if (m.kind === "page" && (audience === "public" || audience === "national")) {
      fresh = Date.now();
      main.innerHTML = m.html;
      if (window.htmx) { window.htmx.process(main); }
    } else if (m.kind === "notice" && audience === "console" && !leaving) {
      if (!filling()) { location.reload(); return; }
      var old = document.getElementById("live-notice");
      var box = document.createElement("div");
      box.id = "live-notice";
      box.innerHTML = m.html;
      if (old) { old.replaceWith(box); } else { main.insertBefore(box, main.firstChild); }
    }
  }

  function pollNational() {  // the national pages' fallback: the page itself, its <main>
    if (open && Date.now() - fresh < SLOW_POLL) { return; }
    fresh = Date.now();
    var asked = seq;
    fetch(location.pathname, {credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (text) {
      var main = document.getElementById("main");
      if (!text || !main || seq !== asked) { return; }  // a push came meanwhile: newer
      var doc = new DOMParser().parseFromString(text, "text/html");
      var got = doc.getElementById("main");
      if (got) { main.innerHTML = got.innerHTML; }
    }).catch(function () { /* offline: the next poll */ });
  }
  if (audience === "national" && window.fetch) { setInterval(pollNational, 10000); }

  function connect() {
    var ws;
    try { ws = new WebSocket(url); } catch (err) { return; }
    ws.onopen = function () { open = true; wait = 1000; };
    ws.onmessage = function (ev) {
      try { apply(JSON.parse(ev.data)); } catch (err) { /* a bad frame: keep the page */ }
    };
    ws.onclose = function (ev) {
      open = false;
      if (ev.code === 4403 || ev.code === 4404) { return; }  // not a live page: the poll only
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 60000);
    };
  }
  connect();
})();
