//! The argument parser's errors in one line, in the project's words: what was wrong
//! and how to put it right, instead of clap's several lines with a usage and a tip.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgMatches, Command, CommandFactory, FromArgMatches};

/// `command` with every option that takes a value taking a negative number as that
/// value, in every subcommand: otherwise clap reads `--move-time -1` as the unknown
/// option `-1` (and `--draw-ratio -0.1` as `-0`), and the message loses the flag and
/// the number; this way the option's own parser refuses it, naming both.
#[must_use]
pub fn negative_numbers_as_values(command: Command) -> Command {
    command
        .mut_args(|arg| {
            if arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(negative_numbers_as_values)
}

/// Parses the process's arguments into `T` as [`negative_numbers_as_values`] builds
/// its command.
///
/// # Errors
/// The parser's error, to be worded by [`usage_error`].
pub fn parse_arguments<T: CommandFactory + FromArgMatches>() -> Result<T, clap::Error> {
    parse_arguments_from(std::env::args_os())
}

/// [`parse_arguments`] of the given words (the first is the program's name).
///
/// # Errors
/// The parser's error, to be worded by [`usage_error`].
pub fn parse_arguments_from<T, I, W>(words: I) -> Result<T, clap::Error>
where
    T: CommandFactory + FromArgMatches,
    I: IntoIterator<Item = W>,
    W: Into<std::ffi::OsString> + Clone,
{
    let mut command = negative_numbers_as_values(T::command());
    let mut matches: ArgMatches = command.try_get_matches_from_mut(words)?;
    T::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut command))
}

fn context(error: &clap::Error, kind: ContextKind) -> Option<String> {
    error.get(kind).map(|value| match value {
        ContextValue::String(s) => s.clone(),
        ContextValue::Strings(list) => list.join(", "),
        other => other.to_string(),
    })
}

/// The flag as a user types it: `--level`, not `--level <LEVEL>`.
fn flag(arg: &str) -> &str {
    arg.split([' ', '=']).next().unwrap_or(arg)
}

/// What a number the parser refused should have been, from its parser's message.
fn number_advice(source: &str, value: &str) -> Option<&'static str> {
    if source.contains("invalid digit") && value.starts_with('-') {
        Some("give a whole number of 0 or more")
    } else if source.contains("invalid digit") || source.contains("empty string") {
        Some("give a whole number, such as 10")
    } else if source.contains("too large") {
        Some("the number is too large")
    } else if source.contains("float") {
        Some("give a number, such as 1.5")
    } else {
        None
    }
}

/// One line (without `error: `) for a parse error of `reversi-lab`'s arguments.
#[must_use]
pub fn usage_error(error: &clap::Error) -> String {
    let arg = context(error, ContextKind::InvalidArg).unwrap_or_default();
    let value = context(error, ContextKind::InvalidValue).unwrap_or_default();
    let help = "see reversi-lab --help";
    // A positional argument is named by its placeholder: `<FILE>` is "FILE".
    let named = flag(&arg).trim_matches(|c| c == '<' || c == '>' || c == '[' || c == ']');
    match error.kind() {
        ErrorKind::InvalidValue if value.is_empty() => {
            format!("{named} is empty: give a value (see reversi-lab --help)")
        }
        ErrorKind::InvalidValue => match context(error, ContextKind::ValidValue) {
            Some(valid) if !valid.is_empty() => {
                format!("{} {value}: use one of {valid}", flag(&arg))
            }
            _ => format!("{named} needs a value: {help}"),
        },
        ErrorKind::ValueValidation => {
            let source = std::error::Error::source(error)
                .map(ToString::to_string)
                .unwrap_or_default();
            let advice = number_advice(&source, &value).map_or(source.clone(), str::to_string);
            format!("{} {value}: {advice}", flag(&arg))
        }
        ErrorKind::UnknownArgument => {
            let numeric = arg.trim_start_matches('-').parse::<f64>().is_ok();
            if numeric {
                format!("{arg}: negative numbers are not accepted here; give a whole number of 0 or more")
            } else if !arg.starts_with('-') {
                // A bare word where none is taken: a value given without its option
                // (`nboard greedy` for `nboard --strategy greedy`), not an option.
                format!("unexpected argument {arg}: this command takes no such word; a value goes after its option (--NAME {arg}): {help}")
            } else {
                match context(error, ContextKind::SuggestedArg) {
                    Some(like) => format!("unknown option {arg}: did you mean {like}? ({help})"),
                    None => format!("unknown option {arg}: {help}"),
                }
            }
        }
        ErrorKind::InvalidSubcommand => {
            let name = context(error, ContextKind::InvalidSubcommand).unwrap_or_default();
            // The closest by edits, as keys and names are matched everywhere else (clap's
            // own guess took `rn` for `pattern-error`, not `run`).
            let commands = super::cli::Cli::command();
            let names: Vec<&str> = commands.get_subcommands().map(Command::get_name).collect();
            // A command's start (`tun`, `swe`) before one a letter away (`run`).
            let started = names
                .iter()
                .find(|n| name.len() >= 3 && n.starts_with(&name));
            let closest = started
                .copied()
                .or_else(|| reversi_lab::setting::closest(&name, names.iter().copied()))
                .map(str::to_string);
            match closest.or_else(|| context(error, ContextKind::SuggestedSubcommand)) {
                Some(like) => format!("unknown command '{name}': did you mean '{like}'? ({help})"),
                None => format!("unknown command '{name}': {help}"),
            }
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            // `reversi-lab` or `reversi-lab cluster` alone.
            let usage = error.render().to_string();
            let command = usage
                .lines()
                .find_map(|l| l.trim().strip_prefix("Usage: "))
                .and_then(|u| u.split(" <").next())
                .unwrap_or("reversi-lab")
                .to_string();
            let first = if command == "reversi-lab" {
                " (`reversi-lab run` plays the default experiment)"
            } else {
                ""
            };
            format!("{command} needs a command: `{command} --help` lists them{first}")
        }
        ErrorKind::MissingRequiredArgument => {
            let missing = context(error, ContextKind::InvalidArg).unwrap_or_default();
            format!("missing {missing}: {help}")
        }
        _ => {
            // Clap's own first line, less its prefix and any tip after it.
            let rendered = error.render().to_string();
            let first = rendered
                .lines()
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ")
                .to_string();
            format!("{first}: {help}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Args {
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long, value_parser = ["easy", "hard"])]
        level: Option<String>,
        #[arg(long)]
        ratio: Option<f64>,
    }

    fn line(args: &[&str]) -> String {
        let error =
            parse_arguments_from::<Args, _, _>(std::iter::once("x").chain(args.iter().copied()))
                .unwrap_err();
        usage_error(&error)
    }

    #[test]
    fn a_negative_number_keeps_its_flag_and_sign() {
        // Before, clap took `-1` and `-0.1` for unknown options: "-1: ...", "-0: ...".
        assert_eq!(
            line(&["--seed", "-1"]),
            "--seed -1: give a whole number of 0 or more"
        );
        let ratio = parse_arguments_from::<Args, _, _>(["x", "--ratio", "-0.1"]).unwrap();
        assert_eq!(ratio.ratio, Some(-0.1));
    }

    #[test]
    fn parse_errors_are_one_line_with_the_fix() {
        assert_eq!(
            line(&["--level", "insane"]),
            "--level insane: use one of easy, hard"
        );
        assert_eq!(
            line(&["--seed", "x"]),
            "--seed x: give a whole number, such as 10"
        );
        assert_eq!(
            line(&["--ratio", "nan!"]),
            "--ratio nan!: give a number, such as 1.5"
        );
        assert_eq!(
            line(&["--seed", "-5"]),
            "--seed -5: give a whole number of 0 or more"
        );
        assert!(line(&["--sed", "1"]).starts_with("unknown option --sed: did you mean --seed?"));
        for (typed, meant) in [("rn", "run"), ("tun", "tune"), ("swep", "sweep")] {
            let error =
                parse_arguments_from::<super::super::cli::Cli, _, _>(["reversi-lab", typed])
                    .map(|_| ())
                    .unwrap_err();
            let said = usage_error(&error);
            assert!(
                said.starts_with(&format!(
                    "unknown command '{typed}': did you mean '{meant}'?"
                )),
                "{said}"
            );
        }
        assert_eq!(
            line(&["--level", ""]),
            "--level is empty: give a value (see reversi-lab --help)"
        );
        for args in [&["--level", "insane"][..], &["--seed", "-5"], &["--nope"]] {
            assert!(!line(args).contains('\n'), "{}", line(args));
        }
    }
}
