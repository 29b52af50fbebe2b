/* The referee console: small helpers, no build step.
   - check-in arrival times not yet recorded nor edited follow the clock (Europe/Rome);
   - input[data-filter="#list"] hides the list's rows whose data-name does not match: the
     rows carry risiko.names.search_key of the name (case folded, accents off) and searchKey
     folds what is typed the same way, so "erica", "nicolo", "zoe" find Érica, Nicolò, Zoë;
   - [data-print] buttons print the page. */
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function nowHHMM() {
    try {  // the club's time (Europe/Rome), whatever the device's time zone
      return new Intl.DateTimeFormat("it-IT", {timeZone: "Europe/Rome", hour: "2-digit",
        minute: "2-digit", hourCycle: "h23"}).format(new Date());
    } catch (err) {
      var d = new Date();
      return pad(d.getHours()) + ":" + pad(d.getMinutes());
    }
  }

  // risiko.names.search_key in the browser: single spaces, accents off, case folded
  function searchKey(text) {
    return text.normalize("NFC").trim().split(/\s+/).join(" ").toLowerCase()
      .replace(/\u00df/g, "ss").normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
  }
  window.risikoSearchKey = searchKey;

  function tick() {
    document.querySelectorAll(".checkin-row:not(.on_time):not(.late):not(.excluded) input[name='at']").forEach(function (input) {
      if (!input.dataset.touched && document.activeElement !== input) { input.value = nowHHMM(); }
    });
  }
  function applyFilter(box) {
    var q = searchKey(box.value);
    document.querySelectorAll(box.dataset.filter + " > li").forEach(function (li) {
      li.hidden = q !== "" && (li.dataset.name || "").indexOf(q) === -1;
    });
  }
  document.addEventListener("input", function (e) {
    if (e.target && e.target.name === "at") { e.target.dataset.touched = "1"; }
    if (e.target && e.target.dataset && e.target.dataset.filter) { applyFilter(e.target); }
  });
  // a name typed before this script ran (a slow phone) is applied now
  document.querySelectorAll("input[data-filter]").forEach(function (box) {
    if (box.value) { applyFilter(box); }
  });
  document.addEventListener("click", function (e) {
    if (e.target && e.target.closest && e.target.closest("[data-print]")) { window.print(); }
  });
  // a refused form comes back as 400 with its errors: show it in place (htmx 2 would not)
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.xhr && e.detail.xhr.status === 400) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  setInterval(tick, 20000);
})();
