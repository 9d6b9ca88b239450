//! Progress on stderr: a bar on a terminal; elsewhere (logs, nohup, a cluster job) a
//! plain line every few seconds; nothing with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the plain line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// Progress of a long job counted in `unit`s (games, iterations).
pub struct Progress {
    bar: Option<ProgressBar>,
    plain: Option<Mutex<Plain>>,
}

/// The state of the plain-line progress.
struct Plain {
    unit: &'static str,
    total: u64,
    done_before: u64,
    position: u64,
    started: Instant,
    last: Instant,
}

/// `1234567` as `1,234,567`.
#[must_use]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate for people: whole numbers with thousands separators, or one decimal below 10.
fn rate(per_second: f64) -> String {
    if !per_second.is_finite() || per_second <= 0.0 {
        "-".into()
    } else if per_second < 10.0 {
        format!("{per_second:.1}")
    } else {
        thousands(per_second.round() as u64)
    }
}

/// The rate over this session only: units done since the start divided by the time
/// taken, so a resumed run does not count the units it found already done.
fn session_rate(done_before: u64, position: u64, elapsed: Duration) -> f64 {
    position.saturating_sub(done_before) as f64 / elapsed.as_secs_f64().max(1e-3)
}

impl Progress {
    /// Progress over `total` units starting at `done`: a bar on a terminal, plain
    /// lines elsewhere, nothing when `quiet`.
    #[must_use]
    pub fn new(total: u64, done: u64, quiet: bool, unit: &'static str) -> Self {
        if quiet {
            return Progress {
                bar: None,
                plain: None,
            };
        }
        if !std::io::stderr().is_terminal() {
            let now = Instant::now();
            return Progress {
                bar: None,
                plain: Some(Mutex::new(Plain {
                    unit,
                    total,
                    done_before: done,
                    position: done,
                    started: now,
                    last: now,
                })),
            };
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template = format!(
            "{{bar:24.cyan/blue}} {{pos}}/{{len}} {unit}  {{rate}}/s  ETA {{eta}}  {{msg:.dim}}"
        );
        bar.set_style(
            ProgressStyle::with_template(&template)
                .expect("a valid template")
                .with_key(
                    "rate",
                    move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ =
                            w.write_str(&rate(session_rate(done, state.pos(), state.elapsed())));
                    },
                )
                .progress_chars("=> "),
        );
        bar.set_position(done);
        bar.reset_eta();
        Progress {
            bar: Some(bar),
            plain: None,
        }
    }

    /// Counts finished units.
    pub fn advance(&self, units: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(units);
        }
        if let Some(plain) = &self.plain {
            let mut p = plain
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            p.position += units;
            if p.last.elapsed() >= PLAIN_EVERY {
                p.last = Instant::now();
                let per_second = session_rate(p.done_before, p.position, p.started.elapsed());
                let left = p.total.saturating_sub(p.position) as f64 / per_second.max(1e-9);
                eprintln!(
                    "progress: {}/{} {} ({:.0}%), {}/s, about {} left",
                    thousands(p.position),
                    thousands(p.total),
                    p.unit,
                    100.0 * p.position as f64 / p.total.max(1) as f64,
                    rate(per_second),
                    humantime::format_duration(Duration::from_secs(left.round() as u64))
                );
            }
        }
    }

    /// Shows a short message after the bar.
    pub fn message(&self, text: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_as_people_write_them() {
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(12), "12");
        assert_eq!(rate(1035.8393), "1,036");
        assert_eq!(rate(2.345), "2.3");
        // A resumed run's first moment counts only what this session did.
        assert_eq!(
            session_rate(500_000, 500_000, Duration::from_millis(1)),
            0.0
        );
        assert_eq!(session_rate(100, 300, Duration::from_secs(2)), 100.0);
    }
}
