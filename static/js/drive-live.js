/* A running drive's pages (the totals, the big screen, a player's card): the live part,
   `data-part` of #live, is fetched again every `data-refresh` seconds (at least 15, with a
   little jitter so a hall of phones does not ask in step) and swapped in when it changed,
   keeping where each wide table was scrolled to. A part that carries `data-final` (the drive
   is over) or a refusal (no longer public) stops it. A file fed by data- attributes, not an
   inline script: the Content-Security-Policy refuses those. */
(function () {
  var box = document.getElementById('live');
  if (!box || !box.getAttribute('data-part')) { return; }
  var every = Math.max(15, parseInt(box.getAttribute('data-refresh'), 10) || 20) * 1000;
  var part = box.getAttribute('data-part');
  var last = null, timer = null;
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
  }
  function swap(html) {
    if (html === last) { return; }
    var scrolled = [], wide = box.querySelectorAll('.scroll');
    for (var k = 0; k < wide.length; k++) { scrolled.push(wide[k].scrollLeft); }
    box.innerHTML = html;
    last = html;
    wide = box.querySelectorAll('.scroll');
    for (k = 0; k < wide.length && k < scrolled.length; k++) { wide[k].scrollLeft = scrolled[k]; }
    if (box.querySelector('[data-final]')) { stop(); }
  }
  function fetchPart() {
    if (document.hidden || timer === null) { return; }
    var xhr = new XMLHttpRequest();
    xhr.open('GET', part, true);
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4) { return; }
      if (xhr.status === 200) { swap(xhr.responseText); }
      else if (xhr.status === 404 || xhr.status === 403) { stop(); }
    };
    xhr.send();
  }
  timer = setInterval(fetchPart, every + Math.floor(Math.random() * 3000));
  document.addEventListener('visibilitychange', fetchPart);
})();
