//! `Board`: python-chess's board API (`legal_moves`, `push`, `pop`, `turn`, ...) over the
//! library's engine, for every board size and rule set.

use crate::args;
use crate::errors::{py_error, value_error, IllegalMoveError};
use crate::state::{self, AnyState};
use crate::svg::Picture;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyString, PyTuple};
use pyo3::{intern, IntoPyObjectExt};
use reversi_lab::board::{Bits, Indices, Square, Symmetry, SIZES};
use reversi_lab::game::{MoveError, Rules, Scoring};
use reversi_lab::lab::setup::check_size;
use reversi_lab::lab::setup::size_of_obf;

/// The rules from `Board`'s keyword arguments, refused with the CLI's messages.
pub fn rules(anti: bool, scoring: &str) -> PyResult<Rules> {
    let scoring = Scoring::parse(scoring).map_err(PyValueError::new_err)?;
    Ok(Rules { scoring, anti })
}

/// Every square's name, per board size, as interned Python strings: `legal_moves`
/// hands out these very objects, so `push` finds its move by identity first.
fn square_names(py: Python<'_>, size: u32) -> &[Py<PyString>] {
    static NAMES: PyOnceLock<Vec<Vec<Py<PyString>>>> = PyOnceLock::new();
    let all = NAMES.get_or_init(py, || {
        SIZES
            .iter()
            .map(|&n| {
                (0..n * n)
                    .map(|i| PyString::intern(py, &Square::new(i).name(n)).unbind())
                    .collect()
            })
            .collect()
    });
    let slot = SIZES
        .iter()
        .position(|&n| n == size)
        .expect("a checked size");
    &all[slot]
}

/// The square of `legal` (a set of a `size` board's squares) whose name `object` is,
/// by identity with the names `legal_moves` hands out; None for any other object.
pub(crate) fn named_square(
    py: Python<'_>,
    size: u32,
    legal: u128,
    object: &Bound<'_, PyAny>,
) -> Option<u32> {
    let names = square_names(py, size);
    let pointer = object.as_ptr();
    Indices(legal).find(|&i| names[i as usize].as_ptr() == pointer)
}

/// A Reversi position with its move stack, in the manner of `chess.Board`.
#[pyclass(module = "reversi_lab", name = "Board")]
pub struct Board {
    state: Box<dyn AnyState>,
    rules: Rules,
    /// `legal_moves` of the current position, made once per position: a playout
    /// loop reads it after every move.
    legal: Option<Py<PyTuple>>,
    /// Whether Python code changed it (`push`, `pop`): a Python strategy's board is
    /// handed to its next call again only when it was not (see `host::PySession`).
    touched: bool,
}

impl Board {
    pub(crate) fn of(state: Box<dyn AnyState>, rules: Rules) -> Self {
        Board {
            state,
            rules,
            legal: None,
            touched: false,
        }
    }

    /// Whether Python code changed it since it was made.
    pub(crate) fn touched(&self) -> bool {
        self.touched
    }

    /// Plays the move at `index` (None: a pass) as the game it follows went on, not as
    /// a change by Python code.
    pub(crate) fn follow(&mut self, index: Option<u32>) -> Result<(), MoveError> {
        match index {
            Some(index) => self.state.push(index)?,
            None => self.state.push_pass()?,
        }
        self.legal = None;
        Ok(())
    }

    /// The game behind the board.
    pub fn state(&self) -> &dyn AnyState {
        self.state.as_ref()
    }

    /// The rules the board scores by.
    pub fn game_rules(&self) -> Rules {
        self.rules
    }

    /// What a move names: a square (its index), by identity with a legal move's name
    /// first (the strings `legal_moves` hands out), else parsed; or None for `"pass"`,
    /// the name `move_stack` and `Strategy.choose` give a pass.
    pub(crate) fn move_index(
        &self,
        py: Python<'_>,
        square: &Bound<'_, PyAny>,
    ) -> PyResult<Option<u32>> {
        let size = self.state.size();
        if let Some(index) = named_square(py, size, self.state.legal(), square) {
            return Ok(Some(index));
        }
        let text = square.cast::<PyString>()?.to_cow()?;
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(None);
        }
        Square::parse(text.trim(), size)
            .map(|s| Some(s.index()))
            .ok_or_else(|| {
                IllegalMoveError::new_err(format!(
                    "'{text}' is not a square of the {size}x{size} board (write a move like f5: columns a-{}, rows 1-{size})",
                    (b'a' + size as u8 - 1) as char
                ))
            })
    }

    fn changed(&mut self) {
        self.legal = None;
        self.touched = true;
    }

    fn move_name<'py>(py: Python<'py>, size: u32, square: Option<Square>) -> Bound<'py, PyString> {
        match square {
            Some(s) => square_names(py, size)[s.index() as usize].bind(py).clone(),
            None => intern!(py, "pass").clone(),
        }
    }

    /// The line under the drawing and the picture: whose turn it is, or once the game
    /// is over its result under the board's rules, then the discs.
    fn status(&self) -> String {
        let (black, white) = self.discs();
        let state = match self.state.outcome(self.rules) {
            None => format!("{} to move", self.turn()),
            Some(outcome) => format!("game over: {}", result_text(&outcome, self.rules)),
        };
        format!("{state}; black {black}, white {white}")
    }

    fn picture(&self) -> Picture {
        let (black, white) = self.state.discs();
        Picture {
            size: self.state.size(),
            black,
            white,
            legal: self.state.legal(),
            last: self.state.stack().last().copied().flatten(),
        }
    }
}

/// The result in words: `black wins 40-24` (the points under the rules: the winner
/// takes the empty squares under `winner-gets-empties`), `draw 32-32`; in
/// anti-reversi, where fewer discs win, the margin (`white wins by 16`).
fn result_text(outcome: &reversi_lab::game::Outcome, rules: Rules) -> String {
    let (black, white) = (outcome.black_discs, outcome.white_discs);
    let Some(winner) = outcome.winner else {
        return format!("draw {black}-{white}");
    };
    if rules.anti {
        return format!(
            "{} wins by {}",
            winner.name(),
            outcome.margin.unsigned_abs()
        );
    }
    let other = if outcome.margin > 0 { white } else { black };
    // The winner's points are the loser's plus the margin, empties included or not.
    let points = other + outcome.margin.unsigned_abs();
    format!("{} wins {points}-{other}", winner.name())
}

/// A refused move or pass in Python's words: a move while a pass is due names the
/// method that passes.
fn illegal(error: MoveError) -> PyErr {
    let text = match error {
        MoveError::MustPass { .. } => format!("{error}: call push_pass()"),
        _ => error.to_string(),
    };
    IllegalMoveError::new_err(text)
}

#[pymethods]
impl Board {
    /// The start position of a `size` x `size` board (4, 6, 8 or 10), black to move.
    #[new]
    #[pyo3(
        signature = (size = None, anti = false, scoring = String::from("winner-gets-empties")),
        text_signature = "(size=8, anti=False, scoring='winner-gets-empties')"
    )]
    fn new(size: Option<&Bound<'_, PyAny>>, anti: bool, scoring: String) -> PyResult<Self> {
        let size = size.map_or(Ok(8), args::size)?;
        let size = check_size(size).map_err(py_error)?;
        Ok(Board::of(state::start(size), rules(anti, &scoring)?))
    }

    /// The position of an OBF line (`X`, `O`, `-` per square from a1, then the side to
    /// move); the board size follows from its length.
    #[staticmethod]
    #[pyo3(
        signature = (line, anti = false, scoring = String::from("winner-gets-empties")),
        text_signature = "(line, anti=False, scoring='winner-gets-empties')"
    )]
    fn from_obf(line: String, anti: bool, scoring: String) -> PyResult<Self> {
        let size = size_of_obf(&line).map_err(py_error)?;
        let state = state::from_obf(&line, size).map_err(value_error)?;
        Ok(Board::of(state, rules(anti, &scoring)?))
    }

    /// The game of a transcript (`f5d6c3`, passes implied) from the start, its passes
    /// on the move stack.
    #[staticmethod]
    #[pyo3(
        signature = (text, size = None, anti = false, scoring = String::from("winner-gets-empties")),
        text_signature = "(text, size=8, anti=False, scoring='winner-gets-empties')"
    )]
    fn from_transcript(
        text: String,
        size: Option<&Bound<'_, PyAny>>,
        anti: bool,
        scoring: String,
    ) -> PyResult<Self> {
        let size = size.map_or(Ok(8), args::size)?;
        let size = check_size(size).map_err(py_error)?;
        let state = state::from_transcript(&text, size).map_err(value_error)?;
        Ok(Board::of(state, rules(anti, &scoring)?))
    }

    /// The board size.
    #[getter]
    fn size(&self) -> u32 {
        self.state.size()
    }

    /// Anti-reversi: the side with fewer discs wins.
    #[getter]
    fn anti(&self) -> bool {
        self.rules.anti
    }

    /// How empty squares count at the end: `winner-gets-empties` or `count`.
    #[getter]
    fn scoring(&self) -> &'static str {
        self.rules.scoring.name()
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.state.side().name()
    }

    /// The legal moves as square names (empty when the side to move must pass, or
    /// the game is over).
    #[getter]
    fn legal_moves<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(tuple) = &self.legal {
            return Ok(tuple.bind(py).clone());
        }
        let names = square_names(py, self.state.size());
        let tuple = PyTuple::new(
            py,
            Indices(self.state.legal()).map(|i| names[i as usize].bind(py)),
        )?;
        self.legal = Some(tuple.clone().unbind());
        Ok(tuple)
    }

    /// The moves and passes (`"pass"`) played on this board, oldest first.
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyString>> {
        let size = self.state.size();
        self.state
            .stack()
            .into_iter()
            .map(|m| Board::move_name(py, size, m))
            .collect()
    }

    /// Whether `move` is a legal move here (malformed names are not); `"pass"` is
    /// legal when the side to move has no move and the game goes on.
    #[pyo3(signature = (r#move))]
    fn is_legal(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        match self.move_index(py, r#move) {
            Ok(Some(index)) => self.state.legal().has(index),
            Ok(None) => self.state.legal() == 0 && !self.state.is_over(),
            Err(_) => false,
        }
    }

    /// Plays `move` (a square name such as `"f5"`) for the side to move; `"pass"`
    /// passes, as `push_pass()` does, so that `move_stack` and `Strategy.choose`
    /// replay with `push` alone.
    #[pyo3(signature = (r#move))]
    fn push(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        match self.move_index(py, r#move)? {
            Some(index) => self.state.push(index).map_err(illegal)?,
            None => self.state.push_pass().map_err(illegal)?,
        }
        self.changed();
        Ok(())
    }

    /// Passes: allowed only when the side to move has no legal move and the game goes on.
    fn push_pass(&mut self) -> PyResult<()> {
        self.state.push_pass().map_err(illegal)?;
        self.changed();
        Ok(())
    }

    /// Takes back the last move or pass and returns it.
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        let undone = self
            .state
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        self.changed();
        Ok(Board::move_name(py, self.state.size(), undone))
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.state.is_over()
    }

    /// `"black"`, `"white"` or `"draw"` once the game is over under the board's
    /// rules, `"*"` before.
    fn result(&self) -> &'static str {
        self.state
            .outcome(self.rules)
            .map_or("*", |o| o.result_name())
    }

    /// How the game ended (None while it goes on).
    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome(self.rules).map(|o| Outcome {
            result: o.result_name(),
            winner: o.winner.map(|c| c.name()),
            margin: o.margin,
            black_discs: o.black_discs,
            white_discs: o.white_discs,
        })
    }

    /// Black's and white's discs on the board.
    fn discs(&self) -> (u32, u32) {
        let (black, white) = self.state.discs();
        (black.count(), white.count())
    }

    /// A copy; `stack=False` leaves out the move stack.
    #[pyo3(signature = (stack = true))]
    fn copy(&self, stack: bool) -> Self {
        Board::of(self.state.copied(stack), self.rules)
    }

    fn __copy__(&self) -> Self {
        self.copy(true)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy(true)
    }

    /// The position as an OBF line.
    fn obf(&self) -> String {
        self.state.obf()
    }

    /// The moves played on this board as a transcript (`f5d6c3`, passes implied).
    fn transcript(&self) -> String {
        self.state.transcript()
    }

    /// The position under each of the 8 symmetries of the square (identity, flips
    /// left-right and top-bottom, rotation by 180, transpose, anti-transpose,
    /// rotations by 90 and 270), each without a move stack.
    fn symmetries(&self) -> Vec<Board> {
        Symmetry::ALL
            .iter()
            .map(|&s| Board::of(self.state.transformed(s), self.rules))
            .collect()
    }

    /// The discs as a `(2, size, size)` int8 array: plane 0 the side to move's, plane 1
    /// the opponent's, indexed `[plane, row, column]` (`[0, 0, 0]` is a1).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let frombuffer = FROMBUFFER.import(py, "numpy", "frombuffer")?;
        let n = self.state.size() as usize;
        let (player, opponent) = self.state.planes();
        let mut data = vec![0u8; 2 * n * n];
        for index in Indices(player) {
            data[index as usize] = 1;
        }
        for index in Indices(opponent) {
            data[n * n + index as usize] = 1;
        }
        let buffer = PyByteArray::new(py, &data);
        frombuffer
            .call1((buffer, intern!(py, "int8")))?
            .call_method1(intern!(py, "reshape"), (2, n, n))
    }

    /// The text drawing of `reversi-lab show`, its last line the result once the
    /// game is over.
    fn __str__(&self) -> String {
        format!("{}\n{}", self.state.drawing(), self.status())
    }

    fn __repr__(&self) -> String {
        let mut text = format!("Board.from_obf('{}'", self.state.obf());
        if self.rules.anti {
            text.push_str(", anti=True");
        }
        if self.rules.scoring != Scoring::default() {
            text.push_str(&format!(", scoring='{}'", self.scoring()));
        }
        text.push(')');
        text
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Board>().is_ok_and(|other| {
            let other = other.borrow();
            self.rules == other.rules && self.state.obf() == other.state.obf()
        })
    }

    /// The board as a picture, for Jupyter.
    fn _repr_svg_(&self) -> String {
        self.picture().svg()
    }

    /// The picture with the side to move (or the result) and the disc counts under
    /// it, for Jupyter.
    fn _repr_html_(&self) -> String {
        format!(
            r#"<div style="display:inline-block;text-align:center">{}<div style="font-family:sans-serif;font-size:13px">{}</div></div>"#,
            self.picture().svg(),
            self.status()
        )
    }

    /// Pickling: the root position, the rules and the move stack, replayed on load.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let restore = py.get_type::<Board>().getattr(intern!(py, "_restore"))?;
        let stack = self.move_stack(py);
        let arguments = (
            self.state.root_obf(),
            self.rules.anti,
            self.scoring(),
            stack,
        )
            .into_bound_py_any(py)?;
        Ok((restore, arguments))
    }

    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        root: String,
        anti: bool,
        scoring: String,
        stack: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut board = Board::from_obf(root, anti, scoring)?;
        for entry in stack {
            board.push(py, &entry)?;
        }
        Ok(board)
    }
}

/// How a game ended.
#[pyclass(module = "reversi_lab", frozen, get_all)]
pub struct Outcome {
    /// `"black"`, `"white"` or `"draw"`.
    result: &'static str,
    /// The winner, None for a draw.
    winner: Option<&'static str>,
    /// Black's margin under the rules (positive when black won).
    margin: i32,
    /// Black discs on the board.
    black_discs: u32,
    /// White discs on the board.
    white_discs: u32,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(result='{}', margin={}, black_discs={}, white_discs={})",
            self.result, self.margin, self.black_discs, self.white_discs
        )
    }
}
