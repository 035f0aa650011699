/* clubwhist table pages (classic at /t/, team tournaments at /tt/: SCOPE): keep a copy of the
   page and its files so a tablet can reload it without a network. The page first (its newest
   copy when the network fails), our static files from the copy; the API is never cached (the
   page keeps its own queue). */
var CACHE = '{{ cache_name }}';
var SCOPE = '{{ scope|escapejs }}';
var FILES = [{% for f in files %}'{{ f|escapejs }}'{% if not forloop.last %}, {% endif %}{% endfor %}];
self.addEventListener('install', function (event) {
  // 'reload': the files themselves, not an older copy from the browser's HTTP cache.
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(FILES.map(function (f) { return new Request(f, {cache: 'reload'}); }));
  }));
  self.skipWaiting();
});
self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});
self.addEventListener('fetch', function (event) {
  var url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin) { return; }
  if (url.pathname.indexOf('/api/') === 0) { return; }
  if (event.request.mode === 'navigate' && url.pathname.indexOf(SCOPE) === 0) {
    event.respondWith(fetch(event.request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(event.request, copy); });
      }
      return response;
    }).catch(function () {
      return caches.match(event.request).then(function (hit) {
        return hit || new Response('<h1>Offline</h1><p>Open this page once with a connection first.</p>',
          {headers: {'Content-Type': 'text/html'}});
      });
    }));
    return;
  }
  if (url.pathname.indexOf('/static/') === 0) {
    event.respondWith(caches.match(event.request).then(function (hit) {
      return hit || fetch(event.request).then(function (response) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(event.request, copy); });
        return response;
      });
    }));
  }
});
