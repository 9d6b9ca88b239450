//! Charts and reports on fixed results (tests/data, see its README): files, sizes,
//! names and numbers, and clear errors for incomplete folders; and reports of small
//! fresh runs, tunes and ablations: what each shows, the contents, how the run was
//! made, and chart text without `-0` or needless decimals.

use crate::common::{read, reversi_lab, Dir};
use std::path::{Path, PathBuf};

fn copy_fixture(name: &str) -> (Dir, PathBuf) {
    let dir = Dir::new();
    let target = dir.path().join(name);
    std::fs::create_dir(&target).unwrap();
    for file in ["games.csv", "pairs.csv", "standings.csv", "run.toml"] {
        std::fs::copy(
            Path::new("tests/data").join(name).join(file),
            target.join(file),
        )
        .unwrap();
    }
    (dir, target)
}

fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    (info.width, info.height)
}

fn report(dir: &Path) -> std::process::Output {
    reversi_lab().arg("report").arg(dir).output().unwrap()
}

#[test]
fn round_robin_report_and_charts() {
    let (_keep, dir) = copy_fixture("round-robin");
    let output = report(&dir);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // NOTE: the sizes follow `report::charts::draw_all` (3 players, 3 pairs, longest
    // name 16): the score matrix is at least 720 wide for its title.
    for (name, size) in [
        ("winrate", (720, 124 + 86 * 3 + 20)),
        ("ratings", (1000, 110 + 34 * 3)),
        ("margins", (1100, 120 + 30 * 3)),
        ("colours", (1100, 120 + 30 * 3)),
    ] {
        let png = dir.join("charts").join(format!("{name}.png"));
        assert_eq!(png_size(&png), size, "{name}.png");
        let svg = std::fs::read_to_string(dir.join("charts").join(format!("{name}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") || svg.contains("<svg"),
            "{name}.svg"
        );
        for player in ["greedy", "weighted-classic", "corner-first"] {
            assert!(svg.contains(player), "{name}.svg lacks {player}");
        }
    }
    // The matrix shows every score from pairs.csv: greedy scored 20% against weighted-classic.
    let winrate = std::fs::read_to_string(dir.join("charts/winrate.svg")).unwrap();
    for value in ["20.0%", "80.0%", "30.0%", "70.0%"] {
        assert!(winrate.contains(value), "winrate.svg lacks {value}");
    }
    // It is a score matrix with its sample size and a colour bar.
    let texts = svg_texts(&dir.join("charts/winrate.svg"));
    for text in [
        "Score of row player against column player (draws count \u{bd})",
        "10 games per cell (5 colour-swapped game pairs); score = (wins + draws/2) / games",
        "100%",
        "50%",
        "0%",
    ] {
        assert!(texts.iter().any(|t| t == text), "winrate.svg lacks {text}");
    }
    clean_ticks(&dir.join("charts"));
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.starts_with("# Experiment report: fixture-round-robin"));
    // Numbers from pairs.csv and standings.csv, rounded for people.
    for needle in [
        "| greedy | weighted-classic | 10 | 2/0/8 | 20.0% [5.9%, 54.8%] | -241 [-482, +33] |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---:|",
        "| weighted-classic | corner-first | 10 | 7/0/3 | 70.0% [39.6%, 88.5%] |",
        "| pentanomial, 5 game pairs |",
        "| 1 | weighted-classic | 20 | 15/0/5 | 75.0% | +128 [+11, +246] |",
        "## Statistics",
        "Pairs in the pentanomial model here: 3 of 3.",
        "![Score matrix](charts/winrate.svg)",
        "| seed | 3 |",
    ] {
        assert!(
            markdown.contains(needle),
            "report.md lacks {needle}\n{markdown}"
        );
    }
    // Notable games: the underdog's widest win by the standings' ratings, the largest
    // margin; every game filled the board, so none is the shortest.
    for needle in [
        "## Notable games",
        "### greedy vs weighted-classic",
        "Biggest upset: game 2: greedy (black) beat weighted-classic (white) by 18, 41-23, in 60 moves",
        "Largest margin: game 7: weighted-classic (black) beat greedy (white) by 42",
        "Biggest upset: game 21: corner-first (black) beat weighted-classic (white) by 8",
        "Every game of this pair lasted 60 moves.",
        "report.html shows it on a board",
    ] {
        assert!(
            markdown.contains(needle),
            "report.md lacks {needle}\n{markdown}"
        );
    }
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains(r#"<section id="notable">"#));
    assert!(
        html.contains(r#"id="game-2" tabindex="0""#),
        "a viewer per game"
    );
    assert_eq!(
        html.matches("<script>").count(),
        1,
        "one script for every viewer"
    );
    assert!(!html.contains("https://") && !html.contains(" src="));
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<svg"), "charts are inlined");
    assert!(!html.contains("src=\"http"), "no network needed");
    assert!(html.contains("<td>20.0% [5.9%, 54.8%]</td>"));
    assert!(html.contains("<h2>Statistics</h2>"));
}

#[test]
fn head_to_head_report_shows_the_history_and_the_sprt() {
    let (_keep, dir) = copy_fixture("head-to-head");
    let output = report(&dir);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !dir.join("charts/winrate.png").exists(),
        "no matrix for two players"
    );
    assert_eq!(png_size(&dir.join("charts/progress.png")), (1000, 500));
    assert_eq!(png_size(&dir.join("charts/sprt.png")), (1000, 500));
    let sprt = std::fs::read_to_string(dir.join("charts/sprt.svg")).unwrap();
    assert!(sprt.contains("LLR"));
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        markdown.contains("| mobility | greedy | 136 | 83/0/53 | 61.0% [52.9%, 68.6%] |"),
        "{markdown}"
    );
    // The SPRT's LLR with its bounds, and where it crossed.
    assert!(
        markdown.contains("| 3.08 [-2.94, 2.94] | H1 after 68 game pairs |"),
        "{markdown}"
    );
    assert!(
        markdown.contains("over 68 game pairs: LLR 3.08 with the Wald bounds (not corrected for overshoot) [-2.94, 2.94]"),
        "{markdown}"
    );
    // A folder from before the median-unbiased Elo: the report works it out from
    // the counts, beside the fixed-sample figure, both labelled.
    assert!(
        markdown.contains("| H1 after 68 game pairs | +70 [+6, +131] |")
            && markdown.contains("Elo (A - B), fixed-sample [95%]")
            && markdown
                .contains("median-unbiased estimate of the Brownian approximation, +70 [+6, +131]"),
        "{markdown}"
    );
    assert!(
        sprt.contains("H1 after 68 game pairs"),
        "the chart marks the crossing"
    );
}

#[test]
fn incomplete_folders_name_the_missing_file() {
    let (_keep, dir) = copy_fixture("round-robin");
    std::fs::remove_file(dir.join("standings.csv")).unwrap();
    let output = report(&dir);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("missing standings.csv"), "{stderr}");
    let output = report(&dir.join("nope"));
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("does not exist"));
}

/// Removes what `report` writes, so a second `report` must redraw it all.
fn remove_report(dir: &Path) {
    std::fs::remove_dir_all(dir.join("charts")).unwrap();
    for file in ["report.md", "report.html"] {
        std::fs::remove_file(dir.join(file)).unwrap();
    }
}

/// The text of every `<text>` element of an SVG file.
fn svg_texts(path: &Path) -> Vec<String> {
    read(path)
        .split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

/// No text of any SVG chart in `dir` reads `-0` (or `-0.0`), and no whole number
/// is written with a decimal (`-400.0`, `10.0`).
fn clean_ticks(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "svg") {
            for text in svg_texts(&path) {
                let number = text.trim_start_matches('-');
                let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
                assert!(
                    !(text.starts_with('-') && number.chars().all(|c| c == '0' || c == '.')),
                    "{}: {text}",
                    path.display()
                );
                assert!(
                    !(number.ends_with(".0") && digits(&number[..number.len() - 2])),
                    "{}: {text}",
                    path.display()
                );
            }
        }
    }
}

const GAUNTLET: &str = "name = \"g\"\nformat = \"gauntlet\"\nchallengers = [\"greedy\"]\ngames_per_pair = 4\n\
[openings]\nrandom_plies = 2\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n\
[[players]]\nname = \"random\"\nstrategy = \"random\"\n[[players]]\nname = \"corner-first\"\nstrategy = \"corner-first\"\n";

#[test]
fn a_run_report_has_contents_provenance_and_clean_ticks() {
    let dir = Dir::new();
    let config = dir.path().join("g.toml");
    std::fs::write(&config, GAUNTLET).unwrap();
    let out = dir.path().join("g");
    // Started in the crate's folder: the commit recorded is that folder's, if it is a repository.
    let manifest = crate::common::root();
    reversi_lab()
        .current_dir(manifest)
        .arg("run")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .ok();
    let run_toml = read(&out.join("run.toml"));
    assert!(run_toml.contains("command = \""), "{run_toml}");
    assert!(run_toml.contains("host = \""), "{run_toml}");
    let html = read(&out.join("report.html"));
    // A contents list linking every section, the charts before the long pair table.
    assert!(html.contains("<nav id=\"contents\">"), "{html}");
    for id in [
        "experiment",
        "standings",
        "field",
        "charts",
        "pairs",
        "statistics",
    ] {
        assert!(
            html.contains(&format!("<a href=\"#{id}\">")),
            "no link to {id}"
        );
        assert!(
            html.contains(&format!("<section id=\"{id}\">")),
            "no section {id}"
        );
    }
    assert!(html.find("id=\"charts\"").unwrap() < html.find("id=\"pairs\"").unwrap());
    // How the run was made, with the config.
    assert!(html.contains("<td class=\"l\">command line</td>"), "{html}");
    assert!(html.contains(" run "), "the command line is shown");
    // The program by its name, not by where the test's build put it.
    assert!(html.contains(">reversi-lab run "), "{html}");
    assert!(!html.contains("target/debug/reversi-lab run"), "{html}");
    assert!(html.contains("<td class=\"l\">host</td>"));
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(manifest)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8(o.stdout).unwrap().trim().to_string());
    match commit {
        Some(commit) => assert!(html.contains(&commit), "the commit {commit} is recorded"),
        None => assert!(!html.contains("git commit")),
    }
    // Numbers right-aligned under right-aligned headers, names left.
    assert!(html.contains("<th>games</th>") && html.contains("<th class=\"l\">player</th>"));
    // The gauntlet: each challenger against the field, and how to read the standings.
    let markdown = read(&out.join("report.md"));
    assert!(markdown.contains("## Challengers against the field"));
    assert!(markdown.contains("| greedy | 2 | 8 |"), "{markdown}");
    assert!(markdown.contains("never each other"));
    clean_ticks(&out.join("charts"));
    assert!(!markdown.contains("-0 ["), "{markdown}");
}

#[test]
fn an_ablation_report_shows_what_each_row_measured() {
    let dir = Dir::new();
    let config = dir.path().join("a.toml");
    std::fs::write(
        &config,
        "name = \"abl\"\ngames_per_pair = 2\nalone = true\n[openings]\nrandom_plies = 2\n[player]\nkind = \"eval\"\n\
         discs = 0\nmobility = 5\ncorners = 20\nstable = 0\nparity = 0\npotential_mobility = 0\nfrontier = 0\nx_squares = 0\nc_squares = 0\n",
    )
    .unwrap();
    let out = dir.path().join("a");
    reversi_lab()
        .arg("ablate")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .ok();
    remove_report(&out);
    reversi_lab().arg("report").arg(&out).ok();
    let html = read(&out.join("report.html"));
    assert!(html.contains("<section id=\"ablation\">"), "{html}");
    assert!(html.contains("<a href=\"#ablation\">"));
    assert!(html.contains("significant after Holm"));
    let markdown = read(&out.join("report.md"));
    // Each kind of row under its own header: removed rows, then rows of a feature alone.
    let removed = markdown
        .find("feature's worth: Elo of the full evaluation over the copy without it")
        .expect("the header of the removed features");
    let alone = markdown
        .find("| Elo of the full evaluation over the feature alone [95%] |")
        .expect("the header of the features alone");
    assert!(removed < alone);
    let first_only = markdown.find("| only this feature |").unwrap();
    let last_without = markdown.rfind("| without it |").unwrap();
    assert!(last_without < alone && alone < first_only, "{markdown}");
    assert!(markdown.contains("![Each feature alone](charts/ablation-alone.svg)"));
    // Both charts redrawn, each titled by what it measures.
    let removed_chart = read(&out.join("charts/ablation.svg"));
    assert!(removed_chart.contains("over the copy without it"));
    assert!(!removed_chart.contains("alone"));
    let alone_chart = read(&out.join("charts/ablation-alone.svg"));
    assert!(alone_chart.contains("Each feature alone"));
    assert!(alone_chart.contains("corners alone"));
    assert!(!alone_chart.contains("without"));
}

#[test]
fn a_tune_folder_can_be_reported() {
    let dir = Dir::new();
    let config = dir.path().join("t.toml");
    std::fs::write(
        &config,
        "name = \"t\"\niterations = 4\ngames_per_iteration = 4\n[openings]\nrandom_plies = 2\n\
         [player]\nkind = \"eval\"\ndiscs = 1\ncorners = 0\n[[params]]\nname = \"corners\"\nmin = -20\nmax = 80\nstep = 4\n\
         [validation]\ngames = 4\npanel = [{ name = \"greedy\", strategy = \"greedy\" }]\n",
    )
    .unwrap();
    let out = dir.path().join("t");
    reversi_lab()
        .arg("tune")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .ok();
    assert!(out.join("report.html").is_file(), "tune writes its report");
    remove_report(&out);
    std::fs::remove_file(out.join("validation-start/report.html")).unwrap();
    let stdout = reversi_lab().arg("report").arg(&out).ok();
    assert!(stdout.contains("report.html"), "{stdout}");
    let html = read(&out.join("report.html"));
    assert!(html.contains("<h1>Tune report: t</h1>"), "{html}");
    for id in ["tune", "parameters", "validation", "trace"] {
        assert!(
            html.contains(&format!("<a href=\"#{id}\">")),
            "no link to {id}"
        );
    }
    assert!(html.contains("SPSA"));
    assert!(html.contains("tuned vs start:") && html.contains("tuned vs greedy:"));
    assert!(html.contains("validation-greedy/report.html"));
    let markdown = read(&out.join("report.md"));
    assert!(markdown.contains("| parameter | start | tuned | final iteration | bounds |"));
    assert!(markdown.contains("| corners | 0 |"), "{markdown}");
    for chart in ["parameters", "results", "validation"] {
        assert!(out.join(format!("charts/{chart}.png")).is_file(), "{chart}");
        assert!(
            html.contains(&format!("id=\"chart-{chart}\"")),
            "{chart} inlined"
        );
    }
    // The validation runs' own reports are redrawn too.
    assert!(out.join("validation-start/report.html").is_file());
}
