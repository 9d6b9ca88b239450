//! The step-through viewer of a game in a page: markup carrying the game's frames
//! as data attributes, one style sheet and one small script for every viewer on the
//! page (each keeps its own state). The engine computed the frames, so the script
//! knows no rule: it shows frame k, counts its discs and marks what changed.

use super::look::{css, escape, Look};
use crate::doc::replay::Replay;
use std::fmt::Write as _;

/// The viewer's style sheet (its colours are the GIF's and the SVG's).
#[must_use]
pub fn style() -> String {
    format!(
        ".rv{{display:inline-block;vertical-align:top;margin:0.3em 0 1em;outline:none}}\
.rv-board{{display:grid;grid-template-columns:18px repeat(var(--n),var(--cell));grid-template-rows:18px repeat(var(--n),var(--cell));\
border-radius:3px;padding:2px}}.rv:focus-within .rv-board{{box-shadow:0 0 0 3px #90caf9}}\
.rv-label{{font-size:12px;color:#555;display:flex;align-items:center;justify-content:center}}\
.rv-cell{{position:relative;background:{green};border:1px solid {grid};margin:0 -1px -1px 0}}\
.rv-cell::after{{content:'';position:absolute;inset:8%;border-radius:50%;display:none;background:var(--disc);border:1px solid var(--edge)}}\
.rv-b::after,.rv-w::after{{display:block}}.rv-b{{--disc:{black};--edge:{black}}}.rv-w{{--disc:{white};--edge:{white_edge}}}\
.rv-flip::after{{background:radial-gradient(circle,var(--disc) 0 38%,{flipped} 40% 58%,var(--disc) 60%)}}\
.rv-last::before{{content:'';position:absolute;left:50%;top:50%;width:22%;height:22%;transform:translate(-50%,-50%);border-radius:50%;background:{last};z-index:1}}\
.rv-controls{{margin:0.4em 0 0 18px}}.rv-controls button{{min-width:2.6em;margin-right:0.3em;font-size:100%}}\
.rv-status{{margin:0.3em 0 0 18px;white-space:nowrap}}.rv-counts{{margin-left:1em}}.rv-result{{margin:0.2em 0 0 18px;font-weight:bold}}",
        green = css(Look::GREEN),
        grid = css(Look::GRID),
        black = css(Look::BLACK),
        white = css(Look::WHITE),
        white_edge = css(Look::WHITE_EDGE),
        flipped = css(Look::FLIPPED),
        last = css(Look::LAST),
    )
}

/// The script that runs every `.rv` viewer on the page: the buttons (`data-step`),
/// and the arrow keys, Home and End while the viewer has the focus.
pub const SCRIPT: &str = r#"(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  function init(v) {
    var frames = v.dataset.frames.split(" "),
      marks = v.dataset.marks.split(" ").map(Number),
      captions = v.dataset.captions.split("|"),
      cells = v.querySelectorAll(".rv-cell"),
      move = v.querySelector(".rv-move"),
      counts = v.querySelector(".rv-counts"),
      result = v.querySelector(".rv-result"),
      buttons = v.querySelectorAll("[data-step]"),
      last = frames.length - 1,
      ply = 0;
    function show(k) {
      ply = Math.max(0, Math.min(last, k));
      var now = frames[ply], before = frames[Math.max(0, ply - 1)], black = 0, white = 0;
      for (var i = 0; i < cells.length; i++) {
        var s = now.charAt(i), was = before.charAt(i), c = "rv-cell";
        if (s === "b") { black++; c += " rv-b"; } else if (s === "w") { white++; c += " rv-w"; }
        if (was !== "." && was !== s) c += " rv-flip";
        if (i === marks[ply]) c += " rv-last";
        cells[i].className = c;
      }
      v.dataset.ply = ply;
      move.dataset.ply = ply;
      move.textContent = captions[ply];
      counts.dataset.black = black;
      counts.dataset.white = white;
      counts.textContent = "black " + black + " \u00b7 white " + white;
      result.hidden = ply !== last;
      var focused = document.activeElement;
      for (var j = 0; j < buttons.length; j++) {
        var step = buttons[j].dataset.step;
        buttons[j].disabled = (step === "first" || step === "prev") ? ply === 0 : ply === last;
      }
      // A disabled button drops the focus, and with it the keys: the viewer keeps them.
      if (focused && focused.disabled && v.contains(focused)) v.focus({ preventScroll: true });
    }
    function go(step) {
      show({ first: 0, prev: ply - 1, next: ply + 1, last: last }[step]);
    }
    v.addEventListener("click", function (e) {
      var b = e.target.closest("[data-step]");
      if (b && v.contains(b)) go(b.dataset.step);
    });
    v.addEventListener("keydown", function (e) {
      if (keys[e.key] && !e.altKey && !e.ctrlKey && !e.metaKey) {
        go(keys[e.key]);
        e.preventDefault();
      }
    });
    show(Number(v.dataset.start) || 0);
  }
  var all = document.querySelectorAll(".rv");
  for (var i = 0; i < all.length; i++) init(all[i]);
})();
"#;

/// One viewer: `id` its element id, `game` the games.csv `game_id` when it has one,
/// `start` the ply it shows first.
#[must_use]
pub fn markup(replay: &Replay, id: &str, game: Option<u64>, start: usize) -> String {
    let n = replay.size;
    let frames: Vec<String> = replay
        .frames
        .iter()
        .map(|f| {
            (0..n * n)
                .map(|i| match f.at(i) {
                    Some(crate::board::Color::Black) => 'b',
                    Some(crate::board::Color::White) => 'w',
                    None => '.',
                })
                .collect()
        })
        .collect();
    let marks: Vec<String> = replay
        .frames
        .iter()
        .map(|f| f.played.map_or("-1".into(), |(s, _)| s.index().to_string()))
        .collect();
    let captions: Vec<String> = (0..=replay.plies())
        .map(|ply| replay.caption(ply).replace('|', "/"))
        .collect();
    let cell = Look::new(n).cell * 4 / 5;
    let mut out = String::with_capacity(2048 + frames.len() * (n * n + 40) as usize);
    write!(
        out,
        r#"<div class="rv" id="{id}" tabindex="0" aria-label="game viewer: the buttons, or the arrow keys, Home and End" data-size="{n}" data-start="{start}"{game} data-frames="{}" data-marks="{}" data-captions="{}"><div class="rv-board" style="--n:{n};--cell:{cell}px"><span></span>"#,
        frames.join(" "),
        marks.join(" "),
        escape(&captions.join("|")),
        game = game.map_or(String::new(), |g| format!(r#" data-game="{g}""#)),
    )
    .ok();
    for column in 0..n {
        write!(
            out,
            r#"<span class="rv-label">{}</span>"#,
            (b'a' + column as u8) as char
        )
        .ok();
    }
    for row in 0..n {
        write!(out, r#"<span class="rv-label">{}</span>"#, row + 1).ok();
        for _ in 0..n {
            out.push_str(r#"<span class="rv-cell"></span>"#);
        }
    }
    let start = start.min(replay.plies());
    let shown = &replay.frames[start];
    write!(
        out,
        r#"</div><div class="rv-controls"><button type="button" data-step="first" title="first position (Home)">|&#x25C0;</button><button type="button" data-step="prev" title="previous move (left arrow)">&#x25C0;</button><button type="button" data-step="next" title="next move (right arrow)">&#x25B6;</button><button type="button" data-step="last" title="last position (End)">&#x25B6;|</button></div><div class="rv-status"><span class="rv-move" data-ply="{start}">{}</span><span class="rv-counts" data-black="{}" data-white="{}"></span></div><div class="rv-result"{}>{}</div></div>"#,
        escape(&replay.caption(start)),
        shown.black_count(),
        shown.white_count(),
        if start == replay.plies() { "" } else { " hidden" },
        escape(&replay.result()),
    )
    .ok();
    out
}

/// A whole page holding one game's viewer and its transcript: self-contained, so it
/// opens from disk with no network. `nav`: markup for the top of the page (the web
/// view's way back to the folder), empty for none.
#[must_use]
pub fn page(replay: &Replay, title: &str, nav: &str) -> String {
    let title = escape(title);
    let moves: Vec<String> = replay
        .frames
        .iter()
        .filter_map(|f| f.played.map(|(s, _)| s.name(replay.size)))
        .collect();
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title><style>body{{font-family:sans-serif;margin:2em;color:#222}}code{{word-break:break-all}}{}</style></head><body>\n{nav}<h1>{title}</h1>\n{}\n<p>{}. Transcript: <code>{}</code></p>\n<script>{SCRIPT}</script>\n</body></html>\n",
        style(),
        markup(replay, "game", None, 0),
        escape(&replay.result()),
        moves.concat(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn a_page_is_self_contained() {
        let replay = Replay::new(8, Rules::default(), "f5d6c3d3c4").unwrap();
        let page = page(&replay, "five moves", "");
        assert!(!page.contains("http://") && !page.contains("https://"));
        assert!(!page.contains("src="), "no external script or image");
        assert!(!page.contains("<link"), "no external style sheet");
        assert_eq!(page.matches("<script>").count(), 1);
        assert_eq!(page.matches(r#"class="rv-cell""#).count(), 64);
        assert!(page.contains("<code>f5d6c3d3c4</code>"));
        let viewer = markup(&replay, "g1", Some(7), 5);
        assert!(viewer.contains(r#"data-start="5" data-game="7""#));
        let frames = viewer.split(r#"data-frames=""#).nth(1).unwrap();
        let frames = &frames[..frames.find('"').unwrap()];
        assert_eq!(
            frames.split(' ').count(),
            5 + 1,
            "one frame per ply and the start"
        );
        assert!(frames.split(' ').all(|f| f.len() == 64));
    }
}
