//! A game as an animated SVG without any script: SMIL animations with discrete key
//! times on one clock (the whole game, then it loops). Each square's disc changes
//! colour when a move reaches it; one group per step holds its caption, counts and
//! marks and is visible only during its step. Without animation (a static renderer)
//! the picture shows the final position.

use super::look::{counts, css, delay_cs, escape, Look};
use crate::board::{Color, Square};
use crate::doc::replay::Replay;
use std::fmt::Write as _;

/// An `<animate>` of `attribute` through `values` (value, from this step on), on the
/// game's clock; consecutive repeats are dropped, since discrete values hold.
fn animate(out: &mut String, attribute: &str, values: &[(usize, &str)], starts: &[f64], dur: f64) {
    let mut kept: Vec<(usize, &str)> = Vec::new();
    for &(step, value) in values {
        if kept.last().is_none_or(|(_, last)| *last != value) {
            kept.push((step, value));
        }
    }
    if kept.len() < 2 {
        return; // never changes
    }
    let times: Vec<String> = kept
        .iter()
        .map(|(step, _)| format!("{:.5}", starts[*step] / dur))
        .collect();
    let values: Vec<&str> = kept.iter().map(|(_, v)| *v).collect();
    write!(
        out,
        r#"<animate attributeName="{attribute}" calcMode="discrete" dur="{dur:.2}s" repeatCount="indefinite" keyTimes="{}" values="{}"/>"#,
        times.join(";"),
        values.join(";")
    )
    .ok();
}

/// The animated SVG of a game.
#[must_use]
pub fn svg(replay: &Replay, title: &str) -> String {
    let look = Look::new(replay.size);
    let (w, h) = (look.width(), look.height());
    let plies = replay.plies();
    // When each step starts, in seconds, and the whole loop's length.
    let mut starts = Vec::with_capacity(plies + 1);
    let mut clock = 0.0;
    for ply in 0..=plies {
        starts.push(clock);
        clock += f64::from(delay_cs(ply, plies)) / 100.0;
    }
    let dur = clock;
    let mut out = String::with_capacity(16_384 + 600 * plies);
    write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="{text}"><title>{title}</title><rect width="{w}" height="{h}" fill="{bg}"/>"#,
        text = css(Look::TEXT),
        bg = css(Look::BACKGROUND),
        title = escape(title),
    )
    .ok();
    let (font, lines) = look.title_lines(title);
    for (line, middle) in lines {
        write!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="{font}">{}</text>"#,
            w / 2,
            middle + font * 7 / 16,
            escape(&line)
        )
        .ok();
    }
    let (x0, y0) = look.origin();
    let side = look.board();
    write!(
        out,
        r#"<rect x="{x0}" y="{y0}" width="{side}" height="{side}" fill="{}" stroke="{}" stroke-width="2"/>"#,
        css(Look::GREEN),
        css(Look::GRID)
    )
    .ok();
    for k in 1..look.n {
        let at = k * look.cell;
        write!(
            out,
            r#"<path d="M{} {y0}v{side}M{x0} {}h{side}" stroke="{}"/>"#,
            x0 + at,
            y0 + at,
            css(Look::GRID)
        )
        .ok();
    }
    for k in 0..look.n {
        let centre = k * look.cell + look.cell / 2;
        write!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="13">{}</text><text x="{}" y="{}" text-anchor="middle" font-size="13">{}</text>"#,
            x0 + centre,
            y0 - 7,
            (b'a' + k as u8) as char,
            x0 - 12,
            y0 + centre + 5,
            k + 1
        )
        .ok();
    }
    // The discs: one circle per square that ever holds one, its colour animated.
    let last = &replay.frames[plies];
    // Chrome cannot animate a paint to or from `none`, so an empty square's disc is
    // hidden instead, in the colour it will first have (a disc, once placed, stays).
    let paint = |color: Color| match color {
        Color::Black => (css(Look::BLACK), css(Look::BLACK)),
        Color::White => (css(Look::WHITE), css(Look::WHITE_EDGE)),
    };
    for index in 0..look.n * look.n {
        let Some(first) = replay.frames.iter().find_map(|f| f.at(index)) else {
            continue;
        };
        let (x, y) = look.centre(Square::new(index));
        let (fill, stroke) = paint(last.at(index).unwrap_or(first));
        write!(
            out,
            r#"<circle cx="{x}" cy="{y}" r="{}" fill="{fill}" stroke="{stroke}">"#,
            look.radius()
        )
        .ok();
        let colors: Vec<(String, String)> = replay
            .frames
            .iter()
            .map(|f| paint(f.at(index).unwrap_or(first)))
            .collect();
        let pick = |part: fn(&(String, String)) -> &String| -> Vec<(usize, &str)> {
            colors
                .iter()
                .enumerate()
                .map(|(k, c)| (k, part(c).as_str()))
                .collect()
        };
        let shown: Vec<(usize, &str)> = replay
            .frames
            .iter()
            .enumerate()
            .map(|(k, f)| {
                (
                    k,
                    if f.at(index).is_some() {
                        "visible"
                    } else {
                        "hidden"
                    },
                )
            })
            .collect();
        animate(&mut out, "fill", &pick(|c| &c.0), &starts, dur);
        animate(&mut out, "stroke", &pick(|c| &c.1), &starts, dur);
        animate(&mut out, "visibility", &shown, &starts, dur);
        out.push_str("</circle>");
    }
    // One group per step: visible during its step only (the last one without animation).
    let footer_x = x0;
    for (ply, frame) in replay.frames.iter().enumerate() {
        let shown = if ply == plies { "visible" } else { "hidden" };
        write!(
            out,
            r#"<g class="step" data-ply="{ply}" data-black="{}" data-white="{}" visibility="{shown}">"#,
            frame.black_count(),
            frame.white_count()
        )
        .ok();
        let mut steps = vec![(0, "hidden"), (ply, "visible")];
        if ply < plies {
            steps.push((ply + 1, "hidden"));
        }
        if ply == 0 {
            steps.remove(0);
        }
        animate(&mut out, "visibility", &steps, &starts, dur);
        for index in 0..look.n * look.n {
            if frame.flipped >> index & 1 == 1 {
                let (x, y) = look.centre(Square::new(index));
                write!(
                    out,
                    r#"<circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="{}" stroke-width="3"/>"#,
                    look.radius() * 6 / 10,
                    css(Look::FLIPPED)
                )
                .ok();
            }
        }
        if let Some((square, _)) = frame.played {
            let (x, y) = look.centre(square);
            write!(
                out,
                r#"<circle cx="{x}" cy="{y}" r="{}" fill="{}"/>"#,
                (look.radius() / 3).max(3),
                css(Look::LAST)
            )
            .ok();
        }
        write!(
            out,
            r#"<text x="{footer_x}" y="{}">{}</text><text x="{footer_x}" y="{}">{}</text>"#,
            look.footer_line(0) + 5,
            escape(&replay.caption(ply)),
            look.footer_line(1) + 5,
            escape(&counts(frame))
        )
        .ok();
        if ply == plies {
            write!(
                out,
                r#"<text x="{footer_x}" y="{}" font-weight="bold">{}</text>"#,
                look.footer_line(2) + 5,
                escape(&replay.result())
            )
            .ok();
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn one_step_per_ply_and_no_script() {
        let replay = Replay::new(4, Rules::default(), "d3d2b1a2d1b4a4d4c4a1a3").unwrap();
        let svg = svg(&replay, "a <small> game");
        assert_eq!(svg.matches(r#"<g class="step""#).count(), 11 + 1);
        assert!(!svg.contains("<script"));
        assert!(
            !svg.contains("none;") && !svg.contains(";none"),
            "Chrome animates no paint to none"
        );
        assert!(svg.contains("a &lt;small&gt; game"));
        assert!(svg.contains(r#"data-ply="11" data-black="14" data-white="1""#));
        assert!(svg.contains("Black wins by 14 (14-1)"));
        // Every key time list starts at 0 and rises.
        for times in svg.split(r#"keyTimes=""#).skip(1) {
            let times: Vec<f64> = times[..times.find('"').unwrap()]
                .split(';')
                .map(|t| t.parse().unwrap())
                .collect();
            assert_eq!(times[0], 0.0);
            assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
            assert!(times.iter().all(|t| *t < 1.0));
        }
        let ten = Replay::new(10, Rules::default(), "").unwrap();
        assert_eq!(svg_steps(&super::svg(&ten, "empty")), 1);
    }

    fn svg_steps(svg: &str) -> usize {
        svg.matches(r#"<g class="step""#).count()
    }
}
