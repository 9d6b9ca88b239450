//! Serving a built-in strategy as an engine over a text protocol (`gtp`, `nboard`): what
//! both servers share, the game line with its passes and the engine that plays on it.
//!
//! Seeding, the same under both protocols: the games of a session are numbered from
//! 0, and game n plays with the generator of `Seeds(seed).game(0, n)`, the seed of game
//! n of `match --seed S` (and of round n of `play`). A new game (GTP `clear_board` or
//! `boardsize`, an NBoard `set game` that does not continue the game in hand) starts
//! with the strategy's memory cleared (`Memory::new_game`) and that generator made
//! anew; it takes the next number only once the game before it has seen a move or a
//! search, so a repeated reset at the start keeps game 0. As in the play driver, a
//! position with one legal move is played without asking the strategy (no draw, no
//! search). Hints and analysis search with a memory and a generator of their own, so
//! asking for them never changes the moves the engine plays. Moves therefore agree
//! with the built-in strategy's in a game whenever no random tie-break draws: in a
//! `match` both players draw from one generator, where the engine draws only for itself.

pub mod gtp;
pub mod nboard;

use crate::board::{Bits, Board, Color, Geometry, Position, Size8, Square, SIZES};
use crate::game::{Line, Rules};
use crate::lab::schedule::{game_rng, Seeds};
use crate::strategy::{
    proven_margin, Context, GameRng, History, Memory, SpecError, Strategy, StrategySpec,
};
use std::io::{self, BufRead};

/// The strategy the engine plays: `--strategy SPEC`.
pub static STRATEGY: crate::setting::Setting =
    crate::setting::Setting::new("", "--strategy", "strategy");

/// `check`'s refusal, naming the setting that gave the strategy.
fn refused(error: &SpecError) -> crate::error::Error {
    crate::error::Error::said(
        crate::setting::Said::default()
            .name(&STRATEGY)
            .then(format!(": {error}")),
    )
}
use std::time::Instant;

/// The strategy served when none is given: the strongest built-in player
/// (`play --level expert`).
pub const DEFAULT_STRATEGY: &str = crate::strategy::spec::EXPERT;

/// The engine's name in both protocols.
pub const NAME: &str = "reversi-lab";

/// The rules the served games are scored under.
const RULES: Rules = Rules {
    scoring: crate::game::Scoring::WinnerGetsEmpties,
    anti: false,
};

/// Checks that `spec` can be served: practical from the 8x8 start, where a session
/// starts, and built for that board.
pub fn check(spec: &StrategySpec) -> Result<(), SpecError> {
    spec.check_practical(Board::<Size8>::start().empty_count())?;
    spec.build::<Size8>(RULES).map(drop)
}

/// The deepest search NBoard's `set depth` may ask for: 60 (every square) with a node
/// or time budget, which bounds the search anyway, and
/// [`MAX_UNBUDGETED_DEPTH`](crate::strategy::spec::MAX_UNBUDGETED_DEPTH) without.
#[must_use]
pub fn max_depth(spec: &StrategySpec) -> Option<u32> {
    spec.depth().map(|depth| depth.most)
}

/// `spec` with its search depth set to `depth` (NBoard's `set depth`, as its words
/// came): Ok(None) when the strategy has no search depth, Err naming the range when
/// `depth` is no whole number from 1 to [`max_depth`] (an out-of-range depth is
/// refused, not bent into the range, so the controller knows what is played).
pub fn with_depth(spec: &StrategySpec, depth: &str) -> Result<Option<StrategySpec>, String> {
    let Some(most) = max_depth(spec) else {
        return Ok(None);
    };
    let why = if most == 60 {
        "60 (the strategy has a node or time budget)".to_string()
    } else {
        format!("{most} (60 with a node or time budget, which this strategy lacks)")
    };
    match depth.trim().parse::<u32>() {
        Ok(d) if (1..=most).contains(&d) => Ok(Some(spec.with_depth(d))),
        _ => Err(format!(
            "set depth {depth}: the depth must be a whole number from 1 to {why}; the depth stays as it was"
        )),
    }
}

/// The numbers of a session's games and so their seeds (see the module's comment).
#[derive(Clone, Copy, Debug)]
pub struct Games {
    seeds: Seeds,
    number: u64,
    begun: bool,
}

impl Games {
    /// Game 0 of a session with this seed, not begun.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Games {
            seeds: Seeds(seed),
            number: 0,
            begun: false,
        }
    }

    /// Starts a new game: the next number once the current game has begun, else
    /// the current one again. Returns the game's seed.
    pub fn new_game(&mut self) -> u64 {
        if self.begun {
            self.number += 1;
            self.begun = false;
        }
        self.seed()
    }

    /// The current game's seed.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seeds.game(0, self.number)
    }

    /// The current game's number.
    #[must_use]
    pub const fn number(&self) -> u64 {
        self.number
    }

    /// Marks the current game as begun (a move was played or searched).
    pub fn begin(&mut self) {
        self.begun = true;
    }
}

/// A value in discs for the side to move, and whether it is exact (a solve, or a
/// search that saw the end of the game).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Eval {
    /// Discs (exact margins), or the evaluation over its scale.
    pub discs: f64,
    /// Proven by search to the end.
    pub exact: bool,
}

/// What the engine chose.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    /// The square, or None for a pass (or a finished game).
    pub square: Option<Square>,
    /// Its value, when the strategy has one and the move was not forced.
    pub eval: Option<Eval>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// A strategy at play on a line: its memory and generator for the game, and a
/// memory of its own for hints and analysis.
pub struct Engine<G: Geometry> {
    strategy: Box<dyn Strategy<G>>,
    /// Plies searched, shown as a hint's depth (0: a rule, no search).
    depth: u32,
    /// At or below this many empty squares its move values are proven margins.
    exact_from: u32,
    /// What one disc is worth on the evaluation's scale.
    scale: f64,
    /// The scale of its values, for values that are not discs.
    units: crate::strategy::scale::Scale,
    /// Whether its values are one evaluation per move (cheap enough for every `go`).
    cheap_values: bool,
    memory: Memory<G>,
    scratch: Memory<G>,
    rng: GameRng,
    seed: u64,
    /// The game.
    pub line: Line<G>,
}

impl<G: Geometry> Engine<G> {
    /// The strategy of `spec` playing from `start` with the generator of `seed`.
    pub fn new(spec: &StrategySpec, start: Position<G>, seed: u64) -> Result<Self, SpecError> {
        // A solve sees to the end of the game: its hints show the deepest depth.
        let depth = match spec.depth() {
            Some(depth) => depth.now,
            None if spec.exact_from() == u32::MAX => 60,
            None => u32::from(spec.is_evaluation()),
        };
        // Values in fractions of a disc (the pattern evaluation's) are shown in discs.
        let scale = f64::from(spec.scale().per_disc().unwrap_or(1));
        Ok(Engine {
            strategy: spec.build::<G>(RULES)?,
            depth,
            exact_from: spec.exact_from(),
            scale,
            units: spec.scale(),
            cheap_values: spec.is_evaluation(),
            memory: Memory::new(),
            scratch: Memory::new(),
            rng: game_rng(seed),
            seed,
            line: Line::new(start),
        })
    }

    /// The game's generator.
    pub const fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces the game's generator (reversi-lab's client hands its own over).
    pub fn set_rng(&mut self, rng: GameRng) {
        self.rng = rng;
    }

    /// Starts a new game from `start` with the generator of `seed`.
    pub fn new_game(&mut self, start: Position<G>, seed: u64) {
        self.memory.new_game();
        self.scratch.new_game();
        self.rng = game_rng(seed);
        self.seed = seed;
        self.line = Line::new(start);
    }

    /// The same engine with another strategy (NBoard's `set depth`), the game kept.
    pub fn rebuild(&mut self, spec: &StrategySpec) -> Result<(), SpecError> {
        let line = self.line.clone();
        let mut engine = Engine::new(spec, line.start(), self.seed)?;
        engine.line = line;
        engine.memory = std::mem::take(&mut self.memory);
        engine.scratch = std::mem::take(&mut self.scratch);
        engine.rng = self.rng.clone();
        *self = engine;
        Ok(())
    }

    /// Nodes searched for hints and analysis since the engine was made.
    #[must_use]
    pub const fn analysis_nodes(&self) -> u64 {
        self.scratch.nodes
    }

    /// Plies searched, for a hint's depth (0: no search).
    #[must_use]
    pub const fn depth(&self) -> u32 {
        self.depth
    }

    /// A value on the strategy's scale in discs. A proven value is a final margin: a
    /// search's proven values carry their margin past its evaluation's range, a
    /// solver's are the margin itself.
    fn eval(&self, value: i32, proven: bool) -> Eval {
        match proven_margin(value) {
            Some(margin) => Eval {
                discs: f64::from(margin),
                exact: true,
            },
            None if proven => Eval {
                discs: f64::from(value),
                exact: true,
            },
            None => Eval {
                discs: f64::from(value) / self.scale,
                exact: false,
            },
        }
    }

    /// An eval as a number: discs with two decimals, or a value in the strategy's own
    /// units where they are not discs (`mcts`'s thousandths of a result), so that
    /// `+600` thousandths is not shown as 600 discs.
    #[must_use]
    pub fn eval_text(&self, eval: Eval) -> String {
        if eval.exact || self.units.per_disc().is_some() {
            crate::numbers::signed(eval.discs, 2)
        } else {
            self.units.text(eval.discs.round() as i32, G::CELLS)
        }
    }

    /// The value of a choice, when its strategy states one.
    fn eval_of(&self, choice: &crate::strategy::Choice) -> Option<Eval> {
        choice.value.map(|v| self.eval(v, choice.is_proven()))
    }

    /// Chooses a move for the side to move with the game's memory and generator, as
    /// the play driver does (a forced move without asking); a pass when it must pass.
    pub fn choose(&mut self) -> Choice {
        self.choose_within(None)
    }

    /// [`choose`](Self::choose) within `budget` (a controller's clock; None: the
    /// strategy's own limits only). A search stops deepening at the budget, or at its
    /// own `time` if that comes first; a zero budget is the least possible think, one
    /// ply.
    pub fn choose_within(&mut self, budget: Option<std::time::Duration>) -> Choice {
        let clock = Instant::now();
        self.memory.clock.deadline = budget.and_then(|b| clock.checked_add(b));
        let choice = self.choose_now(clock);
        self.memory.clock.deadline = None;
        choice
    }

    fn choose_now(&mut self, clock: Instant) -> Choice {
        let nodes = self.memory.nodes;
        let board = self.line.position().board;
        let moves = board.moves();
        let (square, eval) = if moves.is_empty() {
            (None, None)
        } else if moves.count() == 1 {
            (Some(Square::new(moves.lowest())), None)
        } else {
            let (square, eval) = self.choose_among(board, moves);
            (Some(square), eval)
        };
        Choice {
            square,
            eval,
            nodes: self.memory.nodes - nodes,
            seconds: clock.elapsed().as_secs_f64(),
        }
    }

    /// The strategy's choice and the value it states; for an evaluation, which states
    /// the value of its own measure, the value of the move among the hint values.
    fn choose_among(&mut self, board: Board<G>, moves: G::Bits) -> (Square, Option<Eval>) {
        let mut context = Context {
            rng: &mut self.rng,
            memory: &mut self.memory,
            history: History::at(self.line.position()),
        };
        let answer = self.strategy.choose(board, moves, &mut context);
        let eval = answer.as_ref().ok().and_then(|choice| self.eval_of(choice));
        let square = square_of(answer, moves);
        if self.cheap_values {
            let value = self
                .values()
                .and_then(|v| v.into_iter().find(|&(s, _)| s == square))
                .map(|(_, e)| e);
            return (square, value);
        }
        (square, eval)
    }

    /// Every legal move's value for the side to move, in square order (None for a
    /// strategy that chooses by a rule), with the engine's own analysis memory.
    pub fn values(&mut self) -> Option<Vec<(Square, Eval)>> {
        self.values_at(self.line.position().board)
    }

    /// [`values`](Self::values) of any position of the game.
    pub fn values_at(&mut self, board: Board<G>) -> Option<Vec<(Square, Eval)>> {
        let moves = board.moves();
        let exact = board.empty_count() <= self.exact_from;
        let mut rng = self.rng.clone();
        let mut context = Context {
            rng: &mut rng,
            memory: &mut self.scratch,
            history: History::at(self.line.position()),
        };
        let values = self.strategy.move_values(board, moves, &mut context)?;
        Some(
            values
                .into_iter()
                .map(|(s, v)| (s, self.eval(v, exact)))
                .collect(),
        )
    }

    /// The value of `board` for its side to move, by a search or a solve with the
    /// analysis memory (a finished game: its final margin); None for a strategy
    /// that chooses by a rule.
    pub fn value_at(&mut self, board: Board<G>) -> Option<Eval> {
        if board.is_game_over() {
            return Some(Eval {
                discs: f64::from(RULES.final_score(board)),
                exact: true,
            });
        }
        let moves = board.moves();
        if moves.is_empty() {
            let after = self.value_at(board.pass())?;
            return Some(Eval {
                discs: -after.discs,
                ..after
            });
        }
        if !self.cheap_values {
            let mut rng = self.rng.clone();
            let mut context = Context {
                rng: &mut rng,
                memory: &mut self.scratch,
                history: History::at(self.line.position()),
            };
            let choice = self.strategy.choose(board, moves, &mut context).ok()?;
            if let Some(eval) = self.eval_of(&choice) {
                return Some(eval);
            }
        }
        self.values_at(board)?
            .into_iter()
            .map(|(_, e)| e)
            .max_by(|a, b| a.discs.total_cmp(&b.discs))
    }

    /// The move it would choose now, without changing its game (a copy of the
    /// generator, the analysis memory): GTP's `reg_genmove`, a hint without values.
    pub fn peek(&mut self) -> Option<Square> {
        let moves = self.line.position().board.moves();
        self.ask().map(|answer| square_of(answer, moves))
    }

    /// A hint's moves from one search where the strategy counts visits (`mcts`): each
    /// move's value, the move it chooses first and the rest by visits, with the chosen
    /// move's line; None for other strategies (their [`values`](Self::values) and
    /// [`expected_line`](Self::expected_line) are asked apart).
    pub fn visited(&mut self) -> Option<Ranked> {
        let visits = self.consult(|strategy, board, moves, context| {
            strategy.move_visits(board, moves, context)
        })??;
        let values = visits
            .moves
            .iter()
            .map(|v| (v.square, self.eval(v.value, false)))
            .collect();
        Some((values, visits.choice.pv().to_vec()))
    }

    /// The line it expects from here, as [`peek`](Self::peek) asks: its move, then
    /// the replies its search expects (the choice's principal variation, passes
    /// implied); empty when it states none or must pass.
    pub fn expected_line(&mut self) -> Vec<Square> {
        self.ask()
            .and_then(Result::ok)
            .map(|choice| choice.pv().to_vec())
            .unwrap_or_default()
    }

    /// The answer for the side to move without changing the game; None when it
    /// has no move.
    fn ask(&mut self) -> Option<crate::strategy::Answer> {
        self.consult(|strategy, board, moves, context| strategy.choose(board, moves, context))
    }

    /// What `question` asks the strategy of the side to move, with the analysis
    /// memory and a copy of the game's generator, so that the game does not change;
    /// None when it has no move.
    fn consult<R>(
        &mut self,
        question: impl FnOnce(&dyn Strategy<G>, Board<G>, G::Bits, &mut Context<'_, G>) -> R,
    ) -> Option<R> {
        let board = self.line.position().board;
        let moves = board.moves();
        if moves.is_empty() {
            return None;
        }
        let mut rng = self.rng.clone();
        let mut context = Context {
            rng: &mut rng,
            memory: &mut self.scratch,
            history: History::at(self.line.position()),
        };
        Some(question(self.strategy.as_ref(), board, moves, &mut context))
    }
}

/// One search's moves with their values, best first, and the best move's line.
pub type Ranked = (Vec<(Square, Eval)>, Vec<Square>);

/// The square of an answer; after a fault (a served strategy that is itself an
/// engine) any legal square, as a game would go on only to be forfeited.
fn square_of<B: crate::board::Bits>(answer: crate::strategy::Answer, moves: B) -> Square {
    answer.map_or_else(|_| Square::new(moves.lowest()), |choice| choice.square)
}

/// A position from GGF's `BO[size squares side]` (`*` black, `O` white, `-` empty,
/// spaces anywhere), for a board of `G`'s size.
pub fn ggf_board<G: Geometry>(text: &str) -> Result<Position<G>, String> {
    let mut words = text.split_whitespace();
    let size = words.next().unwrap_or("");
    if size.parse::<u32>().ok() != Some(G::SIZE) {
        return Err(format!("BO[{text}] is not a {0}x{0} board", G::SIZE));
    }
    let mut cells: String = words.collect();
    let side = cells.pop();
    let side = match side {
        Some('*' | 'X' | 'x' | 'B' | 'b') => 'X',
        Some('O' | 'o' | '0' | 'W' | 'w') => 'O',
        _ => {
            return Err(format!(
                "BO[{text}] does not end with the side to move (* or O)"
            ))
        }
    };
    let cells: String = cells
        .chars()
        .map(|c| match c {
            '*' | 'X' | 'x' | 'B' | 'b' => 'X',
            'O' | 'o' | '0' | 'W' | 'w' => 'O',
            '-' | '.' => '-',
            other => other,
        })
        .collect();
    Position::from_obf(&format!("{cells} {side}")).map_err(|e| format!("BO[{text}]: {e}"))
}

/// A colour word: `b`, `black`, `w`, `white` in any case.
#[must_use]
pub fn colour(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A move word for a board of `size`: Some(None) for a pass (`pass`, `pa`, `ps`,
/// `@@@@`, any case), Some(square) for a square in any case, None for anything else.
#[must_use]
pub fn move_word(word: &str, size: u32) -> Option<Option<Square>> {
    match word.to_ascii_lowercase().as_str() {
        "pass" | "pa" | "ps" | "@@@@" => Some(None),
        other => Square::parse(other, size).map(Some),
    }
}

/// Whether the board sizes reversi-lab plays include `size`.
#[must_use]
pub fn is_size(size: u32) -> bool {
    SIZES.contains(&size)
}

/// Reads one line without its line end, lossily for bytes that are not UTF-8;
/// None at the end of the input.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(Some(text.trim_end_matches(['\n', '\r']).to_string()))
}

/// The end of a session: write failures other than a closed output are errors.
pub fn finish(result: io::Result<()>) -> crate::Result<()> {
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(crate::Error::io_during("write", "standard output", e))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
