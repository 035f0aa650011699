/* The director's room view. */

/* The round clock counts down in the page (the server keeps only when it ends). The element
   is looked up on every tick: the live part below replaces it. */
(function () {
  function tick() {
    var el = document.getElementById('clock-left');
    if (!el) { return; }
    var left = Math.round((new Date(el.getAttribute('data-ends')) - new Date()) / 1000);
    if (left <= 0) { el.textContent = 'time is up'; el.className = 'bad'; return; }
    var m = Math.floor(left / 60), s = left % 60;
    el.textContent = m + ':' + (s < 10 ? '0' : '') + s + ' left';
  }
  tick(); setInterval(tick, 1000);
})();

/* The room's live part is fetched again and swapped in: no reload, so the scroll position
   and any open tablet code stay as they are. */
(function () {
  var box = document.getElementById('room-live');
  if (!box) { return; }
  if (!window.fetch || !window.DOMParser) { setTimeout(function () { location.reload(); }, 15000); return; }
  var open = function () { return Array.prototype.map.call(box.querySelectorAll('details[open]'), function (d) { return d.closest('[id]').id; }); };
  setInterval(function () {
    if (document.hidden) { return; }
    fetch(location.href, {credentials: 'same-origin'}).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (!html) { return; }
      var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('room-live');
      if (!fresh) { return; }
      var keep = open();
      box.innerHTML = fresh.innerHTML;
      keep.forEach(function (id) { var d = document.querySelector('#' + id + ' details'); if (d) { d.open = true; } });
    }).catch(function () {});
  }, parseInt(box.getAttribute('data-refresh'), 10));
})();
