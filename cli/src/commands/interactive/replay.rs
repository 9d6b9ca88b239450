//! `reversi-lab replay`: steps through a recorded game (a results folder's game, or a
//! transcript) forwards and backwards, line by line or on a timer.

use super::{
    drawing, finish_output, line_from, pause, play_transcript, prompt, result_text, status,
    transcript_text, Input, CLEAR_SCREEN,
};
use crate::commands::Outcome;
use crate::commands::RulesArgs;
use crate::commands::Said;
use reversi_lab::board::{Bits, Geometry, Position};
use reversi_lab::error::{Error, Result};
use reversi_lab::game::{Line, Rules};
use reversi_lab::lab::folder::{check_not_an_input, check_output_file};
use reversi_lab::lab::recorded::load_game;
use reversi_lab::lab::setup::check_size;
use reversi_lab::lab::ResultsFolder;
use reversi_lab::with_geometry;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// Options of `reversi-lab replay`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReplayArgs {
    /// A results folder (such as results/default); its run.toml gives the size and rules.
    #[arg(
        required_unless_present = "moves",
        requires = "game",
        conflicts_with_all = ["moves", "size", "anti", "scoring"]
    )]
    pub results: Option<PathBuf>,
    /// The game to replay: its game_id in the folder's games.csv.
    #[arg(long, requires = "results")]
    pub game: Option<u64>,
    /// Replay this transcript (such as f5d6c3) from the start instead of a folder's game.
    #[arg(long)]
    pub moves: Option<String>,
    /// Board size of --moves: 4, 6, 8 or 10.
    #[arg(long)]
    pub size: Option<u32>,
    /// Scoring rules of --moves (a folder's game is scored under its own).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Play it through without waiting for input, this many milliseconds a move.
    #[arg(long, conflicts_with = "out")]
    pub auto: Option<u64>,
    /// Write the game to a file instead of stepping through it, in the format its
    /// extension names: .gif (an animated picture, one frame a ply), .svg (an animated
    /// drawing, no script) or .html (one self-contained page with a step-through board).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// With --out: replace the file if it exists.
    #[arg(long, requires = "out")]
    pub force: bool,
}

/// What a line typed during a replay asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Next,
    Previous,
    Jump(usize),
    Quit,
    Unknown,
}

fn parse_step(line: &str) -> Step {
    match line.to_ascii_lowercase().as_str() {
        "" | "n" | "next" => Step::Next,
        "p" | "prev" | "previous" => Step::Previous,
        "q" | "quit" | "exit" => Step::Quit,
        number => number.parse().map_or(Step::Unknown, Step::Jump),
    }
}

/// `reversi-lab replay`: shows the start, then each ply on Enter (or `n`), `p` to go
/// back, a ply number to jump, `q` to quit; with `--auto MS` every ply on a timer.
pub fn replay(args: &ReplayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Outcome> {
    let (size, rules, moves, title, source) = match (&args.results, &args.moves) {
        (Some(dir), _) => {
            let id = args.game.ok_or_else(|| {
                Error::input("give the game to replay with --game ID (a game_id of games.csv)")
            })?;
            let game = load_game(dir, id)?;
            let source = format!("game {id} of {}: its games.csv is damaged", dir.display());
            (game.size, game.rules, game.moves, game.title, source)
        }
        (None, Some(moves)) => {
            let size = check_size(args.size.unwrap_or(8))?;
            (
                size,
                args.rules.rules(),
                moves.clone(),
                format!("transcript {moves} ({size}x{size})"),
                "--moves".to_string(),
            )
        }
        (None, None) => {
            return Err(Error::input(
                "give a results folder and --game ID, or --moves TRANSCRIPT",
            ))
        }
    };
    if let Some(path) = &args.out {
        check_output_file(path, "--out")?;
        if let Some(dir) = &args.results {
            let inputs = ResultsFolder::at(dir).game_inputs();
            check_not_an_input(path, "--out", inputs.iter().map(PathBuf::as_path))?;
        }
        if path.exists() && !args.force {
            return Err(Error::input(format!(
                "{} already exists: choose another --out file, or add --force to replace it",
                path.display()
            )));
        }
        reversi_lab::report::write_game(path, size, rules, &moves, &title)?;
        writeln!(out, "wrote {}", path.display()).said()?;
        return Ok(Outcome::Finished);
    }
    let terminal = std::io::stdout().is_terminal();
    with_geometry!(size, G => {
        let mut whole = line_from::<G>(Position::start());
        play_transcript(&mut whole, &moves, &source)?;
        let viewer = Viewer { whole, rules, title, terminal };
        finish_output(match args.auto {
            Some(delay) => viewer.auto(delay, out),
            None => viewer.step(&mut Input::new(input), out),
        })
        .map(|()| Outcome::Finished)
    })
}

struct Viewer<G: Geometry> {
    whole: Line<G>,
    rules: Rules,
    title: String,
    terminal: bool,
}

impl<G: Geometry> Viewer<G> {
    /// Draws the game after `ply` moves.
    fn show(&self, ply: usize, out: &mut dyn Write) -> io::Result<()> {
        let mut line = self.whole.clone();
        line.back_to_move(ply);
        if self.terminal {
            write!(out, "{CLEAR_SCREEN}")?;
        }
        writeln!(out, "{}", self.title)?;
        let total = self.whole.moves().len();
        match line.last_move() {
            None => writeln!(out, "move 0 of {total}: the start")?,
            Some((last, pass_after)) => writeln!(
                out,
                "move {ply} of {total}: {} {}{}",
                last.side(),
                last.square.map_or_else(String::new, |s| s.name(G::SIZE)),
                if pass_after {
                    format!("; {} passes", last.side().opposite())
                } else {
                    String::new()
                }
            )?,
        }
        writeln!(
            out,
            "{}",
            drawing(
                &line,
                G::Bits::ZERO,
                self.terminal && super::colour_wanted()
            )
        )?;
        writeln!(out, "{}", status(&line))?;
        let game = &line;
        if let Some(outcome) = game.outcome(self.rules) {
            writeln!(out, "result: {}", result_text(&outcome, self.rules))?;
        } else if ply == total {
            writeln!(out, "the transcript ends here, before the end of the game")?;
        }
        if ply == total {
            writeln!(out, "transcript: {}", transcript_text(game))?;
        }
        out.flush()
    }

    fn auto(&self, delay: u64, out: &mut dyn Write) -> io::Result<()> {
        for ply in 0..=self.whole.moves().len() {
            if ply > 0 {
                pause(delay);
            }
            self.show(ply, out)?;
        }
        Ok(())
    }

    fn step(&self, input: &mut Input<'_>, out: &mut dyn Write) -> io::Result<()> {
        let total = self.whole.moves().len();
        let mut ply = 0;
        self.show(ply, out)?;
        loop {
            prompt(
                out,
                "[Enter/n] next, p previous, a move number to jump, q quit> ",
            )?;
            let Some(line) = input.line(out)? else {
                return Ok(());
            };
            let wanted = match parse_step(&line) {
                Step::Quit => return Ok(()),
                Step::Next if ply == total => {
                    writeln!(out, "this is the last move: p goes back, q quits")?;
                    continue;
                }
                Step::Next => ply + 1,
                Step::Previous if ply == 0 => {
                    writeln!(out, "this is the start: Enter goes forward, q quits")?;
                    continue;
                }
                Step::Previous => ply - 1,
                Step::Jump(to) if to <= total => to,
                Step::Jump(to) => {
                    writeln!(
                        out,
                        "there is no move {to}: the game has moves 0 to {total}"
                    )?;
                    continue;
                }
                Step::Unknown => {
                    writeln!(
                        out,
                        "unknown key '{}': Enter or n next, p previous, a move number (0 to {total}), q quit",
                        line.escape_debug()
                    )?;
                    continue;
                }
            };
            ply = wanted;
            self.show(ply, out)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_parse() {
        assert_eq!(parse_step(""), Step::Next);
        assert_eq!(parse_step("N"), Step::Next);
        assert_eq!(parse_step("p"), Step::Previous);
        assert_eq!(parse_step("12"), Step::Jump(12));
        assert_eq!(parse_step("q"), Step::Quit);
        assert_eq!(parse_step("-3"), Step::Unknown);
        assert_eq!(parse_step("x"), Step::Unknown);
    }
}
