//! The commands `play` reads at its prompt: what a line asks for, and the help that
//! lists them.

use reversi_lab::board::Square;

/// What a line at the prompt asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Command {
    Move(Square),
    Hints,
    Eval,
    Undo,
    /// The file, and whether to replace it if it exists (`save!`).
    Save(String, bool),
    /// `save` without a file.
    SaveWhere,
    Help,
    Quit,
    Empty,
    /// Looks like a square but is not one of this board.
    NotASquare(String),
    Unknown(String),
}

pub(super) fn parse_command(line: &str, size: u32) -> Command {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let word = word.to_ascii_lowercase();
    let simple = |command| {
        if rest.is_empty() {
            command
        } else {
            Command::Unknown(line.to_string())
        }
    };
    match word.as_str() {
        "" => Command::Empty,
        "hints" | "hint" => simple(Command::Hints),
        "eval" => simple(Command::Eval),
        "undo" => simple(Command::Undo),
        "help" | "?" => simple(Command::Help),
        "quit" | "q" | "exit" => simple(Command::Quit),
        "save" | "save!" if !rest.is_empty() => Command::Save(rest.to_string(), word == "save!"),
        "save" | "save!" => Command::SaveWhere,
        _ => {
            let mut chars = word.chars();
            let letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
            let digits = chars.as_str();
            let looks_like_square = letter
                && !digits.is_empty()
                && digits.len() <= 3
                && digits.bytes().all(|b| b.is_ascii_digit());
            match Square::parse(&word, size) {
                Some(square) if rest.is_empty() => Command::Move(square),
                _ if looks_like_square && rest.is_empty() => Command::NotASquare(word),
                _ => Command::Unknown(line.to_string()),
            }
        }
    }
}

pub(super) const HELP: &str = "\
commands:
  f5         play a square (upper or lower case)
  hints      show or hide the legal moves on the board (*)
  eval       each legal move's value for the side to move, by the opponent's strategy
  undo       take back your last move and the reply
  save FILE  write the transcript to a new FILE (save! FILE replaces one)
  help       this list
  quit       stop (so does Ctrl-D), printing the transcript";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_with_reasons() {
        let f5 = Square::parse("f5", 8).unwrap();
        assert_eq!(parse_command("F5", 8), Command::Move(f5));
        assert_eq!(parse_command("hints", 8), Command::Hints);
        assert_eq!(
            parse_command("save my game.txt", 8),
            Command::Save("my game.txt".into(), false)
        );
        assert_eq!(
            parse_command("save! g.txt", 8),
            Command::Save("g.txt".into(), true)
        );
        assert_eq!(parse_command("z9", 8), Command::NotASquare("z9".into()));
        assert_eq!(parse_command("f5", 4), Command::NotASquare("f5".into()));
        assert_eq!(
            parse_command("j10", 10),
            Command::Move(Square::at(9, 9, 10))
        );
        assert_eq!(parse_command("dance", 8), Command::Unknown("dance".into()));
        assert_eq!(parse_command("save", 8), Command::SaveWhere);
        assert_eq!(parse_command("f5 d6", 8), Command::Unknown("f5 d6".into()));
        assert_eq!(parse_command("", 8), Command::Empty);
    }
}
