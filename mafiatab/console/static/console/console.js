/* The judge console, offline first. What the judge enters shows at once: the
   events wait in a queue in localStorage and are drawn over the last state the
   server sent (a projection, marked "not yet saved"), then sent in order whenever
   there is a connection; every entry carries its own id, so a resend is harmless.
   The server's engine stays the judge of the rules: an event it refuses is shown
   as refused with its rule, and the judge decides what becomes of the events made
   after it (sent or discarded), nothing is dropped silently. The last state, the
   queue and where the judge stands (the speech, the clock) are kept in the
   browser, and a service worker keeps the page and its assets, so a reload at a
   dead spot goes on with the game. The place is also kept on the server, so that
   another device of the table's judges continues at the same speech. */
(function () {
  "use strict";
  var root = document.getElementById("console");
  if (!root) return;
  var T = JSON.parse(document.getElementById("console-strings").textContent);
  var API = root.dataset.api;
  var KEY = "mafiatab-console-" + root.dataset.log;
  var VIEW = KEY + "-view";
  var PLACE = KEY + "-place";
  var DROPPED = KEY + "-dropped";
  var STATES = KEY + "-states";
  var view = null;   // the state the server sent last (saved)
  var shown = null;  // that state with the queue drawn over it
  var queue = readJSON(KEY, []);
  var dropped = readJSON(DROPPED, []);
  var states = readJSON(STATES, {});
  var sending = false;
  var stale = false; // the state shown came from the browser's store, not the server
  var retry = null;
  var ui = { speech: 0, day: null, talk: null, spAt: 0, picks: [], shots: {}, votes: null, undoArmed: false, undoWhat: "" };
  var kept = readJSON(PLACE, null);
  var placeSent = kept && !kept.dirty ? placeSign(kept) : "";
  var placeTimer = null;
  var placeRevision = 0;

  if ("serviceWorker" in navigator && root.dataset.worker) {
    navigator.serviceWorker.register(root.dataset.worker).catch(function () { /* the queue works without it */ });
    navigator.serviceWorker.ready.then(function (reg) {
      if (reg.active) reg.active.postMessage({ keep: window.location.pathname });
    });
  }

  // --- small helpers ------------------------------------------------------------
  function $(sel) { return root.querySelector(sel); }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "cls") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function button(text, action, data, cls) {
    var b = el("button", { type: "button", cls: "btn " + (cls || ""), "data-action": action, text: text });
    Object.keys(data || {}).forEach(function (k) { b.dataset[k] = data[k]; });
    return b;
  }
  function uuid() {
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }
  function readJSON(key, fallback) {
    try { var v = JSON.parse(window.localStorage.getItem(key) || "null"); return v === null ? fallback : v; } catch (e) { return fallback; }
  }
  function writeJSON(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage full: the server still has what it took */ }
  }
  function saveQueue() { writeJSON(KEY, queue); writeJSON(DROPPED, dropped); }
  function state() { return (shown && shown.state) || {}; }
  function nick(seat) { var s = state().seats || []; return s[seat - 1] || ""; }
  function alive() { return state().alive || []; }
  function roleOf(seat) { var r = state().roles || []; return r[seat - 1] || ""; }
  function expects(type) { return (state().expects || []).indexOf(type) >= 0; }
  function settings() { return state().settings || {}; }
  function showError(text) {
    var p = $("[data-testid=error]");
    p.textContent = text || "";
    p.hidden = !text;
  }

  // --- talking to the server ------------------------------------------------------
  function request(method, url, body) {
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
      body: body ? JSON.stringify(body) : undefined,
    });
  }
  function took(data) {
    // The server's answer: the saved state, kept for a reload without a connection,
    // and the states of the last entries, for an undo made without one.
    view = merged(data);
    writeJSON(VIEW, view);
    // An event the server holds already (its answer was lost: the page closed, the
    // connection went) leaves the queue, so that it is neither drawn nor sent twice.
    var held = {};
    (view.entries || []).forEach(function (e) { held[e.id] = true; });
    var before = queue.length;
    queue = queue.filter(function (q) { return !held[q.id]; });
    if (queue.length !== before) saveQueue();
    if (view.state) {
      states[String(view.number)] = view.state;
      Object.keys(states).forEach(function (n) { if (+n < view.number - 30) delete states[n]; });
      writeJSON(STATES, states);
    }
    adoptPlace(view.place);
  }
  function adoptPlace(p) {
    // Another device of the table's judges moved the speech or the clock: follow it,
    // unless this device has a move of its own not yet saved.
    if (!p || !p.timer || p.revision <= placeRevision) return;
    placeRevision = p.revision;
    var local = readJSON(PLACE, null);
    if (local && local.dirty) return;
    var next = fromServer(p);
    writeJSON(PLACE, next);
    if (ui.day === null || next.day !== ui.day) { kept = next; return; }
    var here = currentPlace();
    if (here.speech === next.speech && here.timer.running === next.timer.running && here.timer.total === next.timer.total) return;
    var order = talks().list.map(function (x) { return x.seat; });
    ui.speech = next.seat && order.indexOf(next.seat) >= 0 ? order.indexOf(next.seat) : next.speech;
    restoreTimer(next.timer);
  }
  // A write may be answered with the entry written and the state, not the whole log
  // (`partial`): the entry is added to those known (an undo marks the event it takes back).
  function merged(data) {
    var entry = data.entry;
    if (!data.partial || !entry) return data;
    var known = (view && view.entries) || [];
    if (!view || view.number < entry.number - 1) {
      window.setTimeout(function () { load().catch(function () {}); }, 0); // entries are missing in between
      data.entries = known;
      return data;
    }
    data.entries = known.filter(function (e) { return e.number < entry.number; }).map(function (e) {
      return e.number === entry.undoes ? Object.assign({}, e, { undone: true }) : e;
    });
    data.entries.push(entry);
    return data;
  }
  function load() {
    return request("GET", API).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then(function (data) {
      took(data);
      stale = false;
      render();
    }, function (err) {
      // No connection: the last saved state and the queue over it.
      var cached = readJSON(VIEW, null);
      if (!view && cached) { view = cached; stale = true; render(); }
      throw err;
    });
  }
  function enqueue(kind, event) {
    if (kind === "undo" && queue.length && !queue[queue.length - 1].refused && queue[queue.length - 1].kind === "event" && !(sending && queue.length === 1)) {
      // Undoing an event the server has not got yet: it is simply not sent.
      dropped.push({ kind: "event", event: queue.pop().event, undone: true });
    } else {
      queue.push({ id: uuid(), kind: kind, event: event });
    }
    saveQueue();
    render();
    flush();
  }
  function send(event) { enqueue("event", event); }
  function flush() {
    if (sending || !queue.length || queue[0].refused || queue[0].moved) { renderSync(); return; }
    sending = true;
    renderSync();
    var item = queue[0];
    var url = API + (item.kind === "undo" ? "/undo" : "/events");
    var after = view ? view.number : null;
    var body = item.kind === "undo" ? { id: item.id, after: after } : { id: item.id, after: after, event: item.event };
    request("POST", url, body).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return { status: r.status, data: data }; });
    }).then(function (res) {
      sending = false;
      if (res.status === 200 || res.status === 201) {
        queue = queue.filter(function (q) { return q.id !== item.id; });
        saveQueue();
        took(res.data);
        showError("");
        render();
        flush();
        pushPlace();
      } else if (res.status >= 500 || res.status === 401 || res.status === 403 || res.status === 429) {
        // The server is down or the session ended: keep every event and try again.
        showError(res.status < 500 && res.status !== 429 ? T.not_saved + ": " + ((res.data && res.data.detail) || "") : "");
        wait();
      } else if (res.status === 409) {
        // The log moved on (another device wrote meanwhile) or it is closed: read it
        // again to know which. A log that moved on refuses no rule: every waiting event
        // stays, the first one first, and the judge is asked to send them after what
        // the other device recorded.
        var detail = (res.data && res.data.detail) || String(res.status);
        load().then(function () {
          var head = queue[0];
          if (!head || head.id !== item.id) { flush(); return; }
          if (!view.closed && after !== null && view.number !== after) {
            head.moved = { from: after, to: view.number };
          } else {
            head.refused = detail;
            head.conflict = true;
          }
          saveQueue();
          render();
        }, function () { wait(); });
      } else {
        // Refused by the rules: shown with its reason; the judge decides what becomes
        // of the events after it.
        item.refused = (res.data && res.data.detail) || String(res.status);
        saveQueue();
        render();
      }
    }).catch(function () {
      sending = false;
      wait();
    });
  }
  function settle(keep) {
    // The judge's answer to a refusal: the refused event leaves the queue (listed as
    // refused), the events after it are sent or discarded (listed as discarded).
    var refused = queue.shift();
    dropped.push({ kind: refused.kind, event: refused.event, refused: refused.refused });
    if (!keep) {
      queue.splice(0, queue.length).forEach(function (q) { dropped.push({ kind: q.kind, event: q.event, discarded: true }); });
    }
    saveQueue();
    var again = refused.conflict ? load() : Promise.resolve();
    again.then(function () { render(); flush(); }, function () { render(); wait(); });
  }
  function rebase(keep) {
    // The judge's answer to a log that moved on: the waiting events are sent, in
    // order, after what the other device recorded (each still checked by the rules),
    // or all of them are discarded (listed as discarded).
    if (!queue.length || !queue[0].moved) return;
    if (keep) {
      delete queue[0].moved;
      // An undo made before the clash meant an event this device knew: sent after the
      // other device's, it would take back that one instead. It stops there, refused
      // with its reason, and the judge decides about the events after it. (An undo
      // waits only at the queue's head: one made over a waiting event takes it out.)
      if (queue[0].kind === "undo") queue[0].refused = T.undo_moved;
    } else {
      queue.splice(0, queue.length).forEach(function (q) { dropped.push({ kind: q.kind, event: q.event, discarded: true }); });
    }
    saveQueue();
    render();
    flush();
  }
  function wait() {
    renderSync(true);
    if (retry) return;
    retry = window.setTimeout(function () { retry = null; resume(); }, 3000);
  }
  function start() {
    load().then(function () { flush(); pushPlace(); }, function () { wait(); });
  }
  function resume() {
    if (!view || stale) start();
    else { flush(); pushPlace(); }
  }
  window.addEventListener("online", resume);
  // While nothing waits to be sent, the state is read again now and then: the other
  // device's events and its place come in.
  window.setInterval(function () {
    if (!view || stale || sending || queue.length || document.hidden) return;
    request("GET", API).then(function (r) { return r.ok ? r.json() : null; }).then(function (data) {
      if (!data || sending || queue.length) return;
      var moved = data.number !== view.number || data.closed !== view.closed ||
        ((data.place || {}).revision || 0) > placeRevision;
      if (moved) { took(data); render(); }
    }).catch(function () { /* no connection: nothing to read */ });
  }, 10000);

  // --- where the judge stands, kept here and on the server ----------------------------
  function placeSign(p) {
    var t = p.timer || {};
    return [p.day, p.speech, p.seat, t.total, t.running, t.running ? "" : t.left, t.label].join("|");
  }
  function fromServer(p) {
    var left = p.timer.running ? Math.max(0, Math.round(p.timer.left - p.age)) : p.timer.left;
    var t = { total: p.timer.total, left: left, label: p.timer.label, running: p.timer.running && left > 0, at: Date.now() + left * 1000 };
    var place = { day: p.day, speech: p.speech, seat: p.seat, timer: t, dirty: false };
    placeSent = placeSign(place);
    return place;
  }
  function currentPlace() {
    var sp = talks().list[ui.speech];
    return {
      day: ui.day, speech: ui.speech, seat: sp ? sp.seat : null,
      timer: { total: timer.total, left: timer.left, label: timer.label, running: timer.running, at: timer.at },
    };
  }
  function savePlace() {
    if (ui.day === null || !shown || shown.finished) return;
    var place = currentPlace();
    var changed = placeSign(place) !== placeSent;
    var before = readJSON(PLACE, null);
    place.dirty = changed || !!(before && before.dirty);
    writeJSON(PLACE, place);
    if (changed) {
      placeSent = placeSign(place);
      if (placeTimer) window.clearTimeout(placeTimer);
      placeTimer = window.setTimeout(pushPlace, 300);
    }
  }
  function pushPlace() {
    placeTimer = null;
    var place = readJSON(PLACE, null);
    if (!place || !place.dirty || !/^[dn][0-9]{1,2}$/.test(place.day || "")) return;
    var t = place.timer;
    var left = t.running ? Math.max(0, Math.round((t.at - Date.now()) / 1000)) : t.left;
    var body = { day: place.day, speech: place.speech, seat: place.seat, timer: { total: t.total, left: Math.min(left, t.total), running: t.running, label: (t.label || "").slice(0, 80) } };
    request("PUT", API + "/place", body).then(function (r) {
      if (!r.ok) return;
      r.json().then(function (saved) { placeRevision = Math.max(placeRevision, saved.revision || 0); }, function () {});
      var now = readJSON(PLACE, null);
      if (now && placeSign(now) === placeSign(place)) { now.dirty = false; writeJSON(PLACE, now); }
    }).catch(function () { /* sent again with the next event or when the connection returns */ });
  }

  // --- the timer --------------------------------------------------------------------
  var timer = { total: 60, left: 60, running: false, at: 0, handle: null, label: "" };
  function setTimer(seconds, label) {
    stopTimer();
    timer.total = timer.left = seconds;
    timer.label = label || "";
    drawTimer();
  }
  function stopTimer() {
    if (timer.handle) window.clearInterval(timer.handle);
    timer.handle = null;
    timer.running = false;
  }
  function toggleTimer() {
    if (timer.running) {
      stopTimer();
    } else {
      if (timer.left <= 0) timer.left = timer.total;
      runTimer(Date.now() + timer.left * 1000);
    }
    drawTimer();
  }
  function runTimer(at) {
    timer.running = true;
    timer.at = at;
    timer.handle = window.setInterval(function () {
      timer.left = Math.max(0, Math.round((timer.at - Date.now()) / 1000));
      if (timer.left <= 0) stopTimer();
      drawTimer();
    }, 250);
  }
  function restoreTimer(t) {
    stopTimer();
    timer.total = t.total;
    timer.label = t.label || "";
    timer.left = t.running ? Math.max(0, Math.round((t.at - Date.now()) / 1000)) : t.left;
    if (t.running && timer.left > 0) runTimer(t.at);
    drawTimer();
  }
  function drawTimer() {
    var m = Math.floor(timer.left / 60), s = timer.left % 60;
    var clock = $(".c-clock");
    clock.textContent = m + ":" + (s < 10 ? "0" : "") + s;
    clock.classList.toggle("c-clock-low", timer.left <= 10);
    $(".c-timer-label").textContent = timer.label;
    $("[data-action=timer-toggle]").textContent = timer.running ? T.timer_pause : T.timer_start;
    savePlace();
  }

  // --- what the queue makes of the saved state ------------------------------------------
  // A projection, not the rules: it draws the judge's events at once (fouls, the
  // nominations, the vote's candidates, who leaves, the phase) over the state the
  // server sent last. When the server has them, its state replaces the projection;
  // what the server refuses is shown as refused.
  function fill(text, params) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (m, k) { return params[k] === undefined ? m : params[k]; });
  }
  function phaseText(phase) {
    return phase.day ? fill(T.day_n, { n: phase.day }) : fill(T.night_n, { n: phase.night });
  }
  function project(base, items) {
    var v = JSON.parse(JSON.stringify(base));
    var st = v.state;
    v.unsaved = { seats: {}, phase: false, noms: 0, voting: false, any: false };
    if (!st || v.finished) return v;
    v.unsaved.noms = ((st.voting || {}).nominations || []).length;
    function defaults() {
      st.fouls = st.fouls || {};
      st.nights = st.nights || [];
      st.left = st.left || [];
    }
    defaults();
    var first = v.first_speaker || 1;
    // The events in force on the server, for an undo made without a connection: it
    // goes back to the state the browser kept from before the last of them.
    var lives = (base.entries || []).filter(function (e) { return e.kind === "event" && !e.undone; }).map(function (e) { return e.number; });
    var set = st.settings || {};
    function mark(seat) { v.unsaved.seats[seat] = true; }
    function living(seat) { return st.alive.indexOf(seat) >= 0; }
    function leave(seat, how) {
      if (!living(seat)) return;
      st.alive = st.alive.filter(function (s) { return s !== seat; });
      var d = { seat: seat, how: how };
      if (st.phase.day) d.day = st.phase.day; else d.night = st.phase.night;
      st.left.push(d);
      st.speeches = (st.speeches || []).filter(function (sp) { return sp.seat !== seat || sp.kind === "last_word"; });
      // voted or lifted out: his last word follows, until the night
      if (how === "vote" || how === "lift") st.last_word = (st.last_word || []).concat([seat]);
      else st.last_word = (st.last_word || []).filter(function (s) { return s !== seat; });
      mark(seat);
    }
    function role(seat) { return (st.roles || [])[seat - 1] || "red"; }
    function expect(list) {
      var always = ["foul", "remove", "pause", "defeat"];
      st.expects = list.concat(always);
    }
    function night() { return st.nights[st.nights.length - 1] || {}; }
    items.forEach(function (q) {
      if (q.refused) return;
      v.unsaved.any = true;
      if (q.kind === "undo") {
        var last = lives.pop();
        var before = last ? states[String(last - 1)] : null;
        if (before) {
          st = v.state = JSON.parse(JSON.stringify(before));
          defaults();
          v.unsaved.noms = 0;
          v.unsaved.voting = v.unsaved.phase = true;
        }
        return;
      }
      var e = q.event || {}, voting = st.voting || (st.voting = { nominations: [], candidates: [], status: "open" });
      switch (e.type) {
        case "foul":
          st.fouls[String(e.seat)] = (st.fouls[String(e.seat)] || 0) + 1;
          mark(e.seat);
          if (st.fouls[String(e.seat)] >= 4) leave(e.seat, "fouls");
          break;
        case "remove": leave(e.seat, "removed"); break;
        case "nominate":
          voting.nominations = (voting.nominations || []).concat([{ seat: e.seat, by: e.by }]);
          voting.candidates = voting.nominations.map(function (n) { return n.seat; });
          v.unsaved.voting = true;
          mark(e.seat);
          if (voting.nominations.length >= 2 && (st.phase.day > 1 || set.day1_voting !== false)) {
            expect(["nominate", "vote"]);
          }
          break;
        case "vote":
          var cands = voting.candidates || [], counts = e.counts || [];
          var most = Math.max.apply(null, counts.concat([0]));
          var top = cands.filter(function (s, i) { return counts[i] === most; });
          v.unsaved.voting = true;
          if (top.length === 1) {
            voting.status = "over";
            voting.candidates = [];
            leave(top[0], "vote");
            expect(["night"]);
          } else if (voting.status === "revote" && top.length === cands.length) {
            voting.status = "lift";
            voting.candidates = top;
            expect(["lift"]);
          } else {
            voting.status = "revote";
            voting.candidates = top;
            st.defence = top.map(function (s) { return { seat: s, kind: "defence", seconds: set.defence_seconds || 30 }; });
            expect(["vote"]);
          }
          break;
        case "lift":
          var tied = voting.candidates || [];
          voting.status = "over";
          voting.candidates = [];
          if (e["for"] * 2 > st.alive.length) tied.forEach(function (s) { leave(s, "lift"); });
          v.unsaved.voting = true;
          expect(["night"]);
          break;
        case "night":
          var n = st.phase.day;
          // a later day's single nominee leaves as the night falls (his last word opens it)
          if (n > 1 && voting.status === "open" && (voting.nominations || []).length === 1) leave(voting.nominations[0].seat, "single");
          st.phase = { night: n };
          st.speeches = [];
          st.defence = [];
          st.last_word = [];
          st.nights.push({ night: n, shots: null, killed: null, don_check: null, sheriff_check: null });
          v.unsaved.phase = true;
          expect(["shots"]);
          break;
        case "shots":
          var aims = e.by || {}, targets = Object.keys(aims).map(function (k) { return aims[k]; });
          var nt = night();
          nt.shots = aims;
          var shooters = st.alive.filter(function (s) { return role(s) === "black" || role(s) === "don"; });
          var same = targets.length === shooters.length && targets.every(function (t) { return t !== null && t === targets[0]; });
          nt.killed = same && living(targets[0]) ? targets[0] : null;
          v.unsaved.phase = true;
          var next = ["day"];
          st.alive.forEach(function (s) {
            if (role(s) === "don") next.unshift("don_check");
            if (role(s) === "sheriff") next.unshift("sheriff_check");
          });
          expect(next);
          break;
        case "don_check":
        case "sheriff_check":
          var r = role(e.seat);
          night()[e.type] = { seat: e.seat, answer: e.type === "don_check" ? (r === "sheriff" ? "sheriff" : "not_sheriff") : (r === "black" || r === "don" ? "black" : "red") };
          expect((st.expects || []).filter(function (x) { return x !== e.type && ["shots", "day", "don_check", "sheriff_check"].indexOf(x) >= 0; }));
          break;
        case "day":
          var killed = night().killed, day = (st.phase.night || 0) + 1;
          st.phase = { day: day };
          if (killed) {
            if (day === 2 && !st.first_killed) { st.first_killed = killed; st.best_move_open = true; }
            leave(killed, "shot");
            st.left[st.left.length - 1] = { seat: killed, how: "shot", night: day - 1 };
          }
          for (var step = 1; step <= 10; step++) {
            var cand = (first - 1 + step) % 10 + 1;
            if (living(cand)) { first = cand; break; }
          }
          st.speeches = killed ? [{ seat: killed, kind: "last_word", seconds: set.last_word_seconds || 60 }] : [];
          for (var o = 0; o < 10; o++) {
            var seat = (first - 1 + o) % 10 + 1;
            if (living(seat)) st.speeches.push({ seat: seat, kind: "speech", seconds: set.speech_seconds || 60 });
          }
          st.voting = { day: day, status: "open", nominations: [], candidates: [], blocks: [] };
          v.unsaved.noms = 0;
          v.unsaved.phase = true;
          expect(["nominate", "night"]);
          break;
        case "best_move":
          st.best_move_open = false;
          st.best_move = e.seats || [];
          break;
      }
    });
    if (v.unsaved.phase) v.phase_text = phaseText(st.phase);
    return v;
  }

  // --- drawing ------------------------------------------------------------------------
  function render() {
    if (!view) return;
    shown = project(view, queue);
    var st = state();
    var phase = st.phase || {};
    var phaseBox = $("[data-testid=phase]");
    phaseBox.textContent = shown.phase_text + (shown.finished ? " · " + shown.winner_text : "") + (shown.unsaved.phase ? " · " + T.unsaved : "");
    phaseBox.classList.toggle("c-unsaved-text", shown.unsaved.phase);
    $("[data-testid=unsaved-legend]").hidden = !shown.unsaved.any;
    var dayKey = phase.day ? "d" + phase.day : "n" + phase.night;
    if (ui.day !== dayKey) {
      ui.day = dayKey;
      ui.speech = 0;
      ui.picks = [];
      ui.shots = {};
      ui.votes = null;
      ui.talk = talks(st).key;
      ui.spAt = 0;
      var first = talks(st).list[0];
      if (kept && kept.day === dayKey && kept.timer) {
        // A reload, or another device: back to the speech and the clock where the judge was.
        ui.speech = Math.max(0, kept.speech | 0);
        var order = talks(st).list.map(function (x) { return x.seat; });
        if (kept.seat && order.indexOf(kept.seat) >= 0) ui.speech = order.indexOf(kept.seat);
        restoreTimer(kept.timer);
      } else if (!shown.number && settings().zero_night_seconds) {
        setTimer(settings().zero_night_seconds, T.zero_night);
      } else if (first) {
        setTimer(first.seconds, speechLabel(first));
      } else if (singleGone(st)) {
        // the night opens with the last word of the day's single nominee
        setTimer(settings().last_word_seconds || 60, T.last_word + " · " + singleGone(st).seat);
      }
      kept = null;
    }
    var now = talks(st);
    if (ui.talk !== now.key) {
      // The phase moved on within the day (a vote's last words, a revote's defence) or
      // back (an undo): the speaker line follows it, the day's speeches where they were.
      if (ui.talk === "sp") ui.spAt = ui.speech;
      ui.speech = now.key === "sp" ? ui.spAt : 0;
      ui.talk = now.key;
      var opening = now.list[ui.speech];
      if (opening && now.key !== "sp") setTimer(opening.seconds, speechLabel(opening));
    }
    if (ui.undoArmed && undoTarget() !== ui.undoWhat) disarmUndo();
    $("[data-testid=undo]").disabled = !undoTarget();
    renderSeats();
    renderPanel();
    renderLog();
    renderSync();
    $("[data-testid=finish-form]").hidden = !shown.finished || queue.length > 0;
    if (!shown.finished) { // an undo took the end back: the closing starts over
      $("[data-testid=close-confirm]").hidden = true;
      $("[data-testid=close-game]").hidden = false;
    }
    $(".c-tools").hidden = !!shown.finished;
    foldReady();
    renderTools();
    savePlace();
  }
  // The ready check comes before the first speech: once the game has begun it folds
  // up (once; the judge may open it again), so it no longer fills the top of a phone.
  var readyFolded = false;
  function foldReady() {
    var ready = $("[data-testid=ready-check]");
    if (!ready || readyFolded) return;
    if (!(shown.number > 0 || queue.length || ui.speech > 0)) return;
    ready.open = false;
    readyFolded = true;
  }
  function renderSync(offline) {
    var text = queue.length ? (queue[0].refused ? T.held : queue[0].moved ? T.held_moved : offline ? T.offline : T.sending) + " (" + queue.length + ")" : T.online;
    $("[data-testid=sync]").textContent = text;
    root.classList.toggle("c-offline", !!offline);
  }
  function speaker() {
    var sp = talks().list[ui.speech];
    return sp ? sp.seat : null;
  }
  // Who speaks now, as the phase has it: the last words of the seats voted or lifted
  // out, the tied seats' defence before their revote, otherwise the day's speeches.
  function talks(st) {
    st = st || state();
    var voting = st.voting || {}, set = st.settings || {}, speeches = st.speeches || [];
    var morning = speeches.length && speeches[0].kind === "last_word" ? speeches[0].seat : null;
    var words = (st.last_word || []).filter(function (s) { return s !== morning; });
    if ((st.phase || {}).day && words.length) {
      return { key: "lw:" + words.join(","), list: words.map(function (s) { return { seat: s, kind: "last_word", seconds: set.last_word_seconds || 60 }; }) };
    }
    var defence = st.defence || [];
    if (voting.status === "revote") {
      // a revote's speeches are the tied seats' defence, nobody else's
      return { key: "def:" + defence.map(function (x) { return x.seat; }).join(","), list: defence };
    }
    if ((st.phase || {}).day && (voting.status === "lift" || voting.status === "over")) {
      // the day's speeches are over once its vote has begun: nobody speaks during the lift vote
      // or after the result (the last words aside, above)
      return { key: "vote:" + voting.status, list: [] };
    }
    return { key: "sp", list: speeches };
  }
  function speechLabel(sp) {
    return sp.kind === "last_word" ? T.last_word : sp.kind === "defence" ? T.defence : T.speech;
  }
  // The event an undo takes back: the last one in force, the queue's drawn over the saved.
  function undoTarget() {
    var lives = ((view && view.entries) || []).filter(function (e) { return e.kind === "event" && !e.undone; }).map(function (e) { return e.text; });
    queue.forEach(function (q) {
      if (q.refused) return;
      if (q.kind === "undo") lives.pop(); else lives.push(describe(q));
    });
    return lives.length ? lives[lives.length - 1] : "";
  }
  function disarmUndo() {
    ui.undoArmed = false;
    ui.undoWhat = "";
    $("[data-testid=undo-confirm]").hidden = true;
  }
  function renderSeats() {
    var box = $("[data-testid=seats]");
    box.textContent = "";
    var st = state(), fouls = st.fouls || {}, left = {};
    (st.left || []).forEach(function (d) { left[d.seat] = d; });
    var nominated = ((st.voting || {}).nominations || []).map(function (n) { return n.seat; });
    var today = (st.phase || {}).day || ((st.phase || {}).night || 0) + 1;
    var losing = (st.lost_speech || []).filter(function (l) { return l.day >= today; }).map(function (l) { return l.seat; });
    for (var seat = 1; seat <= 10; seat++) {
      var n = fouls[String(seat)] || 0;
      var dots = el("span", { cls: "c-fouls", "aria-label": T.fouls + ": " + n });
      for (var i = 1; i <= 4; i++) dots.appendChild(el("span", { cls: "c-dot" + (i <= n ? " on" : "") }));
      var role = roleOf(seat);
      var foot = el("div", { cls: "c-seat-foot" }, [dots]);
      var tile = el("div", { cls: "c-seat", "data-testid": "seat-" + seat }, [
        el("div", { cls: "c-seat-head" }, [
          el("span", { cls: "c-num", text: String(seat) }),
          el("span", { cls: "c-nick", text: nick(seat) }),
          role && role !== "red" ? el("span", { cls: "c-role c-role-" + role, text: T["role_" + role] }) : null,
        ]),
        foot,
      ]);
      // A seat that has left keeps its last word: it may still get a foul then.
      var speaking = (st.last_word || []).indexOf(seat) >= 0 && !shown.finished;
      if (left[seat]) {
        tile.classList.add(speaking ? "c-left-speaking" : "c-left");
        foot.appendChild(el("span", { cls: "c-gone", text: T.left }));
        if (speaking) foot.appendChild(el("span", { cls: "c-lastword", "data-testid": "last-word-" + seat, text: T.last_word }));
      }
      if (!shown.finished && (!left[seat] || speaking)) {
        var fb = button(T.foul, "foul", { seat: seat }, "c-foul");
        fb.setAttribute("data-testid", "foul-" + seat);
        foot.appendChild(fb);
      }
      if (seat === speaker() && state().phase && state().phase.day) tile.classList.add("c-speaking");
      if (nominated.indexOf(seat) >= 0) tile.classList.add("c-nominated");
      if (n === 3) tile.classList.add("c-three");
      if (shown.unsaved.seats[seat]) {
        tile.classList.add("c-unsaved");
        tile.setAttribute("title", T.unsaved);
      }
      if (losing.indexOf(seat) >= 0 && !left[seat]) {
        foot.insertBefore(el("span", { cls: "c-lose", "data-testid": "loses-" + seat, text: T.loses_speech_short }), foot.children[1] || null);
      }
      box.appendChild(tile);
    }
  }
  function seatButtons(action, seats, extra, chosen) {
    var row = el("div", { cls: "c-seatrow" });
    seats.forEach(function (s) {
      var b = button(String(s), action, Object.assign({ seat: s }, extra || {}), "c-sbtn");
      b.setAttribute("data-testid", action + "-" + (extra && extra.by ? extra.by + "-" : "") + s);
      if (chosen && chosen.indexOf(s) >= 0) b.classList.add("c-on");
      row.appendChild(b);
    });
    return row;
  }
  // The seats of a row that have left the game, dimmed and labelled: still offered
  // where the rules take them (a shot at one is a miss, a check may name one).
  function markGone(row) {
    row.querySelectorAll("[data-seat]").forEach(function (b) {
      if (!b.dataset.seat || alive().indexOf(parseInt(b.dataset.seat, 10)) >= 0) return;
      b.classList.add("c-gone-seat");
      b.setAttribute("aria-label", b.dataset.seat + " (" + T.left + ")");
      b.appendChild(el("span", { cls: "c-gone-label", text: T.left }));
    });
    return row;
  }
  function renderPanel() {
    var box = $("[data-testid=panel]");
    box.textContent = "";
    var st = state();
    if (shown.problems && shown.problems.length) box.appendChild(el("p", { cls: "c-problem", text: shown.problems.join(" ") }));
    if (queue.length && queue[0].refused) box.appendChild(refusedPanel());
    if (queue.length && queue[0].moved) box.appendChild(movedPanel());
    if (st.best_move_open) box.appendChild(bestMovePanel());
    if (shown.finished || (st.phase || {}).night) singleLastWord(box, st);
    if (shown.finished) {
      box.appendChild(el("p", { cls: "c-result", "data-testid": "result", text: T.game_over + " " + shown.winner_text }));
      return;
    }
    if ((st.phase || {}).day) dayPanel(box, st); else nightPanel(box, st);
  }
  function refusedPanel() {
    var item = queue[0], rest = queue.length - 1;
    var part = el("section", { cls: "c-block c-refused", "data-testid": "refused" }, [
      el("h3", { text: T.refused + ": " + describe(item) }),
      el("p", { cls: "c-rule", "data-testid": "refused-rule", text: item.refused }),
    ]);
    if (rest) {
      part.appendChild(el("p", { text: fill(T.refused_after, { n: rest }) }));
      part.appendChild(el("ol", { cls: "c-after" }, queue.slice(1).map(function (q) { return el("li", { text: describe(q) }); })));
      part.appendChild(el("div", { cls: "c-row" }, [
        button(T.send_rest, "settle", { keep: "1" }, "c-settle-keep"),
        button(T.discard_rest, "settle", { keep: "" }, "btn-danger c-settle-drop"),
      ]));
    } else {
      part.appendChild(button(T.refused_ok, "settle", { keep: "1" }, "c-settle-keep"));
    }
    return part;
  }
  function movedPanel() {
    var moved = queue[0].moved;
    // what the other device recorded, as sentences: an undo says what it took back
    var theirs = ((view && view.entries) || []).filter(function (e) { return e.number > moved.from; }).map(function (e) {
      return sentence(e.text || (e.kind === "undo" ? T.undo : ""));
    }).filter(Boolean);
    return el("section", { cls: "c-block c-refused", "data-testid": "moved" }, [
      el("p", { "data-testid": "moved-text", text: fill(T.moved, { events: theirs.join(" "), n: queue.length }) }),
      el("ol", { cls: "c-after" }, queue.map(function (q) { return el("li", { text: describe(q) }); })),
      el("div", { cls: "c-row" }, [
        button(T.send_after, "rebase", { keep: "1" }, "c-rebase-keep"),
        button(T.discard_rest, "rebase", { keep: "" }, "btn-danger c-rebase-drop"),
      ]),
    ]);
  }
  function sentence(text) {
    text = String(text || "").trim();
    return !text || /[.!?…]$/.test(text) ? text : text + ".";
  }
  function describe(q) {
    if (q.kind === "undo") return T.undo;
    var e = q.event || {};
    var text = T["ev_" + e.type];
    if (!text) return String(e.type);
    return fill(text, {
      seat: e.seat, by: e.by, team: e.team === "black" ? T.role_black : T.role_red,
      counts: (e.counts || []).join(" : "), seats: (e.seats || []).join(", "), n: e["for"],
      shots: Object.keys(e.by || {}).map(function (k) { return k + "→" + (e.by[k] === null ? "—" : e.by[k]); }).join(", "),
    });
  }
  function bestMovePanel() {
    var killed = state().first_killed;
    var part = el("section", { cls: "c-block", "data-testid": "best-move" }, [
      el("h3", { text: T.best_move + (killed ? " (" + killed + ")" : "") }),
      el("p", { cls: "muted", text: T.best_move_hint }),
    ]);
    // only the seats still in the game at the first night: not those who left on day 1
    var gone = (state().left || []).filter(function (d) { return d.day === 1; }).map(function (d) { return d.seat; });
    var seats = [];
    for (var s = 1; s <= 10; s++) if (s !== killed && gone.indexOf(s) < 0) seats.push(s);
    part.appendChild(seatButtons("pick", seats, {}, ui.picks));
    var rec = button(T.send_best_move, "best-move", {}, "c-big");
    rec.disabled = ui.picks.length !== 3;
    rec.setAttribute("data-testid", "send-best-move");
    part.appendChild(rec);
    return part;
  }
  function dayPanel(box, st) {
    var speeches = talks(st).list;
    var voting = st.voting || {};
    if (!speeches.length && (voting.status === "lift" || voting.status === "over")) {
      box.appendChild(el("section", { cls: "c-block c-speech" }, [
        el("p", { cls: "c-now", "data-testid": "speaker", text: voting.status === "lift" ? T.now_lift : T.now_vote_over }),
      ]));
    }
    if (speeches.length) {
      if (ui.speech >= speeches.length) ui.speech = speeches.length - 1;
      var sp = speeches[ui.speech];
      var what = sp.kind === "lost" ? T.loses_speech : sp.kind === "short" ? T.short_speech : speechLabel(sp);
      box.appendChild(el("section", { cls: "c-block c-speech" }, [
        el("p", { cls: "c-now", "data-testid": "speaker", text: T.speaks + ": " + sp.seat + " " + nick(sp.seat) + " · " + what }),
        el("div", { cls: "c-row" }, [
          button("◀", "prev-speech", {}, "btn-ghost c-nav"),
          el("span", { cls: "c-order", text: speeches.map(function (x) { return x.seat; }).join(" · ") }),
          button(T.next_speaker + " ▶", "next-speech", {}, "c-nav"),
        ]),
      ]));
      if (expects("nominate") && (sp.kind === "speech" || sp.kind === "short") && alive().indexOf(sp.seat) >= 0) {
        var taken = (voting.nominations || []).map(function (n) { return n.seat; });
        var already = (voting.nominations || []).some(function (n) { return n.by === sp.seat; });
        if (!already) {
          var choices = alive().filter(function (s) { return taken.indexOf(s) < 0; });
          box.appendChild(el("section", { cls: "c-block" }, [
            el("h3", { text: sp.seat + " " + T.nominates + ":" }),
            seatButtons("nominate", choices, { by: sp.seat }),
          ]));
        }
      }
    }
    var noms = voting.nominations || [];
    var cancelled = voting.status === "cancelled";
    if (voting.status === "none") {
      // Day 1 without a voting (the online addendum): say so, or the judge looks for the buttons.
      box.appendChild(el("p", { cls: "c-noms", "data-testid": "no-voting", text: T.no_voting_day1 }));
      if (expects("night")) box.appendChild(button(T.to_night, "send", { type: "night" }, "c-big c-night"));
      return;
    }
    var line = el("p", { cls: "c-noms", "data-testid": "nominations", text: noms.length ? T.nominated + ": " : cancelled ? "" : T.nobody_nominated });
    noms.forEach(function (n, i) {
      var unsaved = i >= shown.unsaved.noms;
      line.appendChild(el("span", { cls: unsaved ? "c-unsaved-text" : "", text: (i ? ", " : "") + n.seat + " (" + n.by + ")" + (unsaved ? " · " + T.unsaved : "") }));
    });
    box.appendChild(line);
    if (cancelled) box.appendChild(el("p", { cls: "c-cancelled", "data-testid": "voting-cancelled", text: T.voting_cancelled }));
    // The day's last vote as the log tells it: its counts and what it came to.
    var told = (voting.blocks || []).length && (view.entries || []).filter(function (e) {
      return e.event && (e.event.type === "vote" || e.event.type === "lift") && !e.undone;
    }).pop();
    if (told) box.appendChild(el("p", { cls: "c-now", "data-testid": "vote-result", text: told.text }));
    if (voting.status === "open" && noms.length === 1) {
      // One nominee: no vote; the rules decide as the night falls.
      var only = noms[0].seat;
      var single = (st.phase || {}).day > 1 ? fill(T.single_leaves, { seat: only + " " + nick(only) }) : fill(T.single_day1, { seat: only });
      box.appendChild(el("p", { cls: "c-now", "data-testid": "single-nominee", text: single }));
    }
    if (expects("vote")) box.appendChild(votePanel(voting));
    if (expects("lift")) box.appendChild(liftPanel(voting));
    if (expects("night")) box.appendChild(button(T.to_night, "send", { type: "night" }, "c-big c-night"));
  }
  function votePanel(voting) {
    var cands = voting.candidates || [];
    var living = alive().length;
    if (!ui.votes || ui.votes.key !== cands.join(",") + voting.status) {
      ui.votes = { key: cands.join(",") + voting.status, counts: cands.map(function () { return 0; }) };
    }
    var counts = ui.votes.counts;
    var part = el("section", { cls: "c-block c-vote", "data-testid": "vote" }, [
      el("h3", { cls: shown.unsaved.voting ? "c-unsaved-text" : "", text: (voting.status === "revote" ? T.revote : T.vote) + (shown.unsaved.voting ? " · " + T.unsaved : "") }),
    ]);
    var defence = state().defence || [];
    if (defence.length) {
      var row = el("div", { cls: "c-row c-defence", "data-testid": "defence" }, [el("span", { text: T.defence + ":" })]);
      defence.forEach(function (sp) {
        var b = button(String(sp.seat), "timer", { seconds: sp.seconds, label: T.defence + " · " + sp.seat }, "btn-ghost c-sbtn");
        b.setAttribute("data-testid", "defence-" + sp.seat);
        row.appendChild(b);
      });
      part.appendChild(row);
    }
    cands.forEach(function (seat, i) {
      part.appendChild(el("div", { cls: "c-row c-count" }, [
        el("span", { cls: "c-cand", text: seat + " " + nick(seat) }),
        button("−", "count", { i: i, d: -1 }, "btn-ghost c-step"),
        el("output", { cls: "c-n", "data-testid": "count-" + seat, text: String(counts[i]) }),
        button("+", "count", { i: i, d: 1 }, "c-step"),
      ]));
      part.lastChild.querySelector("[data-d='1']").setAttribute("data-testid", "plus-" + seat);
    });
    var sum = counts.reduce(function (a, b) { return a + b; }, 0);
    part.appendChild(el("p", { cls: sum === living ? "c-sum ok" : "c-sum", "data-testid": "vote-sum",
      text: T.sum + ": " + sum + " / " + living + " " + T.alive + (sum === living ? "" : " — " + T.sum_wrong) }));
    var rec = button(T.send_vote, "vote", {}, "c-big");
    rec.disabled = sum !== living;
    rec.setAttribute("data-testid", "send-vote");
    part.appendChild(rec);
    return part;
  }
  function liftPanel(voting) {
    var living = alive().length;
    if (!ui.votes || ui.votes.key !== "lift") ui.votes = { key: "lift", counts: [0] };
    return el("section", { cls: "c-block c-vote", "data-testid": "lift" }, [
      el("h3", { text: T.lift + " (" + (voting.candidates || []).join(", ") + ")" }),
      el("div", { cls: "c-row c-count" }, [
        el("span", { cls: "c-cand", text: T.lift_for }),
        button("−", "count", { i: 0, d: -1, max: living }, "btn-ghost c-step"),
        el("output", { cls: "c-n", "data-testid": "count-lift", text: String(ui.votes.counts[0]) }),
        button("+", "count", { i: 0, d: 1, max: living }, "c-step"),
      ]),
      button(T.send_lift, "lift", {}, "c-big"),
    ]);
  }
  function nightPanel(box, st) {
    var nights = st.nights || [];
    var night = nights[nights.length - 1] || {};
    if (expects("shots")) {
      var part = el("section", { cls: "c-block", "data-testid": "shots" }, [el("h3", { text: T.shots })]);
      var shooters = alive().filter(function (s) { return roleOf(s) === "black" || roleOf(s) === "don"; });
      shooters.forEach(function (by) {
        part.appendChild(el("p", { cls: "c-shooter", text: by + " " + nick(by) + " (" + T["role_" + roleOf(by)] + ") " + T.shoots + ":" }));
        // A shot may name any seat; one that has left is a miss (marked as gone).
        var row = markGone(seatButtons("aim", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { by: by }, ui.shots[by] ? [ui.shots[by]] : []));
        var none = button(T.no_shot, "aim", { by: by, seat: "" }, "btn-ghost c-sbtn");
        none.setAttribute("data-testid", "aim-" + by + "-none");
        if (ui.shots[by] === null) none.classList.add("c-on");
        row.appendChild(none);
        part.appendChild(row);
      });
      var rec = button(T.send_shots, "shots", {}, "c-big");
      rec.disabled = shooters.some(function (by) { return !(by in ui.shots); });
      rec.setAttribute("data-testid", "send-shots");
      part.appendChild(rec);
      box.appendChild(part);
    } else if (night.shots) {
      box.appendChild(el("p", { cls: "c-now", "data-testid": "night-shots", text: nightShots() }));
    }
    [["don_check", T.don_check], ["sheriff_check", T.sheriff_check]].forEach(function (pair) {
      var done = night[pair[0]];
      if (done) box.appendChild(checkAnswer(pair[1], done));
      else if (expects(pair[0])) {
        var checker = pair[0] === "don_check" ? "don" : "sheriff";
        var own = alive().concat([]).filter(function (s) { return roleOf(s) === checker; })[0];
        var seats = [];
        for (var s = 1; s <= 10; s++) if (s !== own) seats.push(s);
        box.appendChild(el("section", { cls: "c-block", "data-testid": pair[0] }, [
          el("h3", { text: pair[1] + ": " + T.check_seat }),
          // a check may name a seat that has left (game-log.md): offered, marked as gone
          markGone(seatButtons(pair[0], seats)),
        ]));
      }
    });
    if (expects("day")) box.appendChild(button(T.to_day, "send", { type: "day" }, "c-big c-day"));
  }
  // This night's shots as the judge entered them: those waiting in the queue (the
  // projection drew them) come after every saved entry, so the last shots in force
  // of the queue, or else of the saved log, are this night's.
  function nightShots() {
    var waiting = queue.filter(function (q) { return !q.refused && q.kind === "event" && q.event && q.event.type === "shots"; }).pop();
    if (waiting) return describe(waiting) + " · " + T.unsaved;
    return (shown.entries || []).filter(function (e) { return e.event && e.event.type === "shots" && !e.undone; }).map(function (e) { return e.text; }).pop() || "";
  }
  // The single nominee of a day after day 1 left as the night fell: his last word
  // comes first (game-rules.md, Day), shown at the night's top or under the result.
  function singleGone(st) {
    var n = (st.phase || {}).night || (st.phase || {}).day;
    return (st.left || []).filter(function (d) { return d.how === "single" && d.day === n; })[0] || null;
  }
  function singleLastWord(box, st) {
    var gone = singleGone(st);
    if (!gone) return;
    var b = button(T.last_word + " · " + gone.seat, "timer", { seconds: settings().last_word_seconds || 60, label: T.last_word + " · " + gone.seat }, "btn-ghost");
    b.setAttribute("data-testid", "single-last-word-timer");
    box.appendChild(el("section", { cls: "c-block c-speech", "data-testid": "single-last-word" }, [
      el("p", { cls: "c-now", text: fill(T.single_last_word, { seat: gone.seat + " " + nick(gone.seat) }) }), b,
    ]));
  }
  var ANSWERS = { sheriff: "is_sheriff", not_sheriff: "not_sheriff", red: "is_red", black: "is_black" };
  function checkAnswer(title, check) {
    return el("section", { cls: "c-block c-answer", "data-testid": "answer-" + check.answer }, [
      el("h3", { text: title + ": " + check.seat + " " + nick(check.seat) }),
      gesture(check.answer),
      el("p", { cls: "c-gesture-text", text: T[ANSWERS[check.answer]] }),
    ]);
  }
  // The gesture of section 10 as a simple drawing: a head with the way it moves
  // (up and down: a nod; side to side: a shake), and a thumb up or down.
  function gesture(answer) {
    var NS = "http://www.w3.org/2000/svg";
    function svg(tag, attrs) {
      var n = document.createElementNS(NS, tag);
      Object.keys(attrs).forEach(function (k) { n.setAttribute(k, attrs[k]); });
      return n;
    }
    var nod = answer === "sheriff" || answer === "black";
    var pic = svg("svg", { viewBox: "0 0 120 60", width: "180", height: "90", "class": "c-gesture", role: "img", "aria-label": T[ANSWERS[answer]] });
    pic.appendChild(svg("circle", { cx: "30", cy: "30", r: "14", fill: "none", stroke: "currentColor", "stroke-width": "3" }));
    pic.appendChild(svg("path", { d: nod ? "M52 14 V46 M47 19 L52 12 L57 19 M47 41 L52 48 L57 41" : "M8 54 H52 M13 49 L6 54 L13 59 M47 49 L54 54 L47 59",
      fill: "none", stroke: "currentColor", "stroke-width": "3" }));
    if (answer === "red" || answer === "black") {
      var up = answer === "red";
      pic.appendChild(svg("rect", { x: "78", y: up ? "30" : "14", width: "22", height: "16", rx: "4", fill: "currentColor" }));
      pic.appendChild(svg("rect", { x: "80", y: up ? "12" : "30", width: "7", height: "18", rx: "3", fill: "currentColor" }));
    }
    return pic;
  }
  function renderLog() {
    var list = $("[data-testid=log]");
    list.textContent = "";
    (shown.entries || []).forEach(function (e) {
      var text = e.kind === "undo" ? "↶ " + (e.text || T.undo + " (" + e.undoes + ")") : e.text;
      list.appendChild(el("li", { cls: e.undone ? "c-undone" : "", value: String(e.number), text: text }));
    });
    queue.forEach(function (q) {
      list.appendChild(el("li", { cls: q.refused ? "c-pending c-refused-item" : "c-pending", text: "… " + describe(q) + " — " + (q.refused ? T.refused + ": " + q.refused : T.pending) }));
    });
    dropped.forEach(function (q) {
      var why = q.refused ? T.refused + ": " + q.refused : q.undone ? T.undone_unsent : T.discarded;
      list.appendChild(el("li", { cls: "c-dropped", "data-testid": "dropped", text: "✕ " + describe(q) + " — " + why }));
    });
  }
  function renderTools() {
    var online = state().table === "fiim-online";
    root.querySelectorAll("[data-online-only]").forEach(function (n) { n.hidden = !online; });
    var set = settings();
    root.querySelectorAll("[data-preset]").forEach(function (b) {
      var seconds = b.dataset.preset.indexOf("timeout") >= 0 ? (set[b.dataset.preset + "_minutes"] || 0) * 60 : set[b.dataset.preset + "_seconds"];
      b.dataset.seconds = seconds || "";
      b.hidden = !seconds;
    });
  }

  // --- what the judge does ------------------------------------------------------------
  function act(b) {
    var d = b.dataset;
    var seat = d.seat ? parseInt(d.seat, 10) : null;
    switch (d.action) {
      case "foul": send({ type: "foul", seat: seat }); break;
      case "nominate": send({ type: "nominate", by: parseInt(d.by, 10), seat: seat }); break;
      case "send": send({ type: d.type }); break;
      case "don_check": send({ type: "don_check", seat: seat }); break;
      case "sheriff_check": send({ type: "sheriff_check", seat: seat }); break;
      case "prev-speech": ui.speech = Math.max(0, ui.speech - 1); startSpeech(); break;
      case "next-speech": ui.speech += 1; startSpeech(); break;
      case "count":
        var max = d.max ? parseInt(d.max, 10) : alive().length;
        var c = ui.votes.counts;
        c[+d.i] = Math.min(max, Math.max(0, c[+d.i] + parseInt(d.d, 10)));
        render();
        break;
      case "vote": send({ type: "vote", counts: ui.votes.counts.slice() }); ui.votes = null; break;
      case "lift": send({ type: "lift", "for": ui.votes.counts[0] }); ui.votes = null; break;
      case "aim": ui.shots[d.by] = seat; render(); break;
      case "shots": send({ type: "shots", by: Object.assign({}, ui.shots) }); break;
      case "pick":
        var at = ui.picks.indexOf(seat);
        if (at >= 0) ui.picks.splice(at, 1); else if (ui.picks.length < 3) ui.picks.push(seat);
        render();
        break;
      case "best-move": send({ type: "best_move", seats: ui.picks.slice() }); ui.picks = []; break;
      case "undo":
        // One confirmation that names the event; only its own button undoes, once.
        var what = undoTarget();
        if (!what) break;
        ui.undoArmed = true;
        ui.undoWhat = what;
        $("[data-testid=undo-what]").textContent = fill(T.undo_what, { event: what.replace(/[.。]$/, "") });
        $("[data-testid=undo-confirm]").hidden = false;
        break;
      case "undo-yes":
        if (!ui.undoArmed) break;
        disarmUndo();
        enqueue("undo", null);
        break;
      case "undo-no": disarmUndo(); break;
      case "close-game":
      case "close-cancel":
        // closing shows the roles to everyone: a second, explicit step
        var closing = d.action === "close-game";
        $("[data-testid=close-confirm]").hidden = !closing;
        $("[data-testid=close-game]").hidden = closing;
        break;
      case "settle": settle(!!d.keep); break;
      case "rebase": rebase(!!d.keep); break;
      case "timer-toggle": toggleTimer(); break;
      case "timer-reset": setTimer(timer.total, timer.label); break;
      case "timer": setTimer(parseInt(d.seconds, 10), d.label || b.textContent); break;
    }
  }
  function startSpeech() {
    var sp = talks().list[ui.speech];
    if (sp) setTimer(sp.seconds, speechLabel(sp));
    render();
  }
  root.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-action]");
    if (!b || !root.contains(b) || b.disabled) return;
    act(b);
  });
  // The tool forms (removal, defeat, time-out) build their event from their fields.
  root.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset.event) return;
    ev.preventDefault();
    var f = form.elements, type = form.dataset.event, event = { type: type };
    if (type === "remove") {
      event.seat = parseInt(f.seat.value, 10);
      event.reason = f.reason.value;
      if (f.online && f.online.checked) event.online = true;
      event.fined = f.fined.checked;
    } else if (type === "defeat") {
      event.team = f.team.value;
      event.reason = f.reason.value;
    } else if (type === "pause") {
      event.seat = parseInt(f.seat.value, 10);
      event.minutes = parseInt(f.minutes.value, 10);
      event.reason = f.reason.value;
      setTimer(event.minutes * 60, T.pause);
    }
    send(event);
    form.reset();
  });

  setTimer(60, T.speech);
  start();
})();

// The online table: a side judge's report made while the console is open is told
// here (the reports themselves are shown, with their decisions, when the page loads).
(function () {
  "use strict";
  var root = document.getElementById("console");
  var notice = document.querySelector("[data-testid=report-notice]");
  if (!root || !notice || !root.dataset.reports) return;
  var shown = parseInt(notice.dataset.pending || "0", 10);
  window.setInterval(function () {
    if (!navigator.onLine) return;
    fetch(root.dataset.reports, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : []; })
      .then(function (reports) {
        var pending = reports.filter(function (r) { return r.status === "pending"; }).length;
        notice.hidden = pending <= shown;
      })
      .catch(function () {});
  }, 10000);
})();
