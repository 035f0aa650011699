/* Live results: ask the small version endpoint every few seconds and, when the results have
   changed, fetch the page's live part again and swap it in (no reload, no framework).
   One tiny request per reader every POLL_MS; nothing while the page is hidden. */
(function () {
  var box = document.getElementById('live');
  if (!box || !box.getAttribute('data-live')) { return; }
  var POLL_MS = 2000;
  var version = box.getAttribute('data-version');
  function get(url, done) {
    var xhr = new XMLHttpRequest();
    xhr.open('GET', url, true);
    xhr.onreadystatechange = function () {
      if (xhr.readyState === 4 && xhr.status === 200) { done(xhr.responseText); }
    };
    xhr.send();
  }
  function check() {
    if (document.hidden) { return; }
    get(box.getAttribute('data-live'), function (text) {
      var now = JSON.parse(text).version;
      if (String(now) === String(version)) { return; }
      version = now;
      if (box.getAttribute('data-reload')) { location.reload(); return; }
      get(location.pathname + box.getAttribute('data-part'), function (html) {
        box.innerHTML = html;
        box.setAttribute('data-version', now);
      });
    });
  }
  setInterval(check, POLL_MS);
  document.addEventListener('visibilitychange', check);
})();
