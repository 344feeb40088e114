/* The judge console. Reads the game's log and state from the API and sends each
   event as it happens. Events wait in localStorage until the server has them, so a
   reload or a lost connection loses nothing; every entry carries its own id, so a
   resend is harmless. Where the judge is (the speech, the clock) is kept in the
   tab's sessionStorage, so that a reload returns to the same speech with the clock
   still running. The engine on the server decides every rule: this script only
   shows its state and offers the events it expects. */
(function () {
  "use strict";
  var root = document.getElementById("console");
  if (!root) return;
  var T = JSON.parse(document.getElementById("console-strings").textContent);
  var API = root.dataset.api;
  var KEY = "mafiatab-console-" + root.dataset.log;
  var view = null;
  var queue = readQueue();
  var sending = false;
  var retry = null;
  var ui = { speech: 0, day: null, picks: [], shots: {}, votes: null, undoArmed: false };
  var PLACE = KEY + "-place";
  var kept = readPlace();

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
  function readQueue() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function saveQueue() { window.localStorage.setItem(KEY, JSON.stringify(queue)); }
  function readPlace() {
    try { return JSON.parse(window.sessionStorage.getItem(PLACE) || "null"); } catch (e) { return null; }
  }
  function savePlace() {
    if (ui.day === null) return;
    var t = { total: timer.total, left: timer.left, label: timer.label, running: timer.running, at: timer.at };
    try {
      window.sessionStorage.setItem(PLACE, JSON.stringify({ day: ui.day, speech: ui.speech, timer: t }));
    } catch (e) { /* storage off or full: the place is a convenience, the log is safe */ }
  }
  function state() { return (view && view.state) || {}; }
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
      headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf },
      body: body ? JSON.stringify(body) : undefined,
    });
  }
  function load() {
    return request("GET", API).then(function (r) { return r.json(); }).then(function (data) {
      view = data;
      render();
    });
  }
  function enqueue(kind, event) {
    var after = (view ? view.number : 0) + queue.length;
    queue.push({ id: uuid(), kind: kind, event: event, after: after });
    saveQueue();
    render();
    flush();
  }
  function send(event) { enqueue("event", event); }
  function flush() {
    if (sending || !queue.length) return;
    sending = true;
    renderSync();
    var item = queue[0];
    var url = API + (item.kind === "undo" ? "/undo" : "/events");
    var body = item.kind === "undo" ? { id: item.id, after: item.after } : { id: item.id, after: item.after, event: item.event };
    request("POST", url, body).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) { return { status: r.status, data: data }; });
    }).then(function (res) {
      sending = false;
      if (res.status === 200 || res.status === 201) {
        queue.shift();
        saveQueue();
        view = merged(res.data);
        showError("");
        render();
        flush();
      } else if (res.status >= 500 || res.status === 401 || res.status === 403) {
        // The server is down or the session ended: keep every event and try again.
        showError(res.status < 500 ? T.not_saved + ": " + ((res.data && res.data.detail) || "") : "");
        wait();
      } else {
        // Refused: this entry and those made after it (they assumed it) are dropped.
        var dropped = queue.splice(0, queue.length);
        saveQueue();
        var detail = (res.data && res.data.detail) || "";
        showError(T.not_saved + ": " + detail + (dropped.length > 1 ? " (+" + (dropped.length - 1) + ")" : ""));
        load();
      }
    }).catch(function () {
      sending = false;
      wait();
    });
  }
  // A write is answered with the entry written and the state, not the whole log:
  // the entry is added to those shown (an undo marks the event it takes back).
  function merged(data) {
    var entry = data.entry;
    if (!data.partial || !entry) return data;
    var known = (view && view.entries) || [];
    if (known.some(function (e) { return e.number === entry.number; })) {
      data.entries = known; // a resend of an entry shown already
      return data;
    }
    if (!view || view.number < entry.number - 1) {
      window.setTimeout(load, 0); // entries are missing in between: read the whole log
      data.entries = known;
      return data;
    }
    data.entries = known.filter(function (e) { return e.number < entry.number; }).map(function (e) {
      return e.number === entry.undoes ? Object.assign({}, e, { undone: true }) : e;
    });
    data.entries.push(entry);
    return data;
  }
  function wait() {
    renderSync(true);
    if (retry) return;
    retry = window.setTimeout(function () { retry = null; flush(); }, 3000);
  }
  window.addEventListener("online", function () { flush(); });

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

  // --- drawing ------------------------------------------------------------------------
  function render() {
    if (!view) return;
    var st = state();
    var phase = st.phase || {};
    $("[data-testid=phase]").textContent = view.phase_text + (view.finished ? " · " + view.winner_text : "");
    var dayKey = phase.day ? "d" + phase.day : "n" + phase.night;
    if (ui.day !== dayKey) {
      ui.day = dayKey;
      ui.speech = 0;
      ui.picks = [];
      ui.shots = {};
      ui.votes = null;
      var first = (st.speeches || [])[0];
      if (kept && kept.day === dayKey && kept.timer) {
        // A reload: back to the speech and the clock where the judge was.
        ui.speech = Math.max(0, kept.speech | 0);
        restoreTimer(kept.timer);
      } else if (!view.number && settings().zero_night_seconds) {
        setTimer(settings().zero_night_seconds, T.zero_night);
      } else if (first) {
        setTimer(first.seconds, first.kind === "last_word" ? T.last_word : T.speech);
      }
      kept = null;
    }
    renderSeats();
    renderPanel();
    renderLog();
    renderSync();
    $("[data-testid=finish-form]").hidden = !view.finished || queue.length > 0;
    if (!view.finished) { // an undo took the end back: the closing starts over
      $("[data-testid=close-confirm]").hidden = true;
      $("[data-testid=close-game]").hidden = false;
    }
    $(".c-tools").hidden = !!view.finished;
    renderTools();
    savePlace();
  }
  function renderSync(offline) {
    var text = queue.length ? (offline ? T.offline : T.sending) + " (" + queue.length + ")" : T.online;
    $("[data-testid=sync]").textContent = text;
    root.classList.toggle("c-offline", !!offline);
  }
  function speaker() {
    var sp = (state().speeches || [])[ui.speech];
    return sp ? sp.seat : null;
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
      var speaking = (st.last_word || []).indexOf(seat) >= 0 && !view.finished;
      if (left[seat]) {
        tile.classList.add(speaking ? "c-left-speaking" : "c-left");
        foot.appendChild(el("span", { cls: "c-gone", text: T.left }));
        if (speaking) foot.appendChild(el("span", { cls: "c-lastword", "data-testid": "last-word-" + seat, text: T.last_word }));
      }
      if (!view.finished && (!left[seat] || speaking)) {
        var fb = button(T.foul, "foul", { seat: seat }, "c-foul");
        fb.setAttribute("data-testid", "foul-" + seat);
        foot.appendChild(fb);
      }
      if (seat === speaker() && state().phase && state().phase.day) tile.classList.add("c-speaking");
      if (nominated.indexOf(seat) >= 0) tile.classList.add("c-nominated");
      if (n === 3) tile.classList.add("c-three");
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
  function renderPanel() {
    var box = $("[data-testid=panel]");
    box.textContent = "";
    var st = state();
    if (view.problems && view.problems.length) box.appendChild(el("p", { cls: "c-problem", text: view.problems.join(" ") }));
    if (st.best_move_open) box.appendChild(bestMovePanel());
    if (view.finished) {
      box.appendChild(el("p", { cls: "c-result", "data-testid": "result", text: T.game_over + " " + view.winner_text }));
      return;
    }
    if ((st.phase || {}).day) dayPanel(box, st); else nightPanel(box, st);
  }
  function bestMovePanel() {
    var killed = state().first_killed;
    var part = el("section", { cls: "c-block", "data-testid": "best-move" }, [
      el("h3", { text: T.best_move + (killed ? " (" + killed + ")" : "") }),
      el("p", { cls: "muted", text: T.best_move_hint }),
    ]);
    var seats = [];
    for (var s = 1; s <= 10; s++) if (s !== killed) seats.push(s);
    part.appendChild(seatButtons("pick", seats, {}, ui.picks));
    var rec = button(T.send_best_move, "best-move", {}, "c-big");
    rec.disabled = ui.picks.length !== 3;
    rec.setAttribute("data-testid", "send-best-move");
    part.appendChild(rec);
    return part;
  }
  function dayPanel(box, st) {
    var speeches = st.speeches || [];
    var voting = st.voting || {};
    if (speeches.length) {
      if (ui.speech >= speeches.length) ui.speech = speeches.length - 1;
      var sp = speeches[ui.speech];
      var what = sp.kind === "last_word" ? T.last_word : sp.kind === "lost" ? T.loses_speech : sp.kind === "short" ? T.short_speech : T.speech;
      box.appendChild(el("section", { cls: "c-block c-speech" }, [
        el("p", { cls: "c-now", "data-testid": "speaker", text: T.speaks + ": " + sp.seat + " " + nick(sp.seat) + " · " + what }),
        el("div", { cls: "c-row" }, [
          button("◀", "prev-speech", {}, "btn-ghost c-nav"),
          el("span", { cls: "c-order", text: speeches.map(function (x) { return x.seat; }).join(" · ") }),
          button(T.next_speaker + " ▶", "next-speech", {}, "c-nav"),
        ]),
      ]));
      if (expects("nominate") && sp.kind !== "last_word" && sp.kind !== "lost" && alive().indexOf(sp.seat) >= 0) {
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
    box.appendChild(el("p", { cls: "c-noms", "data-testid": "nominations", text: noms.length
      ? T.nominated + ": " + noms.map(function (n) { return n.seat + " (" + n.by + ")"; }).join(", ")
      : cancelled ? "" : T.nobody_nominated }));
    if (cancelled) box.appendChild(el("p", { cls: "c-cancelled", "data-testid": "voting-cancelled", text: T.voting_cancelled }));
    // The day's last vote as the log tells it: its counts and what it came to.
    var told = (voting.blocks || []).length && (view.entries || []).filter(function (e) {
      return e.event && (e.event.type === "vote" || e.event.type === "lift") && !e.undone;
    }).pop();
    if (told) box.appendChild(el("p", { cls: "c-now", "data-testid": "vote-result", text: told.text }));
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
      el("h3", { text: voting.status === "revote" ? T.revote : T.vote }),
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
        var row = seatButtons("aim", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { by: by }, ui.shots[by] ? [ui.shots[by]] : []);
        row.querySelectorAll("[data-seat]").forEach(function (b) {
          if (alive().indexOf(parseInt(b.dataset.seat, 10)) < 0) b.classList.add("c-gone-seat");
        });
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
      box.appendChild(el("p", { cls: "c-now", text: view.entries.filter(function (e) { return e.event && e.event.type === "shots" && !e.undone; }).map(function (e) { return e.text; }).pop() || "" }));
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
          seatButtons(pair[0], seats),
        ]));
      }
    });
    if (expects("day")) box.appendChild(button(T.to_day, "send", { type: "day" }, "c-big c-day"));
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
    (view.entries || []).forEach(function (e) {
      var text = e.kind === "undo" ? "↶ " + T.undo + " (" + e.undoes + ")" : e.text;
      list.appendChild(el("li", { cls: e.undone ? "c-undone" : "", value: String(e.number), text: text }));
    });
    queue.forEach(function (q) {
      list.appendChild(el("li", { cls: "c-pending", text: (q.kind === "undo" ? T.undo : q.event.type) + " — " + T.pending }));
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
        if (!ui.undoArmed) {
          ui.undoArmed = true;
          b.textContent = T.undo_confirm;
          window.setTimeout(function () { ui.undoArmed = false; b.textContent = T.undo; }, 4000);
        } else {
          ui.undoArmed = false;
          b.textContent = T.undo;
          enqueue("undo", null);
        }
        break;
      case "close-game":
      case "close-cancel":
        // closing shows the roles to everyone: a second, explicit step
        var closing = d.action === "close-game";
        $("[data-testid=close-confirm]").hidden = !closing;
        $("[data-testid=close-game]").hidden = closing;
        break;
      case "timer-toggle": toggleTimer(); break;
      case "timer-reset": setTimer(timer.total, timer.label); break;
      case "timer": setTimer(parseInt(d.seconds, 10), d.label || b.textContent); break;
    }
  }
  function startSpeech() {
    var sp = (state().speeches || [])[ui.speech];
    if (sp) setTimer(sp.seconds, sp.kind === "last_word" ? T.last_word : T.speech);
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
  load().then(flush, function () { wait(); });
})();
