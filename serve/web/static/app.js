// Conveniences for the tester; the form works without them.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("tester");
  var $ = function (id) { return document.getElementById(id); };

  // Diff mode shows the second editor.
  var diff = $("diff"), newFile = $("new_file"), label = $("robots_label");
  function showDiff() {
    newFile.classList.toggle("off", !diff.checked);
    newFile.parentElement.classList.toggle("both", diff.checked);
    label.textContent = diff.checked ? "Old robots.txt" : "robots.txt";
  }
  diff.addEventListener("change", showDiff);
  showDiff();

  // Line numbers beside the editors (they do not wrap lines, so one number a line).
  function gutter(ta) {
    var g = document.createElement("pre");
    g.className = "gutter";
    g.setAttribute("aria-hidden", "true");
    ta.parentElement.insertBefore(g, ta);
    var shown = 0;
    function update() {
      var n = ta.value.split("\n").length;
      if (n !== shown) {
        var s = "";
        for (var i = 1; i <= n; i++) s += i + "\n";
        g.textContent = s + "\n";
        g.style.setProperty("--digits", String(n).length);
        shown = n;
      }
      g.scrollTop = ta.scrollTop;
    }
    ta.addEventListener("input", update);
    ta.addEventListener("scroll", function () { g.scrollTop = ta.scrollTop; });
    update();
    return ta;
  }
  var editors = { a: gutter($("robots")), b: gutter($("robots_new")) };

  // A line number in the annotated file selects that line in its editor, for the
  // fetch → edit → test loop.
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-edit]");
    if (!a) return;
    var parts = a.dataset.edit.split(":"), ta = editors[parts[0]], line = +parts[1];
    if (!ta) return;
    var lines = ta.value.split("\n"), start = 0;
    if (line > lines.length) return;
    for (var i = 0; i < line - 1; i++) start += lines[i].length + 1;
    ta.focus({ preventScroll: true });
    ta.setSelectionRange(start, start + lines[line - 1].length);
    var lh = parseFloat(getComputedStyle(ta).lineHeight) || 19;
    ta.scrollTop = Math.max(0, (line - 3) * lh);
    ta.dispatchEvent(new Event("scroll"));
    ta.scrollIntoView({ block: "nearest" });
  });

  // Crawler presets, search and count.
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[name="agent"]'));
  var picked = $("picked");
  function count() {
    var n = boxes.filter(function (b) { return b.checked; }).length;
    picked.textContent = n + " selected";
  }
  boxes.forEach(function (b) { b.addEventListener("change", count); });
  $("picker_tools").hidden = false;
  document.querySelectorAll("button[data-preset]").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var names = btn.dataset.preset ? btn.dataset.preset.split(",") : [];
      boxes.forEach(function (b) { b.checked = names.indexOf(b.value) >= 0; });
      count();
      // Show the choice: the list scrolls to the first crawler it checked.
      var first = boxes.filter(function (b) { return b.checked; })[0];
      if (first) {
        var fs = first.closest("fieldset"), list = $("crawler_list");
        list.scrollTop = fs.offsetTop; // the list is the fieldset's offsetParent
      }
    });
  });
  var search = $("crawler_search"), noMatch = $("no_match");
  function filter() {
    var q = search.value.trim().toLowerCase(), any = false;
    document.querySelectorAll("fieldset.family").forEach(function (fs) {
      var shown = 0;
      fs.querySelectorAll("label").forEach(function (l) {
        var hit = !q || l.title.toLowerCase().indexOf(q) >= 0;
        l.hidden = !hit;
        if (hit) shown++;
      });
      fs.hidden = shown === 0;
      any = any || shown > 0;
    });
    noMatch.hidden = any;
  }
  search.addEventListener("input", filter);
  search.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    // Enter ticks the only match rather than submitting the form.
    e.preventDefault();
    var shown = boxes.filter(function (b) { return !b.closest("label").hidden; });
    if (shown.length === 1) { shown[0].checked = !shown[0].checked; count(); }
  });

  // Enter in the fetch field fetches (elsewhere it tests).
  $("fetch_url").addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); $("fetch").click(); }
  });
  $("fetch_url").addEventListener("keypress", function (e) {
    if (e.key === "Enter") e.preventDefault();
  });

  // While the answer comes: what is happening, for how long, and a way out. A fetch
  // can take as long as the server's timeout when the site hangs.
  var progress = $("progress"), text = $("progress_text"), timer = null;
  form.addEventListener("submit", function (e) {
    var fetching = e.submitter && e.submitter.value === "fetch";
    var what = fetching ? "Fetching " + ($("fetch_url").value.trim() || "the site") + "/robots.txt" : "Testing";
    var t0 = Date.now();
    function tick() {
      var s = Math.floor((Date.now() - t0) / 1000);
      text.textContent = what + "…" + (s >= 1 ? " " + s + " s" : "") + (fetching && s >= 3 ? " (an unreachable site takes up to the server's timeout)" : "");
    }
    tick();
    clearInterval(timer);
    timer = setInterval(tick, 1000);
    progress.hidden = false;
    form.classList.add("busy");
  });
  $("cancel").addEventListener("click", function () {
    window.stop();
    clearInterval(timer);
    progress.hidden = true;
    form.classList.remove("busy");
  });
  // Back from the cache (bfcache), no request is running.
  window.addEventListener("pageshow", function () { clearInterval(timer); progress.hidden = true; });

  // Hovering or focusing a verdict lights its deciding line in the file.
  function light(id, on) {
    var row = document.getElementById(id);
    if (row) row.classList.toggle("lit", on);
  }
  document.querySelectorAll("a.v[data-line]").forEach(function (a) {
    ["mouseenter", "focus"].forEach(function (ev) { a.addEventListener(ev, function () { light(a.dataset.line, true); }); });
    ["mouseleave", "blur"].forEach(function (ev) { a.addEventListener(ev, function () { light(a.dataset.line, false); }); });
  });
});
