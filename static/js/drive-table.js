/* clubwhist: a drive table's tablet (its screens: where the players go, the seats, North-South's
   entry, East-West's check, the table waiting for the others). Plain ES5 (old tablets, no
   build step); static/js/tablet-core.js, loaded first, does the requests, the one retry
   policy, the offline queue, the banner, the service worker and the live wake-up. The table's
   state comes embedded in the page, then from a stream the server sends it on each move of the
   drive, and from a poll every few seconds (the tables done so far). North-South enter the
   hand's result, East-West confirm it or say it is wrong. What the table sends waits in
   localStorage until the server has it, so a dropped connection or a reload loses nothing;
   the server takes a result sent twice once. */
(function () {
  'use strict';
  var core = window.clubwhistTablet;
  var state = JSON.parse(document.getElementById('drive-table-state').textContent);
  var screen = document.getElementById('screen');
  var values = {};        // the entry being picked
  var problem = '';       // the server's refusal, shown until the next action
  var el = core.el, withSuits = core.withSuits, SYMBOLS = core.SYMBOLS;

  function adopt(next) {
    if (!next || typeof next.version !== 'number') { return; }
    // A state older than the one shown (a slow poll overtaken by the stream) is ignored.
    if (next.version < state.version) { return; }
    if (next.hand !== state.hand) { values = {}; problem = ''; }
    state = next;
    render();
  }

  // [{path, body}] not yet taken by the server
  var outbox = core.queue(core.key('drive-queue'), function (item, done) {
    core.request('POST', item.path, item.body, done);
  }, function (item, code, data) {
    if (code === 200 || code === 201) { problem = ''; adopt(data); }
    else {
      problem = (data && data.detail) || ('The server refused it (' + code + ').');
      if (data && data.state) { adopt(data.state); } else { render(); }
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
      else if (code === 403 || code === 404) { problem = (data && data.detail) || 'This link no longer works.'; render(); }
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

  function shown(field) {
    return (field.only_when || []).every(function (rule) {
      return rule[1].indexOf(values[rule[0]]) >= 0;
    });
  }
  function picker(field) {
    var set = el('fieldset', {class: 'picker', id: 'field-' + field.key}, [el('legend', {text: field.label})]);
    var options = [];
    if (field.kind === 'int') {
      for (var n = field.min; n <= field.max; n++) { options.push({value: n, label: String(n)}); }
    } else if (field.kind === 'flag') {
      options = [{value: true, label: 'Yes'}, {value: false, label: 'No'}];
    } else {
      options = field.choices.map(function (c) { return {value: c.value, label: c.label}; });
    }
    options.forEach(function (o) {
      var on = values[field.key] === o.value;
      set.appendChild(el('button', {
        type: 'button', class: 'pick' + (on ? ' on' : ''), 'aria-pressed': on ? 'true' : 'false',
        text: o.label,
        onclick: function () { values[field.key] = o.value; problem = ''; render(); }
      }));
    });
    if (field.help) { set.appendChild(el('p', {class: 'help', text: field.help})); }
    return set;
  }

  function entryScreen() {
    var fields = state.fields.filter(shown);
    var ready = fields.every(function (f) { return f.kind === 'flag' || values[f.key] !== undefined; });
    var box = el('section', {class: 'card entry', id: 'enter'}, [
      el('h2', {text: 'North-South: enter the result'})
    ]);
    fields.forEach(function (f) { box.appendChild(picker(f)); });
    var entry = {};
    fields.forEach(function (f) {
      if (values[f.key] !== undefined) { entry[f.key] = values[f.key]; }
      else if (f.kind === 'flag') { entry[f.key] = false; }
    });
    var button = el('button', {
      type: 'button', class: 'primary', id: 'send', text: 'Send to East-West to confirm',
      onclick: function () { send('enter/', {hand: state.hand, entry: entry}); }
    });
    button.disabled = !ready;
    box.appendChild(button);
    return box;
  }

  function confirmScreen() {
    return el('section', {class: 'card confirm', id: 'confirm'}, [
      el('h2', {text: 'East-West: is this right?'}),
      el('p', {class: 'big result', text: state.result.text}),
      el('div', {class: 'actions'}, [
        el('button', {type: 'button', class: 'secondary', id: 'wrong', text: 'No, it is wrong',
          onclick: function () { values = {}; send('wrong/', {hand: state.hand}); }}),
        el('button', {type: 'button', class: 'primary', id: 'agree', text: 'Yes, confirm',
          onclick: function () { send('confirm/', {hand: state.hand, entry: state.result.entry}); }})
      ])
    ]);
  }

  function doneScreen() {
    var box = el('section', {class: 'card done', id: 'done'}, [
      el('h2', {text: 'Hand ' + state.hand + ' confirmed'}),
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

  function render() {
    document.getElementById('hand-label').textContent =
      state.status === 'draft' ? '' : '\u00b7 Hand ' + state.hand + ' of ' + state.hands;
    var label = document.getElementById('trumps-label');
    label.textContent = '';
    if (state.status === 'running') { withSuits(label, trumpsText(state.trumps)); }
    screen.innerHTML = '';
    screen.appendChild(el('p', {class: 'event', text: state.name + ' \u00b7 ' + state.game}));
    if (problem) { screen.appendChild(el('p', {class: 'problem', role: 'alert', id: 'problem', text: problem})); }
    if (state.status !== 'running') {
      screen.appendChild(el('p', {class: 'big', id: 'message', text: state.message}));
      return;
    }
    if (state.message) { screen.appendChild(el('p', {class: 'big notice', id: 'message', text: state.message})); }
    if (state.moved.length && state.result.state === 'to enter') {
      screen.appendChild(el('section', {class: 'card moves', id: 'moves'}, [
        el('h2', {text: 'Hand ' + state.hand + ': where this table\u2019s players go'}),
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
    var queued = outbox.items.length > 0;
    if (state.result.state === 'to enter' && !queued) { screen.appendChild(entryScreen()); }
    else if (state.result.state === 'waiting' && !queued) { screen.appendChild(confirmScreen()); }
    else if (state.result.state === 'confirmed') { screen.appendChild(doneScreen()); }
    else { screen.appendChild(el('p', {class: 'big', text: 'Sending your result\u2026'})); }
  }

  render();
  core.showBanner();
  outbox.flush();
  core.live(refresh, adopt, 8000, 8000);
  core.offlineReload('/d/');
})();
