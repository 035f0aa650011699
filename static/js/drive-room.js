/* The drive's room display: every 3 seconds, ask for the live part and put it in place when
   the drive's version changed (a table done, a move). A missed answer is simply asked again. */
(function () {
  var room = document.getElementById('room');
  if (!room) { return; }
  var version = room.getAttribute('data-version');
  function look() {
    var xhr = new XMLHttpRequest();
    xhr.open('GET', room.getAttribute('data-part'), true);
    xhr.timeout = 10000;
    xhr.onreadystatechange = function () {
      if (xhr.readyState !== 4 || xhr.status !== 200) { return; }
      var now = xhr.getResponseHeader('X-Drive-Version');
      if (now && now !== version) { version = now; room.setAttribute('data-version', now); room.innerHTML = xhr.responseText; }
    };
    xhr.send(null);
  }
  setInterval(look, 3000);
})();
