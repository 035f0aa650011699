/* The traveller page: each line is checked and scored as it is typed (the server's preview,
   a quarter of a second after the last key), and a field that does not apply to what was
   chosen (a trump suit once no-trump is) is switched off. */
(function () {
  var form = document.getElementById('traveller');
  if (!form) { return; }
  var url = form.dataset.preview;
  var token = form.querySelector('[name=csrfmiddlewaretoken]').value;
  var timers = {};
  function applies(row, el) {
    var when = JSON.parse(el.dataset.when || '[]'), i = row.dataset.line;
    return when.every(function (cond) {
      var other = row.querySelector('[name="r' + i + '-' + cond[0] + '"]');
      var value = !other ? null : other.type === 'checkbox' ? other.checked : other.value;
      return cond[1].indexOf(value) >= 0;
    });
  }
  function refresh(row) {
    row.querySelectorAll('[data-when]').forEach(function (el) { el.disabled = !applies(row, el); });
  }
  function check(row) {
    var i = row.dataset.line, data = new FormData(), any = false;
    row.querySelectorAll('input:enabled,select:enabled').forEach(function (el) {
      var key = el.name.replace('r' + i + '-', '');
      var value = el.type === 'checkbox' ? (el.checked ? 'on' : '') : el.value;
      if (value) { any = true; }
      data.append(key, value);
    });
    var cell = row.querySelector('.preview');
    if (!any) { cell.textContent = ''; cell.title = ''; row.classList.remove('row-error'); return; }
    data.append('csrfmiddlewaretoken', token);
    fetch(url, {method: 'POST', body: data, credentials: 'same-origin'})
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (res.valid) { cell.textContent = (res.ns_score > 0 ? '+' : '') + res.ns_score; cell.title = res.describe; row.classList.remove('row-error'); }
        else { cell.textContent = '✗'; cell.title = res.error; row.classList.toggle('row-error', !!res.error); }
      }).catch(function () { cell.textContent = '?'; cell.title = 'Could not check (connection)'; });
  }
  form.querySelectorAll('tr[data-line]').forEach(function (row) {
    if (!row.querySelector('.preview')) { return; }
    refresh(row);
    row.addEventListener('input', function () {
      refresh(row);
      clearTimeout(timers[row.dataset.line]);
      timers[row.dataset.line] = setTimeout(function () { check(row); }, 250);
    });
  });
  var first = form.querySelector('tr[data-line] input:not([type=checkbox]), tr[data-line] select');
  if (first) { first.focus(); }
})();
