//! `reversi-lab play`: a person against a strategy, or two people at one keyboard,
//! move by move at a prompt.

use super::play_commands::{parse_command, Command, HELP};
use super::{
    drawing, finish_output, line_from, play_move, play_transcript, prompt, result_text, rules_text,
    status, transcript_text, Input, Scale,
};
use crate::commands::position::{parse_position, PositionArgs};
use crate::commands::Outcome;
use crate::commands::RulesArgs;
use rand::Rng;
use reversi_lab::board::{squares, Bits, Color, Geometry, Square, COLOUR_LEGEND, PLAIN_LEGEND};
use reversi_lab::error::{Error, Result};
use reversi_lab::game::{Line, Rules};
use reversi_lab::lab::schedule::{game_rng, Seeds};
use reversi_lab::strategy::engine::Protocol;
use reversi_lab::strategy::{
    best_first, Context, GameRng, History, Memory, Strategy, StrategySpec,
};
use reversi_lab::with_geometry;
use std::io::{self, BufRead, Write};

/// The opponent's strength when `--vs` is not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    /// The pattern evaluation one move ahead.
    Easy,
    /// The pattern evaluation searched 4 plies, the last 12 empties solved.
    Medium,
    /// The pattern evaluation searched selectively for 100,000 nodes a move, the last
    /// 18 empties solved.
    Hard,
    /// The pattern evaluation searched selectively for 0.2 s a move, solving from as
    /// many empties as the time allows (at most 22).
    Expert,
}

/// The evaluation the levels search under anti rules, on any size: the default `eval`
/// with every sign that counts discs turned over (fewer discs, fewer corners and stable
/// discs are better; mobility still is). The pattern evaluation estimates a normal
/// game's margin and plays anti games badly (medium scored 10.5% against random).
macro_rules! anti_eval {
    () => {
        "eval=(eval:discs=-1,mobility=8,potential_mobility=2,frontier=-3,corners=-30,x_squares=15,c_squares=6,stable=-6,parity=2)"
    };
}

impl Level {
    /// The strategy spec the level stands for (the `--help` text and docs/play.md
    /// list these; a test keeps them in step).
    #[must_use]
    pub const fn spec(self) -> &'static str {
        match self {
            Level::Easy => "alphabeta:eval=pattern,depth=1",
            Level::Medium => "alphabeta:eval=pattern,depth=4,endgame=12",
            Level::Hard => "alphabeta:eval=pattern,depth=60,nodes=100000,probcut=1.5,endgame=18",
            Level::Expert => reversi_lab::strategy::spec::EXPERT,
        }
    }

    /// The spec on boards other than 8x8, which the pattern evaluation does not
    /// cover: the classic square table at the same kind of budgets.
    #[must_use]
    pub const fn spec_off_8x8(self) -> &'static str {
        match self {
            Level::Easy => "greedy",
            Level::Medium => "alphabeta:depth=4",
            Level::Hard => "alphabeta:depth=10,endgame=18",
            Level::Expert => "alphabeta:time=200ms,endgame=22",
        }
    }

    /// The spec under anti rules, on any size: [`anti_eval`] at the budgets of
    /// [`spec`](Self::spec) (without Multi-ProbCut, fitted to the pattern evaluation).
    #[must_use]
    pub const fn spec_anti(self) -> &'static str {
        match self {
            Level::Easy => concat!("alphabeta:depth=1,", anti_eval!()),
            Level::Medium => concat!("alphabeta:depth=4,endgame=12,", anti_eval!()),
            Level::Hard => concat!("alphabeta:depth=60,nodes=100000,endgame=18,", anti_eval!()),
            Level::Expert => concat!("alphabeta:time=200ms,endgame=22,", anti_eval!()),
        }
    }

    /// The spec on a board of `size` under `rules`.
    #[must_use]
    pub const fn spec_for(self, size: u32, rules: Rules) -> &'static str {
        if rules.anti {
            self.spec_anti()
        } else if size == 8 {
            self.spec()
        } else {
            self.spec_off_8x8()
        }
    }
}

/// Which colour the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SideChoice {
    /// Black, who moves first.
    Black,
    /// White.
    White,
    /// Drawn from the game's seed.
    Random,
}

/// What `eval` asks when the opponent has no values of its own (a person, or a
/// strategy that chooses by a rule): a search that solves the last 14 empties exactly,
/// over the pattern evaluation on 8x8 (its values in discs), the square table on other
/// sizes and [`anti_eval`] under anti rules.
#[must_use]
pub const fn eval_fallback(size: u32, rules: Rules) -> &'static str {
    if rules.anti {
        concat!("alphabeta:depth=6,endgame=14,", anti_eval!())
    } else if size == 8 {
        "alphabeta:eval=pattern,depth=6,endgame=14"
    } else {
        "alphabeta:depth=6,endgame=14"
    }
}

/// Options of `reversi-lab play`.
#[derive(Clone, Debug, clap::Args)]
pub struct PlayArgs {
    /// The opponent: a strategy spec as for `match` (see `strategies`), or `human`
    /// for two people at one keyboard [default: the --level's spec].
    #[arg(long, conflicts_with = "level")]
    pub vs: Option<String>,
    /// The opponent's strength without --vs, each the pattern evaluation at a rising
    /// budget: easy = alphabeta:eval=pattern,depth=1 (one move ahead), medium =
    /// alphabeta:eval=pattern,depth=4,endgame=12 (4 plies, the last 12 empties
    /// solved), hard = alphabeta:eval=pattern,depth=60,nodes=100000,probcut=1.5,endgame=18
    /// (a selective search of 100,000 nodes a move, the last 18 empties solved), expert =
    /// alphabeta:eval=pattern,time=200ms,endgame=22,probcut=1.5,table_bits=20 (0.2 s a
    /// move, solving as the time allows; its moves depend on the machine's speed). On
    /// other sizes than 8x8: easy = greedy, medium = alphabeta:depth=4, hard =
    /// alphabeta:depth=10,endgame=18, expert = alphabeta:time=200ms,endgame=22. Under
    /// --anti, on any size, the levels search an evaluation that fits anti rules at
    /// the same budgets (without probcut): easy = alphabeta:depth=1,ANTI, medium =
    /// alphabeta:depth=4,endgame=12,ANTI, hard =
    /// alphabeta:depth=60,nodes=100000,endgame=18,ANTI, expert =
    /// alphabeta:time=200ms,endgame=22,ANTI, where ANTI =
    /// eval=(eval:discs=-1,mobility=8,potential_mobility=2,frontier=-3,corners=-30,x_squares=15,c_squares=6,stable=-6,parity=2).
    #[arg(long, value_enum, default_value_t = Level::Medium)]
    pub level: Level,
    /// Your colour (black moves first); random draws it from the game's seed.
    #[arg(long, visible_alias = "color", value_enum, default_value_t = SideChoice::Black)]
    pub colour: SideChoice,
    /// Where the game starts.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Moves played from the start (or --position) before the game begins, such as f5d6c3.
    #[arg(long)]
    pub moves: Option<String>,
    /// Scoring rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Seed: game r of the session (0 first, 1 after "play again", ...) draws the
    /// opponent's choices and --colour random from the seed of game r of a match.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::commands::whole::at_least::<u64>(0))]
    pub seed: u64,
}

const fn seat(colour: Color) -> usize {
    match colour {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// How a round ended.
enum End {
    Over,
    Quit,
}

/// A session at the prompt: one game after another from the same start.
struct Session<'a, G: Geometry> {
    initial: Line<G>,
    line: Line<G>,
    opponent: Option<(&'a str, &'a dyn Strategy<G>)>,
    /// The scales of the opponent's move values and of the fallback's (`eval`).
    scales: [Scale; 2],
    /// What `eval` asks when the opponent has no values, and its spec.
    fallback: (&'static str, &'a dyn Strategy<G>),
    rules: Rules,
    choice: SideChoice,
    seed: u64,
    human: [bool; 2],
    hints: bool,
    colour: bool,
    rng: GameRng,
    memory: Memory<G>,
}

impl<G: Geometry> Session<'_, G> {
    fn run(&mut self, input: &mut Input<'_>, out: &mut dyn Write) -> io::Result<()> {
        for round in 0.. {
            if let End::Quit = self.round(round, input, out)? {
                return Ok(());
            }
            loop {
                prompt(out, "play again? [y/n] ")?;
                let answer = input.line(out)?.map(|a| a.to_ascii_lowercase());
                match answer.as_deref() {
                    Some("y" | "yes") => break,
                    Some("n" | "no" | "q" | "quit") => return Ok(()),
                    None => return Ok(()),
                    Some(_) => writeln!(out, "answer y or n")?,
                }
            }
        }
        Ok(())
    }

    fn round(&mut self, round: u64, input: &mut Input<'_>, out: &mut dyn Write) -> io::Result<End> {
        self.line = self.initial.clone();
        self.rng = game_rng(Seeds(self.seed).game(0, round));
        self.memory.new_game();
        let you = match self.choice {
            SideChoice::Black => Color::Black,
            SideChoice::White => Color::White,
            SideChoice::Random if self.rng.gen::<bool>() => Color::Black,
            SideChoice::Random => Color::White,
        };
        let size = G::SIZE;
        let rules = rules_text(self.rules);
        match self.opponent {
            Some((name, _)) => {
                self.human = [you == Color::Black, you == Color::White];
                let letter = match (self.colour, you) {
                    (true, _) => "",
                    (false, Color::Black) => " (X)",
                    (false, Color::White) => " (O)",
                };
                writeln!(
                    out,
                    "game {}: you play {you}{letter} against {name}; {size}x{size}, {rules}",
                    round + 1,
                )?;
            }
            None => writeln!(
                out,
                "game {}: two players at one keyboard; {size}x{size}, {rules}",
                round + 1
            )?,
        }
        writeln!(
            out,
            "type a square such as {} to play, or help",
            self.example_square()
        )?;
        self.draw(out)?;
        if self.line.moves().is_empty() && self.line.passes() > 0 {
            let passer = self.line.side().opposite();
            writeln!(out, "{passer} has no legal move and passes")?;
        }
        loop {
            let game = &self.line;
            if let Some(outcome) = game.outcome(self.rules) {
                let verdict = match (self.opponent, outcome.winner) {
                    (None, _) => "",
                    // The result already says "a draw".
                    (Some(_), None) => "",
                    (Some(_), Some(c)) if self.human[seat(c)] => ": you win",
                    (Some(_), Some(_)) => ": you lose",
                };
                writeln!(
                    out,
                    "game over: {}{verdict}",
                    result_text(&outcome, self.rules)
                )?;
                writeln!(out, "transcript: {}", transcript_text(game))?;
                return Ok(End::Over);
            }
            let side = game.side();
            if !self.human[seat(side)] {
                self.computer_moves(out)?;
                continue;
            }
            let you = if self.opponent.is_some() {
                " (you)"
            } else {
                ""
            };
            prompt(out, &format!("{side}{you}> "))?;
            let Some(line) = input.line(out)? else {
                writeln!(out, "transcript so far: {}", transcript_text(game))?;
                return Ok(End::Quit);
            };
            if self.obey(&line, out)? {
                return Ok(End::Quit);
            }
        }
    }

    /// Carries out one line typed at the prompt; true when it was `quit`.
    fn obey(&mut self, line: &str, out: &mut dyn Write) -> io::Result<bool> {
        let legal = self.legal_text();
        match parse_command(line, G::SIZE) {
            Command::Move(square) => match play_move(&mut self.line, square) {
                Ok(_) => self.announce(out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            Command::Hints => {
                self.hints = !self.hints;
                writeln!(
                    out,
                    "hints {}",
                    if self.hints { "on (*)" } else { "off" }
                )?;
                self.draw(out)?;
            }
            Command::Eval => self.eval(out)?,
            Command::Undo => self.undo(out)?,
            Command::Save(path, replace) => {
                let text = format!("{}\n", self.line.transcript());
                // A new file unless told: a typo must not replace a config or a game.
                let written = std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .create_new(!replace)
                    .open(&path)
                    .and_then(|mut file| file.write_all(text.as_bytes()));
                match written {
                    Ok(()) => writeln!(out, "saved the transcript to {path}")?,
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => writeln!(
                        out,
                        "{path} already exists: save to another file, or type save! {path} to replace it"
                    )?,
                    Err(e) => writeln!(out, "cannot write {path}: {e} (try another file)")?,
                }
            }
            Command::SaveWhere => {
                writeln!(out, "save needs a file name: save FILE (save! FILE replaces one)")?;
            }
            Command::Help => {
                let legend = if self.colour {
                    COLOUR_LEGEND
                } else {
                    PLAIN_LEGEND
                };
                writeln!(out, "{HELP}\nboard: {legend}")?;
            }
            Command::Quit => {
                writeln!(out, "transcript so far: {}", transcript_text(&self.line))?;
                return Ok(true);
            }
            Command::Empty => writeln!(out, "legal moves: {legal} (help lists the commands)")?,
            Command::NotASquare(word) => writeln!(
                out,
                "'{word}' is not a square of the {0}x{0} board (columns a-{1}, rows 1-{0}); legal moves: {legal}",
                G::SIZE,
                (b'a' + G::SIZE as u8 - 1) as char
            )?,
            Command::Unknown(text) => {
                // A special key (an arrow, F5) arrives as an escape sequence: name it
                // as a key, not as the control characters Rust would escape.
                let what = if text.chars().any(char::is_control) {
                    "a special key (an arrow, a function key) is no command".to_string()
                } else {
                    format!("unknown command '{text}'")
                };
                writeln!(
                    out,
                    "{what}: type a square (legal: {legal}), hints, eval, undo, save FILE, help or quit"
                )?;
            }
        }
        Ok(false)
    }

    /// A square to show in the prompt: f5 where the board has one (the usual first
    /// move), else a legal move, so that a 4x4 game never suggests a square it lacks.
    fn example_square(&self) -> String {
        if Square::parse("f5", G::SIZE).is_some() {
            return "f5".to_string();
        }
        squares(self.line.legal_moves())
            .next()
            .map_or_else(|| "a1".to_string(), |s| s.name(G::SIZE))
    }

    fn legal_text(&self) -> String {
        squares(self.line.legal_moves())
            .map(|s| s.name(G::SIZE))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn draw(&self, out: &mut dyn Write) -> io::Result<()> {
        let line = &self.line;
        let show = self.hints && !line.is_over() && self.human[seat(line.side())];
        let marks = if show {
            line.legal_moves()
        } else {
            G::Bits::ZERO
        };
        writeln!(out, "{}", drawing(line, marks, self.colour))?;
        writeln!(out, "{}", status(line))
    }

    /// Says what the last move was, draws the board and says if the other side passed.
    fn announce(&self, out: &mut dyn Write) -> io::Result<()> {
        let (turn, pass_after) = self.line.last_move().expect("a move was just played");
        let flipped: Vec<String> = squares(turn.flipped()).map(|s| s.name(G::SIZE)).collect();
        let by = turn.side();
        let who = match self.opponent {
            Some((name, _)) if !self.human[seat(by)] => format!(" ({name})"),
            Some(_) => " (you)".to_string(),
            None => String::new(),
        };
        let square = turn.square.expect("the last move is a move");
        writeln!(
            out,
            "{by}{who} plays {}, flipping {}",
            square.name(G::SIZE),
            flipped.join(" ")
        )?;
        self.draw(out)?;
        if pass_after {
            let passer = by.opposite();
            writeln!(
                out,
                "{passer} has no legal move and passes: {by} moves again"
            )?;
        }
        Ok(())
    }

    fn computer_moves(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let (_, strategy) = self.opponent.expect("only a strategy moves by itself");
        let moves = self.line.legal_moves();
        let square = if moves.count() == 1 {
            Square::new(moves.lowest())
        } else {
            super::choose_move(strategy, &self.line, &mut self.rng, &mut self.memory)?.square
        };
        play_move(&mut self.line, square).expect("strategies choose legal moves");
        self.announce(out)
    }

    /// Each legal move's value for the side to move, best first: the opponent's
    /// own values, or the fallback search's.
    fn eval(&self, out: &mut dyn Write) -> io::Result<()> {
        let game = &self.line;
        let (board, moves) = (game.board(), game.legal_moves());
        let mut memory = Memory::new();
        let mut rng = game_rng(self.seed);
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::of(game),
        };
        // A search that counts visits (mcts) shows them beside each value (what the
        // value rests on), its moves in its own order (the move it plays first, then by
        // visits), and the line of that same search: a second search could start
        // elsewhere.
        if let Some((name, visits)) = self
            .opponent
            .and_then(|(name, s)| Some((name, s.move_visits(board, moves, &mut context)?)))
        {
            let empties = board.empty_count();
            let list: Vec<String> = (visits.moves.iter())
                .map(|v| {
                    format!(
                        "{} {} ({})",
                        v.square.name(G::SIZE),
                        self.scales[0].text(v.value, empties),
                        v.note()
                    )
                })
                .collect();
            writeln!(
                out,
                "eval by {name} (larger is better for {}; {}; most visited first): {}",
                game.side(),
                self.scales[0].legend(),
                list.join(", ")
            )?;
            return match visits.choice.line_text(G::SIZE) {
                Some(line) => writeln!(out, "best line by {name}: {line}"),
                None => Ok(()),
            };
        }
        let own = self.opponent.and_then(|(name, s)| {
            let values = s.move_values(board, moves, &mut context)?;
            Some((name, values, self.scales[0], s))
        });
        let (name, mut values, scale, evaluator): (_, Vec<(Square, i32)>, _, _) = match own {
            Some(found) => found,
            None => {
                let (name, fallback) = self.fallback;
                let values = fallback.move_values(board, moves, &mut context);
                let values = values.expect("alphabeta has move values");
                (name, values, self.scales[1], fallback)
            }
        };
        // The line the evaluating search expects, from its own choice (after the values,
        // so that its table is warm).
        let choice = evaluator.choose(board, moves, &mut context).ok();
        let line = choice.as_ref().and_then(|c| c.line_text(G::SIZE));
        best_first(&mut values, choice.map(|c| c.square));
        let empties = board.empty_count();
        let list: Vec<String> = values
            .iter()
            .map(|(square, value)| {
                format!("{} {}", square.name(G::SIZE), scale.text(*value, empties))
            })
            .collect();
        writeln!(
            out,
            "eval by {name} (larger is better for {}; {}): {}",
            game.side(),
            scale.legend(),
            list.join(", ")
        )?;
        match line {
            Some(line) => writeln!(out, "best line by {name}: {line}"),
            None => Ok(()),
        }
    }

    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let fixed = self.initial.moves().len();
        let movers: Vec<Color> = (self.line.turns().iter())
            .filter(|t| t.square.is_some())
            .map(|t| t.side())
            .collect();
        let own = movers.iter().rposition(|&by| self.human[seat(by)]);
        match own.filter(|&i| i >= fixed) {
            None => writeln!(
                out,
                "nothing to undo (undo goes back no further than the start of the game)"
            ),
            Some(index) => {
                let count = movers.len() - index;
                self.line.back_to_move(index);
                writeln!(
                    out,
                    "took back {}",
                    reversi_lab::numbers::counted(count as u64, "move")
                )?;
                self.draw(out)
            }
        }
    }
}

/// `reversi-lab play`: reads commands line by line from `input` until the person
/// quits or the input ends; draws in colour when standard output is a terminal.
pub fn play(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Outcome> {
    let (size, obf) = args.position.resolve()?;
    let rules = args.rules.rules();
    let text = match args.vs.as_deref() {
        Some(name) if name.eq_ignore_ascii_case("human") => None,
        Some(spec) => Some(spec),
        None => Some(args.level.spec_for(size, rules)),
    };
    let spec = text
        .map(|text| {
            StrategySpec::parse(text).map_err(|e| Error::input(format!("--vs {text}: {e}")))
        })
        .transpose()?;
    let fallback_text = eval_fallback(size, rules);
    let fallback_spec = StrategySpec::parse(fallback_text).expect("eval_fallback is a spec");
    let scales = [
        spec.as_ref().map_or(Scale::of(&fallback_spec), Scale::of),
        Scale::of(&fallback_spec),
    ];
    let colour = super::colour_wanted();
    with_geometry!(size, G => {
        let mut initial = line_from::<G>(parse_position::<G>(obf.as_deref())?);
        if let Some(moves) = &args.moves {
            play_transcript(&mut initial, moves, "--moves")?;
        }
        let empties = initial.board().empty_count();
        if let (Some(StrategySpec::Engine(engine)), Some(text)) = (&spec, text) {
            if engine.protocol == Protocol::Gtp && initial.start() != reversi_lab::board::Position::start() {
                return Err(Error::input(format!(
                    "--vs {text}: a GTP engine can only be told games from the standard start, not --position: give the opening with --moves, or play the engine's NBoard mode (nboard:COMMAND)"
                )));
            }
        }
        let strategy = match (&spec, text) {
            (Some(spec), Some(text)) => Some(
                spec.check_practical(empties)
                    .and_then(|()| spec.build::<G>(rules))
                    .map_err(|e| Error::input(format!("--vs {text}: {e}")))?,
            ),
            _ => None,
        };
        let fallback = fallback_spec
            .build::<G>(rules)
            .map_err(|e| Error::internal_from(fallback_text, e))?;
        let mut session = Session {
            line: initial.clone(),
            initial,
            opponent: text.zip(strategy.as_deref()),
            scales,
            fallback: (fallback_text, fallback.as_ref()),
            rules,
            choice: args.colour,
            seed: args.seed,
            human: [true, true],
            hints: false,
            colour,
            rng: game_rng(args.seed),
            memory: Memory::new(),
        };
        finish_output(session.run(&mut Input::new(input), out)).map(|()| Outcome::Finished)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn level_specs_parse_are_practical_and_are_documented() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            play: PlayArgs,
        }
        let help = Cli::command().render_long_help().to_string();
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
            for text in [level.spec(), level.spec_off_8x8()] {
                let spec = StrategySpec::parse(text).unwrap();
                spec.check_practical(60).unwrap();
                let name = format!("{level:?}").to_ascii_lowercase();
                assert!(
                    help.contains(&format!("{name} = {text}")),
                    "--help does not give {name} = {text}: {help}"
                );
            }
            assert!(StrategySpec::parse(level.spec_off_8x8())
                .unwrap()
                .build::<reversi_lab::board::Size6>(reversi_lab::game::Rules::default())
                .is_ok());
            let anti = Rules {
                anti: true,
                ..Rules::default()
            };
            let text = level.spec_for(6, anti);
            let spec = StrategySpec::parse(text).unwrap();
            spec.check_practical(60).unwrap();
            assert!(spec.build::<reversi_lab::board::Size6>(anti).is_ok());
            let budgets = text.strip_suffix(anti_eval!()).unwrap();
            let name = format!("{level:?}").to_ascii_lowercase();
            assert!(
                help.contains(&format!("{name} = {budgets}ANTI")),
                "{name}: {help}"
            );
        }
        assert!(help.contains(&format!("ANTI = {}", anti_eval!())), "{help}");
        for size in [6, 8, 10] {
            for anti in [false, true] {
                let rules = Rules {
                    anti,
                    ..Rules::default()
                };
                StrategySpec::parse(eval_fallback(size, rules))
                    .unwrap()
                    .check_practical(96)
                    .unwrap();
            }
        }
    }
}
