/* The judge console's service worker: it keeps the console page and its assets, so
   that the console reopens at a dead spot. Served from the tournament's address, its
   scope is that tournament; it answers only the console pages and their assets
   (network first, the kept copy without a connection) and lets everything else
   through. The game's state and the queue of events are kept by the page itself. */
"use strict";
var CACHE = "mafiatab-console-{{ version }}";
var ASSETS = {{ assets|safe }};
var CONSOLE = /\/games\/[0-9]+\/console\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }).then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("mafiatab-console-") === 0 && k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});
// The console page asks to be kept as soon as the worker is ready (the first visit
// was not yet in the worker's hands).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (typeof data.keep !== "string" || !CONSOLE.test(data.keep) || data.keep.charAt(0) !== "/") return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return fetch(data.keep, { credentials: "same-origin" }).then(function (response) {
      if (response.ok && !response.redirected) return cache.put(data.keep, response);
    });
  }).catch(function () {}));
});
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (ASSETS.indexOf(url.pathname) < 0 && !CONSOLE.test(url.pathname)) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(url.pathname).then(function (kept) { return kept || Response.error(); });
  }));
});
