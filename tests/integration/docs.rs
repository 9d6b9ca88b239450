//! Every `reversi-lab` command line in README.md and docs/*.md parses, names files that exist, and the cheap ones marked `run` succeed.
//!
//! Command lines go through the binary's own parser (`reversi_lab_cli::commands::Cli`);
//! synopses, which hold placeholders, are checked against `--help`.
//!
//! The convention (also at the top of docs/README.md): fenced blocks tagged `sh` or
//! `console` are checked; a line in them that starts with `reversi-lab ` or
//! `$ reversi-lab ` is a command, continued onto the next line by a trailing `\`, cut at
//! an unquoted `|`, `;`, `&&`, `||` or `>`, and a `#` word starts a comment. Blocks tagged
//! `sh run` (or `console run`) are also run, each line in a fresh temporary folder, and
//! must exit 0. Synopses with placeholders (`RESULTS_DIR`, `[OPTIONS]`) go in `text`
//! blocks, which are not checked; inline spans such as `` `reversi-lab run CONFIG [--out DIR]` ``
//! in prose and tables are synopses: their subcommands and `--options` must exist.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::common::{reversi_lab, Dir};

/// One documented command line and where it stands.
struct DocLine {
    file: String,
    line: usize,
    text: String,
    words: Vec<String>,
    run: bool,
}

fn root() -> PathBuf {
    crate::common::root().to_path_buf()
}

/// README.md, then every page of docs/ in name order.
fn documented_pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("a readable docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A page's text, and its path from the repository root as messages name it.
fn read_page(page: &Path) -> (String, String) {
    let text = std::fs::read_to_string(page).expect("a readable page");
    let file = page
        .strip_prefix(root())
        .unwrap_or(page)
        .display()
        .to_string();
    (text, file)
}

/// The command lines of one page, in page order.
fn command_lines(page: &Path) -> Vec<DocLine> {
    let (text, file) = read_page(page);
    let mut lines = Vec::new();
    // Inside a fence: whether its lines are checked, and whether they are run.
    let mut fence: Option<(bool, bool)> = None;
    let mut pending: Option<(usize, String)> = None;
    for (index, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if trimmed.starts_with("```") {
            fence = match fence {
                Some(_) => None,
                None => {
                    let info: Vec<&str> =
                        trimmed.trim_start_matches('`').split_whitespace().collect();
                    let checked = matches!(info.first(), Some(&"sh") | Some(&"console"));
                    Some((checked, checked && info.contains(&"run")))
                }
            };
            continue;
        }
        let Some((true, run)) = fence else { continue };
        let (start, mut joined) = match pending.take() {
            Some((start, so_far)) => (start, format!("{} {trimmed}", so_far.trim_end())),
            None => {
                let body = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
                if !body.starts_with("reversi-lab ") {
                    continue;
                }
                (index + 1, body.to_string())
            }
        };
        if joined.ends_with('\\') {
            joined.pop();
            pending = Some((start, joined));
            continue;
        }
        let words = shlex::split(&joined).unwrap_or_default();
        let words: Vec<String> = words
            .into_iter()
            .take_while(|w| !matches!(w.as_str(), "|" | ";" | "&&" | "||") && !w.starts_with('>'))
            .collect();
        lines.push(DocLine {
            file: file.clone(),
            line: start,
            text: joined,
            words,
            run,
        });
    }
    lines
}

/// The inline synopses of one page (`` `reversi-lab ...` `` outside fenced blocks), as
/// words: placeholders stay, and `[`, `]`, `|`, `<`, `>` and `...` separate words.
fn synopses(page: &Path) -> Vec<DocLine> {
    let (text, file) = read_page(page);
    let mut found = Vec::new();
    let mut in_fence = false;
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        // Odd pieces between backticks are code spans.
        for span in line.split('`').skip(1).step_by(2) {
            if !span.starts_with("reversi-lab ") {
                continue;
            }
            let words = span
                .replace("\\|", " ")
                .replace(['[', ']', '|', '<', '>'], " ")
                .replace("...", " ")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            found.push(DocLine {
                file: file.clone(),
                line: index + 1,
                text: span.to_string(),
                words,
                run: false,
            });
        }
    }
    found
}

/// The help text of a (sub)command, asked of the binary once per command path.
fn help(cache: &mut HashMap<Vec<String>, String>, path: &[String]) -> String {
    cache
        .entry(path.to_vec())
        .or_insert_with(|| {
            let output = reversi_lab()
                .args(path)
                .arg("--help")
                .output()
                .expect("the binary runs");
            String::from_utf8_lossy(&output.stdout).into_owned()
        })
        .clone()
}

/// The subcommand names a help text lists under "Commands:".
fn subcommands(help: &str) -> BTreeSet<String> {
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect()
}

/// What is wrong with a command line's words as the binary's parser sees them, if anything.
fn parse_problem(cache: &mut HashMap<Vec<String>, String>, words: &[String]) -> Option<String> {
    if words.first().map(String::as_str) != Some("reversi-lab") {
        return Some("does not start with reversi-lab".into());
    }
    // Descend through the subcommands the binary lists.
    let mut path: Vec<String> = Vec::new();
    let mut rest = &words[1..];
    loop {
        let listed = subcommands(&help(cache, &path));
        match rest.first() {
            Some(word) if listed.contains(word) => {
                path.push(word.clone());
                rest = &rest[1..];
            }
            Some(word) if path.is_empty() && !word.starts_with('-') => {
                return Some(format!("`{word}` is not a subcommand"));
            }
            None if path.is_empty() => return Some("no subcommand".into()),
            _ => break,
        }
    }
    let text = help(cache, &path);
    for word in rest {
        if word == "--" {
            break;
        }
        if let Some(flag) = word.strip_prefix("--") {
            let name = flag.split('=').next().unwrap_or(flag);
            let known = text
                .split(|c: char| !(c.is_alphanumeric() || c == '-'))
                .any(|w| w == format!("--{name}"));
            if !known && name != "help" {
                return Some(format!(
                    "`{} --help` has no option --{name}",
                    path.join(" ")
                ));
            }
        }
    }
    None
}

/// What the binary's own parser says of a command line's words, if it refuses them.
fn cli_problem(words: &[String]) -> Option<String> {
    use clap::Parser;
    match reversi_lab_cli::commands::Cli::try_parse_from(words) {
        Ok(_) => None,
        Err(error)
            if matches!(
                error.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            None
        }
        Err(error) => Some(
            error
                .to_string()
                .lines()
                .next()
                .unwrap_or("refused")
                .to_string(),
        ),
    }
}

/// Folders a command line writes, by the harness's rules, for later lines of its page.
fn created_paths(words: &[String]) -> Vec<String> {
    let mut made = Vec::new();
    let mut positionals = Vec::new();
    let mut iter = words.iter().skip(1).peekable();
    let mut sub = None;
    while let Some(word) = iter.next() {
        if let Some(flag) = word.strip_prefix("--") {
            if flag.contains('=') {
                if let Some(v) = flag.strip_prefix("out=") {
                    made.push(v.to_string());
                }
            } else if let Some(next) = iter.peek() {
                if !next.starts_with('-') {
                    let value = iter.next().expect("peeked").clone();
                    if flag == "out" {
                        made.push(value);
                    }
                }
            }
        } else if sub.is_none() {
            sub = Some(word.clone());
        } else {
            positionals.push(word.clone());
        }
    }
    match sub.as_deref() {
        Some("run") | Some("tune") | Some("ablate") | Some("sweep") | Some("cluster") => {
            match positionals.iter().find(|p| p.ends_with(".toml")) {
                Some(config) => {
                    if let Some(name) = experiment_name(config) {
                        made.push(format!("results/{name}"));
                    }
                }
                None if sub.as_deref() == Some("run") => made.push("results/default".into()),
                None => {}
            }
        }
        Some("compare") if positionals.len() == 2 => {
            let stem = |p: &String| {
                p.trim_end_matches('/')
                    .rsplit('/')
                    .next()
                    .unwrap_or("")
                    .to_string()
            };
            made.push(format!(
                "results/compare-{}-vs-{}",
                stem(&positionals[0]),
                stem(&positionals[1])
            ));
        }
        _ => {}
    }
    made
}

/// The `name` key of an experiment file in the repository.
fn experiment_name(config: &str) -> Option<String> {
    let text = std::fs::read_to_string(root().join(config)).ok()?;
    let value: toml::Value = toml::from_str(&text).ok()?;
    value.get("name")?.as_str().map(str::to_string)
}

/// What is wrong with the files a command line names, if anything.
fn file_problem(line: &DocLine, created: &[String]) -> Option<String> {
    let mut previous = "";
    for word in &line.words[1..] {
        let is_output = previous == "--out" || previous == "--csv";
        previous = word;
        if is_output || word.starts_with('-') {
            continue;
        }
        let made_earlier = created
            .iter()
            .any(|dir| word == dir || word.starts_with(&format!("{}/", dir.trim_end_matches('/'))));
        if word.starts_with("experiments/") {
            if !root().join(word).exists() && !made_earlier {
                return Some(format!("{word} does not exist"));
            }
        } else if word.starts_with("results/") && !made_earlier {
            return Some(format!(
                "{word} is not made by an earlier command on this page"
            ));
        }
    }
    None
}

#[test]
fn every_documented_command_line_parses_and_names_files_that_exist() {
    let mut problems = Vec::new();
    let mut count = 0;
    for page in documented_pages() {
        let mut created: Vec<String> = Vec::new();
        for line in command_lines(&page) {
            count += 1;
            let problem = if line.words.is_empty() {
                Some("does not split into words".to_string())
            } else {
                cli_problem(&line.words).or_else(|| file_problem(&line, &created))
            };
            if let Some(problem) = problem {
                problems.push(format!(
                    "{}:{}: `{}`: {problem}",
                    line.file, line.line, line.text
                ));
            }
            created.extend(created_paths(&line.words));
        }
    }
    assert!(
        count >= 20,
        "only {count} documented command lines were found"
    );
    assert!(
        problems.is_empty(),
        "{} documented command lines do not fit the binary:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_documented_commands_marked_run_succeed() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in documented_pages() {
        for line in command_lines(&page).into_iter().filter(|line| line.run) {
            ran += 1;
            let dir = Dir::new();
            let output = dir
                .command()
                .args(&line.words[1..])
                .output()
                .expect("the binary runs");
            if !output.status.success() {
                failures.push(format!(
                    "{}:{}: `{}` exited with {}: {}",
                    line.file,
                    line.line,
                    line.text,
                    output.status,
                    String::from_utf8_lossy(&output.stderr).trim()
                ));
            }
        }
    }
    assert!(ran >= 3, "only {ran} documented commands are marked run");
    assert!(
        failures.is_empty(),
        "documented commands failed:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_documented_synopsis_names_real_subcommands_and_options() {
    let mut cache = HashMap::new();
    let mut problems = Vec::new();
    let mut count = 0;
    for page in documented_pages() {
        for line in synopses(&page) {
            count += 1;
            if let Some(problem) = parse_problem(&mut cache, &line.words) {
                problems.push(format!(
                    "{}:{}: `{}`: {problem}",
                    line.file, line.line, line.text
                ));
            }
        }
    }
    assert!(count >= 20, "only {count} documented synopses were found");
    assert!(
        problems.is_empty(),
        "{} documented synopses do not fit the binary:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
