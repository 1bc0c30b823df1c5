(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var svg = document.getElementById("board");
  var discs = svg.querySelectorAll(".disc");
  var slider = document.getElementById("step");
  var status = document.getElementById("status");
  var items = document.querySelectorAll("#moves li");
  var step = data.n;

  function show(k) {
    k = Math.max(0, Math.min(data.n, k));
    step = k;
    for (var i = 0; i < discs.length; i++) {
      var m = +discs[i].getAttribute("data-m");
      discs[i].classList.toggle("hidden", m > k);
      discs[i].classList.toggle("last", m === k && k < data.n);
    }
    svg.classList.toggle("end", k === data.n);
    svg.setAttribute("data-step", String(k));
    slider.value = String(k);
    status.textContent = data.steps[k];
    for (var j = 0; j < items.length; j++) {
      var on = +items[j].getAttribute("data-m") === k;
      items[j].classList.toggle("current", on);
      if (on) { items[j].setAttribute("aria-current", "step"); } else { items[j].removeAttribute("aria-current"); }
    }
  }

  function on(id, f) { var e = document.getElementById(id); if (e) { e.addEventListener("click", f); } }
  on("first", function () { show(0); });
  on("prev", function () { show(step - 1); });
  on("next", function () { show(step + 1); });
  on("last", function () { show(data.n); });
  slider.addEventListener("input", function () { show(+slider.value); });
  document.getElementById("moves").addEventListener("click", function (e) {
    var b = e.target.closest("button[data-m]");
    if (b) { show(+b.getAttribute("data-m")); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var to = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: data.n}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });

  var ask = document.getElementById("analyze");
  var note = document.getElementById("analysis-note");
  function fill(a) {
    var vs = document.querySelectorAll("#moves .v");
    for (var i = 0; i < vs.length && i < a.verdicts.length; i++) { vs[i].textContent = a.verdicts[i]; }
    var sum = document.getElementById("summary");
    sum.textContent = "";
    a.summary.forEach(function (s) { var p = document.createElement("p"); p.textContent = s; sum.appendChild(p); });
  }
  if (ask && data.analyze) {
    ask.addEventListener("click", function () {
      ask.disabled = true;
      note.textContent = data.running;
      fetch(data.analyze, {method: "POST", credentials: "omit"}).then(function (r) {
        if (r.status === 503) { throw new Error("busy"); }
        if (!r.ok) { throw new Error("failed"); }
        return r.json();
      }).then(function (a) {
        fill(a);
        note.textContent = "";
        ask.hidden = true;
      }).catch(function (err) {
        note.textContent = err.message === "busy" ? data.busy : data.failed;
        ask.disabled = false;
      });
    });
  }
  show(data.n);
})();
