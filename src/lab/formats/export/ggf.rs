//! The Generic Game Format (GGF) of the Generic Game Server, as Othello servers and
//! programs (GGS, NBoard, Edax, WZebra's converters) read it: a writer for a run's games
//! and a reader that replays them (or games from servers) into transcripts.
//!
//! A game is `(;GM[Othello]PC[..]DT[..]PB[black]PW[white]RE[+N.000]TY[8]BO[8 .. *]B[f5]W[d6]..;)`
//! (M. Buro's GGF description, <https://www.skatgame.net/mburo/ggsa/ggf>; the Othello
//! details as the Othello Development Kit reads and writes them, weltyc/ntest
//! `src/odk/OsObjects.cpp`): `TY` is the board size with modifiers (`a` anti, `s`
//! synchro, `k` komi, `rN` random start); `BO` the size, the squares row by row from
//! a1 (`*` black, `O` white, `-` empty; spaces ignored) and the side to move; `RE` the
//! result from black's view (`:r`, `:t`, `:s` mark resignation, time-out, agreed
//! score); a move is `B[square/eval/time]` or `W[...]` with both extras optional,
//! and a pass is written `PA` (read: any word starting with `p`, as GGS's own `pass`).
//! In a value, `\` takes the next character as it is (`PB[a\]b]` names `a]b`).

use crate::board::{Bits, Color, Geometry, Position, Square, SIZES};
use crate::error::{Error, Result};
use crate::game::{Line, Rules};
use crate::lab::rows::GameRow;
use crate::with_geometry;
use std::fmt::Write as _;

/// The `DT` value for a run started at `started` (RFC 3339, `2026-11-30T03:13:35Z`),
/// in GGS's layout (`2026.11.30_03:13:35.UTC`); other text is kept as it is.
#[must_use]
pub fn date(started: &str) -> String {
    match started.strip_suffix('Z').and_then(|s| s.split_once('T')) {
        Some((day, time)) => format!("{}_{time}.UTC", day.replace('-', ".")),
        None => started.to_string(),
    }
}

/// The `TY` value: the size, `a` for anti rules.
#[must_use]
pub fn game_type(size: u32, rules: Rules) -> String {
    format!("{size}{}", if rules.anti { "a" } else { "" })
}

/// The `BO` value of a position: the size, the rows from a1 separated by spaces, the side to move.
#[must_use]
pub fn board<G: Geometry>(position: &Position<G>) -> String {
    let (black, white) = (position.black(), position.white());
    let mut out = format!("{}", G::SIZE);
    for index in 0..G::CELLS {
        if index % G::SIZE == 0 {
            out.push(' ');
        }
        out.push(if black.has(index) {
            '*'
        } else if white.has(index) {
            'O'
        } else {
            '-'
        });
    }
    out.push_str(match position.side {
        Color::Black => " *",
        Color::White => " O",
    });
    out
}

/// A value GGF cannot hold: brackets end or start properties, and a line break (or
/// another control character) would split the one line a game is.
fn check_value(value: &str, what: &str) -> Result<()> {
    let holds = if value.contains(['[', ']']) {
        "a bracket"
    } else if value.contains(char::is_control) {
        "a line break or another control character"
    } else {
        return Ok(());
    };
    Err(Error::input(format!(
        "{what} '{}' contains {holds}, which GGF cannot hold: rename the player in the experiment and run it again, or export --format csv-moves",
        value.escape_debug()
    )))
}

/// Appends one game as GGF (no newline): the players, the result (`games.csv`'s margin,
/// black's view, under the run's rules), the type and start, and every turn with passes.
pub fn write_game<G: Geometry>(
    record: &GameRow<'_>,
    rules: Rules,
    date: &str,
    line: &Line<G>,
    out: &mut String,
) -> Result<()> {
    check_value(&record.black, "player name")?;
    check_value(&record.white, "player name")?;
    write!(
        out,
        "(;GM[Othello]PC[reversi-lab]DT[{date}]PB[{}]PW[{}]RE[{:+.3}]TY[{}]BO[{}]",
        record.black,
        record.white,
        f64::from(record.margin),
        game_type(G::SIZE, rules),
        board(&line.start())
    )
    .expect("writing to a String cannot fail");
    for turn in line.turns() {
        out.push_str(match turn.side() {
            Color::Black => "B[",
            Color::White => "W[",
        });
        match turn.square {
            Some(square) => square.push_name(G::SIZE, out),
            None => out.push_str("PA"),
        }
        out.push(']');
    }
    out.push_str(";)");
    Ok(())
}

/// A game read from GGF: what reversi-lab needs of it, the rest (clocks, ratings,
/// evaluations) skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GgfGame {
    /// `PB`.
    pub black: String,
    /// `PW`.
    pub white: String,
    /// `PC`, if given.
    pub place: Option<String>,
    /// `DT`, if given.
    pub date: Option<String>,
    /// The board size from `TY` (or `BO`).
    pub size: u32,
    /// `TY` has the anti modifier.
    pub anti: bool,
    /// `TY` as written.
    pub game_type: String,
    /// `RE`: black's result, None when unfinished (`?`) or absent.
    pub result: Option<f64>,
    /// `RE`'s flag: `r` resigned, `t` time-out, `s` agreed score; None for a game played out.
    pub result_flag: Option<char>,
    /// `BO` as written, None when absent (the standard start).
    pub start: Option<String>,
    /// The turns in order: the colour (`B` or `W`) and the move's square name in lower
    /// case, or None for a pass.
    pub turns: Vec<(Color, Option<String>)>,
}

impl GgfGame {
    /// The game as a transcript from the start position (passes implicit), checking
    /// every turn: the start is the standard one, each move is legal for the colour
    /// that the record says played it, and each pass is forced.
    pub fn transcript(&self) -> Result<String> {
        if !SIZES.contains(&self.size) {
            return Err(Error::input(format!(
                "GGF game {} vs {}: board size {} is not one reversi-lab plays (4, 6, 8 or 10)",
                self.black, self.white, self.size
            )));
        }
        with_geometry!(self.size, G => self.replay::<G>())
            .map_err(|e| Error::input(format!("GGF game {} vs {}: {e}", self.black, self.white)))
    }

    fn replay<G: Geometry>(&self) -> std::result::Result<String, String> {
        let start = Position::<G>::start();
        if let Some(bo) = &self.start {
            let compact = |s: &str| s.split_whitespace().collect::<String>();
            if compact(bo) != compact(&board(&start)) {
                return Err(format!(
                    "it starts from a position other than the standard start (BO[{bo}]); reversi-lab transcripts start from the standard one"
                ));
            }
        }
        let mut position = start;
        let mut transcript = String::with_capacity(2 * self.turns.len());
        for (i, (side, square)) in self.turns.iter().enumerate() {
            let ply = i + 1;
            if *side != position.side {
                return Err(format!(
                    "turn {ply} is {}'s but {} is to move",
                    side.name(),
                    position.side.name()
                ));
            }
            match square {
                None => {
                    if position.board.can_move() {
                        return Err(format!(
                            "turn {ply} passes although {} can move",
                            side.name()
                        ));
                    }
                    position = position.pass();
                }
                Some(name) => {
                    let square = Square::parse(name, G::SIZE).ok_or_else(|| {
                        format!("turn {ply}: '{name}' is not a square of the board")
                    })?;
                    if !position.board.moves().has(square.index()) {
                        return Err(format!(
                            "turn {ply}: {name} is not a legal move for {}",
                            side.name()
                        ));
                    }
                    position = position.play(square);
                    square.push_name(G::SIZE, &mut transcript);
                }
            }
        }
        Ok(transcript)
    }
}

/// Reads `TY`: an optional `s`, the size, then modifiers (`k`, `a`, `rN`, `b`, `w`).
fn read_type(value: &str) -> std::result::Result<(u32, bool), String> {
    let text = value.trim().to_ascii_lowercase();
    let rest = text.strip_prefix('s').unwrap_or(&text);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let size: u32 = digits
        .parse()
        .map_err(|_| format!("TY[{value}] has no board size"))?;
    if size == 88 {
        return Err("TY[88] is the octagonal board, which reversi-lab does not play".into());
    }
    let modifiers = &rest[digits.len()..];
    if let Some(bad) = modifiers
        .chars()
        .find(|c| !matches!(c, 'k' | 'a' | 'r' | 'b' | 'w') && !c.is_ascii_digit())
    {
        return Err(format!("TY[{value}]: unknown modifier '{bad}'"));
    }
    Ok((size, modifiers.contains('a')))
}

/// Reads `RE`: a number from black's view, optionally `:r`, `:t` or `:s`; `?` is unfinished.
fn read_result(value: &str) -> std::result::Result<(Option<f64>, Option<char>), String> {
    let value = value.trim();
    if value.starts_with('?') {
        return Ok((None, None));
    }
    let (number, flag) = match value.split_once(':') {
        Some((n, f)) => (n, f.chars().next()),
        None => (value, None),
    };
    let result = number
        .trim()
        .parse::<f64>()
        .map_err(|_| format!("RE[{value}] is not a result (such as +12.000 or -4.00:r)"))?;
    Ok((Some(result), flag))
}

/// Reads a move: the square or pass before the first `/`.
fn read_move(value: &str) -> Option<String> {
    let word = value
        .split('/')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    (!word.starts_with('p')).then_some(word)
}

/// Reads a property's value after its `[`, up to the `]` that ends it: a `\` takes
/// the character after it as it is (`\]` is a bracket in the value, `\\` a
/// backslash). Returns the value and what follows the `]`; None when nothing ends it.
fn read_value(text: &str) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            ']' => return Some((value, &text[at + 1..])),
            '\\' => value.push(chars.next()?.1),
            _ => value.push(c),
        }
    }
    None
}

/// Reads one game, `(;` to `;)`.
fn read_game(text: &str) -> std::result::Result<GgfGame, String> {
    let mut game = GgfGame {
        size: 8,
        game_type: "8".into(),
        ..GgfGame::default()
    };
    let body = text
        .trim()
        .strip_prefix("(;")
        .and_then(|t| t.strip_suffix(";)"))
        .ok_or("a game must start with (; and end with ;)")?;
    let mut rest = body;
    let mut seen_type = false;
    let mut previous: Option<&str> = None;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let open = rest.find('[').ok_or_else(|| {
            format!(
                "'{}' is not a property such as PB[name]",
                rest.chars().take(20).collect::<String>()
            )
        })?;
        let key = rest[..open].trim();
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(format!(
                "'{key}' is not a property name{}: a ] inside a value must be written \\]",
                previous.map_or(String::new(), |p| format!(" (it follows {p}[...])"))
            ));
        }
        let (value, after) = read_value(&rest[open + 1..])
            .ok_or_else(|| format!("property {key}: {key}[ is not closed by ]"))?;
        let value = value.as_str();
        rest = after;
        previous = Some(key);
        match key {
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(format!("GM[{value}] is not an Othello game"));
            }
            "PB" => game.black = value.to_string(),
            "PW" => game.white = value.to_string(),
            "PC" => game.place = Some(value.to_string()),
            "DT" => game.date = Some(value.to_string()),
            "TY" => {
                (game.size, game.anti) =
                    read_type(value).map_err(|e| format!("property TY: {e}"))?;
                game.game_type = value.to_string();
                seen_type = true;
            }
            "RE" => {
                (game.result, game.result_flag) =
                    read_result(value).map_err(|e| format!("property RE: {e}"))?;
            }
            "BO" => {
                if !seen_type {
                    if let Some(size) = value.split_whitespace().next().and_then(|s| s.parse().ok())
                    {
                        game.size = size;
                    }
                }
                game.start = Some(value.to_string());
            }
            "B" | "W" => {
                let side = if key == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                game.turns.push((side, read_move(value)));
            }
            "KB" | "KW" | "KM" => {
                return Err("komi games (KB, KW, KM) are not supported".into());
            }
            // Clocks, ratings, comments and anything newer: not needed to replay.
            _ => {}
        }
    }
    Ok(game)
}

/// Reads every game of a GGF text (games one after another, any whitespace between;
/// a synchro game's `1` or `2` prefix is skipped). An error names the game (1-based)
/// and what is wrong.
pub fn read_games(text: &str) -> Result<Vec<GgfGame>> {
    (read_each(text).into_iter().enumerate())
        .map(|(i, game)| game.map_err(|e| Error::input(format!("GGF game {}: {e}", i + 1))))
        .collect()
}

/// Every game of a GGF text as [`read_games`] finds them, each read or why it cannot
/// be (a malformed property, a game cut short): for a reader that leaves bad games out.
#[must_use]
pub fn read_each(text: &str) -> Vec<std::result::Result<GgfGame, String>> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let Some(end) = game_end(&rest[start..]) else {
            games.push(Err(
                "no closing ;) (the file is cut short inside this game)".to_string(),
            ));
            break;
        };
        games.push(read_game(&rest[start..start + end + 2]));
        rest = &rest[start + end + 2..];
    }
    games
}

/// Where the `;)` that ends the game `text` starts: the first outside a value.
fn game_end(text: &str) -> Option<usize> {
    let (mut inside, mut escaped) = (false, false);
    for (at, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if inside => escaped = true,
            '[' => inside = true,
            ']' => inside = false,
            ';' if !inside && text[at..].starts_with(";)") => return Some(at),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size8;
    use crate::game::Game;

    /// A game from the GGS archive (Saio1200 against Saio3000, 2003, a 32-32 draw with
    /// one pass written `pass`), as quoted in weltyc/novello's GgfGameTest.
    const GGS_GAME: &str = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01]B[e6//0.01]W[d2//0.01]B[c6//0.01]W[d6//0.01]B[b5//0.01]W[f5//0.01]B[e7//0.01]W[f6//0.01]B[f4//0.01]W[f3//0.01]B[g4//0.01]W[d7//0.01]B[g3//0.01]W[g5//0.01]B[h6//0.01]W[h5//0.01]B[h4//0.01]W[e8//0.01]B[c7//0.01]W[h3//0.01]B[c3//0.01]W[h7//0.01]B[e3//0.01]W[b6//0.01]B[g6//5.42]W[f7//0.01]B[d8//0.01]W[c2//0.01]B[d1//0.01]W[c4//0.01]B[b4//0.01]W[a5//0.01]B[f8//0.01]W[f2//0.01]B[e2//0.01]W[a4//17.38]B[a3//19.10]W[b3//0.01]B[f1//4.90]W[g7//0.01]B[b7//0.01]W[c8//0.01]B[a6//0.01]W[a7//0.01]B[c1//0.01]W[b2//0.01]B[a8//0.01]W[b8//0.01]B[a2//0.01]W[e1//0.01]B[h8//0.01]W[g8//0.01]B[h2//0.01]W[g1//0.01]B[h1//3.80]W[g2//0.01]B[pass]W[a1//0.01]B[b1//0.01];)";

    #[test]
    fn a_name_ggf_cannot_hold_is_refused_in_one_line() {
        assert!(check_value("alphabeta-6", "player").is_ok());
        for (name, holds) in [("a]b", "a bracket"), ("x\ny", "a line break")] {
            let said = check_value(name, "player").unwrap_err().to_string();
            assert!(said.contains(holds), "{said}");
            assert_eq!(said.lines().count(), 1, "{said}");
        }
    }

    #[test]
    fn the_standard_start_is_the_servers() {
        assert_eq!(
            board(&Position::<Size8>::start()),
            "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *"
        );
    }

    #[test]
    fn reads_and_replays_a_server_game() {
        let games = read_games(GGS_GAME).unwrap();
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(
            (game.black.as_str(), game.white.as_str()),
            ("Saio1200", "Saio3000")
        );
        assert_eq!((game.size, game.anti, game.result), (8, false, Some(0.0)));
        assert_eq!(game.turns.len(), 61);
        let transcript = game.transcript().unwrap();
        let replayed = Game::<Size8>::from_transcript(&transcript).unwrap();
        let outcome = replayed
            .outcome(Rules::default())
            .expect("the game is over");
        // The server's result agrees with the board reached by replaying the moves.
        assert_eq!(f64::from(outcome.margin), game.result.unwrap());
        assert_eq!(replayed.passes(), 1);
    }

    #[test]
    fn bad_games_are_named() {
        let illegal = GGS_GAME.replace("B[d3//0.01]", "B[a1]");
        let err = read_games(&illegal).unwrap()[0]
            .transcript()
            .unwrap_err()
            .to_string();
        assert!(err.contains("turn 1: a1 is not a legal move"), "{err}");
        let octagon = GGS_GAME.replace("TY[8]", "TY[88]");
        assert!(read_games(&octagon)
            .unwrap_err()
            .to_string()
            .contains("octagonal"));
        assert_eq!(read_type("s8r20").unwrap(), (8, false));
        assert_eq!(read_type("10a").unwrap(), (10, true));
        assert_eq!(read_result("-4.00:r").unwrap(), (Some(-4.0), Some('r')));
        assert_eq!(date("2026-11-30T03:13:35Z"), "2026.11.30_03:13:35.UTC");
    }

    #[test]
    fn values_take_escapes_and_malformed_properties_are_refused() {
        let escaped = GGS_GAME.replace("PB[Saio1200]", r"PB[gr\]eedy\\]C[wink ;)]");
        let game = &read_games(&escaped).unwrap()[0];
        assert_eq!(
            (game.black.as_str(), game.white.as_str()),
            (r"gr]eedy\", "Saio3000")
        );
        assert_eq!(game.turns.len(), 61);
        // An unescaped bracket ends the value early: what follows is no property.
        let bare = GGS_GAME.replace("PB[Saio1200]", "PB[gr]eedy]");
        let err = read_games(&bare).unwrap_err().to_string();
        assert!(
            err.contains("GGF game 1: 'eedy]PW' is not a property name (it follows PB[...])"),
            "{err}"
        );
        let re = GGS_GAME.replace("RE[+0.000]", "RE[won]");
        let err = read_games(&re).unwrap_err().to_string();
        assert!(
            err.contains("property RE: RE[won] is not a result"),
            "{err}"
        );
        // A file cut inside its last game: the games before it are read.
        let two = format!("{GGS_GAME}\n{}", &GGS_GAME[..300]);
        let each = read_each(&two);
        assert_eq!(each.len(), 2);
        assert!(each[0].is_ok());
        assert!(
            each[1].as_ref().unwrap_err().contains("cut short"),
            "{each:?}"
        );
    }
}
