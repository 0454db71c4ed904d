#include "print/flamegraph_script.h"

namespace dtrace::print {

const std::string_view kFlameGraphStyle = R"css(
text { font-family: "DejaVu Sans Mono", monospace; font-size: 11px; fill: #000; }
.title { font-family: "DejaVu Sans", Verdana, sans-serif; font-size: 17px; text-anchor: middle; }
.subtitle { font-family: "DejaVu Sans", Verdana, sans-serif; font-size: 12px; text-anchor: middle; fill: #555; }
.frame { cursor: pointer; }
.frame:hover rect { stroke: #000; stroke-width: 0.5; }
.frame text { pointer-events: none; }
.frame.parent { opacity: 0.5; }
.frame.hidden, .hidden { display: none; }
#reset { cursor: pointer; font-size: 12px; }
#matched { text-anchor: end; font-size: 12px; }
#search { box-sizing: border-box; width: 100%; height: 100%; font: 12px sans-serif; }
)css";

const std::string_view kFlameGraphScript = R"js(
(function () {
  'use strict';
  var HIGHLIGHT = 'rgb(230,0,230)';
  var group = document.getElementById('frames');
  var pad = Number(group.getAttribute('data-pad'));
  var span = Number(group.getAttribute('data-span'));
  var charWidth = Number(group.getAttribute('data-char-width'));
  var labelPadding = Number(group.getAttribute('data-label-padding'));
  var resetButton = document.getElementById('reset');
  var searchBox = document.getElementById('search');
  var matchedText = document.getElementById('matched');
  var details = document.getElementById('details');

  var frames = Array.prototype.map.call(group.querySelectorAll('g.frame'), function (g) {
    var title = g.querySelector('title').textContent;
    var rect = g.querySelector('rect');
    return {
      g: g, rect: rect, text: g.querySelector('text'), title: title,
      name: title.slice(0, title.lastIndexOf(' (')),
      depth: Number(g.getAttribute('data-depth')),
      start: Number(g.getAttribute('data-start')),
      samples: Number(g.getAttribute('data-samples')),
      fill: rect.getAttribute('fill')
    };
  });
  if (frames.length === 0) return;
  var root = frames[0];
  var zoomed = root;
  var searchTerm = '';

  // The same rule as the renderer's: whole, cut with "..", or nothing.
  function label(name, width) {
    var chars = Array.from(name);
    var fit = Math.floor((width - 2 * labelPadding) / charWidth);
    if (fit < 3) return '';
    if (chars.length <= fit) return name;
    return chars.slice(0, fit - 2).join('') + '..';
  }

  function contains(outer, inner) {
    return inner.start >= outer.start && inner.start + inner.samples <= outer.start + outer.samples;
  }

  function place(f, x, width) {
    f.rect.setAttribute('x', x.toFixed(2));
    f.rect.setAttribute('width', width.toFixed(2));
    f.text.setAttribute('x', (x + labelPadding).toFixed(2));
    f.text.textContent = label(f.name, width);
  }

  // Frames inside `target` widen to fill the graph; the frames below it
  // (its callers) span the graph, faded; all others are hidden.
  function zoom(target) {
    zoomed = target;
    var scale = span / target.samples;
    frames.forEach(function (f) {
      var above = f.depth >= target.depth && contains(target, f);
      var below = f.depth < target.depth && contains(f, target);
      f.g.classList.toggle('hidden', !above && !below);
      f.g.classList.toggle('parent', below);
      if (above) place(f, pad + (f.start - target.start) * scale, f.samples * scale);
      else if (below) place(f, pad, span);
    });
    resetButton.classList.toggle('hidden', target === root);
    remember();
  }

  function pattern(term) {
    try {
      return new RegExp(term);
    } catch (e) {
      return new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    }
  }

  // Highlights the frames whose names match, and shows the share of all
  // samples that pass through at least one of them.
  function search(term) {
    searchTerm = term;
    var re = term === '' ? null : pattern(term);
    var intervals = [];
    frames.forEach(function (f) {
      var match = re !== null && re.test(f.name);
      f.rect.setAttribute('fill', match ? HIGHLIGHT : f.fill);
      if (match) intervals.push([f.start, f.start + f.samples]);
    });
    intervals.sort(function (a, b) { return a[0] - b[0]; });
    var covered = 0, end = 0;
    intervals.forEach(function (iv) {
      if (iv[1] <= end) return;
      covered += iv[1] - Math.max(iv[0], end);
      end = iv[1];
    });
    matchedText.textContent = re === null ? '' : 'Matched: ' + (100 * covered / root.samples).toFixed(2) + '%';
    remember();
  }

  // Keeps the zoom and the search in the address, to bookmark or share.
  function remember() {
    var params = new URLSearchParams();
    if (zoomed !== root) params.set('z', zoomed.depth + ',' + zoomed.start);
    if (searchTerm !== '') params.set('s', searchTerm);
    var query = params.toString();
    try {
      history.replaceState(null, '', query === '' ? location.pathname : '?' + query);
    } catch (e) {
      // Some browsers refuse to change the address of a local file.
    }
  }

  var frameOfElement = new Map(frames.map(function (f) { return [f.g, f]; }));
  function frameOf(event) {
    return frameOfElement.get(event.target.closest('g.frame')) || null;
  }

  group.addEventListener('click', function (event) {
    var f = frameOf(event);
    if (f) zoom(f);
  });
  group.addEventListener('mouseover', function (event) {
    var f = frameOf(event);
    if (f) details.textContent = f.title;
  });
  group.addEventListener('mouseout', function () { details.textContent = ' '; });
  resetButton.addEventListener('click', function () { zoom(root); });
  searchBox.addEventListener('input', function () { search(searchBox.value); });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') {
      zoom(root);
    } else if ((event.ctrlKey || event.metaKey) && event.key === 'f') {
      event.preventDefault();
      searchBox.focus();
    }
  });

  var params = new URLSearchParams(location.search);
  var at = (params.get('z') || '').split(',').map(Number);
  frames.forEach(function (f) {
    if (f.depth === at[0] && f.start === at[1]) zoomed = f;
  });
  if (zoomed !== root) zoom(zoomed);
  if (params.get('s')) {
    searchBox.value = params.get('s');
    search(searchBox.value);
  }
})();
)js";

}  // namespace dtrace::print
