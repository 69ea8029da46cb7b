// Conveniences for the tester; the form works without them.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("tester");
  var $ = function (id) { return document.getElementById(id); };

  // Diff mode shows the second editor.
  // (The audit mode has neither editors nor URLs: what belongs to them is skipped.)
  var diff = $("diff"), newFile = $("new_file"), label = $("robots_label");
  function showDiff() {
    newFile.classList.toggle("off", !diff.checked);
    newFile.parentElement.classList.toggle("both", diff.checked);
    label.textContent = diff.checked ? "Old robots.txt" : "robots.txt";
  }
  if (diff) {
    diff.addEventListener("change", showDiff);
    showDiff();
  }

  // Line numbers beside the editors (they do not wrap lines, so one number a line).
  function gutter(ta) {
    if (!ta) return null;
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
      // The registry's other crawlers are folded: a search that finds some opens them.
      if (fs.dataset.family === "more" && q && shown > 0) fs.closest("details").open = true;
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
  if ($("fetch_url")) {
    $("fetch_url").addEventListener("keydown", function (e) {
      if (e.key === "Enter") { e.preventDefault(); $("fetch").click(); }
    });
    $("fetch_url").addEventListener("keypress", function (e) {
      if (e.key === "Enter") e.preventDefault();
    });
  }

  // While the answer comes: what is happening, for how long, and a way out. A fetch
  // can take as long as the server's timeout when the site hangs.
  var progress = $("progress"), text = $("progress_text"), timer = null;
  form.addEventListener("submit", function (e) {
    var action = e.submitter ? e.submitter.value : ($("audit_url") ? "audit" : "test");
    if (action === "csv") return; // a download: the page stays as it is
    var fetching = action === "fetch" || action === "audit";
    var what = action === "fetch" ? "Fetching " + ($("fetch_url").value.trim() || "the site") + "/robots.txt" :
      action === "audit" ? "Auditing " + ($("audit_url").value.trim() || "the site") + ": robots.txt, then its sitemaps" : "Testing";
    var t0 = Date.now();
    function tick() {
      var s = Math.floor((Date.now() - t0) / 1000);
      text.textContent = what + "…" + (s >= 1 ? " " + s + " s" : "") + (fetching && s >= 3 ? (action === "audit" ? " (a large site takes up to the server's audit time limit)" : " (an unreachable site takes up to the server's timeout)") : "");
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
  // Back from the cache (bfcache), no request is running. Only then: the pageshow of
  // the page's own load may come after a quick submit (a slow stylesheet), and must
  // not hide the progress of the request that submit started.
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted) return;
    clearInterval(timer);
    progress.hidden = true;
    form.classList.remove("busy");
  });

  // Hovering or focusing a verdict lights its deciding line in the file.
  function light(id, on) {
    var row = document.getElementById(id);
    if (row) row.classList.toggle("lit", on);
  }
  document.querySelectorAll("a.v[data-line]").forEach(function (a) {
    ["mouseenter", "focus"].forEach(function (ev) { a.addEventListener(ev, function () { light(a.dataset.line, true); }); });
    ["mouseleave", "blur"].forEach(function (ev) { a.addEventListener(ev, function () { light(a.dataset.line, false); }); });
  });
  // The audit's picture (serve/picture.go draws it): the crawler switch recolours the
  // branches; clicking a branch, or Enter on it, shows its URLs' verdicts; the arrow
  // keys move between branches (one of them is in the Tab order at a time).
  var pic = $("picture"), dataEl = $("audit_data");
  if (pic && dataEl) {
    var data = JSON.parse(dataEl.textContent);
    var sw = $("crawler_switch"), detail = $("branch_detail"), shownId = null;
    var current = +pic.dataset.current || 0;
    var nodes = Array.prototype.slice.call(pic.querySelectorAll("g.node"));
    // The same steps as picture.go's stepOf and blockedText.
    var stepOf = function (b, n) { return n <= 0 || b <= 0 ? 0 : b >= n ? 5 : 1 + Math.min(3, Math.floor(4 * b / n)); };
    var blockedText = function (b, n) {
      if (n <= 0 || b <= 0) return "none blocked";
      if (b >= n) return "all blocked";
      var p = Math.floor(100 * b / n);
      return p === 0 ? "<1% blocked" : p + "% blocked";
    };
    var urlsText = function (n) { return n === 1 ? "1 URL" : n.toLocaleString("en-US") + " URLs"; };
    var shorten = function (s, n) { return s.length <= n ? s : n < 2 ? "" : s.slice(0, n - 1) + "…"; };
    var blockedOf = function (g, i) { return +(g.dataset.b.split(" ")[i] || 0); };
    var el = function (tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    };

    function colour(i) {
      current = i;
      var agent = data.agents[i];
      nodes.forEach(function (g) {
        var n = +g.dataset.n, b = blockedOf(g, i), step = stepOf(b, n);
        g.setAttribute("class", g.getAttribute("class").replace(/\bs[0-5]\b/, "s" + step));
        var aria = g.dataset.name + ": " + urlsText(n) + ", " + blockedText(b, n) + " for " + agent;
        g.setAttribute("aria-label", aria);
        g.querySelector("title").textContent = aria;
        var share = g.querySelector("text.share");
        if (share) share.textContent = shorten(blockedText(b, n), Math.floor((+g.querySelector("rect").getAttribute("width") - 10) / 7));
      });
      var cur = $("picture_current");
      cur.textContent = "Colours for ";
      cur.appendChild(el("strong", "", agent));
      document.querySelectorAll("#branches [data-col]").forEach(function (c) { c.classList.toggle("cur", +c.dataset.col === i); });
      if (shownId) show(shownId, false);
    }

    // show fills the detail panel with a branch's figures for every crawler and its
    // sample URLs' verdicts for the chosen one, each with the line that decides it.
    function show(id, focus) {
      var d = data.branches[id];
      if (!d) return;
      shownId = id;
      nodes.forEach(function (g) { g.classList.toggle("sel", g.id === id); });
      var agent = data.agents[current];
      detail.textContent = "";
      var head = el("div", "detail-head");
      head.appendChild(el("h3", "", d.path));
      head.appendChild(el("span", "fig", urlsText(d.urls) + " · " + blockedText(d.blocked[current] || 0, d.urls) + " for " + agent));
      var close = el("button", "link", "Close");
      close.type = "button";
      close.addEventListener("click", function () {
        detail.hidden = true;
        shownId = null;
        nodes.forEach(function (g) { g.classList.remove("sel"); });
        var g = $(id);
        if (g) g.focus();
      });
      head.appendChild(close);
      detail.appendChild(head);
      var per = el("ul", "per-agent");
      per.setAttribute("aria-label", "Share blocked for each crawler");
      data.agents.forEach(function (a, i) {
        var b = d.blocked[i] || 0, li = el("li", "s" + stepOf(b, d.urls) + (i === current ? " cur" : ""));
        li.appendChild(el("b", "", a));
        li.appendChild(document.createTextNode(" " + blockedText(b, d.urls)));
        per.appendChild(li);
      });
      detail.appendChild(per);
      if (d.children && d.children.length) detail.appendChild(branchList(d));
      if (d.samples && d.samples.length) {
        var t = el("table", "samples");
        t.id = "samples";
        // Say what the list is when it is not every URL of the branch: the audit keeps
        // a few examples per branch (one per kind of verdict where they differ).
        var cap = d.samples.length >= d.urls ? (d.urls === 1 ? "Its URL" : "Its " + d.urls + " URLs") :
          d.samples.length + " of its " + d.urls.toLocaleString("en") + " URLs (the audit keeps a few examples per branch: " +
          "the rules above list the lines that block the others; test any URL in Test URLs)";
        t.appendChild(el("caption", "", cap + ", as " + agent + " may fetch them"));
        var hr = el("tr");
        ["URL", agent, "Deciding line"].forEach(function (h) { var th = el("th", "", h); th.scope = "col"; hr.appendChild(th); });
        t.appendChild(el("thead")).appendChild(hr);
        var tb = t.appendChild(el("tbody"));
        d.samples.forEach(function (smp) {
          var v = smp.verdicts[current] || { allowed: true };
          var tr = el("tr");
          var th = el("th", "url", smp.url);
          th.scope = "row";
          tr.appendChild(th);
          var td = el("td");
          var badge = el("span", "v " + (v.allowed ? "allowed" : "disallowed"));
          badge.appendChild(el("span", "ic", v.allowed ? "✓" : "✕")).setAttribute("aria-hidden", "true");
          badge.appendChild(document.createTextNode(v.allowed ? "allowed" : "disallowed"));
          td.appendChild(badge);
          tr.appendChild(td);
          var rule = el("td", "rule");
          if (v.line) {
            rule.appendChild(el("span", "line", "line " + v.line));
            rule.appendChild(document.createTextNode(" "));
            rule.appendChild(el("code", "", v.rule));
          } else {
            // No line decides: no rule matches, unless the fetch status decided.
            rule.textContent = data.effect === "disallow-all" ? "no line: robots.txt could not be fetched" :
              data.effect === "allow-all" ? "no line: the site has no robots.txt" : "no rule matches";
          }
          tr.appendChild(rule);
          tb.appendChild(tr);
        });
        detail.appendChild(t);
      } else {
        detail.appendChild(el("p", "hint", "No sample URLs were kept for this branch."));
      }
      detail.hidden = false;
      if (focus) detail.focus({ preventScroll: true });
      detail.scrollIntoView({ block: "nearest" });
    }

    // branchList lists every branch under d (or, for siblings drawn together, each
    // of them), largest first, a page at a time; each opens as a click on it would.
    var pageSize = 20;
    function branchList(d) {
      var box = el("div", "sub-branches"), n = d.children.length, shown = 0;
      box.appendChild(el("h4", "", d.more ? "The " + n + " drawn together" : n === 1 ? "Its branch" : "Its " + n + " branches"));
      var ul = box.appendChild(el("ul")), more = el("button", "link more-branches");
      more.type = "button";
      function page() {
        d.children.slice(shown, shown + pageSize).forEach(function (cid) {
          var c = data.branches[cid], li = el("li"), b = c.blocked[current] || 0;
          var open = el("button", "link", c.path);
          open.type = "button";
          open.addEventListener("click", function () { show(cid, true); });
          li.appendChild(open);
          li.appendChild(el("span", "fig s" + stepOf(b, c.urls), urlsText(c.urls) + " · " + blockedText(b, c.urls)));
          ul.appendChild(li);
        });
        shown = Math.min(n, shown + pageSize);
        more.hidden = shown >= n;
        more.textContent = "Show " + Math.min(pageSize, n - shown) + " more (" + shown + " of " + n + " shown)";
      }
      more.addEventListener("click", page);
      page();
      box.appendChild(more);
      return box;
    }

    function move(from, to) {
      if (!to) return;
      from.setAttribute("tabindex", "-1");
      to.setAttribute("tabindex", "0");
      to.focus();
    }
    nodes.forEach(function (g, i) {
      g.dataset.name = g.dataset.name || g.dataset.path;
      g.addEventListener("click", function () { move(nodes.filter(function (n) { return n.getAttribute("tabindex") === "0"; })[0] || g, g); show(g.id, false); });
      g.addEventListener("keydown", function (e) {
        var depth = g.dataset.depth, to = null, j;
        switch (e.key) {
          case "Enter": case " ": e.preventDefault(); show(g.id, true); return;
          case "ArrowRight": to = nodes.filter(function (n) { return n.dataset.parent === g.id; })[0]; break;
          case "ArrowLeft": to = g.dataset.parent ? $(g.dataset.parent) : null; break;
          case "ArrowDown": for (j = i + 1; j < nodes.length && !to; j++) if (nodes[j].dataset.depth === depth) to = nodes[j]; break;
          case "ArrowUp": for (j = i - 1; j >= 0 && !to; j--) if (nodes[j].dataset.depth === depth) to = nodes[j]; break;
          default: return;
        }
        e.preventDefault();
        move(g, to);
      });
    });
    $("picture_hint").hidden = false; // what the branches do, which needs this script
    if (sw) {
      $("crawler_switch_wrap").hidden = false;
      $("picture_current").hidden = true;
      sw.addEventListener("change", function () { colour(+sw.value); });
      if (+sw.value !== current) colour(+sw.value); // a value the browser kept from before
    }
  }
});
