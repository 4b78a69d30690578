// Injected into a report by test_report_layout.sh: measures every SVG <text> as the browser laid
// it out and writes what it found into <body data-layout="...">, which --dump-dom prints.
(function () {
  var bad = [], ntext = 0, nsvg = 0, minFont = 1e9;
  function box(e) { return e.getBoundingClientRect(); }
  function name(t) { return JSON.stringify((t.textContent || '').slice(0, 40)); }
  document.querySelectorAll('svg.chart').forEach(function (svg, si) {
    var s = box(svg);
    if (s.width === 0) return;
    nsvg++;
    var vb = svg.viewBox.baseVal, scale = vb && vb.width ? s.width / vb.width : 1;
    var texts = [];
    svg.querySelectorAll('text').forEach(function (t) {
      var r = box(t);
      if (r.width === 0 || r.height === 0) return;
      ntext++;
      minFont = Math.min(minFont, parseFloat(getComputedStyle(t).fontSize) * scale);
      if (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1)
        bad.push('svg ' + si + ' (' + svg.getAttribute('class') + '): ' + name(t) + ' leaves its SVG');
      texts.push([t, r]);
    });
    // Two labels overlap when their boxes share more than 1.5 px each way (glyph boxes carry
    // the font's ascent and descent, so lines set close touch without overlapping ink).
    for (var i = 0; i < texts.length; i++)
      for (var j = i + 1; j < texts.length; j++) {
        var a = texts[i][1], b = texts[j][1];
        var w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1.5 && h > 1.5 * scale + 1.5)
          bad.push('svg ' + si + ' (' + svg.getAttribute('class') + '): ' + name(texts[i][0]) + ' overlaps ' + name(texts[j][0]));
      }
  });
  document.body.setAttribute('data-layout', JSON.stringify({ svgs: nsvg, texts: ntext,
    min_font: Math.round(minFont * 10) / 10, bad: bad.slice(0, 12), nbad: bad.length }));
})();
