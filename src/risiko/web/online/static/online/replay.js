/* Replay viewer: the board after each action of a finished table. */
(function () {
  "use strict";
  var frames = JSON.parse(document.getElementById("replay-frames").textContent);
  var step = document.getElementById("rp-step"), i = 0;
  var els = document.querySelectorAll("#online-replay .territory");
  function show(n) {
    i = Math.max(0, Math.min(frames.length - 1, n));
    step.value = i;
    var f = frames[i], v = f.view;
    var owners = v.owners || v.territories.map(function (t) { return t.owner; });
    var armies = v.armies || v.territories.map(function (t) { return t.armies; });
    els.forEach(function (el) {
      var t = +el.dataset.t;
      el.setAttribute("class", "territory owned s" + owners[t]);
      el.querySelector(".army text").textContent = armies[t];
    });
    document.getElementById("rp-text").textContent = f.text;
    document.getElementById("rp-pos").textContent = i + " / " + (frames.length - 1);
  }
  function turnJump(dir) {
    var t = frames[i].turn, n = i;
    while (n + dir >= 0 && n + dir < frames.length && frames[n + dir].turn === t) { n += dir; }
    n += dir;
    show(n);
  }
  step.addEventListener("input", function () { show(+step.value); });
  document.getElementById("rp-first").addEventListener("click", function () { show(0); });
  document.getElementById("rp-last").addEventListener("click", function () { show(frames.length - 1); });
  document.getElementById("rp-prev").addEventListener("click", function () { show(i - 1); });
  document.getElementById("rp-next").addEventListener("click", function () { show(i + 1); });
  document.getElementById("rp-prev-turn").addEventListener("click", function () { turnJump(-1); });
  document.getElementById("rp-next-turn").addEventListener("click", function () { turnJump(1); });
  show(0);
})();
