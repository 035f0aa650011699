/* clubwhist: a duplicate event table's tablet page (its screens: the boards, entry, East-West's
   check, the recap between rounds, the director's call). Plain ES5 (old tablets, no build
   step); static/js/tablet-core.js, loaded first, does the requests, the one retry policy, the
   offline queue, the banner and the service worker. The server's state comes embedded in the
   page and is refreshed every 10 s; what the players do goes into the queue kept in
   localStorage until the server has it, so a dropped connection, a reload or a second device
   loses and doubles nothing: every submission carries a key made here, and the server answers
   a repeat with the stored result (200) and a different result for the same board with 409. */
(function () {
  'use strict';
  var core = window.clubwhistTablet;
  var state = JSON.parse(document.getElementById('table-state').textContent);
  var screen = document.getElementById('screen');
  var IDKEY = core.key('ids');
  var SEENKEY = 'clubwhist-seen-' + core.cfg.token;
  var OFFSETKEY = 'clubwhist-clock-offset';
  var view = {name: 'boards', board: null, values: {}, preview: null, note: ''};
  var problems = {};   // board -> message shown on the board (a conflict, a refusal)
  var load = core.load, save = core.save, request = core.request;
  var el = core.el, text = core.text, SYMBOLS = core.SYMBOLS;
  var ids = load(IDKEY, {});
  // The server's clock minus this tablet's (ms), learnt from each fresh answer and kept, so the
  // round clock is right on a tablet whose own clock is wrong. Not from the page itself: a
  // copy the service worker kept carries the time it was first sent.
  var offset = load(OFFSETKEY, null);
  if (offset === null) { offset = (Date.parse(state.server_time) - Date.now()) || 0; }

  function newKey() {
    var bytes = new Uint8Array(16), out = '';
    if (window.crypto && window.crypto.getRandomValues) { window.crypto.getRandomValues(bytes); }
    else { for (var i = 0; i < 16; i++) { bytes[i] = Math.floor(Math.random() * 256); } }
    for (var j = 0; j < bytes.length; j++) { out += (bytes[j] + 256).toString(16).slice(1); }
    return 't' + state.table + '-' + out;
  }

  // ---- the server's state ---------------------------------------------------------------------
  // Through `core.askState`: a state older than a submission's 201 never puts a sent board
  // back to "to enter".
  function refresh() {
    core.askState(function (status, data) {
      if (status === 200 && data) {
        var server = Date.parse(data.server_time);
        if (!isNaN(server)) { offset = server - Date.now(); save(OFFSETKEY, offset); }
        state = data; tick(); quietly();
      }
      else if (core.retryable(status)) { core.failing = true; showBanner(); }
      else if (status === 403 || status === 404) { location.reload(); }
    });
  }

  // ---- the queue ----------------------------------------------------------------------------
  function resultIdFor(key) {
    if (ids[key]) { return ids[key]; }
    var boards = state.current.boards;
    for (var i = 0; i < boards.length; i++) {
      if (boards[i].result && boards[i].result.key === key) { return boards[i].result.id; }
    }
    return null;
  }

  function sendItem(item, done) {
    if (item.kind === 'submit') {
      request('POST', 'results/', {board: item.board, entry: item.entry, idempotency_key: item.key}, done);
      return;
    }
    var id = resultIdFor(item.key);
    if (!id) { done(null); return; } // its submission was refused
    if (item.kind === 'confirm') { request('POST', 'results/' + id + '/confirm/', {}, done); }
    else { request('POST', 'results/' + id + '/dispute/', {note: item.note || ''}, done); }
  }

  function answered(item, status, data) {
    if (status === 200 || status === 201) {
      adopt(data, item);
      if (item.kind === 'submit') { ids[item.key] = data.id; save(IDKEY, ids); delete problems[item.board]; }
    } else if (status === 409) {
      // the conflicting submission and whatever waited on it (its confirmation) leave the queue
      problems[item.board] = (data && data.detail) || 'Another result is stored for this board.';
      outbox.remove(function (q) { return q.key === item.key; });
    } else {
      problems[item.board] = (data && data.detail) || ('Refused (' + status + ')');
    }
    // Said once, when it happens: the board list is drawn again on every refresh, and an
    // alert drawn again would be read out again every ten seconds.
    if (problems[item.board]) { core.announce('Board ' + item.board + ': ' + problems[item.board]); }
    // A refused submission's confirmation screen is void: East-West must not confirm the
    // result another device stored there (a refresh may already show it "waiting"). Back to
    // the boards, where the problem is shown.
    if (item.kind === 'submit' && problems[item.board] && view.board === item.board &&
        (view.name === 'confirm' || view.name === 'entry')) {
      view = {name: 'boards'};
      render();
      return;
    }
    quietly();
  }

  var outbox = core.queue(core.key('queue'), sendItem, answered, refresh);
  function enqueue(item) { outbox.push(item); }
  function flush() { outbox.flush(); }

  var STATES = {entered: 'waiting', confirmed: 'confirmed', corrected: 'confirmed',
                artificial: 'confirmed', disputed: 'disputed'};
  function adopt(result, item) {
    // The server's answer is the truth until the next refresh: without this the board would
    // look "to enter" between leaving the queue and the refreshed state arriving.
    state.current.boards.forEach(function (b) {
      if (b.number !== result.board_number) { return; }
      var old = b.result || {};
      b.state = STATES[result.status] || b.state;
      b.result = {id: result.id, key: result.idempotency_key, entry: result.entry,
                  describe: old.describe || item.describe || '', short: old.short || '',
                  ns_score: result.ns_score, ew_score: result.ns_score === null ? null : -result.ns_score,
                  unusual: !!result.unusual};
    });
  }

  // results, not requests: a board's entry and confirmation are one
  core.banner({
    offline: function (waiting) {
      return 'Offline: ' + waiting + ' result' + (waiting === 1 ? '' : 's') +
        ' waiting. Keep playing; they will be sent when the connection is back.';
    },
    sending: function (waiting) { return 'Sending ' + waiting + '…'; }
  }, function () {
    var boards = {}, waiting = 0;
    outbox.items.forEach(function (q) { if (!boards[q.board]) { boards[q.board] = true; waiting += 1; } });
    return waiting;
  });
  var showBanner = core.showBanner;
  // The banner is fixed over the bottom of the screen (at a normal height): its height, kept in
  // --banner-height, lifts Send's bar and the scroll padding above it while it shows.
  var bannerNode = document.getElementById('banner');
  function bannerHeight() {
    var fixed = !bannerNode.hidden && window.getComputedStyle(bannerNode).position === 'fixed';
    document.documentElement.style.setProperty('--banner-height', (fixed ? bannerNode.offsetHeight : 0) + 'px');
  }
  if (window.MutationObserver) {
    new window.MutationObserver(bannerHeight).observe(bannerNode,
      {attributes: true, childList: true, characterData: true, subtree: true});
  }
  window.addEventListener('resize', bannerHeight);

  // ---- what a board looks like here (the server's state and our queue together) ----------
  function pending(boardNumber) {
    var out = {submit: null, confirm: false, dispute: false};
    var queue = outbox.items;
    for (var i = 0; i < queue.length; i++) {
      var q = queue[i];
      if (q.board !== boardNumber) { continue; }
      if (q.kind === 'submit') { out.submit = q; }
      if (q.kind === 'confirm') { out.confirm = true; }
      if (q.kind === 'dispute') { out.dispute = true; }
    }
    return out;
  }

  function boardView(board) {
    var p = pending(board.number), r = board.result;
    var v = {number: board.number, dealer: board.dealer, trumps: board.trumps,
             state: board.state, describe: r ? r.describe : '', ns: r ? r.ns_score : null,
             key: r ? r.key : null, id: r ? r.id : null, unusual: !!(r && r.unusual), local: false};
    if (!r && p.submit) {
      v.state = 'waiting'; v.describe = p.submit.describe; v.ns = p.submit.ns;
      v.key = p.submit.key; v.local = true;
    }
    if (v.state === 'waiting' && p.confirm) { v.state = 'confirmed'; v.local = true; }
    if (v.state !== 'disputed' && p.dispute) { v.state = 'disputed'; v.local = true; }
    return v;
  }

  // ---- small helpers ------------------------------------------------------------------------
  function withSymbol(t) {
    // "hearts" -> "♥ hearts": the symbol players look for, in its colour (core.withSuits)
    if (/[\u2665\u2666\u2660\u2663]/.test(t)) { return t; }
    return String(t).replace(/\b(hearts|diamonds|spades|clubs)\b/, function (w) { return SYMBOLS[w] + ' ' + w; });
  }
  function signed(n) { return n === null || n === undefined ? '' : (n > 0 ? '+' + n : String(n)); }
  function pairLabel(p) { return p ? p.label + (p.names ? ': ' + p.names : '') : 'sit-out'; }

  // ---- screens ------------------------------------------------------------------------------
  function quietly() {
    // A background update (an answer from the server, a periodic refresh) redraws the board
    // list and recaps, never a screen someone is tapping or typing on, unless its board has
    // moved on meanwhile (confirmed from another device, say).
    if (view.name === 'entry' || view.name === 'confirm') {
      var still = false, warn = false;
      state.current.boards.forEach(function (b) {
        if (b.number === view.board) {
          var now = boardView(b);
          still = view.name === 'entry' ? now.state === 'to enter' : now.state === 'waiting';
          // the server's check came back: East-West must see it before they confirm
          warn = view.name === 'confirm' && now.unusual && !view.warned;
        }
      });
      if (still && warn) {
        // Add the note to the screen as it is: redrawing it would lose what East-West type.
        var anchor = screen.querySelector('label.type-number');
        if (anchor) {
          var note = unusualNote();
          anchor.parentNode.insertBefore(note, anchor); view.warned = true;
          core.announce(note.textContent);
        }
      }
      if (still) { showBanner(); return; }
    }
    render();
  }

  // The director's round clock: minutes and seconds left, then "Time is up" (the director
  // decides what happens then; the page only tells the table).
  var clock = document.getElementById('clock');
  function tick() {
    var c = state.clock, ends = c ? Date.parse(c.ends_at) : NaN;
    if (!c || state.finished || isNaN(ends)) { clock.hidden = true; return; }
    var left = Math.round((ends - (Date.now() + offset)) / 1000);
    clock.hidden = false;
    if (left > 0) {
      var minutes = Math.floor(left / 60), seconds = left % 60;
      clock.textContent = minutes + ':' + (seconds < 10 ? '0' : '') + seconds + ' left';
      clock.className = 'clock' + (left <= 120 ? ' soon' : '');
    } else {
      clock.textContent = 'Time is up';
      clock.className = 'clock up';
    }
  }

  // Every drawing goes through core.draw, under the name of the screen it shows: a pick, an
  // answer or a refresh draws the same screen again and the focused control keeps focus; a
  // new name (another screen) sends focus to its heading, and on the entry screen to its
  // first picker (the board's number is read out with it), so typing the tricks is the next
  // key.
  var shown = null;    // the screen drawn last
  var waitWords = '';  // what the table waits for, said when it changes (tables, then director)
  function render() {
    tick();
    showCall();
    var cur = state.current;
    document.getElementById('round-label').textContent =
      state.finished ? '· all rounds played' : '· round ' + cur.round + ' of ' + state.rounds;
    showBanner();
    var s = which();
    core.draw(screen, s.name, function () { screen.className = ''; s.build(); });
    if (s.name !== shown && shown !== null && s.name.indexOf('entry-') === 0) {
      core.focus(screen.querySelector('button.pick[tabindex="0"]'));
    }
    shown = s.name;
  }

  /** The screen to show now: {name, build}. */
  function which() {
    var cur = state.current;
    var seen = load(SEENKEY, null);
    // A tablet that forgot what it showed (reloaded in a private window, another device)
    // shows the recap while nothing of the new round is entered yet: the players leaving
    // still need "where next".
    var fresh = seen === null && !cur.boards.some(function (b) { return b.result; });
    if (state.previous && (seen === state.previous.round || fresh) && cur.round > state.previous.round && !state.finished) {
      return {name: 'recap-' + state.previous.round, build: function () {
        recap(state.previous, 'Round ' + state.previous.round + ' is over',
          'Start round ' + cur.round, function () { save(SEENKEY, cur.round); render(); });
      }};
    }
    if (seen !== cur.round) { save(SEENKEY, cur.round); }
    if (state.finished) {
      return {name: 'finished', build: function () { recap(cur, 'All rounds played: thank you!', null, null); }};
    }
    var waiting = '';
    if (state.waiting_for_tables && state.waiting_for_tables.length) {
      var them = state.waiting_for_tables;
      waiting = 'Waiting for table' + (them.length > 1 ? 's ' : ' ') + them.join(' and ') + ' to finish round ' +
        cur.round + ': your next players or boards are still there. Round ' + (cur.round + 1) +
        ' starts here by itself when they have finished.';
    } else if (state.waiting_for_director) {
      waiting = 'Waiting for the director to start round ' + (cur.round + 1) + '…';
    }
    if (waiting) {
      // One screen while the round is over: what it waits for changes under the players'
      // eyes (other tables finish, then the director), and is said when it does.
      var name = 'over-' + cur.round;
      if (shown === name && waitWords !== waiting) { core.announce(waiting); }
      waitWords = waiting;
      return {name: name, build: function () { recap(cur, 'Round ' + cur.round + ' is over', null, null, waiting); }};
    }
    if (view.name === 'entry') { return {name: 'entry-' + view.board, build: entryScreen}; }
    if (view.name === 'confirm') {
      var board = null;
      cur.boards.forEach(function (b) { if (b.number === view.board) { board = boardView(b); } });
      if (board && board.state === 'waiting') {
        return {name: 'confirm-' + view.board, build: function () { confirmScreen(board); }};
      }
      view = {name: 'boards'};
    }
    return {name: 'boards-' + cur.round, build: boardsScreen};
  }

  // Where a pair goes next; a round at the sit-out table (not set up) is a round off.
  function whereNext(move) {
    if (!move.idle) { return 'go to table ' + move.table + ', sit ' + move.seat; }
    return 'you sit out next round (no table to go to)' + (move.then_table ?
      '; the round after, go to table ' + move.then_table + ', sit ' + move.then_seat : '');
  }

  function boardsScreen() {
    var cur = state.current;
    screen.className = 'boards';
    screen.appendChild(el('h1', {text: cur.sit_out ? 'Round ' + cur.round : 'Boards for round ' + cur.round}));
    screen.appendChild(el('p', {class: 'event', text: state.event.name + ' · ' + state.event.game}));
    screen.appendChild(el('div', {class: 'pairs'}, [
      el('p', {}, [el('strong', {text: 'North-South '}), text(pairLabel(cur.ns))]),
      el('p', {}, [el('strong', {text: 'East-West '}), text(pairLabel(cur.ew))])
    ]));
    if (cur.sit_out) {
      var here = [cur.ns, cur.ew].filter(function (p) { return p && !p.absent; })[0];
      var gone = [cur.ns, cur.ew].filter(function (p) { return p && p.absent && p.left; })[0];
      screen.appendChild(el('p', {class: 'big', text: here && gone ?
        here.label + ': your opponents (' + gone.label + ') have left: nothing to play this round.' :
        here ?
        here.label + (here.names ? ' (' + here.names + ')' : '') + ' sit out this round: no game at this table.' :
        'No game at this table this round.'}));
      var after = cur.next || {}, go = el('ul', {class: 'moves'});
      if (cur.ns && !cur.ns.absent && after.ns) { go.appendChild(el('li', {text: cur.ns.label + ': next round, ' + whereNext(after.ns)})); }
      if (cur.ew && !cur.ew.absent && after.ew) { go.appendChild(el('li', {text: cur.ew.label + ': next round, ' + whereNext(after.ew)})); }
      if (go.childNodes.length) { screen.appendChild(el('h2', {text: 'Where next'})); screen.appendChild(go); }
      screen.appendChild(core.largePrintHelp());
      return;
    }
    if (!state.accepting) {
      screen.appendChild(el('p', {class: 'big', text: 'Result entry is closed.'}));
    }
    var list = el('ul', {class: 'boards'});
    cur.boards.forEach(function (board) {
      var v = boardView(board);
      var item = el('li', {class: 'board state-' + v.state.replace(' ', '-')});
      item.appendChild(el('div', {class: 'board-head'}, [
        el('strong', {text: 'Board ' + v.number}),
        el('span', {class: 'facts', text: 'Dealer ' + v.dealer + ' · trumps ' + withSymbol(v.trumps)})
      ]));
      var line = {'to enter': 'To enter', waiting: 'Waiting for East-West to confirm',
                  confirmed: 'Confirmed', disputed: 'Disputed: the director is called'}[v.state];
      item.appendChild(el('p', {class: 'status', text: line + (v.local ? ' (not sent yet)' : '')}));
      if (v.describe) {
        item.appendChild(el('p', {class: 'result', text: v.describe + (v.ns !== null ? ' · NS ' + signed(v.ns) : '')}));
      }
      if (problems[v.number]) { item.appendChild(el('p', {class: 'problem', text: problems[v.number]})); }
      if (state.accepting && v.state === 'to enter') {
        item.appendChild(el('button', {type: 'button', class: 'primary', text: 'Enter board ' + v.number,
          'data-focus': 'enter|' + v.number,
          onclick: function () { openEntry(v.number); }}));
      } else if (state.accepting && v.state === 'waiting') {
        // Named for its board: East-West's buttons of two boards look alike, and a refresh
        // must give focus back to the one it was on.
        item.appendChild(el('button', {type: 'button', class: 'handover', text: 'East-West: check and confirm',
          'data-focus': 'check|' + v.number, 'aria-label': 'East-West: check and confirm board ' + v.number,
          onclick: function () { view = {name: 'confirm', board: v.number, typed: '', disputing: false}; render(); }}));
      }
      list.appendChild(item);
    });
    screen.appendChild(list);
    screen.appendChild(core.largePrintHelp());
  }

  function field(key) {
    for (var i = 0; i < state.fields.length; i++) { if (state.fields[i].key === key) { return state.fields[i]; } }
    return null;
  }
  function applies(f, values) {
    return f.only_when.every(function (cond) {
      var v = values[cond[0]];
      if (v === undefined || v === '') { v = field(cond[0]) && field(cond[0]).kind === 'flag' ? false : null; }
      return cond[1].indexOf(v) >= 0;
    });
  }
  function entryFrom(values) {
    // the Python twin is engine.games.base.entry_from_values: fields that do not apply are left out
    var entry = {}, complete = true;
    state.fields.forEach(function (f) {
      if (!applies(f, values)) { return; }
      var v = values[f.key];
      if (f.kind === 'flag') { if (v) { entry[f.key] = true; } return; }
      if (v === undefined || v === null || v === '') { complete = false; return; }
      var parts = f.key.split('.'), target = entry;
      for (var i = 0; i < parts.length - 1; i++) { target[parts[i]] = target[parts[i]] || {}; target = target[parts[i]]; }
      target[parts[parts.length - 1]] = v;
    });
    if (entry.passed_out) { return {entry: {passed_out: true}, complete: true}; }
    return {entry: entry, complete: complete};
  }

  function openEntry(number) {
    view = {name: 'entry', board: number, values: {}, preview: null};
    render();
  }

  function entryScreen() {
    var board = null;
    state.current.boards.forEach(function (b) { if (b.number === view.board) { board = b; } });
    screen.className = 'entry';
    screen.appendChild(el('h1', {id: 'entry-heading', text: 'Board ' + view.board}));
    screen.appendChild(el('p', {class: 'facts', text: 'Dealer ' + board.dealer + ' · trumps ' + withSymbol(board.trumps)}));
    var first = true;
    state.fields.forEach(function (f) {
      if (!applies(f, view.values)) { return; }
      var box;
      if (f.kind === 'flag') {
        // A yes/no: one toggle button, pressed or not.
        var on = view.values[f.key] === true;
        var helpId = 'help-' + f.key.replace(/\W/g, '-');
        box = el('div', {class: 'picker flag'}, [
          el('button', {type: 'button', class: 'pick' + (on ? ' on' : ''), 'aria-pressed': on ? 'true' : 'false',
            'data-field': f.key, 'data-focus': 'flag|' + f.key, 'aria-describedby': f.help ? helpId : null,
            text: f.label, onclick: function () { pick(f.key, !on); }}),
          f.help ? el('p', {class: 'help', id: helpId, text: f.help}) : null]);
        if (!f.help) { box.firstChild.removeAttribute('aria-describedby'); }
      } else {
        var choices = [];
        if (f.kind === 'int') { for (var n = f.min; n <= f.max; n++) { choices.push({value: n, label: String(n)}); } }
        else { choices = f.choices; }
        box = core.radioGroup({field: f.key, legend: f.label, options: choices, selected: view.values[f.key],
          help: f.help, onPick: function (value) { pick(f.key, value); }});
      }
      if (first && f.kind !== 'flag') {
        // The first picker takes focus when the screen opens (a contract is the common case:
        // "All passed", when it comes first, is one Shift+Tab back); its name says the board.
        box.setAttribute('aria-labelledby', 'entry-heading ' + box.getAttribute('aria-labelledby'));
        first = false;
      }
      screen.appendChild(box);
    });
    var made = entryFrom(view.values);
    var out = el('div', {class: 'preview', id: 'preview'});
    var p = view.preview;
    var canSend = made.complete && Object.keys(made.entry).length > 0;
    var notYet = 'Pick the result first.';
    if (!canSend) { out.appendChild(el('p', {text: 'Tap the result above.'})); }
    else if (!p) { out.appendChild(el('p', {text: 'Checking\u2026'})); canSend = false; notYet = 'Checking the score: a moment.'; }
    else if (p.offline) { out.appendChild(el('p', {text: 'Offline: the score will show when the connection is back.'})); }
    else if (p.error) { out.appendChild(el('p', {class: 'problem', text: p.error})); canSend = false; notYet = p.error; }
    else {
      out.appendChild(el('p', {class: 'scores', text: p.describe}));
      out.appendChild(el('p', {class: 'scores big', text: 'NS ' + signed(p.ns_score) + ' · EW ' + signed(p.ew_score)}));
    }
    screen.appendChild(out);
    // Not `disabled` while the score is checked: a disabled button leaves the Tab order, and
    // the keys typed after a pick would land on Back. It says why instead.
    var send = el('button', {type: 'button', class: 'primary send', text: 'Send to East-West',
      'aria-describedby': 'preview', onclick: function () {
        if (canSend) { submit(made.entry); } else { core.announce(notYet); }
      }});
    if (!canSend) { send.setAttribute('aria-disabled', 'true'); }
    // Send first: it is the next key after the pickers (Back is one Tab further).
    screen.appendChild(el('div', {class: 'actions'}, [
      send,
      el('button', {type: 'button', class: 'secondary', text: 'Back', onclick: function () { view = {name: 'boards'}; render(); }})
    ]));
  }

  function pick(key, value) {
    view.values[key] = value;
    view.preview = null; render(); check();
  }

  var checking = 0;
  function check() {
    var made = entryFrom(view.values);
    if (!made.complete || !Object.keys(made.entry).length) { return; }
    var mine = ++checking;
    request('POST', 'preview/', {board: view.board, entry: made.entry}, function (status, data) {
      if (mine !== checking || view.name !== 'entry') { return; }
      if (status === 200) { view.preview = data; core.announce(data.describe + ': NS ' + signed(data.ns_score) + ', EW ' + signed(data.ew_score)); }
      else if (core.retryable(status)) { view.preview = {offline: true}; core.failing = true; core.announce('Offline: the score will show when the connection is back.'); }
      else { view.preview = {error: (data && data.detail) || 'This result is not possible.'}; core.announce(view.preview.error); }
      render();
    });
  }

  function localDescribe(values) {
    // Offline the engine cannot word the result: say what was picked, field by field.
    var parts = [];
    state.fields.forEach(function (f) {
      if (!applies(f, values) || values[f.key] === undefined || values[f.key] === false) { return; }
      if (f.kind === 'flag') { parts.push(f.label); return; }
      var shown = values[f.key];
      f.choices.forEach(function (c) { if (c.value === shown) { shown = c.label; } });
      parts.push(f.label + ' ' + shown);
    });
    return parts.join(', ');
  }

  function submit(entry) {
    var p = view.preview || {};
    var key = newKey();
    enqueue({kind: 'submit', board: view.board, entry: entry, key: key,
             describe: p.describe || localDescribe(view.values), ns: p.offline ? null : p.ns_score});
    view = {name: 'confirm', board: view.board, typed: '', disputing: false};
    render();
    core.announce(outbox.items.length && core.offline() ? 'Kept on this tablet: it is sent when the connection is back. ' +
      'Hand the tablet to East-West.' : 'Sent to East-West.');
  }

  function unusualNote() {
    // Checked once the result was sent: the reason (other tables, double dummy) is the
    // director's; the players are only asked to look again.
    return el('p', {class: 'unlikely',
      text: 'This result looks unusual: please check it together. If it is wrong, tap ' +
            '\u201cWe do not agree\u201d and the director will put it right.'});
  }

  function confirmScreen(board) {
    var ew = state.current.ew;
    screen.className = 'confirm';
    screen.appendChild(el('p', {class: 'handover-note', text: 'Hand the tablet to East-West'}));
    screen.appendChild(el('h1', {text: 'Board ' + board.number + ': East-West, please check'}));
    screen.appendChild(el('p', {class: 'big', text: board.describe}));
    if (board.ns !== null) {
      screen.appendChild(el('p', {class: 'big', text: 'EW: ' + signed(-board.ns) + ' to you'}));
    } else {
      // Offline the tablet cannot score: say so rather than show nothing.
      screen.appendChild(el('p', {class: 'muted', text: 'The score shows here when the tablet is back online; ' +
        'check the result above and confirm now.'}));
    }
    if (board.unusual) {
      view.warned = true;
      screen.appendChild(unusualNote());
    }
    var want = ew ? String(ew.number) : '';
    var input = el('input', {type: 'text', inputmode: 'numeric', autocomplete: 'off', id: 'pair-number',
      value: view.typed || ''});
    var wrong = el('p', {class: 'problem', role: 'alert', id: 'pair-number-problem'});
    function judge() {
      var right = view.typed === want;
      if (right) { ok.removeAttribute('aria-disabled'); } else { ok.setAttribute('aria-disabled', 'true'); }
      // A whole wrong number says so, and what the right one is, instead of a grey button;
      // so does Confirm (or Enter) with too few digits.
      var mistaken = (view.typed.length >= want.length || view.tried) && !right;
      wrong.textContent = !mistaken ? '' : (view.typed ? 'Pair ' + view.typed + ' is not the East-West pair at this table: ' :
        'Type your pair number first: ') + 'East-West here are pair ' + want + (ew && ew.names ? ' (' + ew.names + ')' : '') +
        '. Type that number to confirm.';
      wrong.hidden = !mistaken;
      if (mistaken) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', 'pair-number-problem');
      } else {
        input.removeAttribute('aria-invalid');
        input.removeAttribute('aria-describedby');
      }
    }
    function confirmIt() {
      if (view.typed !== want) { view.tried = true; judge(); return; }
      enqueue({kind: 'confirm', board: board.number, key: board.key});
      view = {name: 'boards'}; render();
      core.announce('Board ' + board.number + ' confirmed.');
    }
    input.oninput = function () { view.typed = input.value.replace(/\D/g, ''); view.tried = false; judge(); };
    // Enter in the field confirms, as in any form: the number and Enter are all East-West type.
    input.onkeydown = function (e) { if (e.key === 'Enter') { e.preventDefault(); confirmIt(); } };
    var ok = el('button', {type: 'button', class: 'confirm-button', text: 'Confirm', onclick: confirmIt});
    screen.appendChild(el('label', {class: 'type-number', 'for': 'pair-number'},
      [text('To confirm, type your pair number (' + (ew ? ew.label : 'EW') + ')')]));
    screen.appendChild(input);
    screen.appendChild(wrong);
    screen.appendChild(ok);
    judge();
    if (view.disputing) {
      // The note takes the place of "We do not agree" (one focus key): focus goes on to it.
      var note = el('textarea', {id: 'dispute-note', rows: '2', 'data-focus': 'dispute'});
      screen.appendChild(el('label', {'for': 'dispute-note', text: 'What is wrong? (optional)'}));
      screen.appendChild(note);
      screen.appendChild(el('button', {type: 'button', class: 'dispute', text: 'Dispute: call the director',
        onclick: function () {
          enqueue({kind: 'dispute', board: board.number, key: board.key, note: note.value});
          view = {name: 'boards'}; render();
          core.announce('Board ' + board.number + ' disputed: the director is called.');
        }}));
    } else {
      screen.appendChild(el('button', {type: 'button', class: 'link-button', text: 'We do not agree',
        'data-focus': 'dispute', onclick: function () { view.disputing = true; render(); }}));
    }
    screen.appendChild(el('button', {type: 'button', class: 'link-button', text: 'Back to the boards',
      onclick: function () { view = {name: 'boards'}; render(); }}));
  }

  function recap(round, title, button, onStart, waiting) {
    screen.className = 'recap';
    screen.appendChild(el('h1', {text: title}));
    var rows = el('tbody');
    round.boards.forEach(function (b) {
      var v = boardView(b);
      rows.appendChild(el('tr', {}, [el('td', {text: String(v.number)}), el('td', {text: v.describe || '—'}),
        el('td', {class: 'num', text: v.ns === null ? '' : signed(v.ns)})]));
    });
    screen.appendChild(el('table', {class: 'recap-table'}, [
      el('thead', {}, [el('tr', {}, [el('th', {text: 'Board'}), el('th', {text: 'Result'}), el('th', {class: 'num', text: 'NS'})])]),
      rows]));
    var next = round.next, moves = el('ul', {class: 'moves'});
    if (next.ns) { moves.appendChild(el('li', {text: (round.ns ? round.ns.label : 'NS') + ': ' + whereNext(next.ns)})); }
    if (next.ew) { moves.appendChild(el('li', {text: (round.ew ? round.ew.label : 'EW') + ': ' + whereNext(next.ew)})); }
    var numbers = round.boards.map(function (b) { return b.number; });
    var which = numbers.length === 1 ? 'Board ' + numbers[0] :
      'Boards ' + numbers[0] + '-' + numbers[numbers.length - 1];
    if (next.boards_to) { moves.appendChild(el('li', {text: which + ': take them to table ' + next.boards_to})); }
    else if (next.boards_later) {
      moves.appendChild(el('li', {text: which + ': not played next round: put them on the relay (bye) stand; ' +
        'in round ' + next.boards_later.round + ' they go to table ' + next.boards_later.table}));
    } else if (!next.last_round && numbers.length) {
      moves.appendChild(el('li', {text: which + ': not played again: give them to the director'}));
    }
    if (moves.childNodes.length) { screen.appendChild(el('h2', {text: 'Where next'})); screen.appendChild(moves); }
    if (waiting) { screen.appendChild(el('p', {class: 'big', text: waiting})); }
    if (button) { screen.appendChild(el('button', {type: 'button', class: 'primary', text: button, onclick: onStart})); }
    screen.appendChild(core.largePrintHelp());
  }

  // Calling the director: the players say why (the director comes knowing what to look at),
  // and may take the call back before the director comes (a tap by mistake).
  var callButton = document.getElementById('call');
  var REASONS = [['revoke', 'Revoke'], ['board', 'Wrong board or cards'],
                 ['claim', 'Claim or play disputed'], ['other', 'Something else']];
  function showCall() {
    var c = state.call;
    callButton.textContent = c ? 'Director called' : 'Call the director';
    callButton.className = 'call' + (c ? ' called' : '');
  }
  var closeCall = null; // closes the open call panel (a modal dialog), when one is open
  function closePanel() {
    if (closeCall) { var close = closeCall; closeCall = null; close(); }
  }
  function callPanel() {
    closePanel();
    var panel = el('div', {id: 'call-panel', class: 'call-panel'});
    var c = state.call;
    var said = el('p', {class: 'problem', id: 'call-problem', hidden: 'hidden'});
    // A call made or taken back changes the table's state: a state asked for before the answer
    // came may not know it (it would put the button back), so it is dropped (see `epoch`).
    function done(words) {
      core.epoch += 1; closePanel(); refresh();
      if (words) { core.announce(words); }
    }
    // Refused or not sent: the panel stays open, with why, said and shown.
    function failed(words) {
      said.textContent = words; said.hidden = false;
      core.announce(words);
    }
    if (c) {
      panel.appendChild(el('h2', {text: 'The director is called: ' + c.reason}));
      if (c.cancellable) {
        panel.appendChild(el('button', {type: 'button', class: 'secondary', text: 'Cancel the call',
          onclick: function () {
            request('DELETE', 'call-director/', {}, function (status) {
              if (status === 200) { state.call = null; state.calls_open = false; showCall(); done('Call taken back'); }
              else { failed('Could not cancel: try again'); }
            });
          }}));
      } else {
        panel.appendChild(el('p', {text: 'A disputed result waits for the director.'}));
      }
    } else {
      panel.appendChild(el('h2', {text: 'Call the director'}));
      var chosen = {reason: null};
      var reasons = core.radioGroup({field: 'reason', legend: 'Why do you need the director?', cls: 'picker reasons',
        options: REASONS.map(function (r) { return {value: r[0], label: r[1]}; }), selected: null,
        onPick: function (value) {
          // Marked where it is: the panel is not drawn again (what is typed stays).
          chosen.reason = value;
          Array.prototype.forEach.call(reasons.querySelectorAll('button.pick'), function (b) {
            var on = b.getAttribute('data-focus') === 'pick|reason|' + value;
            b.className = 'pick' + (on ? ' on' : '');
            b.setAttribute('aria-checked', on ? 'true' : 'false');
            b.setAttribute('tabindex', on ? '0' : '-1');
          });
          send.removeAttribute('aria-disabled');
        }});
      panel.appendChild(reasons);
      panel.appendChild(el('label', {'for': 'call-note', class: 'note-label', text: 'A word for the director (optional)'}));
      var note = el('input', {type: 'text', id: 'call-note', maxlength: '150'});
      panel.appendChild(note);
      var sending = false;
      var send = el('button', {type: 'button', class: 'primary', text: 'Call the director', 'aria-disabled': 'true',
        onclick: function () {
          if (!chosen.reason) { failed('Pick a reason first.'); return; }
          if (sending) { return; }
          sending = true; send.setAttribute('aria-disabled', 'true');
          request('POST', 'call-director/', {reason: chosen.reason, note: note.value}, function (status, data) {
            sending = false;
            if (status === 201) { state.call = {reason: '', cancellable: true}; showCall(); done('Director called'); return; }
            send.removeAttribute('aria-disabled');
            failed(status === 409 && data && data.detail ? data.detail : 'Could not call: try again');
          });
        }});
      panel.appendChild(send);
    }
    panel.appendChild(said);
    panel.appendChild(el('button', {type: 'button', class: 'link-button', text: 'Close', onclick: closePanel}));
    closeCall = core.dialog(panel, callButton, function () { closeCall = null; });
  }
  callButton.onclick = callPanel;

  document.addEventListener('visibilitychange', function () { if (!document.hidden) { refresh(); } });
  core.live(function () { if (!outbox.items.length) { refresh(); } else { flush(); } }, null, 10000, 10000);
  setInterval(tick, 1000);
  core.offlineReload('/t/');
  render();
  // A fresh state at once (the embedded one may be the service worker's old copy), after
  // sending whatever waits in the queue.
  if (outbox.items.length) { flush(); } else { refresh(); }
})();
