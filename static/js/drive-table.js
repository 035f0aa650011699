/* clubwhist: a drive table's tablet (its screens: where the players go, the seats, North-South's
   entry, East-West's check, the table waiting for the others). Plain ES5 (old tablets, no
   build step); static/js/tablet-core.js, loaded first, does the requests, the one retry
   policy, the offline queue, the banner, the service worker and the live wake-up. The table's
   state comes embedded in the page, then from a stream the server sends it on each move of the
   drive, and from a poll every few seconds (the tables done so far). North-South enter the
   hand's result, East-West confirm it or say it is wrong. What the table sends waits in
   localStorage until the server has it, so a dropped connection or a reload loses nothing;
   the server takes a result sent twice once.

   Every drawing goes through `core.draw` under the name of its screen (see `screenName`): a
   pick, a poll or a pushed state redraws the same screen and leaves focus where it was; a
   new screen sends focus to its own heading (`headingFor`), which a screen reader reads out.
   Outcomes and refusals are spoken through `core.announce`. */
(function () {
  'use strict';
  var core = window.clubwhistTablet;
  var state = JSON.parse(document.getElementById('drive-table-state').textContent);
  var screen = document.getElementById('screen');
  var values = {};        // the entry being picked
  var problem = '';       // the server's refusal, shown until the next action
  var el = core.el, withSuits = core.withSuits, SYMBOLS = core.SYMBOLS;
  var drawn = null;       // the screen drawn last (its name)
  var settledHand = 0;    // the hand of the last screen drawn other than "Sending"

  var PROGRESS = {'to enter': 0, 'waiting': 1, 'confirmed': 2};
  function progress(s) { return (s.result && PROGRESS[s.result.state]) || 0; }
  function adopt(next, own) {
    if (!next || typeof next.version !== 'number') { return; }
    // A state older than the one shown (a slow poll overtaken by the stream) is ignored.
    if (next.version < state.version) { return; }
    // A table's own result moves no version, so a pushed or polled state of the same version
    // and hand that shows less of this table's result than the screen was read before it was
    // stored (a stream opening while the entry was on its way): ignored, or the entry screen
    // would come back. The answers to this table's own requests are always taken.
    if (!own && next.version === state.version && next.hand === state.hand &&
        progress(next) < progress(state)) { return; }
    if (next.hand !== state.hand) { values = {}; problem = ''; }
    state = next;
    render();
  }

  // What a screen reader says when the server has taken what the table sent.
  var DONE_WORDS = {
    'enter/': 'Sent to East-West: East-West, check the result.',
    'confirm/': 'Confirmed.',
    'wrong/': 'Taken off: North-South, enter the result again.'
  };

  // [{path, body}] not yet taken by the server
  var outbox = core.queue(core.key('drive-queue'), function (item, done) {
    core.request('POST', item.path, item.body, done);
  }, function (item, code, data) {
    if (code === 200 || code === 201) {
      problem = '';
      core.announce(DONE_WORDS[item.path] || 'Done');
      adopt(data, true);
    } else {
      problem = (data && data.detail) || ('The server refused it (' + code + ').');
      core.announce(problem);
      if (data && data.state) { adopt(data.state, true); } else { render(); }
    }
  }, function () {
    // Emptied: an answer is adopted while its item still waits in the queue (the screen says
    // "Sending"), so the screen is drawn again once nothing waits.
    render();
  });
  function send(path, body) { outbox.push({path: path, body: body}); render(); }

  // Through `core.askState`: a state older than the answer to a result this page sent (a
  // tablet's own result moves no version) never puts the entry screen back.
  function refresh() {
    if (outbox.items.length) { outbox.flush(); return; }
    core.askState(function (code, data) {
      if (code === 200) { adopt(data); }
      else if (core.retryable(code)) { core.failing = true; }
      else if (code === 403 || code === 404) {
        var refused = (data && data.detail) || 'This link no longer works.';
        if (refused !== problem) { core.announce(refused); }
        problem = refused;
        render();
      }
      core.showBanner();
    });
  }

  core.banner({
    offline: function (waiting) {
      return waiting ? 'Offline: your result is kept on this tablet and will be sent when the connection is back.'
        : 'Offline: trying to reach the director\u2019s computer\u2026';
    },
    sending: function () { return 'Sending\u2026'; }
  });

  // ---- drawing ------------------------------------------------------------------------------
  function trumpsText(t) {
    var key = String(t).toLowerCase();
    return SYMBOLS[key] ? SYMBOLS[key] + ' ' + t : t;
  }
  function seatName(seat) {
    return {N: 'North', E: 'East', S: 'South', W: 'West'}[seat] || seat;
  }
  function placeText(m) {
    if (!m.table) { return 'sits out (' + m.role + ')'; }
    var where = m.table === state.table ? 'stays at this table' : 'table ' + m.table;
    return where + ', ' + seatName(m.seat) + ' (' + m.role + ')';
  }

  // A flag not picked is No: the entry sends false for it, and the fields it hides show.
  function valueOf(key) {
    var v = values[key];
    if (v === undefined) {
      state.fields.forEach(function (f) { if (f.key === key && f.kind === 'flag') { v = false; } });
    }
    return v;
  }
  function shown(field) {
    return (field.only_when || []).every(function (rule) {
      return rule[1].indexOf(valueOf(rule[0])) >= 0;
    });
  }
  // A radio group (core.radioGroup): one Tab stop, the arrows move and pick, a number typed
  // picks it; a pick redraws the screen and focus stays on the picked choice.
  function picker(field) {
    var options = [];
    if (field.kind === 'int') {
      for (var n = field.min; n <= field.max; n++) { options.push({value: n, label: String(n)}); }
    } else if (field.kind === 'flag') {
      options = [{value: true, label: 'Yes'}, {value: false, label: 'No'}];
    } else {
      options = field.choices.map(function (c) { return {value: c.value, label: c.label}; });
    }
    var group = core.radioGroup({
      field: field.key, legend: field.label, options: options, selected: valueOf(field.key),
      help: field.help, id: 'field-' + field.key,
      onPick: function (value) { values[field.key] = value; problem = ''; render(); }
    });
    if (field.help) {
      var help = group.lastChild;
      help.id = 'help-' + field.key;
      group.setAttribute('aria-describedby', help.id);
    }
    return group;
  }

  function entryScreen() {
    var fields = state.fields.filter(shown);
    var ready = fields.every(function (f) { return f.kind === 'flag' || values[f.key] !== undefined; });
    var box = el('section', {class: 'card entry', id: 'enter'}, [
      heading('enter-heading', 'North-South: enter the result')
    ]);
    fields.forEach(function (f) { box.appendChild(picker(f)); });
    var entry = {};
    fields.forEach(function (f) {
      if (valueOf(f.key) !== undefined) { entry[f.key] = valueOf(f.key); }
    });
    var button = el('button', {
      type: 'button', class: 'primary', id: 'send', text: 'Send to East-West to confirm',
      onclick: function () { send('enter/', {hand: state.hand, entry: entry}); }
    });
    button.disabled = !ready;
    box.appendChild(button);
    return box;
  }

  // "Yes, confirm" first: the common answer is one Tab from the heading.
  function confirmScreen() {
    return el('section', {class: 'card confirm', id: 'confirm'}, [
      heading('confirm-heading', 'East-West: is this right?'),
      el('p', {class: 'big result', text: state.result.text}),
      el('div', {class: 'actions'}, [
        el('button', {type: 'button', class: 'primary', id: 'agree', text: 'Yes, confirm',
          onclick: function () { send('confirm/', {hand: state.hand, entry: state.result.entry}); }}),
        el('button', {type: 'button', class: 'secondary', id: 'wrong', text: 'No, it is wrong',
          onclick: function () { values = {}; send('wrong/', {hand: state.hand}); }})
      ])
    ]);
  }

  function doneScreen() {
    var box = el('section', {class: 'card done', id: 'done'}, [
      heading('done-heading', 'Hand ' + state.hand + ' confirmed'),
      el('p', {class: 'big result', text: state.result.text})
    ]);
    if (state.hand >= state.hands) {
      box.appendChild(el('p', {class: 'big', text: 'That was the last hand: the director will read out the prizes.'}));
    } else if (state.waiting.length) {
      var them = state.waiting.length <= 12 ? ': table' + (state.waiting.length > 1 ? 's ' : ' ') + state.waiting.join(', ') : '';
      box.appendChild(el('p', {class: 'big', id: 'waiting',
        text: state.done + ' of ' + state.tables + ' tables done. Waiting for ' + state.waiting.length + ' more' + them + '.'}));
      box.appendChild(el('p', {class: 'help', text: 'Stay seated: where everyone goes next shows here as soon as the last table confirms.'}));
    } else {
      box.appendChild(el('p', {class: 'big', text: 'Every table is done: the director moves everyone on.'}));
    }
    return box;
  }

  /** A screen's heading: focusable by script only (a new screen sends focus to it), with an
      id, so a redraw of the same screen finds it again when it has focus. */
  function heading(id, text) {
    return el('h2', {id: id, tabindex: '-1', text: text});
  }

  /** The screen the table is on. It changes exactly when the players have something else to
      do (a new hand, East-West's turn, the wait, the end); picks and refreshes keep it. */
  function screenName() {
    if (state.status !== 'running') { return 'closed:' + state.status; }
    var queued = outbox.items.length > 0;
    var r = state.result.state;
    if (r === 'to enter' && !queued) { return 'enter:' + state.hand; }
    if (r === 'waiting' && !queued) { return 'confirm:' + state.hand; }
    if (r === 'confirmed') { return 'done:' + state.hand; }
    return 'sending:' + state.hand;
  }
  /** Where focus goes on a new screen: its own heading (the seats' card comes first on the
      page, but it is not what changed). A new hand starts with where the players go. */
  function headingFor(name, newHand) {
    var kind = name.split(':')[0];
    if (kind === 'enter') { return newHand && state.moved.length ? 'moves-heading' : 'enter-heading'; }
    return {confirm: 'confirm-heading', done: 'done-heading', sending: 'sending-heading',
      closed: 'message'}[kind];
  }

  function render() {
    document.getElementById('hand-label').textContent =
      state.status === 'draft' ? '' : '\u00b7 Hand ' + state.hand + ' of ' + state.hands;
    var label = document.getElementById('trumps-label');
    label.textContent = '';
    if (state.status === 'running') { withSuits(label, 'Trumps: ' + trumpsText(state.trumps)); }
    var name = screenName();
    var changed = drawn !== null && drawn !== name;
    var newHand = settledHand !== state.hand;
    drawn = name;
    if (name.indexOf('sending:') !== 0) { settledHand = state.hand; }
    core.draw(screen, name, build);
    if (changed) { core.focus(document.getElementById(headingFor(name, newHand))); }
  }

  function build() {
    screen.appendChild(el('p', {class: 'event', text: state.name + ' \u00b7 ' + state.game}));
    if (problem) { screen.appendChild(el('p', {class: 'problem', id: 'problem', text: problem})); }
    if (state.status !== 'running') {
      screen.appendChild(el('h2', {class: 'big', id: 'message', tabindex: '-1', text: state.message}));
      screen.appendChild(core.largePrintHelp());
      return;
    }
    if (state.message) { screen.appendChild(el('p', {class: 'big notice', id: 'message', text: state.message})); }
    if (state.moved.length && state.result.state === 'to enter') {
      screen.appendChild(el('section', {class: 'card moves', id: 'moves'}, [
        heading('moves-heading', 'Hand ' + state.hand + ': where this table\u2019s players go'),
        el('ul', {class: 'moves'}, state.moved.map(function (m) {
          return el('li', {}, [el('strong', {text: m.name}), document.createTextNode(' \u2192 ' + placeText(m))]);
        }))
      ]));
    }
    screen.appendChild(el('section', {class: 'card seats', id: 'seats'}, [
      el('h2', {text: 'At this table, hand ' + state.hand + ' \u00b7 trumps ' + trumpsText(state.trumps)}),
      el('ul', {class: 'seats'}, state.seats.map(function (s) {
        return el('li', {}, [el('strong', {text: seatName(s.seat)}), document.createTextNode(' ' + s.name + ' (' + s.role + ')')]);
      }))
    ]));
    var kind = screenName().split(':')[0];
    if (kind === 'enter') { screen.appendChild(entryScreen()); }
    else if (kind === 'confirm') { screen.appendChild(confirmScreen()); }
    else if (kind === 'done') { screen.appendChild(doneScreen()); }
    else {
      screen.appendChild(el('section', {class: 'card sending', id: 'sending'}, [
        heading('sending-heading', 'Sending your result\u2026'),
        el('p', {class: 'help', text: 'It is kept on this tablet until the director\u2019s computer has it.'})
      ]));
    }
    screen.appendChild(core.largePrintHelp());
  }

  render();
  core.showBanner();
  outbox.flush();
  core.live(refresh, adopt, 8000, 8000);
  core.offlineReload('/d/');
})();
