/* The room display: one slide at a time (each field's standings, then the latest boards),
   the next every 12 seconds; the live results script reloads the page when results change. */
(function () {
  var slides = document.querySelectorAll('.slide'), i = 0;
  function show() {
    for (var k = 0; k < slides.length; k++) { slides[k].hidden = k !== i; }
    i = (i + 1) % (slides.length || 1);
  }
  if (slides.length) { show(); setInterval(show, 12000); }
})();
