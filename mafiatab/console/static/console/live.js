/* A live part of a page: the spectators' board, a stream overlay, a result card.

   The element with `data-live` holds the address of its live channel and, in
   `data-version`, the version it shows. The page asks the channel with that version
   and waits (long polling): the answer comes as soon as the table changes, with the
   new content, which replaces the element's. An answer without waiting (the server
   is busy) is followed by a new question a second later; a failed one (the server
   restarting, the network gone) by one after a growing pause, up to five seconds,
   so the page comes back by itself. A table or private link that is gone (404)
   empties the element and stops. */
(function () {
  "use strict";
  var box = document.querySelector("[data-live]");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-live");
  var version = box.getAttribute("data-version") || "";
  var pause = 1000;

  // A running speech timer (`data-countdown` seconds, `data-running="1"`) counts down
  // between two answers, from the moment its content arrived.
  var ticking = null;
  function countdown() {
    if (ticking) window.clearInterval(ticking);
    ticking = null;
    var clocks = Array.prototype.slice.call(box.querySelectorAll("[data-countdown][data-running='1']"));
    if (!clocks.length) return;
    var from = Date.now();
    var start = clocks.map(function (c) { return parseInt(c.getAttribute("data-countdown"), 10) || 0; });
    ticking = window.setInterval(function () {
      var gone = Math.floor((Date.now() - from) / 1000);
      clocks.forEach(function (c, i) {
        var left = Math.max(0, start[i] - gone);
        c.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
        c.classList.toggle("ov-clock-low", left <= 10);
      });
    }, 250);
  }

  function again(ms) { window.setTimeout(ask, ms); }

  function ask() {
    var sep = url.indexOf("?") < 0 ? "?" : "&";
    fetch(url + sep + "wait=1&v=" + encodeURIComponent(version), {
      cache: "no-store", credentials: "same-origin", headers: { "Accept": "application/json" }
    }).then(function (r) {
      if (r.status === 404) {  // the table or the private link is gone: show nothing more
        box.innerHTML = "";
        countdown();
        return null;
      }
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then(function (data) {
      if (data === null) return;
      pause = 1000;
      if (typeof data.html === "string" && data.v !== version) {
        box.innerHTML = data.html;
        box.setAttribute("data-version", data.v);
        countdown();
        document.dispatchEvent(new CustomEvent("live:updated", { detail: { version: data.v } }));
      }
      version = data.v;
      again(data.waited ? 50 : 1000);
    }).catch(function () {
      again(pause);
      pause = Math.min(pause * 2, 5000);
    });
  }
  countdown();
  ask();
}());
