/* Live results: when newer standings are stored, swap the page's live part in (no reload, no
   framework). The server pushes the new part itself over one open connection (server-sent
   events, `data-stream`: a `part` event whose id is the version), or for pages without a part
   a `version` event, after which the part is fetched; a browser without EventSource, or whose
   stream keeps failing, asks the small version endpoint every POLL_MS instead. */
(function () {
  var box = document.getElementById('live');
  if (!box || !box.getAttribute('data-live')) { return; }
  var POLL_MS = 5000;
  var version = box.getAttribute('data-version');
  function get(url, done) {
    var xhr = new XMLHttpRequest();
    xhr.open('GET', url, true);
    xhr.onreadystatechange = function () {
      if (xhr.readyState === 4 && xhr.status === 200) { done(xhr.responseText); }
    };
    xhr.send();
  }
  function seen(now) {
    if (now === null || now === undefined || String(now) === String(version)) { return; }
    version = now;
    if (box.getAttribute('data-reload')) { location.reload(); return; }
    get(location.pathname + box.getAttribute('data-part'), function (html) {
      box.innerHTML = html;
      box.setAttribute('data-version', now);
    });
  }
  function poll() {
    if (document.hidden) { return; }
    get(box.getAttribute('data-live'), function (text) { seen(JSON.parse(text).version); });
  }
  var stream = box.getAttribute('data-stream');
  if (stream && window.EventSource) {
    var failures = 0, source = new EventSource(stream);
    source.addEventListener('version', function (e) { failures = 0; seen(e.data); });
    source.addEventListener('part', function (e) {
      failures = 0;
      if (String(e.lastEventId) === String(version)) { return; }
      if (box.getAttribute('data-reload')) { version = e.lastEventId; location.reload(); return; }
      version = e.lastEventId;
      box.innerHTML = e.data;
      box.setAttribute('data-version', version);
    });
    source.onerror = function () {
      failures += 1;
      if (failures > 5) { source.close(); setInterval(poll, POLL_MS); }
    };
  } else {
    setInterval(poll, POLL_MS);
  }
  document.addEventListener('visibilitychange', poll);
})();
