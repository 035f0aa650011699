/* The print page: each print job under way (the print pack, a big event's document) is asked
   for its state until it is finished, then the page reloads to show the link or the reason.
   The pack's bar counts its parts; a single document's bar has no parts to count and only
   says that work is going on. */
(function () {
  var WAIT = 700;
  function watch(box) {
    function poll() {
      fetch(box.dataset.url, {credentials: 'same-origin'}).then(function (r) {
        if (!r.ok) { throw new Error(r.status); }
        return r.json();
      }).then(function (job) {
        if (job.status !== 'queued' && job.status !== 'running') { location.reload(); return; }
        var bar = box.querySelector('progress[value]'), count = box.querySelector('.count');
        var step = box.querySelector('.step');
        if (bar) { bar.max = job.total; bar.value = job.done; }
        if (count) { count.textContent = job.done + ' of ' + job.total + ' parts'; }
        if (step) { step.textContent = job.done && job.step ? '(' + job.step + ' done)' : ''; }
        setTimeout(poll, WAIT);
      }).catch(function () { setTimeout(poll, 3000); });
    }
    setTimeout(poll, WAIT);
  }
  var boxes = document.querySelectorAll('.print-job[data-url]');
  for (var i = 0; i < boxes.length; i++) {
    if (boxes[i].querySelector('progress')) { watch(boxes[i]); }
  }
})();
