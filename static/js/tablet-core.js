/* clubwhist: what every table's tablet shares, whatever the format (duplicate events at /t/,
   progressive drives at /d/, team tournaments at /tt/). Loaded before the format's own script,
   which keeps only its screens and calls this one as `window.clubwhistTablet`.

   Plain ES5 (old tablets, no build step). One retry policy for everything a tablet sends or
   asks: after a failure, wait 1 s, then twice as long each time up to 30 s, with a little
   jitter so a room of tablets that lost the Wi-Fi together does not come back together; a
   busy server's Retry-After (a 429, or a stream's 503) is honoured as a floor, and until it
   has passed the tablet asks nothing at all. Any answer resets the wait to 1 s.

   The rest: the page's settings from its data- attributes, localStorage under a key per table
   link, the request (with the events' write receipt), the offline queue that keeps what the
   players sent until the server has answered it, the banner that says the tablet is offline,
   retrying or turned away, the service worker that lets the page reload without a network,
   the live wake-up (a server-sent-events stream, with a poll beside it and instead of it),
   the DOM helper that draws the red suits, and what keyboards and screen readers need: a
   redraw that keeps focus, pickers as radio groups, a modal dialog, spoken outcomes and the
   large-print switch. */
(function () {
  'use strict';
  var core = {};
  var cfg = core.cfg = document.body.dataset; // api, token, sw, cache, stream: per page
  var banner = document.getElementById('banner');

  // ---- storage (a key per table link: two tables' tabs on one device never mix) ----------
  core.key = function (name) { return 'clubwhist-' + name + '-' + cfg.token; };
  core.load = function (key, fallback) {
    try { var v = window.localStorage.getItem(key); return v ? JSON.parse(v) : fallback; }
    catch (e) { return fallback; }
  };
  core.save = function (key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full */ }
  };

  // ---- the one retry policy ----------------------------------------------------------------
  var FIRST = 1000, MOST = 30000;
  core.failing = false;   // the last request could not reach the server, or it was refused
  core.busy = false;      // the server answered "too many" or "not now" (429, 503)
  var wait = FIRST;       // the next retry's wait
  var holdUntil = 0;      // Retry-After: ask nothing before this time (ms)

  /** The wait before the next retry (ms), and the one after it doubled; `after` is a
      Retry-After in seconds, the least this wait may be. */
  core.nextWait = function (after) {
    var ms = wait * (0.85 + Math.random() * 0.3);
    wait = Math.min(wait * 2, MOST);
    if (after > 0) {
      ms = Math.max(ms, after * 1000);
      holdUntil = Math.max(holdUntil, Date.now() + after * 1000);
    }
    return Math.round(ms);
  };
  /** Whether a Retry-After still holds: polls are skipped until it has passed. */
  core.held = function () { return Date.now() < holdUntil; };
  function answered(status) {
    if (status !== 0 && status !== 429 && status < 500) {
      wait = FIRST; core.failing = false; core.busy = false;
    }
  }
  /** Whether an answer means "try the same again later": no answer, the server's error, or
      a server too busy to take it. */
  core.retryable = function (status) { return status === 0 || status === 429 || status >= 500; };

  // ---- requests -------------------------------------------------------------------------------
  // A write's answer may carry a receipt (the events' API), sent back with the next request: it
  // tells the server the write has committed, so the table's state can be cached again at once.
  var receipt = null;
  /** `done(status, data, retryAfter)`: status 0 when there was no answer; `retryAfter` in
      seconds when the server sent one. */
  core.request = function (method, path, body, done) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, cfg.api + path, true);
    xhr.setRequestHeader('Content-Type', 'application/json');
    if (receipt) { xhr.setRequestHeader('Clubwhist-Receipt', receipt); receipt = null; }
    xhr.timeout = 15000;
    var finished = false;
    function finish(status, data, after) {
      if (finished) { return; }
      finished = true;
      answered(status);
      if (status === 429 || status === 503) { core.busy = true; }
      done(status, data, after);
    }
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4 || xhr.status === 0) { return; } // no answer: ontimeout/onerror
      var given = xhr.getResponseHeader('Clubwhist-Receipt');
      if (given) { receipt = given; }
      var after = parseInt(xhr.getResponseHeader('Retry-After') || '', 10);
      var data = null;
      try { data = JSON.parse(xhr.responseText); } catch (e) { data = null; }
      finish(xhr.status, data, isNaN(after) ? 0 : after);
    };
    xhr.ontimeout = xhr.onerror = xhr.onabort = function () { finish(0, null, 0); };
    xhr.send(body ? JSON.stringify(body) : null);
  };

  // ---- every change this page makes or learns ------------------------------------------------
  // A state asked for before the latest change may not know it (it can answer after a write's
  // 201), so the formats compare `core.epoch` before and after and drop such a state.
  core.epoch = 0;
  /** Ask for the table's state (the format's GET): `done(status, data)`. A state asked for
      before the latest change this page made or learnt may not know it (a write's 201 can
      come first, and a tablet's own result moves no version the page could compare), so it is
      asked for again, never shown: every format's page reads its state through this. */
  core.askState = function (done) {
    var asked = core.epoch;
    core.request('GET', '', null, function (status, data, after) {
      if (status === 200 && asked !== core.epoch) { core.askState(done); return; }
      done(status, data, after);
    });
  };

  // ---- the offline queue ---------------------------------------------------------------------
  /** What the players sent, kept in localStorage under `key` until the server has answered it,
      sent one at a time in order. `send(item, done)` makes the request (or calls done(null)
      when the item can no longer be sent: it is dropped); `answer(item, status, data)` is
      told every answer but a retryable one (the item then leaves the queue, unless it removed
      itself already); `idle()` runs when the queue has emptied. */
  core.queue = function (key, send, answer, idle) {
    var q = {items: core.load(key, []), sending: false};
    var timer = null;
    q.save = function () { core.save(key, q.items); };
    q.push = function (item) { core.epoch += 1; q.items.push(item); q.save(); q.flush(); };
    q.remove = function (test) {
      q.items = q.items.filter(function (it) { return !test(it); }); q.save();
    };
    /** Send what waits, unless a retry is already timed (`now`: at once all the same, as
        when the connection comes back). */
    q.flush = function (now) {
      if (timer && !now) { core.showBanner(); return; }
      if (timer) { window.clearTimeout(timer); timer = null; }
      if (q.sending || !q.items.length) { core.showBanner(); return; }
      q.sending = true;
      core.showBanner();
      var item = q.items[0];
      send(item, function (status, data, after) {
        q.sending = false;
        if (status === null) { q.remove(function (it) { return it === item; }); q.flush(); return; }
        if (core.retryable(status)) {
          core.failing = true;
          timer = window.setTimeout(function () { timer = null; q.flush(); }, core.nextWait(after));
          core.showBanner();
          return;
        }
        core.epoch += 1;
        var index = q.items.indexOf(item);
        answer(item, status, data);
        if (q.items[index] === item) { q.items.splice(index, 1); q.save(); }
        if (q.items.length) { q.flush(); } else { core.showBanner(); if (idle) { idle(); } }
      });
    };
    q.retrying = function () { return timer !== null; };
    core.queued = q;
    return q;
  };

  // ---- the banner: offline, retrying, turned away, or sending --------------------------------
  /** `words.offline(waiting)`, `words.sending(waiting)`: the format's sentences; `count()` how
      many things wait (results, not requests). */
  var words = null, count = function () { return core.queued ? core.queued.items.length : 0; };
  core.banner = function (sentences, counter) { words = sentences; if (counter) { count = counter; } };
  core.offline = function () { return core.failing || navigator.onLine === false; };
  core.showBanner = function () {
    if (!banner || !words) { return; }
    var waiting = count();
    var shown = '', cls = 'banner';
    if (navigator.onLine !== false && core.busy) {
      cls += ' offline busy';
      shown = 'The server is busy: this tablet tries again by itself in a moment' +
        (waiting ? ', and keeps what you sent until then.' : '.');
    } else if (core.offline()) {
      cls += ' offline';
      shown = words.offline(waiting);
    } else if (waiting) {
      cls += ' sending';
      shown = words.sending(waiting);
    }
    banner.hidden = !shown;
    banner.className = cls;
    if (banner.textContent !== shown) { banner.textContent = shown; }
  };

  // ---- reloading without a network ----------------------------------------------------------
  /** The page's service worker (data-sw) for its scope: it keeps a copy of the page and its
      files. The first load did not pass through the worker, so the page puts itself in the
      worker's cache; then the body says `data-offline-ready` (the browser tests wait on it). */
  core.offlineReload = function (scope) {
    if (!('serviceWorker' in navigator) || !cfg.sw) { return; }
    navigator.serviceWorker.register(cfg.sw, {scope: scope}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      return window.caches.open(cfg.cache).then(function (cache) { return cache.add(location.href); });
    }).then(function () {
      document.body.setAttribute('data-offline-ready', '1');
    }).catch(function () { /* no offline reloads here (plain HTTP): the queue still works */ });
  };

  // ---- the live wake-up ----------------------------------------------------------------------
  /** Follow the server: `poll()` asks for the state (the format's GET), `state(data)` takes
      what the stream sends. With a stream (data-stream and EventSource), the server sends the
      table's state the moment it changes and `poll` runs every `slow` ms beside it (what does
      not wake the stream, such as other tables' counts); without one, or while the stream is
      refused or gone, `poll` runs every `fast` ms and the stream is tried again after the one
      retry policy's wait. Polls are skipped while a Retry-After holds. */
  core.live = function (poll, state, fast, slow) {
    var source = null, reopen = null;
    function open() {
      reopen = null;
      if (!cfg.stream || !window.EventSource) { return; }
      source = new window.EventSource(cfg.stream);
      source.addEventListener('open', function () { core.failing = false; core.showBanner(); });
      source.addEventListener('state', function (e) {
        var data = null;
        try { data = JSON.parse(e.data); } catch (err) { return; }
        core.failing = false; core.busy = false; core.showBanner();
        state(data);
      });
      // Turned away (over a cap) or closed for good (a 503, a link replaced): poll meanwhile,
      // and ask for a stream again after the wait. A dropped stream reconnects by itself.
      source.addEventListener('busy', function () { closed(15); });
      source.onerror = function () { if (source && source.readyState === 2) { closed(0); } };
    }
    function closed(after) {
      if (source) { source.close(); source = null; }
      if (!reopen) { reopen = window.setTimeout(open, core.nextWait(after)); }
    }
    var last = 0;
    window.setInterval(function () {
      var every = source && source.readyState === 1 ? slow : fast;
      if (Date.now() - last < every - 50 || core.held()) { return; }
      last = Date.now();
      poll();
    }, Math.min(fast, 1000));
    core.pollNow = function () { last = Date.now(); poll(); };
    open();
  };

  window.addEventListener('online', function () {
    core.failing = false; wait = FIRST;
    if (core.queued) { core.queued.flush(true); }
    if (core.pollNow) { core.pollNow(); }
  });
  window.addEventListener('offline', function () { core.failing = true; core.showBanner(); });

  // ---- drawing -------------------------------------------------------------------------------
  /** An element: `text` is drawn with the suits (withSuits), `onclick` set as the handler,
      other attributes set as they are; null children are skipped. */
  core.el = function (tag, attrs, children) {
    var node = document.createElement(tag);
    for (var k in attrs || {}) {
      if (!attrs.hasOwnProperty(k)) { continue; }
      if (k === 'text') { core.withSuits(node, String(attrs[k])); }
      else if (k === 'onclick') { node.onclick = attrs[k]; }
      else if (k === 'class') { node.className = attrs[k]; }
      else { node.setAttribute(k, attrs[k]); }
    }
    (children || []).forEach(function (c) { if (c) { node.appendChild(c); } });
    return node;
  };
  core.text = function (t) { return document.createTextNode(t); };
  /** Hearts and diamonds in red, as on the cards: each red suit symbol gets a span. */
  core.withSuits = function (node, t) {
    t.split(/([\u2665\u2666\u2660\u2663])/).forEach(function (part) {
      if (!part) { return; }
      if (part === '\u2665' || part === '\u2666') {
        var mark = document.createElement('span');
        mark.className = 'suit red';
        mark.textContent = part;
        node.appendChild(mark);
      } else { node.appendChild(document.createTextNode(part)); }
    });
  };
  core.SYMBOLS = {hearts: '\u2665', diamonds: '\u2666', spades: '\u2660', clubs: '\u2663'};

  // ---- keyboard and screen readers ----------------------------------------------------------
  // Every screen is drawn afresh from the state (a pick, an answer, a refresh). Drawn
  // naively that throws the keyboard's place away: the focused button is gone, focus falls
  // to the page's body and the next Tab starts from the top. `core.draw` keeps it: the
  // control that had focus gets it back in the new drawing (matched by `focusKey`), a
  // refresh never moves it, and only a new screen moves it, to that screen's heading, which
  // a screen reader then reads out.

  /** What names a control from one drawing to the next: its data-focus, its id, or its tag,
      field and words. */
  core.focusKey = function (node) {
    if (!node || node === document.body || !node.getAttribute) { return null; }
    return node.getAttribute('data-focus') || (node.id ? '#' + node.id :
      node.tagName + '|' + (node.getAttribute('data-field') || '') + '|' + (node.textContent || '').trim());
  };
  function findByKey(root, key) {
    var nodes = root.querySelectorAll('button, input, textarea, select, a[href], [tabindex]');
    for (var i = 0; i < nodes.length; i++) {
      if (core.focusKey(nodes[i]) === key) { return nodes[i]; }
    }
    return null;
  }
  /** Focus `node` without the browser's jump; then scroll only as far as it takes to show it
      whole (the page's scroll-padding keeps it clear of the sticky bars: `clearOfBar`). */
  core.focus = function (node) {
    if (!node) { return; }
    try { node.focus({preventScroll: true}); } catch (e) { node.focus(); }
    if (node.scrollIntoView) {
      try { node.scrollIntoView({block: 'nearest'}); } catch (e2) { node.scrollIntoView(false); }
    }
  };
  /** The screen's heading, made focusable (not a Tab stop), to take focus on a new screen. */
  function headingOf(root) {
    var h = root.querySelector('h1, h2');
    if (h && !h.hasAttribute('tabindex')) { h.setAttribute('tabindex', '-1'); }
    return h;
  }
  /** Keep the room above a control the browser scrolls to (Tab, a field at fault) as tall as
      the sticky bar is now: one row on a wide screen, two or three on a phone, none when the
      bar scrolls away with the page (a short screen, large print). Measured, not set per
      tablet: the bar's height changes with its words (the hand, the trumps, the round). */
  var bar = document.querySelector('.bar');
  core.clearOfBar = function () {
    if (!bar) { return; }
    var sticky = window.getComputedStyle(bar).position === 'sticky';
    document.documentElement.style.scrollPaddingTop = sticky ? (bar.offsetHeight + 12) + 'px' : '0px';
  };
  window.addEventListener('resize', function () { core.clearOfBar(); });

  // A tap is a press and a release; the browser calls it a click only when both land on the
  // same element. A drawing between the two (a refresh answered, the live stream's news)
  // replaces that element and the tap is lost: the player taps "Enter board 2" and nothing
  // happens. So while a finger or the mouse is down on a control (or the space bar, which
  // presses a button on its release), a drawing waits, and is made once the release's click
  // has run, unless that click drew the screen itself (the waiting drawing is then stale and
  // dropped). A thumb resting on the page's edge or text holds nothing back. A release with
  // no click (a finger slid off) draws after a short wait; a press held longer than HOLD_MS
  // (or one the page never sees end) stops holding drawings back.
  var HOLD_MS = 3000;
  var down = {};       // what is pressed now: pointer ids on a control, and 'space'
  var waiting = null;  // the drawing held back meanwhile: [root, name, build]
  var releaseTimer = null, stuckTimer = null;
  function pressing() { for (var key in down) { return true; } return false; }
  function drawWaiting() {
    releaseTimer = null;
    if (pressing() || !waiting) { return; }
    var held = waiting;
    waiting = null;
    core.draw(held[0], held[1], held[2]);
  }
  function drawSoon(after) {
    if (releaseTimer !== null) { window.clearTimeout(releaseTimer); }
    releaseTimer = window.setTimeout(drawWaiting, after);
  }
  function press(key) {
    down[key] = true;
    if (stuckTimer !== null) { window.clearTimeout(stuckTimer); }
    stuckTimer = window.setTimeout(function () { down = {}; drawWaiting(); }, HOLD_MS);
  }
  function release(key, after) {
    if (!down[key]) { return; }
    delete down[key];
    drawSoon(after);
  }
  function isSpace(e) { return e.key === ' ' || e.key === 'Spacebar'; }
  var CONTROLS = 'button, a[href], input, select, textarea, label, [role="button"], [role="radio"]';
  document.addEventListener('pointerdown', function (e) {
    if (e.target && e.target.closest && e.target.closest(CONTROLS)) { press(e.pointerId); }
  }, true);
  document.addEventListener('pointerup', function (e) { release(e.pointerId, 400); }, true);
  document.addEventListener('pointercancel', function (e) { release(e.pointerId, 0); }, true);
  document.addEventListener('keydown', function (e) { if (isSpace(e) && !e.repeat) { press('space'); } }, true);
  document.addEventListener('keyup', function (e) { if (isSpace(e)) { release('space', 400); } }, true);
  // The click comes after its release: what waits is drawn after the click's own handlers.
  document.addEventListener('click', function () { if (!pressing() && waiting) { drawSoon(0); } }, true);
  window.addEventListener('blur', function () { down = {}; drawSoon(0); });

  var drawn = null; // the name of the screen drawn last
  /** Empty `root` and `build()` it again as screen `name`, keeping the player's place: the
      scroll position and, when focus was in `root` (or in nothing), the focused control. A
      new `name` (another screen) sends focus to the new screen's heading, or its first
      control when it has no heading. While a press is under way the drawing waits (above). */
  core.draw = function (root, name, build) {
    if (pressing()) { waiting = [root, name, build]; return; }
    waiting = null;
    core.clearOfBar();  // the format has just written the bar's words for this screen
    var active = document.activeElement;
    var inside = active && active !== document.body && root.contains(active);
    var key = inside ? core.focusKey(active) : null;
    var x = window.pageXOffset, y = window.pageYOffset;
    var changed = drawn !== null && drawn !== name;
    var first = drawn === null;
    drawn = name;
    root.innerHTML = '';
    build();
    if (first) { return; }
    if (changed) {
      window.scrollTo(0, 0);
      core.focus(headingOf(root) || root.querySelector('button:not([disabled]), input, textarea'));
      return;
    }
    window.scrollTo(x, y);
    if (!inside) { return; } // focus elsewhere (the bar, a dialog) or nowhere: leave it be
    core.focus(findByKey(root, key) || headingOf(root));
  };

  /** Say `words` to a screen reader (a polite live region, invisible): what a tap did, or why
      it was refused. The same words twice are said twice. */
  var announcer = null;
  core.announce = function (words) {
    if (!announcer) {
      announcer = core.el('div', {id: 'announcer', class: 'sr-only', role: 'status', 'aria-live': 'polite'});
      document.body.appendChild(announcer);
    }
    announcer.textContent = '';
    window.setTimeout(function () { announcer.textContent = words; }, 60);
  };

  /** A picker as a radio group (the WAI-ARIA pattern): one Tab stop; the arrow keys move to
      the next or previous choice and pick it, Home and End the first and last; Space or
      Enter picks the focused one; on a group of numbers, typing the number picks it (1 then
      2 within a second: 12), so a trick count is one or two keys, not a dozen arrows.
      `o`: {field, legend, options: [{value, label}], selected, onPick(value), help, id,
      cls}. The buttons keep class `pick` (and `on` when picked) and data-field. */
  var typedDigits = {}; // by field: the digits typed last and when (1 then 2 within 1 s: 12)
  core.radioGroup = function (o) {
    var legendId = 'legend-' + o.field.replace(/\W/g, '-');
    var group = core.el('fieldset', {class: o.cls || 'picker', role: 'radiogroup',
      'aria-labelledby': legendId}, [core.el('legend', {id: legendId, text: o.legend})]);
    if (o.id) { group.id = o.id; }
    var buttons = [];
    var picked = -1;
    o.options.forEach(function (c, i) { if (c.value === o.selected) { picked = i; } });
    o.options.forEach(function (c, i) {
      var on = i === picked;
      var b = core.el('button', {type: 'button', role: 'radio', class: 'pick' + (on ? ' on' : ''),
        'aria-checked': on ? 'true' : 'false', tabindex: (on || (picked < 0 && i === 0)) ? '0' : '-1',
        'data-field': o.field, 'data-focus': 'pick|' + o.field + '|' + String(c.value), text: c.label,
        onclick: function () { o.onPick(c.value); }});
      buttons.push(b);
      group.appendChild(b);
    });
    function go(i) {
      if (i < 0 || i >= buttons.length) { return; }
      core.focus(buttons[i]);   // first, so the drawing that follows keeps focus here
      o.onPick(o.options[i].value);
    }
    group.addEventListener('keydown', function (e) {
      var at = buttons.indexOf(document.activeElement);
      if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) { return; }
      var k = e.key;
      if (k === 'ArrowRight' || k === 'ArrowDown') { go((at + 1) % buttons.length); }
      else if (k === 'ArrowLeft' || k === 'ArrowUp') { go((at - 1 + buttons.length) % buttons.length); }
      else if (k === 'Home') { go(0); }
      else if (k === 'End') { go(buttons.length - 1); }
      else if (/^[0-9]$/.test(k)) {
        // Kept by field, not by group: the pick of the first digit draws the group again.
        var now = Date.now(), last = typedDigits[o.field] || {keys: '', at: 0};
        var tried = (now - last.at < 1000 ? last.keys : '') + k;
        var found = -1;
        o.options.forEach(function (c, i) { if (String(c.label) === tried) { found = i; } });
        if (found < 0) { tried = k; o.options.forEach(function (c, i) { if (String(c.label) === k) { found = i; } }); }
        typedDigits[o.field] = {keys: tried, at: now};
        if (found < 0) { return; }
        go(found);
      } else { return; }
      e.preventDefault();
    });
    if (o.help) { group.appendChild(core.el('p', {class: 'help', text: o.help})); }
    return group;
  };

  /** Show `panel` as a modal dialog: focus goes into it, Tab stays in it, Escape closes it,
      the page behind is inert, and focus goes back to `opener` when it closes. `panel` needs
      a heading (its name). Returns `close()`. */
  core.dialog = function (panel, opener, onClose) {
    var behind = [];
    Array.prototype.forEach.call(document.body.children, function (node) {
      if (node !== panel && node.tagName !== 'SCRIPT' && node.id !== 'announcer') {
        behind.push(node); node.setAttribute('aria-hidden', 'true'); node.inert = true;
      }
    });
    var heading = panel.querySelector('h1, h2');
    if (heading) {
      if (!heading.id) { heading.id = 'dialog-heading'; }
      heading.setAttribute('tabindex', '-1');
      panel.setAttribute('aria-labelledby', heading.id);
    }
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-modal', 'true');
    var open = true;
    function controls() {
      return Array.prototype.filter.call(panel.querySelectorAll('button, input, textarea, select, a[href]'),
        function (n) { return !n.disabled && n.getAttribute('tabindex') !== '-1'; });
    }
    function close() {
      if (!open) { return; }
      open = false;
      document.removeEventListener('keydown', keys, true);
      behind.forEach(function (node) { node.removeAttribute('aria-hidden'); node.inert = false; });
      if (panel.parentNode) { panel.parentNode.removeChild(panel); }
      if (opener) { core.focus(opener); }
      if (onClose) { onClose(); }
    }
    function keys(e) {
      if (e.key === 'Escape') { e.preventDefault(); close(); return; }
      if (e.key !== 'Tab') { return; }
      var list = controls();
      if (!list.length) { e.preventDefault(); return; }
      var at = list.indexOf(document.activeElement);
      if (e.shiftKey && at <= 0) { e.preventDefault(); core.focus(list[list.length - 1]); }
      else if (!e.shiftKey && (at < 0 || at === list.length - 1)) { e.preventDefault(); core.focus(list[0]); }
    }
    document.addEventListener('keydown', keys, true);
    document.body.appendChild(panel);
    core.focus(heading || controls()[0]);
    return close;
  };

  // ---- large print ----------------------------------------------------------------------------
  /** The line at the foot of a screen that tells the players where large print is: the same
      words on every tablet. */
  core.largePrintHelp = function () {
    return core.el('p', {class: 'help', id: 'large-help', text: 'Hard to read? Tap \u201cLarge print\u201d ' +
      'at the top of the screen for bigger words and buttons; this tablet remembers it.'});
  };
  // Kept on the device (not per table link): the player who needs it needs it at every table.
  var LARGE = 'clubwhist-large-print';
  function applyLarge(on) {
    document.documentElement.className = document.documentElement.className
      .replace(/\s*\blarge-print\b/g, '') + (on ? ' large-print' : '');
    var b = document.getElementById('large-print');
    if (b) { b.setAttribute('aria-pressed', on ? 'true' : 'false'); }
    core.clearOfBar();
  }
  applyLarge(core.load(LARGE, false) === true);
  var largeButton = document.getElementById('large-print');
  if (largeButton) {
    largeButton.onclick = function () {
      var on = !/\blarge-print\b/.test(document.documentElement.className);
      core.save(LARGE, on);
      applyLarge(on);
      core.announce(on ? 'Large print on' : 'Large print off');
    };
  }

  window.clubwhistTablet = core;
}());
