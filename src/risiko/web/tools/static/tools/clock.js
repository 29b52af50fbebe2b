/* The table's turn clock (R11): a countdown per turn, entirely in the browser.
 *
 * Start: the clock runs from the full time. Pause / Resume. Next turn: the next player's
 * name, the clock back to the full time and running. At zero: "time is up", a beep (Web
 * Audio) and a vibration where the phone has one; the screen is kept awake while it runs
 * (Wake Lock, where available). The time is measured against the real clock, so a phone
 * that throttles timers still shows the right time. */
(function () {
  "use strict";
  var box = document.getElementById("turn-clock");
  if (!box) { return; }
  var total = Number(box.getAttribute("data-seconds")) || 180;
  var timeEl = box.querySelector(".clock-time");
  var overEl = box.querySelector(".clock-over");
  var pauseBtn = box.querySelector("[data-clock=pause]");
  var players = Array.prototype.slice.call(box.querySelectorAll("[data-player]"));
  var turn = 0;
  var remaining = total * 1000;   // ms left when not running
  var deadline = null;            // Date.now() at zero while running
  var ticker = null;
  var audio = null;
  var wakeLock = null;
  var rang = false;

  function left() {
    return deadline === null ? remaining : Math.max(0, deadline - Date.now());
  }

  function show() {
    var ms = left();
    var s = Math.ceil(ms / 1000);
    var m = Math.floor(s / 60);
    var r = s % 60;
    timeEl.textContent = m + ":" + (r < 10 ? "0" : "") + r;
    box.classList.toggle("running", deadline !== null);
    box.classList.toggle("warning", ms > 0 && ms <= 30000);
    box.classList.toggle("over", ms === 0);
    overEl.hidden = ms !== 0;
    pauseBtn.textContent = deadline === null && ms > 0 && ms < total * 1000 ?
      pauseBtn.getAttribute("data-label-resume") : pauseBtn.getAttribute("data-label-pause");
    if (ms === 0 && !rang) { ring(); }
  }

  function ensureAudio() {
    // created on a tap: browsers only allow sound after a user gesture
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!audio && Ctx) { audio = new Ctx(); }
    if (audio && audio.state === "suspended") { audio.resume(); }
  }

  function beep(at, freq) {
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.type = "square";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.3, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.35);
    osc.connect(gain);
    gain.connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.4);
  }

  function ring() {
    rang = true;
    stop(0);
    if (audio) {
      var now = audio.currentTime;
      beep(now, 880);
      beep(now + 0.5, 880);
      beep(now + 1.0, 1320);
    }
    if (navigator.vibrate) { navigator.vibrate([400, 150, 400, 150, 600]); }
    releaseWake();
    show();
  }

  function tick() { show(); }

  function run(ms) {
    rang = false;
    deadline = Date.now() + ms;
    if (!ticker) { ticker = setInterval(tick, 250); }
    keepAwake();
    show();
  }

  function stop(ms) {
    remaining = ms;
    deadline = null;
    if (ticker) { clearInterval(ticker); ticker = null; }
  }

  function keepAwake() {
    if (navigator.wakeLock && !wakeLock) {
      navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; },
                                                function () { wakeLock = null; });
    }
  }

  function releaseWake() {
    if (wakeLock) { wakeLock.release(); wakeLock = null; }
  }

  function showPlayer() {
    players.forEach(function (p, i) { p.hidden = i !== turn; });
  }

  box.querySelector("[data-clock=start]").addEventListener("click", function () {
    ensureAudio();
    run(total * 1000);
  });
  pauseBtn.addEventListener("click", function () {
    ensureAudio();
    if (deadline !== null) {
      stop(left());
      releaseWake();
    } else if (remaining > 0) {
      run(remaining);
    }
    show();
  });
  box.querySelector("[data-clock=next]").addEventListener("click", function () {
    ensureAudio();
    if (players.length) { turn = (turn + 1) % players.length; }
    showPlayer();
    run(total * 1000);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && deadline !== null) { keepAwake(); show(); }
  });
  showPlayer();
  show();
}());
