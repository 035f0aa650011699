/* The event page's par computation: the bar follows the boards analysed so far, and the page
   reloads when none is left waiting. */
(function () {
  var box = document.getElementById('analysis');
  if (!box || !box.querySelector('progress')) { return; }
  function poll() {
    fetch(box.dataset.url, {credentials: 'same-origin'}).then(function (r) { return r.json(); }).then(function (p) {
      var bar = box.querySelector('progress'), finished = p.done + p.failed;
      bar.value = finished;
      box.querySelector('.count').textContent = finished + ' of ' + p.total;
      if (p.queued === 0) { location.reload(); } else { setTimeout(poll, 1500); }
    }).catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1500);
})();
