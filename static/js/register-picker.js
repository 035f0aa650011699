/* The new drive's "Choose from the register": a filter box that hides the members whose name
   or number does not hold what is typed, and the count of those ticked. Without this script
   the list is a plain list of checkboxes, which is sent all the same. Its words come from the
   page (data- attributes); no inline script, which the Content-Security-Policy refuses. */
(function () {
  var picker = document.querySelector('#register-picker');
  if (!picker) { return; }
  var tools = picker.querySelector('[data-register-tools]');
  var filter = picker.querySelector('[data-register-filter]');
  var shown = picker.querySelector('[data-register-shown]');
  var count = picker.querySelector('[data-register-count]');
  var items = Array.prototype.slice.call(picker.querySelectorAll('[data-register-item]'));
  if (!tools || !filter || !count || !items.length) { return; }

  function words(text) {
    return text.toLocaleLowerCase().split(/\s+/).filter(function (w) { return w; });
  }

  function applyFilter() {
    var wanted = words(filter.value);
    var visible = 0;
    items.forEach(function (item) {
      var key = item.dataset.key.toLocaleLowerCase();
      var on = wanted.every(function (w) { return key.indexOf(w) !== -1; });
      item.hidden = !on;
      if (on) { visible += 1; }
    });
    if (!wanted.length) {
      shown.textContent = '';
    } else if (!visible) {
      shown.textContent = shown.dataset.none;
    } else {
      shown.textContent = shown.dataset.some.replace('{n}', visible).replace('{all}', items.length);
    }
  }

  function applyCount() {
    var n = picker.querySelectorAll('[data-register-item] input[type=checkbox]:checked').length;
    count.textContent = n === 1 ? count.dataset.one : count.dataset.many.replace('{n}', n);
  }

  tools.hidden = false;
  filter.addEventListener('input', applyFilter);
  /* Enter in the filter box would send the whole form: it only filters. */
  filter.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { e.preventDefault(); }
  });
  picker.addEventListener('change', applyCount);
  applyFilter();
  applyCount();
})();
