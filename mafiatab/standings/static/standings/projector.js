// The projector: rows a page at a time when they do not fit the screen.
(function () {
  // Show the rows a page at a time when they do not fit the screen, turning the
  // page every few seconds; keep the page across the table's refreshes.
  var page = 0;
  function rows() { return Array.prototype.slice.call(document.querySelectorAll("#projector-live tbody tr")); }
  function perPage(all) {
    all.forEach(function (r) { r.hidden = false; });
    if (!all.length) { return 1; }
    var top = all[0].getBoundingClientRect().top;
    var height = all[0].getBoundingClientRect().height || 1;
    return Math.max(1, Math.floor((window.innerHeight - top - 12) / height));
  }
  function show() {
    var all = rows(), n = perPage(all), pages = Math.max(1, Math.ceil(all.length / n));
    if (page >= pages) { page = 0; }
    all.forEach(function (r, i) { r.hidden = Math.floor(i / n) !== page; });
    document.getElementById("pj-page").textContent = pages > 1 ? (page + 1) + " / " + pages : "";
  }
  setInterval(function () { page += 1; show(); }, 10000);
  document.body.addEventListener("htmx:afterSettle", show);
  window.addEventListener("resize", show);
  show();
})();
