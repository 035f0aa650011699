/* The new event page: only the chosen game's options show, and only they are sent. */
(function () {
  var game = document.querySelector('#id_game');
  if (!game) { return; }
  function show() {
    document.querySelectorAll('.game-options').forEach(function (fs) {
      var on = fs.dataset.game === game.value;
      fs.hidden = !on;
      fs.querySelectorAll('input,select').forEach(function (el) { el.disabled = !on; });
    });
  }
  game.addEventListener('change', show);
  show();
})();
