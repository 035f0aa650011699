/* clubwhist: a Bid Whist team tournament table's tablet (its screens: the two teams of the
   round, the entry by final score or hand by hand, the other team's check, the table waiting
   for the round, with the standings once every table has finished it and, when the next
   round is drawn, where last round's teams play; in the playoff, the match played here, game
   by game). Plain ES5 (old tablets, no build step); static/js/tablet-core.js, loaded
   first, does the requests, the one retry policy, the offline queue, the banner, the service
   worker and the live wake-up. The table's state comes embedded in the page, then from a
   stream the server sends it on whenever the tournament moves (a draw, a correction, the
   end), and from a poll beside it (the other tables' games). One team enters the game's final
   score from its score sheet, the other confirms it or says it is wrong (the director is
   called). Teams with a phone each may both enter it: matching figures count at once. What
   the table sends waits in localStorage until the server has answered, so a dropped
   connection or a reload loses nothing.

   Keyboard and screen readers: every drawing goes through `core.draw` under the name of the
   screen it shows, so a pick or a refresh keeps focus where it was and only a new screen
   moves it (to that screen's heading); the choices (the team entering, how to enter, each
   hand's declarer, bid, kind, trumps and books) are radio groups; what the server answers
   and every refusal is said through `core.announce`. */
(function () {
  'use strict';
  var core = window.clubwhistTablet;
  var state = JSON.parse(document.getElementById('team-table-state').textContent);
  var screen = document.getElementById('screen');
  var SKEY = core.key('team-side');
  var problem = '';
  var faults = [];                                     // the fields the problem is about (ids)
  var side = core.load(SKEY, {round: 0, side: ''});   // who entered on this device, this round
  var typing = null;                                   // the entry form's values while open
  var noteText = '';                                   // "what is wrong", kept across redraws
  var focusNext = null;                                // where focus goes after this drawing
  var keep = core.save, request = core.request, el = core.el;

  /** The state without what changes on every answer (the server's clock): two states that
      differ only there draw the same screen. */
  function shown(s) {
    var copy = {};
    for (var k in s) { if (s.hasOwnProperty(k) && k !== 'server_time') { copy[k] = s[k]; } }
    return JSON.stringify(copy);
  }
  /** How far the table's own game has gone: none, entered, then counted or disputed. Without
      the director (whose every change is a new version) a game only goes forward. */
  function progress(s) {
    var g = s.game;
    return !g ? 0 : g.status === 'entered' ? 1 : 2;
  }
  function adopt(next, own) {
    if (!next || typeof next.version !== 'number' || next.version < state.version) { return; }
    // A tablet's own game moves no version, so a pushed or polled state of the same version
    // and round that shows the game less far on than the screen was read before the game's
    // last step was stored (a stream opening while an entry was on its way): ignored, or the
    // entry screen would come back after its answer. Answers to this page's own requests are
    // always taken.
    if (!own && next.version === state.version && next.round === state.round &&
        next.status === state.status && next.match === state.match &&
        progress(next) < progress(state)) { return false; }
    // While a team types, a state that changes nothing at this table only updates the bar;
    // a state that changes nothing at all draws nothing.
    var same = typing && next.round === state.round && next.status === state.status &&
      JSON.stringify(next.game) === JSON.stringify(state.game);
    var unchanged = shown(next) === shown(state);
    if (next.round !== state.round) { problem = ''; faults = []; noteText = ''; }
    state = next;
    if (same || unchanged) { labels(); return false; }
    typing = null;
    render();
    return true;
  }

  /** A refusal: shown on the screen (beside what was refused) and said. */
  function refuse(words, fields) {
    problem = words;
    faults = fields || [];
    core.announce(words);
  }

  /** What the server's answer to `item` means, said when it has come. */
  function answered(item) {
    var g = state.game;
    if (item.path === 'confirm/') { return 'Confirmed: ' + (g ? outcome(g) : ''); }
    if (item.path === 'dispute/') { return 'The director is called'; }
    if (g && g.status === 'confirmed') { return 'Confirmed: ' + outcome(g); }
    if (g && g.status === 'entered' && state.home) {
      return 'Sent: ' + team(other(g.entered_by)).name + ' checks it';
    }
    return 'Sent';
  }

  var outbox = core.queue(core.key('team-queue'), function (item, done) {
    request('POST', item.path, item.body, done);
  }, function (item, code, data) {
    if (code === 200 || code === 201) {
      problem = ''; faults = []; typing = null;
      if (item.path === 'dispute/') { noteText = ''; }
      if (!adopt(data, true)) { render(); }
      core.announce(answered(item));
    } else {
      refuse((data && data.detail) || ('The server refused it (' + code + ').'));
      // Always drawn again: a state that changes nothing at the table (a refusal while
      // changing what was sent) updates only the bar, and the refusal went unseen.
      if (data && data.state) { adopt(data.state, true); }
      render();
    }
  });
  function send(path, body) { outbox.push({path: path, body: body}); }

  // Through `core.askState`: a state older than an answer to what this page sent is never
  // shown (a tablet's own game moves no version).
  function poll() {
    if (outbox.items.length) { outbox.flush(); return; }
    core.askState(function (code, data) {
      if (code === 200) { adopt(data); }
      else if (core.retryable(code)) { core.failing = true; }
      else if (code === 403 || code === 404) { window.location.reload(); }
      core.showBanner();
    });
  }

  core.banner({
    offline: function (waiting) {
      return waiting ? 'Offline: what you sent waits here and goes when the connection is back.'
        : 'Offline: trying again\u2026';
    },
    sending: function () { return 'Sending\u2026'; }
  });

  // ---- drawing ------------------------------------------------------------------------------
  function para(text, cls) { return el('p', {text: text, class: cls || ''}); }
  function team(which) { return which === 'home' ? state.home : state.away; }
  function other(which) { return which === 'home' ? 'away' : 'home'; }
  function score(g) {
    return state.home.name + ' ' + g.points[0] + ', ' + state.away.name + ' ' + g.points[1];
  }
  function outcome(g) {
    if (!g.points) { return 'No game: both teams have withdrawn'; }
    if (g.winner === null) { return score(g) + ': drawn'; }
    var winner = g.winner === state.home.number ? state.home.name : state.away.name;
    return score(g) + ': ' + winner + ' won';
  }
  var NEEDS_HANDS = state.game_kind !== 'target';

  function labels() {
    var playoff = state.status === 'playoff';
    document.getElementById('round-label').textContent = playoff ? '· playoff' :
      state.round ? '· round ' + state.round + ' of ' + state.rounds : '';
    document.getElementById('done-label').textContent =
      state.tables && !playoff ? state.done + ' of ' + state.tables + ' tables done' : '';
    core.clearOfBar();  // also when only the bar changes (no screen drawn)
  }

  /** A table too wide for a narrow screen scrolls inside its own box, which the keyboard
      can reach (a Tab stop, named by the table's caption): the page never scrolls sideways.
      The box is a Tab stop only while it scrolls (`scrollStops`, after each drawing, a turn
      of the tablet and the large-print switch). */
  function scrolling(table, name) {
    return el('div', {class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': name}, [table]);
  }
  function scrollStops() {
    Array.prototype.forEach.call(screen.querySelectorAll('.table-scroll'), function (box) {
      if (box.scrollWidth > box.clientWidth + 1) { box.setAttribute('tabindex', '0'); }
      else if (box !== document.activeElement) { box.removeAttribute('tabindex'); }
    });
  }
  // The boxes that scroll become Tab stops only while they do (the core keeps the room above
  // a focused control clear of the bar: `core.clearOfBar`).
  window.addEventListener('resize', scrollStops);
  document.getElementById('large-print').addEventListener('click', scrollStops);

  // Between rounds: the standings through the last round every table has finished (the
  // server sends none of a round still being played anywhere), and where the teams that sat
  // here last round play now.
  function standingsBlock() {
    if (!state.standings || !state.standings.length) { return null; }
    var table = el('table', {class: 'recap-table', id: 'standings'});
    var caption = 'Standings after round ' + state.standings_round;
    table.appendChild(el('caption', {text: caption}));
    table.appendChild(el('tr', {}, [el('th', {scope: 'col', text: '#'}), el('th', {scope: 'col', text: 'Team'}),
      el('th', {scope: 'col', class: 'num', text: 'Won'}), el('th', {scope: 'col', class: 'num', text: 'Lost'}),
      el('th', {scope: 'col', class: 'num', text: 'Points'})]));
    state.standings.forEach(function (row) {
      table.appendChild(el('tr', {}, [el('td', {text: row.rank}), el('td', {text: row.name}),
        el('td', {class: 'num', text: String(row.won + (row.drawn ? ' \u00bd' : ''))}),
        el('td', {class: 'num', text: String(row.lost)}), el('td', {class: 'num', text: String(row.points)})]));
    });
    return el('section', {class: 'standings', 'aria-label': 'Standings'}, [scrolling(table, caption)]);
  }
  function movesBlock() {
    if (!state.moves || !state.moves.length) { return null; }
    var list = el('ul', {class: 'moves', id: 'moves'});
    state.moves.forEach(function (m) {
      list.appendChild(el('li', {text: m.table === null ? m.team + ': no game this round' :
        m.team + ': table ' + m.table + ' v ' + m.opponent}));
    });
    return el('section', {'aria-label': 'Where last round\'s teams play now'}, [
      el('h2', {text: 'Round ' + state.round + ': where to play'}), list]);
  }
  function add(node) { if (node) { screen.appendChild(node); } }
  /** The refusal, said already (`refuse`), shown beside what it refuses; a field at fault
      points at it (aria-describedby). */
  function problemBlock() {
    return problem ? el('p', {class: 'problem', id: 'problem', text: problem}) : null;
  }

  /** A picker as a radio group (one Tab stop, the arrows move and pick); each choice's value
      is also in data-value, where the page's tests and a fault's description find it. */
  function radios(o) {
    var group = core.radioGroup(o);
    var buttons = group.querySelectorAll('button.pick');
    o.options.forEach(function (c, i) { buttons[i].setAttribute('data-value', String(c.value)); });
    if (o.id && faults.indexOf(o.id) >= 0) { group.setAttribute('aria-describedby', 'problem'); }
    return group;
  }
  /** The control of group `id` that takes the group's Tab stop (the picked one, or the first). */
  function stopOf(id) { return '#' + id + ' button.pick[tabindex="0"]'; }

  // Each screen has a name (`core.draw`): a pick or a refresh draws the same screen again and
  // keeps focus where it was; another screen (another round, the game sent, confirmed) moves
  // focus to its heading, which says what the screen is.
  function where() { return state.status === 'playoff' ? 'playoff|' + state.match : 'round|' + state.round; }
  function screenName() {
    if (state.status === 'draft') { return 'draft'; }
    if (state.status === 'finished' || state.status === 'published') { return 'over'; }
    if (!state.home) { return (state.status === 'playoff' ? 'idle|' : 'bye|') + where(); }
    var g = state.game;
    if (!g || (typing && typing.changing)) { return 'entry|' + where(); }
    return (g.status === 'confirmed' || g.status === 'disputed' ? g.status : 'check') + '|' + where();
  }

  function render() {
    labels();
    var name = screenName();
    core.draw(screen, name, function () { build(name.split('|')[0]); add(core.largePrintHelp()); });
    scrollStops();
    var target = focusNext && document.querySelector(focusNext);
    focusNext = null;
    if (target) { core.focus(target); }
  }

  function build(kind) {
    screen.className = '';
    if (kind === 'draft') {
      add(el('h2', {text: 'The draw has not been made yet'}));
      add(para('The director calls out the tables.', 'big'));
      return;
    }
    if (kind === 'over') {
      add(el('h2', {text: 'The tournament is over'}));
      add(problemBlock());
      add(para('Thank you for playing!', 'big'));
      add(standingsBlock());
      return;
    }
    if (kind === 'idle') {
      add(el('h2', {text: 'No match at this table now'}));
      add(problemBlock());
      add(para('The playoff is being played: the director calls the teams to their tables.', 'big'));
      add(standingsBlock());
      return;
    }
    if (kind === 'bye') {
      add(el('h2', {text: 'No game at this table in round ' + state.round}));
      add(problemBlock());
      add(movesBlock());
      add(standingsBlock());
      return;
    }
    if (state.status === 'playoff') { add(el('p', {class: 'big match', id: 'match', text: state.match})); }
    else if (!state.game) { add(movesBlock()); }
    add(el('div', {class: 'pairs'}, [
      el('p', {}, [el('strong', {text: 'North-South: '}), document.createTextNode(state.home.name)]),
      el('p', {}, [el('strong', {text: 'East-West: '}), document.createTextNode(state.away.name)])
    ]));
    var g = state.game;
    if (kind === 'entry') { entry(); return; }
    if (kind === 'confirmed') {
      screen.className = 'recap';
      add(el('h2', {text: 'Game confirmed', id: 'confirmed'}));
      add(problemBlock());
      add(para(outcome(g), 'big'));
      if (state.status !== 'playoff') {
        add(para(state.done + ' of ' + state.tables + ' tables are done. The next round is called when all are in: this tablet then shows who plays here.'));
      }
      add(standingsBlock());
      return;
    }
    if (kind === 'disputed') {
      add(el('h2', {text: 'The director is called', id: 'disputed'}));
      add(problemBlock());
      add(para('The teams do not agree on ' + score(g) + '. Please wait for the director.', 'big'));
      return;
    }
    check(g);
  }

  // The other team checks what was entered: the button that says it is right comes first
  // (one Tab from the screen's heading), then what is wrong and the call, then the change.
  function check(g) {
    var by = g.entered_by, checker = other(by);
    screen.className = 'confirm';
    add(el('h2', {text: team(by).name + ' entered', id: 'entered'}));
    add(para(outcome(g), 'big'));
    if (NEEDS_HANDS) { add(para('Hands won: ' + g.hands[0] + ' to ' + g.hands[1] + '; Bostons: ' + g.bostons[0] + ' to ' + g.bostons[1])); }
    if (side.round === state.round && side.side === by) {
      add(el('p', {class: 'handover-note', text: 'Hand the tablet to ' + team(checker).name}));
    }
    add(problemBlock());
    add(el('button', {type: 'button', class: 'confirm-button', id: 'confirm',
      text: team(checker).name + ': this is right', onclick: function () {
        send('confirm/', {side: checker});
      }}));
    add(el('label', {'for': 'dispute-note', class: 'note-label', text: 'What is wrong (optional)'}));
    var note = el('textarea', {id: 'dispute-note', rows: '2'});
    note.value = noteText;
    note.oninput = function () { noteText = note.value; };
    add(note);
    add(el('button', {type: 'button', class: 'dispute', id: 'dispute',
      text: team(checker).name + ': it is wrong, call the director', onclick: function () {
        send('dispute/', {side: checker, note: note.value});
      }}));
    add(el('button', {type: 'button', class: 'link-button', id: 'change',
      text: team(by).name + ': change what we sent', onclick: function () {
        typing = {side: by, changing: true}; render();
      }}));
  }

  function numberField(id, label, value) {
    var attrs = {type: 'number', inputmode: 'numeric', id: id, value: value === undefined ? '' : String(value)};
    if (faults.indexOf(id) >= 0) { attrs['aria-invalid'] = 'true'; attrs['aria-describedby'] = 'problem'; }
    var input = el('input', attrs);
    input.oninput = function () { typing[id] = input.value; };
    // Enter in a field sends, as in any form.
    input.onkeydown = function (e) {
      if (e.key === 'Enter') { e.preventDefault(); sendScore(); }
    };
    return el('label', {'class': 'type-number', 'for': id}, [document.createTextNode(label + ' '), input]);
  }

  var SCORE_FIELDS = ['home_points', 'away_points', 'home_hands', 'away_hands', 'home_bostons',
    'away_bostons', 'home_sets', 'away_sets'];
  function sayWho() {
    refuse('Say who is entering: tap your team\'s name.', ['pick-side']);
    focusNext = stopOf('pick-side');
    render();
  }
  function sendScore() {
    // "Change what we sent" replaces the waiting entry, whichever team is named now.
    var body = {side: typing.side, score: {}, replace: !!typing.changing};
    var bad = [];
    SCORE_FIELDS.forEach(function (k) {
      var input = document.getElementById(k);
      if (!input) { return; }
      var text = input.value.replace(/\s/g, '');
      // A number field gives '' for what is not a number at all (badInput).
      if (text === '') {
        if (/points$/.test(k) || (input.validity && input.validity.badInput)) { bad.push(k); }
        return;
      }
      if (!/^-?\d+$/.test(text)) { bad.push(k); return; }
      body.score[k] = parseInt(text, 10);
    });
    if (!typing.side) { sayWho(); return; }
    if (bad.length) {
      var points = bad.filter(function (k) { return /points$/.test(k); });
      if (points.length) { refuse('Type both teams\' points as whole numbers.', points); }
      else {
        var label = document.querySelector('label[for="' + bad[0] + '"]');
        refuse('Type a whole number for ' + (label ? label.textContent.trim() : 'each figure') + '.', [bad[0]]);
      }
      focusNext = '#' + faults[0];
      render();
      return;
    }
    side = {round: state.round, side: typing.side};
    keep(SKEY, side);
    problem = ''; faults = [];
    send('enter/', body);
    render();
  }

  // ---- hand by hand: each hand picked, the server's score sheet after each (nothing stored)
  var PICKS = [
    ['declarer', 'Declarer', [['N', 'North'], ['E', 'East'], ['S', 'South'], ['W', 'West']]],
    ['bid', 'Bid', [[3, '3'], [4, '4'], [5, '5'], [6, '6'], [7, '7']]],
    ['kind', 'Kind', [['uptown', 'Uptown'], ['downtown', 'Downtown'], ['notrump', 'No trump']]],
    ['trumps', 'Trumps', [['C', '\u2663 Clubs'], ['D', '\u2666 Diamonds'], ['H', '\u2665 Hearts'], ['S', '\u2660 Spades']]],
    ['ranking', 'Played', [['uptown', 'Uptown'], ['downtown', 'Downtown']]],
    ['books', 'Books (the kitty counts one)', [[1, '1'], [2, '2'], [3, '3'], [4, '4'], [5, '5'], [6, '6'], [7, '7'],
      [8, '8'], [9, '9'], [10, '10'], [11, '11'], [12, '12'], [13, '13']]]
  ];
  function seatTeam(seat) { return seat === 'N' || seat === 'S' ? state.home.name : state.away.name; }
  function handFields(hand) {
    return PICKS.filter(function (p) {
      if (p[0] === 'trumps') { return hand.kind !== 'notrump'; }
      if (p[0] === 'ranking') { return hand.kind === 'notrump'; }
      return true;
    });
  }
  function totals(sheet) {
    var line = sheet.lines[sheet.lines.length - 1];
    return line ? state.home.name + ' ' + line.totals[0] + ', ' + state.away.name + ' ' + line.totals[1] : '';
  }
  function preview(hands, undo) {
    request('POST', 'preview/', {hands: hands}, function (code, data) {
      if (!typing) { return; } // another screen came meanwhile
      if (code === 200) {
        typing.hands = hands; typing.sheet = data; typing.hand = {}; problem = ''; faults = [];
        core.announce((undo ? 'Hand ' + (hands.length + 1) + ' taken back. ' : 'Hand ' + hands.length + ' added. ') +
          totals(data) + (data.over ? '. The game is over: ' + data.ended + '.' : ''));
        // Next: the new hand's first choice, or Send once the game is over.
        focusNext = data.over ? '#send-hands' : (undo && hands.length ? null : stopOf('pick-declarer'));
      } else if (code === 0) {
        core.failing = true; core.showBanner(); refuse('No connection: try again in a moment.');
      } else { refuse((data && data.detail) || ('Refused (' + code + ').')); }
      render();
    });
  }
  function handsForm(form) {
    var sheet = typing.sheet, hands = typing.hands || [];
    if (sheet && sheet.lines.length) {
      var table = el('table', {class: 'recap-table', id: 'sheet'}, [el('caption', {text: 'The score sheet'})]);
      table.appendChild(el('tr', {}, [el('th', {scope: 'col', text: '#'}), el('th', {scope: 'col', text: 'Hand'}),
        el('th', {scope: 'col', class: 'num', text: state.home.name}), el('th', {scope: 'col', class: 'num', text: state.away.name})]));
      sheet.lines.forEach(function (line) {
        table.appendChild(el('tr', {}, [el('td', {text: String(line.number)}), el('td', {text: line.text}),
          el('td', {class: 'num', text: String(line.totals[0])}), el('td', {class: 'num', text: String(line.totals[1])})]));
      });
      form.appendChild(scrolling(table, 'The score sheet'));
      form.appendChild(el('button', {type: 'button', class: 'link-button', id: 'undo-hand', text: 'Take back the last hand',
        onclick: function () { preview(hands.slice(0, -1), true); }}));
    }
    if (sheet && sheet.over) {
      form.appendChild(para('The game is over: ' + sheet.ended + '.', 'big'));
      if (problem) { form.appendChild(problemBlock()); }
      form.appendChild(el('button', {type: 'button', class: 'primary', id: 'send-hands', text: 'Send the game', onclick: function () {
        if (!typing.side) { sayWho(); return; }
        side = {round: state.round, side: typing.side};
        keep(SKEY, side);
        send('enter/', {side: typing.side, hands: hands, replace: !!typing.changing});
      }}));
      return;
    }
    var hand = typing.hand = typing.hand || {};
    form.appendChild(el('h3', {text: 'Hand ' + (hands.length + 1), id: 'hand-number'}));
    handFields(hand).forEach(function (p) {
      form.appendChild(radios({field: p[0], legend: p[1], id: 'pick-' + p[0], selected: hand[p[0]],
        options: p[2].map(function (c) {
          return {value: c[0], label: p[0] === 'declarer' ? c[1] + ' (' + seatTeam(c[0]) + ')' : c[1]};
        }),
        onPick: function (value) { hand[p[0]] = value; render(); }}));
    });
    if (problem) { form.appendChild(problemBlock()); }
    var ready = handFields(hand).every(function (p) { return hand[p[0]] !== undefined; });
    var addHand = el('button', {type: 'button', class: 'primary', id: 'add-hand', text: 'Add this hand', onclick: function () {
      var chosen = {};
      handFields(hand).forEach(function (p) { chosen[p[0]] = hand[p[0]]; });
      preview(hands.concat([chosen]));
    }});
    addHand.disabled = !ready;
    form.appendChild(addHand);
    form.appendChild(el('button', {type: 'button', class: 'secondary', id: 'passed-out', text: 'All four passed',
      onclick: function () { preview(hands.concat([{passed_out: true}])); }}));
  }

  function entry() {
    typing = typing || {};
    var g = state.game;
    if (g && g.status === 'entered' && !typing.side) { typing.side = g.entered_by; }
    screen.className = 'entry';
    var form = el('div', {id: 'entry-form'});
    form.appendChild(el('h2', {text: 'Enter the game'}));
    form.appendChild(para(state.game_kind === 'target' ? 'A game to ' + state.game_value + ' points.' :
      state.game_kind === 'best_of' ? 'Best of ' + state.game_value + ' hands.' : state.game_value + ' hands.', 'muted'));
    form.appendChild(radios({field: 'side', legend: 'Who is entering?', id: 'pick-side', cls: 'picker picks',
      options: [{value: 'home', label: state.home.name}, {value: 'away', label: state.away.name}],
      selected: typing.side, onPick: function (value) {
        typing.side = value;
        if (faults[0] === 'pick-side') { problem = ''; faults = []; }
        render();
      }}));
    form.appendChild(radios({field: 'mode', legend: 'How to enter the game', id: 'pick-mode', cls: 'picker picks',
      options: [{value: 'score', label: 'The final score'}, {value: 'hands', label: 'Hand by hand'}],
      selected: typing.mode || 'score', onPick: function (value) { typing.mode = value; render(); }}));
    if (typing.mode === 'hands') { handsForm(form); screen.appendChild(form); return; }
    form.appendChild(numberField('home_points', state.home.name + ': points', typing.home_points));
    form.appendChild(numberField('away_points', state.away.name + ': points', typing.away_points));
    if (NEEDS_HANDS) {
      form.appendChild(numberField('home_hands', state.home.name + ': hands won', typing.home_hands));
      form.appendChild(numberField('away_hands', state.away.name + ': hands won', typing.away_hands));
    }
    form.appendChild(numberField('home_bostons', state.home.name + ': Bostons', typing.home_bostons || 0));
    form.appendChild(numberField('away_bostons', state.away.name + ': Bostons', typing.away_bostons || 0));
    if (state.sets_lose) {
      form.appendChild(numberField('home_sets', state.home.name + ': times set', typing.home_sets || 0));
      form.appendChild(numberField('away_sets', state.away.name + ': times set', typing.away_sets || 0));
    }
    if (problem) { form.appendChild(problemBlock()); }
    form.appendChild(el('button', {type: 'button', class: 'primary', id: 'send', text: 'Send', onclick: sendScore}));
    screen.appendChild(form);
  }

  render();
  outbox.flush();
  // Woken by the stream when the tournament moves; the poll brings the other tables' games.
  core.live(poll, adopt, 4000, 8000);
  core.offlineReload('/tt/');
}());
