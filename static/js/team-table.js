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
   connection or a reload loses nothing. */
(function () {
  'use strict';
  var core = window.clubwhistTablet;
  var state = JSON.parse(document.getElementById('team-table-state').textContent);
  var screen = document.getElementById('screen');
  var SKEY = core.key('team-side');
  var problem = '';
  var side = core.load(SKEY, {round: 0, side: ''});   // who entered on this device, this round
  var typing = null;                                   // the entry form's values while open
  var keep = core.save, request = core.request, el = core.el;

  function adopt(next) {
    if (!next || typeof next.version !== 'number' || next.version < state.version) { return; }
    // While a team types, a state that changes nothing at this table only updates the bar.
    var same = typing && next.round === state.round && next.status === state.status &&
      JSON.stringify(next.game) === JSON.stringify(state.game);
    if (next.round !== state.round) { problem = ''; }
    state = next;
    if (same) { labels(); return; }
    typing = null;
    render();
  }

  var outbox = core.queue(core.key('team-queue'), function (item, done) {
    request('POST', item.path, item.body, done);
  }, function (item, code, data) {
    if (code === 200 || code === 201) { problem = ''; typing = null; adopt(data); }
    else {
      problem = (data && data.detail) || ('The server refused it (' + code + ').');
      // Always drawn again: a state that changes nothing at the table (a refusal while
      // changing what was sent) updates only the bar, and the refusal went unseen.
      if (data && data.state) { adopt(data.state); }
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
  }

  // Between rounds: the standings through the last round every table has finished (the
  // server sends none of a round still being played anywhere), and where the teams that sat
  // here last round play now.
  function standingsBlock() {
    if (!state.standings || !state.standings.length) { return null; }
    var table = el('table', {class: 'recap-table', id: 'standings'});
    table.appendChild(el('caption', {text: 'Standings after round ' + state.standings_round}));
    table.appendChild(el('tr', {}, [el('th', {scope: 'col', text: '#'}), el('th', {scope: 'col', text: 'Team'}),
      el('th', {scope: 'col', class: 'num', text: 'Won'}), el('th', {scope: 'col', class: 'num', text: 'Lost'}),
      el('th', {scope: 'col', class: 'num', text: 'Points'})]));
    state.standings.forEach(function (row) {
      table.appendChild(el('tr', {}, [el('td', {text: row.rank}), el('td', {text: row.name}),
        el('td', {class: 'num', text: String(row.won + (row.drawn ? ' \u00bd' : ''))}),
        el('td', {class: 'num', text: String(row.lost)}), el('td', {class: 'num', text: String(row.points)})]));
    });
    return el('section', {class: 'standings', 'aria-label': 'Standings'}, [table]);
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
  function withStandings() { var block = standingsBlock(); if (block) { screen.appendChild(block); } }

  function render() {
    labels();
    screen.innerHTML = '';
    screen.className = '';
    if (problem) { screen.appendChild(el('p', {class: 'problem', role: 'alert', id: 'problem', text: problem})); }
    if (state.status === 'draft') { screen.appendChild(para('The draw has not been made yet: the director calls out the tables.', 'big')); return; }
    if (state.status === 'finished' || state.status === 'published') {
      screen.appendChild(para('The tournament is over. Thank you for playing!', 'big')); withStandings(); return;
    }
    if (state.status === 'playoff') {
      if (!state.home) {
        screen.appendChild(para('The playoff is being played: no match at this table now. The director calls the teams to their tables.', 'big'));
        withStandings(); return;
      }
      screen.appendChild(el('h2', {text: state.match, id: 'match'}));
    } else if (!state.game) {
      var moves = movesBlock();
      if (moves) { screen.appendChild(moves); }
    }
    if (!state.home) {
      screen.appendChild(para('No game at this table in round ' + state.round + '.', 'big'));
      withStandings(); return;
    }
    screen.appendChild(el('div', {class: 'pairs'}, [
      el('p', {}, [el('strong', {text: 'North-South: '}), document.createTextNode(state.home.name)]),
      el('p', {}, [el('strong', {text: 'East-West: '}), document.createTextNode(state.away.name)])
    ]));
    var g = state.game;
    if (!g || (typing && typing.changing)) { return entry(); }
    if (g.status === 'confirmed') {
      screen.className = 'recap';
      screen.appendChild(el('h2', {text: 'Game confirmed', id: 'confirmed'}));
      screen.appendChild(para(outcome(g), 'big'));
      if (state.status !== 'playoff') {
        screen.appendChild(para(state.done + ' of ' + state.tables + ' tables are done. The next round is called when all are in: this tablet then shows who plays here.'));
      }
      withStandings();
      return;
    }
    if (g.status === 'disputed') {
      screen.appendChild(el('h2', {text: 'The director is called'}));
      screen.appendChild(para('The teams do not agree on ' + score(g) + '. Please wait for the director.', 'big'));
      return;
    }
    // entered: the other team confirms
    var by = g.entered_by, checker = other(by);
    screen.className = 'confirm';
    screen.appendChild(el('h2', {text: team(by).name + ' entered'}));
    screen.appendChild(para(outcome(g), 'big'));
    if (NEEDS_HANDS) { screen.appendChild(para('Hands won: ' + g.hands[0] + ' to ' + g.hands[1] + '; Bostons: ' + g.bostons[0] + ' to ' + g.bostons[1])); }
    if (side.round === state.round && side.side === by) {
      screen.appendChild(el('p', {class: 'handover-note', text: 'Hand the tablet to ' + team(checker).name}));
    }
    screen.appendChild(el('button', {type: 'button', class: 'confirm-button', id: 'confirm',
      text: team(checker).name + ': this is right', onclick: function () {
        send('confirm/', {side: checker});
      }}));
    var note = el('textarea', {id: 'dispute-note', rows: '2', placeholder: 'What is wrong (optional)', 'aria-label': 'What is wrong'});
    screen.appendChild(note);
    screen.appendChild(el('button', {type: 'button', class: 'dispute', id: 'dispute',
      text: team(checker).name + ': it is wrong, call the director', onclick: function () {
        send('dispute/', {side: checker, note: note.value});
      }}));
    screen.appendChild(el('button', {type: 'button', class: 'link-button', id: 'change',
      text: team(by).name + ': change what we sent', onclick: function () {
        typing = {side: by, changing: true}; render();
      }}));
  }

  function numberField(id, label, value) {
    var input = el('input', {type: 'number', inputmode: 'numeric', id: id, value: value === undefined ? '' : String(value)});
    input.oninput = function () { typing[id] = input.value; };
    return el('label', {class: 'type-number'}, [document.createTextNode(label + ' '), input]);
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
  function preview(hands, after) {
    request('POST', 'preview/', {hands: hands}, function (code, data) {
      if (code === 200) { typing.hands = hands; typing.sheet = data; typing.hand = {}; problem = ''; }
      else if (code === 0) { core.failing = true; core.showBanner(); problem = 'No connection: try again in a moment.'; }
      else { problem = (data && data.detail) || ('Refused (' + code + ').'); }
      if (after) { after(); }
      render();
    });
  }
  function handsForm(form) {
    var sheet = typing.sheet, hands = typing.hands || [];
    if (sheet && sheet.lines.length) {
      var table = el('table', {class: 'recap-table', id: 'sheet'});
      table.appendChild(el('tr', {}, [el('th', {text: '#'}), el('th', {text: 'Hand'}),
        el('th', {class: 'num', text: state.home.name}), el('th', {class: 'num', text: state.away.name})]));
      sheet.lines.forEach(function (line) {
        table.appendChild(el('tr', {}, [el('td', {text: String(line.number)}), el('td', {text: line.text}),
          el('td', {class: 'num', text: String(line.totals[0])}), el('td', {class: 'num', text: String(line.totals[1])})]));
      });
      form.appendChild(table);
      form.appendChild(el('button', {type: 'button', class: 'link-button', id: 'undo-hand', text: 'Take back the last hand',
        onclick: function () { preview(hands.slice(0, -1)); }}));
    }
    if (sheet && sheet.over) {
      form.appendChild(para('The game is over: ' + sheet.ended + '.', 'big'));
      form.appendChild(el('button', {type: 'button', class: 'primary', id: 'send-hands', text: 'Send the game', onclick: function () {
        if (!typing.side) { problem = 'Say who is entering: tap your team\'s name.'; render(); return; }
        side = {round: state.round, side: typing.side};
        keep(SKEY, side);
        send('enter/', {side: typing.side, hands: hands, replace: !!typing.changing});
      }}));
      return;
    }
    var hand = typing.hand = typing.hand || {};
    form.appendChild(el('h3', {text: 'Hand ' + (hands.length + 1)}));
    handFields(hand).forEach(function (p) {
      var box = el('fieldset', {class: 'picker', id: 'pick-' + p[0]}, [el('legend', {text: p[1]})]);
      p[2].forEach(function (choice) {
        var on = hand[p[0]] === choice[0];
        box.appendChild(el('button', {type: 'button', class: 'pick' + (on ? ' on' : ''), 'aria-pressed': on ? 'true' : 'false',
          'data-value': String(choice[0]), text: p[0] === 'declarer' ? choice[1] + ' (' + seatTeam(choice[0]) + ')' : choice[1],
          onclick: function () { hand[p[0]] = choice[0]; render(); }}));
      });
      form.appendChild(box);
    });
    var ready = handFields(hand).every(function (p) { return hand[p[0]] !== undefined; });
    var add = el('button', {type: 'button', class: 'primary', id: 'add-hand', text: 'Add this hand', onclick: function () {
      var chosen = {};
      handFields(hand).forEach(function (p) { chosen[p[0]] = hand[p[0]]; });
      preview(hands.concat([chosen]));
    }});
    add.disabled = !ready;
    form.appendChild(add);
    form.appendChild(el('button', {type: 'button', class: 'secondary', id: 'passed-out', text: 'All four passed',
      onclick: function () { preview(hands.concat([{passed_out: true}])); }}));
  }

  function entry() {
    typing = typing || {};
    var g = state.game;
    if (g && g.status === 'entered' && !typing.side) { typing.side = g.entered_by; }
    screen.className = 'entry';
    var old = document.getElementById('entry-form');
    if (old) { old.parentNode.removeChild(old); }
    var form = el('div', {id: 'entry-form'});
    form.appendChild(el('h2', {text: 'Enter the game'}));
    form.appendChild(para(state.game_kind === 'target' ? 'A game to ' + state.game_value + ' points.' :
      state.game_kind === 'best_of' ? 'Best of ' + state.game_value + ' hands.' : state.game_value + ' hands.', 'muted'));
    form.appendChild(para('Who is entering?'));
    var who = el('div', {class: 'picks'});
    ['home', 'away'].forEach(function (s) {
      who.appendChild(el('button', {type: 'button', class: 'pick' + (typing.side === s ? ' on' : ''),
        'aria-pressed': typing.side === s ? 'true' : 'false', 'data-side': s, text: team(s).name,
        onclick: function () { typing.side = s; entry(); }}));
    });
    form.appendChild(who);
    var modes = el('div', {class: 'picks', role: 'group', 'aria-label': 'How to enter the game'});
    [['score', 'The final score'], ['hands', 'Hand by hand']].forEach(function (m) {
      var on = (typing.mode || 'score') === m[0];
      modes.appendChild(el('button', {type: 'button', class: 'pick' + (on ? ' on' : ''), 'data-mode': m[0],
        'aria-pressed': on ? 'true' : 'false', text: m[1], onclick: function () { typing.mode = m[0]; render(); }}));
    });
    form.appendChild(modes);
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
    var sendButton = el('button', {type: 'button', class: 'primary', id: 'send', text: 'Send', onclick: function () {
      // "Change what we sent" replaces the waiting entry, whichever team is named now.
      var body = {side: typing.side, score: {}, replace: !!typing.changing};
      var missing = '';
      ['home_points', 'away_points', 'home_hands', 'away_hands', 'home_bostons', 'away_bostons', 'home_sets', 'away_sets'].forEach(function (k) {
        var input = document.getElementById(k);
        if (!input) { return; }
        var text = input.value.replace(/\s/g, '');
        if (text === '') { if (k.indexOf('points') > 0 && !missing) { missing = k; } return; }
        if (!/^-?\d+$/.test(text)) { missing = missing || k; return; }
        body.score[k] = parseInt(text, 10);
      });
      if (!typing.side) { problem = 'Say who is entering: tap your team\'s name.'; render(); entry(); return; }
      if (missing) { problem = 'Type both teams\' points as whole numbers.'; render(); entry(); return; }
      side = {round: state.round, side: typing.side};
      keep(SKEY, side);
      problem = '';
      send('enter/', body);
    }});
    form.appendChild(sendButton);
    screen.appendChild(form);
  }

  render();
  outbox.flush();
  // Woken by the stream when the tournament moves; the poll brings the other tables' games.
  core.live(poll, adopt, 4000, 8000);
  core.offlineReload('/tt/');
}());
