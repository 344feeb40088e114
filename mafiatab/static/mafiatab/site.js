// Small behaviours of the pages, kept out of the HTML so that the
// Content-Security-Policy can forbid inline scripts:
// - [data-confirm]: a button that asks before submitting its form;
// - [data-print]: a button that prints the page;
// - [data-width]: an element whose width is a percentage (bars of a histogram);
// - [data-scroll-into-view]: where the page opens (the first problem of a refused form).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) { return; }
    var asking = target.closest("[data-confirm]");
    if (asking && !window.confirm(asking.getAttribute("data-confirm"))) {
      event.preventDefault();
      return;
    }
    if (target.closest("[data-print]")) {
      event.preventDefault();
      window.print();
    }
  });
  function widths(root) {
    var scope = root && root.querySelectorAll ? root : document;
    scope.querySelectorAll("[data-width]").forEach(function (el) {
      el.style.width = el.getAttribute("data-width") + "%";
    });
  }
  function scrollToMarked() {
    var marked = document.querySelector("[data-scroll-into-view]");
    if (marked) { marked.scrollIntoView({ block: "center" }); }
  }
  document.addEventListener("DOMContentLoaded", function () { widths(document); scrollToMarked(); });
  document.addEventListener("htmx:load", function (event) { widths(event.target); });
})();
