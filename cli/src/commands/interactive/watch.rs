//! `reversi-lab watch`: two strategies play one game, drawn move by move.

use super::{
    drawing, finish_output, line_from, pause, play_move, play_transcript, result_text, status,
    transcript_text, Scale, CLEAR_SCREEN,
};
use crate::commands::Outcome;
use crate::commands::RulesArgs;
use reversi_lab::board::{squares, Bits, Color, Geometry, Position, Square};
use reversi_lab::error::Result;
use reversi_lab::lab::schedule::game_rng;
use reversi_lab::lab::{MatchOptions, MatchPlan};
use reversi_lab::strategy::{Context, History, Memory, Strategy};
use reversi_lab::with_geometry;
use std::io::{self, IsTerminal, Write};

/// The pause between moves on a terminal when `--delay` is not given.
pub const TERMINAL_DELAY_MS: u64 = 600;

/// Options of `reversi-lab watch`.
#[derive(Clone, Debug, clap::Args)]
pub struct WatchArgs {
    /// Black's strategy, as a spec such as `alphabeta:depth=4,eval=mobility` (see `strategies`).
    pub a: String,
    /// White's strategy.
    pub b: String,
    /// Milliseconds between moves [default: 600 on a terminal, else 0].
    #[arg(long)]
    pub delay: Option<u64>,
    /// Seed: the game is game 0 of `match A B --seed S` (same opening, same moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random opening plies before the strategies take over (0: the standard start).
    #[arg(long, default_value_t = 0)]
    pub openings: u32,
    /// Board size: 4, 6, 8 or 10.
    #[arg(long, default_value_t = 8)]
    pub size: u32,
    /// Scoring rules.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// `reversi-lab watch`: plays game 0 of the match A vs B (A black) with its seed and
/// opening, printing each move with the mover's own value for it (where the strategy
/// has values) and the board after it, then the result. On a terminal it redraws in
/// place, in colour.
pub fn watch(args: &WatchArgs, out: &mut dyn Write) -> Result<Outcome> {
    let plan = MatchPlan::new(&MatchOptions {
        games: 1,
        seed: args.seed,
        threads: Some(1),
        size: args.size,
        rules: args.rules.rules(),
        openings: args.openings,
        ..MatchOptions::new(&args.a, &args.b)
    })?;
    let terminal = std::io::stdout().is_terminal();
    let delay = args
        .delay
        .unwrap_or(if terminal { TERMINAL_DELAY_MS } else { 0 });
    with_geometry!(plan.setup.size, G => {
        let players = plan.players::<G>()?;
        let scales = [Scale::of(&plan.specs[0]), Scale::of(&plan.specs[1])];
        let names = [args.a.as_str(), args.b.as_str()];
        finish_output(show_game(&plan, &players, &names, &scales, terminal, delay, out))
            .map(|()| Outcome::Finished)
    })
}

fn show_game<G: Geometry>(
    plan: &MatchPlan,
    players: &[Box<dyn Strategy<G>>; 2],
    names: &[&str; 2],
    scales: &[Scale; 2],
    terminal: bool,
    delay: u64,
    out: &mut dyn Write,
) -> io::Result<()> {
    let rules = plan.setup.rules;
    let (_, opening, deal) = plan.schedule.deal::<G>(0);
    let mut track = line_from(Position::<G>::start());
    play_transcript(&mut track, &opening, "the match's opening")
        .expect("the schedule's openings are legal");
    let mut rng = game_rng(deal.seed);
    // The players' memories as in a match; the values shown come from a scratch
    // memory, so that asking for them cannot change the moves chosen.
    let mut memories = [Memory::<G>::new(), Memory::<G>::new()];
    let mut scratch = Memory::<G>::new();
    let heading = format!(
        "{} (black) vs {} (white), {}x{}, seed {}{}",
        names[deal.seats[0]],
        names[deal.seats[1]],
        G::SIZE,
        G::SIZE,
        plan.setup.seed,
        if opening.is_empty() {
            String::new()
        } else {
            format!(", opening {opening}")
        }
    );
    let mut line = String::from("start");
    loop {
        if terminal {
            write!(out, "{CLEAR_SCREEN}")?;
        }
        writeln!(out, "{heading}")?;
        writeln!(out, "{line}")?;
        writeln!(
            out,
            "{}",
            drawing(&track, G::Bits::ZERO, terminal && super::colour_wanted())
        )?;
        writeln!(out, "{}", status(&track))?;
        out.flush()?;
        let game = &track;
        if let Some(outcome) = game.outcome(rules) {
            writeln!(out, "result: {}", result_text(&outcome, rules))?;
            return writeln!(out, "transcript: {}", transcript_text(game));
        }
        pause(delay);
        let side = game.side();
        let seat = usize::from(side != Color::Black);
        let player = players[deal.seats[seat]].as_ref();
        let (board, moves) = (game.board(), game.legal_moves());
        let value = |square: Square, scratch: &mut Memory<G>| {
            let mut rng = game_rng(0);
            let mut context = Context {
                rng: &mut rng,
                memory: scratch,
                history: History::of(game),
            };
            player
                .move_values(board, moves, &mut context)?
                .into_iter()
                .find(|&(s, _)| s == square)
                .map(|(_, v)| v)
        };
        let (square, expects, own) = if moves.count() == 1 {
            (Square::new(moves.lowest()), None, None)
        } else {
            let choice = super::choose_move(player, game, &mut rng, &mut memories[seat])?;
            (choice.square, choice.line_text(G::SIZE), choice.value)
        };
        // One scale for the whole game: discs where the values are discs, estimated or
        // solved (see `Scale`), and the unit said with each value. The value is the
        // choice's own where it has one, from the search that gave the line: a second
        // search (mcts's, drawing anew) could value the move otherwise.
        let scale = scales[deal.seats[seat]];
        let said = own
            .or_else(|| value(square, &mut scratch))
            .map(|v| scale.said(v, board.empty_count()));
        let score = match (said, expects) {
            (Some(said), Some(line)) => format!(" (its value {said}; line {line})"),
            (Some(said), None) => format!(" (its value {said})"),
            (None, Some(line)) => format!(" (line {line})"),
            (None, None) => String::new(),
        };
        play_move(&mut track, square).expect("strategies choose legal moves");
        let (turn, pass_after) = track.last_move().expect("a move was just played");
        let flipped: Vec<String> = squares(turn.flipped()).map(|s| s.name(G::SIZE)).collect();
        line = format!(
            "move {}: {side} ({}) plays {}{score}, flipping {}{}",
            track.moves().len(),
            names[deal.seats[seat]],
            square.name(G::SIZE),
            flipped.join(" "),
            if pass_after {
                format!("; {} has no legal move and passes", side.opposite())
            } else {
                String::new()
            }
        );
    }
}
