//! The progress bar on stderr: games done, games/s and ETA; hidden when quiet or not a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` games starting at `done`; hidden when `quiet` or when
    /// stderr is not a terminal.
    #[must_use]
    pub fn new(total: u64, done: u64, quiet: bool) -> Self {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40.cyan/blue} {pos}/{len} games  {per_sec}  ETA {eta}  {msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_position(done);
        bar.reset_eta();
        Progress { bar: Some(bar) }
    }

    /// Counts finished games.
    pub fn advance(&self, games: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(games);
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
