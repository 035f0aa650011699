/* Live results: when newer standings are stored, swap the page's live part in (no reload, no
   framework). The server pushes the new part itself over one open connection (server-sent
   events, `data-stream`: a `part` event whose id is the version), or for pages without a part
   a `version` event, after which the part is fetched; a browser without EventSource, or whose
   stream keeps failing, asks the small version endpoint every POLL_MS instead. A server that
   follows all the streams it can turns a reader away (a 503, which closes the EventSource, or
   a `busy` event): the page then asks every BUSY_POLL_MS, with a little jitter so a room of
   readers does not ask in step, and tries the stream again after RETRY_STREAM_MS. */
(function () {
  var box = document.getElementById('live');
  if (!box || !box.getAttribute('data-live')) { return; }
  var POLL_MS = 5000, BUSY_POLL_MS = 15000, RETRY_STREAM_MS = 300000;
  var polling = null;
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
  function startPolling(every) {
    if (polling === null) { polling = setInterval(poll, every + Math.floor(Math.random() * 2000)); }
  }
  function stopPolling() {
    if (polling !== null) { clearInterval(polling); polling = null; }
  }
  var stream = box.getAttribute('data-stream');
  function turnedAway(source) {
    source.close();
    startPolling(BUSY_POLL_MS);
    setTimeout(function () { stopPolling(); follow(); }, RETRY_STREAM_MS);
  }
  function follow() {
    var failures = 0, source = new EventSource(stream);
    source.addEventListener('version', function (e) { failures = 0; seen(e.data); });
    source.addEventListener('busy', function () { turnedAway(source); });
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
      // CLOSED: the server answered with an error status (a 503 when it is following all the
      // streams it can), after which EventSource never reconnects by itself.
      if (source.readyState === EventSource.CLOSED) { turnedAway(source); }
      else if (failures > 5) { source.close(); startPolling(POLL_MS); }
    };
  }
  if (stream && window.EventSource) {
    follow();
  } else {
    startPolling(POLL_MS);
  }
  document.addEventListener('visibilitychange', poll);
})();
