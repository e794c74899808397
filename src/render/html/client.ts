/** The page's only script, allowed by its hash; the page is complete without it, and it never writes HTML. */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  var doc = document;
  var slice = Array.prototype.slice;
  doc.documentElement.classList.add('js');
  slice.call(doc.querySelectorAll('.js-only')).forEach(function (el) { el.hidden = false; });
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

  function plural(n, one) { return n.toLocaleString('en-US') + ' ' + one + (n === 1 ? '' : 's'); }

  function cellValue(row, index, numeric) {
    var cell = row.cells[index];
    if (!cell) return numeric ? -Infinity : '';
    if (numeric) {
      var v = parseFloat(cell.getAttribute('data-v'));
      return isNaN(v) ? -Infinity : v;
    }
    return cell.textContent.trim();
  }

  function sortBy(th) {
    var table = th.closest('table');
    var index = slice.call(th.parentNode.children).indexOf(th);
    var numeric = th.getAttribute('data-sort') === 'num';
    // First click: numbers largest first (the server with the most unprotected tools), words A to Z.
    var now = th.getAttribute('aria-sort');
    var dir = now ? (now === 'ascending' ? 'descending' : 'ascending') : (numeric ? 'descending' : 'ascending');
    slice.call(th.parentNode.children).forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    var body = table.tBodies[0];
    var sign = dir === 'ascending' ? 1 : -1;
    var keyed = slice.call(body.rows).map(function (r, i) { return { r: r, v: cellValue(r, index, numeric), i: i }; });
    keyed.sort(function (a, b) {
      var c = numeric ? a.v - b.v : collator.compare(a.v, b.v);
      return c !== 0 ? sign * c : a.i - b.i;
    });
    var frag = doc.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k.r); });
    body.appendChild(frag);
  }

  var filter = doc.getElementById('server-filter');
  var serverRows = null;
  function filterServers() {
    var table = doc.getElementById('servers');
    if (!filter || !table) return;
    if (!serverRows) {
      // A server is found by its own row and by its tools: name, title, description, key arguments.
      serverRows = slice.call(table.tBodies[0].rows).map(function (r) {
        var i = r.getAttribute('data-i');
        var tools = doc.getElementById('t-' + i);
        var text = r.textContent + '\n' + (tools ? tools.tBodies[0].textContent : '');
        return { r: r, text: text.toLowerCase(), section: doc.getElementById('s-' + i) };
      });
    }
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    serverRows.forEach(function (x) {
      var ok = words.every(function (w) { return x.text.indexOf(w) >= 0; });
      x.r.hidden = !ok;
      if (x.section) x.section.hidden = !ok;
      if (ok) shown++;
    });
    var out = doc.getElementById('server-count');
    out.textContent = shown === serverRows.length ? plural(shown, 'server') : shown + ' of ' + plural(serverRows.length, 'server');
  }

  // One server's tool table: by verdict (select.verdict-filter) and by text (input.tool-filter), both at once.
  function filterTools(control) {
    var table = doc.getElementById(control.getAttribute('data-table'));
    if (!table) return;
    var n = table.id.slice(2);
    var select = doc.getElementById('vf-' + n);
    var input = doc.getElementById('tf-' + n);
    var want = select ? select.value : '';
    var words = input ? input.value.toLowerCase().split(/\s+/).filter(Boolean) : [];
    var rows = table.tBodies[0].rows;
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var ok = !want || rows[i].getAttribute('data-verdict') === want;
      if (ok && words.length) {
        var text = rows[i].textContent.toLowerCase();
        ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      }
      rows[i].hidden = !ok;
      if (ok) shown++;
    }
    var out = doc.getElementById('tc-' + n);
    if (out) out.textContent = shown === rows.length ? plural(shown, 'tool') : shown + ' of ' + plural(rows.length, 'tool');
  }

  function sections() { return slice.call(doc.querySelectorAll('details.server')); }
  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? doc.getElementById(id) : null;
    if (el && el.tagName === 'DETAILS') el.open = true;
  }

  function download() {
    var data = doc.getElementById('report-data');
    if (!data) return;
    var body = JSON.stringify(JSON.parse(data.textContent), null, 2) + '\n';
    var url = URL.createObjectURL(new Blob([body], { type: 'application/json' }));
    var a = doc.createElement('a');
    a.href = url;
    a.download = 'report.json';
    doc.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  doc.addEventListener('click', function (e) {
    var t = e.target;
    if (!(t instanceof Element)) return;
    var sort = t.closest('button.sort');
    if (sort) { sortBy(sort.closest('th')); return; }
    var action = t.closest('button[data-action]');
    if (action) {
      var what = action.getAttribute('data-action');
      if (what === 'expand' || what === 'collapse') sections().forEach(function (d) { d.open = what === 'expand'; });
      else if (what === 'download') download();
      return;
    }
    var link = t.closest('a[href^="#s-"]');
    if (link) {
      var target = doc.getElementById(link.getAttribute('href').slice(1));
      if (target && target.tagName === 'DETAILS') target.open = true;
    }
  });
  doc.addEventListener('input', function (e) {
    var t = e.target;
    if (t === filter) filterServers();
    else if (t instanceof HTMLInputElement && t.classList.contains('tool-filter')) filterTools(t);
  });
  doc.addEventListener('change', function (e) {
    var t = e.target;
    if (t instanceof HTMLSelectElement && t.classList.contains('verdict-filter')) filterTools(t);
  });
  window.addEventListener('hashchange', openFromHash);

  var closedForPrint = [];
  window.addEventListener('beforeprint', function () {
    closedForPrint = sections().filter(function (d) { return !d.open; });
    closedForPrint.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () {
    closedForPrint.forEach(function (d) { d.open = false; });
    closedForPrint = [];
  });

  // Values the browser restored (back/forward) apply at once.
  if (filter && filter.value) filterServers();
  slice.call(doc.querySelectorAll('select.verdict-filter, input.tool-filter')).forEach(function (s) { if (s.value) filterTools(s); });
  openFromHash();
  doc.documentElement.setAttribute('data-ready', '1');
})();`;
