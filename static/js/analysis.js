/* The event page's par computation: the bar follows the boards analysed so far, each board's
   par is listed as it arrives (Bid Whist's hardest boards come first, so the list may fill
   out of order; it is kept in board order), and the page reloads when none is left waiting. */
(function () {
  var box = document.getElementById('analysis');
  if (!box || !box.querySelector('progress')) { return; }
  var list = box.querySelector('.pars-list');
  function boardUrl(number) { return box.dataset.board.replace(/1\/$/, number + '/'); }
  function showPars(pars) {
    if (!list) { return; }
    var shown = {};
    Array.prototype.forEach.call(list.children, function (li) { shown[li.dataset.board] = true; });
    pars.forEach(function (p) {
      if (shown[String(p.board)]) { return; }
      var li = document.createElement('li');
      li.dataset.board = String(p.board);
      var a = document.createElement('a');
      a.href = boardUrl(p.board);
      a.textContent = 'Board ' + p.board;
      li.appendChild(a);
      li.appendChild(document.createTextNode(': ' + (p.failed ? 'not analysed (' + p.summary + ')' : p.summary)));
      var before = null;
      Array.prototype.forEach.call(list.children, function (other) {
        if (!before && Number(other.dataset.board) > p.board) { before = other; }
      });
      list.insertBefore(li, before);
    });
    var count = box.querySelector('.pars-count');
    if (count) { count.textContent = String(list.children.length); }
  }
  function poll() {
    fetch(box.dataset.url, {credentials: 'same-origin'}).then(function (r) { return r.json(); }).then(function (p) {
      var bar = box.querySelector('progress'), finished = p.done + p.failed;
      bar.value = finished;
      box.querySelector('.count').textContent = finished + ' of ' + p.total;
      showPars(p.pars || []);
      if (p.queued === 0) { location.reload(); } else { setTimeout(poll, 1500); }
    }).catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1500);
})();
