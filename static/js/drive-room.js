/* The drive's room display: every 3 seconds, ask for the live part and put it in place when
   it changed (a table done, a move). A missed answer is simply asked again. */
(function () {
  var room = document.getElementById('room');
  if (!room) { return; }
  var shown = null;
  function look() {
    var xhr = new XMLHttpRequest();
    xhr.open('GET', room.getAttribute('data-part'), true);
    xhr.timeout = 10000;
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4 || xhr.status !== 200) { return; }
      if (xhr.responseText !== shown) { shown = xhr.responseText; room.innerHTML = shown; }
    };
    xhr.send(null);
  }
  setInterval(look, 3000);
})();
