//! The pages' scripts and play's style sheet, inlined into the pages (nothing is
//! loaded from elsewhere). The live script only replaces the server-rendered live
//! section with the one each event carries; play's draws the board from the
//! server's state and sends the clicks.

/// Follows a folder: each `live` event carries the live section as the server
/// renders it (a cluster run's: its shards), each `report` a tune's traces drawn
/// again, each `charts` a running run's charts drawn again; `gone` says the folder
/// was deleted.
pub const LIVE: &str = r#"(function () {
  var live = document.getElementById('live');
  if (!live || !window.EventSource) return;
  var source = new EventSource('/events?path=' + live.getAttribute('data-path'));
  source.addEventListener('live', function (e) {
    var old = document.getElementById('live-body');
    var before = old ? +old.getAttribute('data-games') : 0;
    live.innerHTML = e.data;
    var now = document.getElementById('live-body');
    if (now && +now.getAttribute('data-games') > before) now.classList.add('new');
  });
  source.addEventListener('charts', function (e) {
    var charts = JSON.parse(e.data);
    Object.keys(charts).forEach(function (name) {
      var title = document.getElementById('chart-' + name);
      if (title && title.nextElementSibling) title.nextElementSibling.innerHTML = charts[name];
    });
  });
  source.addEventListener('report', function (e) {
    var report = document.getElementById('report');
    if (report) report.innerHTML = e.data;
  });
  source.addEventListener('gone', function (e) {
    source.close();
    var p = document.createElement('p');
    p.className = 'warning';
    p.textContent = e.data;
    live.insertBefore(p, live.firstChild);
  });
})();"#;

/// The board of play.
pub const PLAY_STYLE: &str = "#board{display:grid;grid-template-columns:18px repeat(var(--n),44px);grid-template-rows:18px repeat(var(--n),44px);margin:0.5em 0}\
#board .cell{background:#2e7d32;border:1px solid #1b5e20;position:relative;padding:0;margin:0 -1px -1px 0;cursor:default}\
#board .legal{cursor:pointer}#board .b::after,#board .w::after{content:'';position:absolute;inset:9%;border-radius:50%}\
#board .b::after{background:#111}#board .w::after{background:#fafafa;border:1px solid #888}\
#board .hint::after{content:'';position:absolute;inset:36%;border-radius:50%;background:rgba(255,255,255,0.55)}\
#board .last{box-shadow:inset 0 0 0 3px #f9a825}.lab{display:flex;align-items:center;justify-content:center;font-size:12px;color:#555}";

/// Play: every action is a POST whose answer is the game's whole state.
pub const PLAY: &str = r#"(function () {
  var id = null, hints = false, st = null;
  function $(i) { return document.getElementById(i); }
  function post(url) {
    return fetch(url, { method: 'POST' }).then(function (r) {
      return r.text().then(function (t) {
        if (!r.ok) throw new Error(t.trim());
        return JSON.parse(t);
      });
    });
  }
  function fail(e) { $('message').textContent = e.message; }
  function show(s) {
    st = s; id = s.id; $('message').textContent = '';
    draw();
    if (s.eval) {
      var list = s.eval.values.map(function (v) { return v[0] + ' ' + v[1]; }).join(', ');
      $('values').textContent = 'eval by ' + s.eval.by + ' (larger is better for ' + s.eval.side + '; ' + s.eval.legend + '): ' + list
        + (s.eval.line ? '\nbest line by ' + s.eval.by + ': ' + s.eval.line : '');
    } else {
      $('values').textContent = '';
    }
  }
  function label(text) { var s = document.createElement('span'); s.className = 'lab'; s.textContent = text; return s; }
  function draw() {
    var n = st.size, b = $('board'), legal = {};
    st.legal.forEach(function (m) { legal[m] = 1; });
    b.innerHTML = '';
    b.style.setProperty('--n', n);
    b.appendChild(label(''));
    for (var c = 0; c < n; c++) b.appendChild(label(String.fromCharCode(97 + c)));
    for (var r = 0; r < n; r++) {
      b.appendChild(label(String(r + 1)));
      for (c = 0; c < n; c++) {
        var name = String.fromCharCode(97 + c) + (r + 1), cell = document.createElement('button');
        cell.type = 'button'; cell.className = 'cell'; cell.id = 'sq-' + name;
        cell.setAttribute('data-square', name);
        cell.setAttribute('aria-label', name);
        var v = st.cells.charAt(r * n + c);
        if (v === 'b') cell.classList.add('b');
        if (v === 'w') cell.classList.add('w');
        if (st.last === name) cell.classList.add('last');
        if (legal[name] && st.your_turn) { cell.classList.add('legal'); if (hints) cell.classList.add('hint'); }
        cell.addEventListener('click', move);
        b.appendChild(cell);
      }
    }
    var line = st.over ? 'game over: ' + st.result + (st.verdict ? ': ' + st.verdict : '')
      : st.side + ' to move' + (st.your_turn ? ' (you)' : '') + '; black ' + st.black + ', white ' + st.white;
    $('status').textContent = 'game ' + st.game + ' against ' + st.opponent + ' (you: ' + st.you + '): ' + line;
    $('transcript').value = st.transcript;
    document.body.setAttribute('data-moves', st.transcript.length / 2);
  }
  function move(e) {
    if (!id) return;
    post('/play/move?id=' + id + '&square=' + e.currentTarget.getAttribute('data-square')).then(show, fail);
  }
  function act(what) { return function () { if (id) post('/play/' + what + '?id=' + id).then(show, fail); }; }
  $('undo').addEventListener('click', act('undo'));
  $('eval').addEventListener('click', act('eval'));
  $('again').addEventListener('click', act('again'));
  $('hints').addEventListener('click', function () { hints = !hints; if (st) draw(); });
  $('setup').addEventListener('submit', function (e) {
    e.preventDefault();
    var query = new URLSearchParams(new FormData($('setup'))).toString();
    post('/play/new?' + query).then(show, fail);
  });
  new URLSearchParams(location.search).forEach(function (v, k) {
    var el = $('setup').elements[k];
    if (!el || !el.tagName) return;
    if (el.type === 'checkbox') el.checked = v === el.value || v === '1' || v === 'on';
    else el.value = v;
  });
  window.reversiPlay = { state: function () { return st; } };
  post('/play/new?' + new URLSearchParams(new FormData($('setup'))).toString()).then(show, fail);
})();"#;
