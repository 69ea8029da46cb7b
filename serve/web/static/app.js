// Conveniences for the tester; the form works without them.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var diff = document.getElementById("diff");
  var newFile = document.getElementById("new_file");
  var label = document.getElementById("robots_label");
  function showDiff() {
    newFile.classList.toggle("off", !diff.checked);
    label.textContent = diff.checked ? "Old robots.txt" : "robots.txt";
  }
  diff.addEventListener("change", showDiff);
  showDiff();

  document.querySelectorAll("button[data-select]").forEach(function (b) {
    b.addEventListener("click", function () {
      var on = b.dataset.select === "all";
      document.querySelectorAll('input[name="agent"]').forEach(function (c) { c.checked = on; });
    });
  });

  // Hovering a verdict lights its deciding line in the file.
  function light(id, on) {
    var li = document.getElementById(id);
    if (li) li.classList.toggle("lit", on);
  }
  document.querySelectorAll("a.verdict[data-line]").forEach(function (a) {
    a.addEventListener("mouseenter", function () { light(a.dataset.line, true); });
    a.addEventListener("mouseleave", function () { light(a.dataset.line, false); });
  });
});
