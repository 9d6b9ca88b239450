//! The report of a run: the experiment as run and how, standings (and, for a
//! gauntlet, the challengers against the field), the charts, every pair, results by
//! colour and how each number was computed. A study's own section joins it (see
//! `studies::section`).

use super::{field, notable, Chart, PairRow, Results};
use crate::doc::{elo_interval, how_run, model_cell, percent_interval};
use crate::doc::{Block, Document, Section, Table};
use crate::lab::rows::CostRow;
use crate::lab::{recorded_text as text, Format, Sprt};

/// What the cost table counts.
const COSTS_NOTE: &str = "From costs.csv: moves chosen (a position with a single legal move is played \
    without asking the strategy), nodes its searches visited (0 for strategies that do not search), \
    and thinking time on the worker thread for strategies that search (a one-ply rule's move costs about \
    as much as reading the clock, so it is not timed: its time is empty), which grows when threads share \
    cores and so varies from run to run.";

/// The SPRT's verdict: `H1 after 44 game pairs`, or `continue`.
fn sprt_cell(p: &PairRow, finished: bool) -> String {
    match (p.sprt_verdict(finished), p.sprt_pairs.as_deref()) {
        (Some(result), Some(pairs))
            if !pairs.is_empty() && p.sprt_result.as_deref() != Some("continue") =>
        {
            format!("{result} after {pairs} game pairs")
        }
        (Some(result), _) => result,
        _ => String::new(),
    }
}

/// The lines of the report's "Statistics" section.
fn statistics(results: &Results) -> Vec<String> {
    let mut lines = Vec::new();
    let pairs = results.pairs.len();
    let penta = results
        .pairs
        .iter()
        .filter(|p| p.model.as_deref() == Some("pentanomial"))
        .count();
    lines.push(format!(
        "Pair scores, Elo and LOS (the pairs table and the progress chart): 95% score intervals \
         (Wilson's score interval generalised to draws and game pairs), in the model the table's \"model, sample\" column names \
         with its sample size: pentanomial over colour-swapped game pairs when every game of the pair belongs to one, \
         trinomial over games otherwise. Pairs in the pentanomial model here: {penta} of {pairs}."
    ));
    lines.push(
        "Elo, trinomial: the per-game interval beside it, for comparison; it ignores that the games of a pair share an opening.".into(),
    );
    lines.push(
        "A's margin: the mean disc margin with a 95% normal interval, its variance taken over game pairs (mean margin of the pair) \
         in the pentanomial model and over games in the trinomial one, dividing by the sample size as the score does."
            .into(),
    );
    let games: u64 = results.pairs.iter().map(|p| p.games).sum();
    lines.push(format!(
        "Standings: ratings from a Bradley-Terry (logistic Elo) MAP fit with a weak prior (each player half a game drawn \
         against a virtual player rated 0, which keeps perfect scores finite), 95% normal intervals from the curvature of \
         the log-posterior, over all {games} games, each game one sample (the pairing is not modelled there: the games \
         column gives each player's count)."
    ));
    if results.format() == Format::Gauntlet {
        lines.push(
            "Challengers against the field: each challenger's games against every player it met, pooled into one \
             sample (its colour-swapped game pairs, pentanomial, when every game belongs to one), with the same 95% \
             score interval as a pair's; the opponents differ in strength, which this treats as noise, so the \
             interval errs on the wide side."
                .into(),
        );
    }
    for p in results.pairs.iter().filter(|p| p.sprt_llr.is_some()) {
        let f = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.2}"));
        let sprt = results.experiment.own.sprt;
        let setting = |value: fn(&Sprt) -> f64| {
            sprt.as_ref()
                .map_or("-".into(), |s| toml::Value::Float(value(s)).to_string())
        };
        let corrected = sprt.is_some_and(|s| s.overshoot);
        let bounds = if corrected {
            "bounds in force (the Wald bounds moved inwards by the expected overshoot of the LLR's jumps, Siegmund's correction)"
        } else {
            "the Wald bounds (not corrected for overshoot)"
        };
        let after = p.sprt_estimate().map_or(String::new(), |(e, l, h)| {
            format!(
                " After the stop, the Elo is the median-unbiased estimate of the Brownian approximation, {}, \
                 with its 95% interval corrected for stopping early; the fixed-sample figure beside it, {}, \
                 is biased towards the verdict.",
                crate::numbers::elo_interval(e, l, h),
                elo_interval(p.elo, p.elo_low, p.elo_high)
            )
        });
        lines.push(format!(
            "SPRT ({} vs {}): the exact pentanomial generalised likelihood ratio of elo1 = {} against elo0 = {} (alpha {}, beta {}), \
             over {} game pairs: LLR {} with {bounds} [{}, {}]: {}.{after}",
            p.player_a,
            p.player_b,
            setting(|s| s.elo1),
            setting(|s| s.elo0),
            setting(|s| s.alpha),
            setting(|s| s.beta),
            p.paired().pairs.pairs(),
            f(p.sprt_llr),
            f(p.sprt_lower),
            f(p.sprt_upper),
            match sprt_cell(p, results.run.status.is_finished()).as_str() {
                "continue" => "no bound crossed yet".to_string(),
                verdict => verdict.to_string(),
            }
        ));
    }
    lines
}

/// The experiment's settings, in the order people look for them (those the run
/// record leaves out, at their defaults, are left out here too).
fn setup(results: &Results) -> Vec<(String, String)> {
    let (setup, own) = (&results.experiment.setup, &results.experiment.own);
    let openings = toml::Value::try_from(&setup.openings)
        .ok()
        .filter(|o| o.as_table().is_some_and(|t| !t.is_empty()));
    [
        ("name", Some(text(&own.name))),
        ("description", own.description.as_ref().map(text)),
        ("format", Some(text(&own.format))),
        ("size", Some(text(&setup.size))),
        ("rules", Some(text(&setup.rules))),
        ("openings", openings.as_ref().map(text)),
        ("games_per_pair", Some(text(&own.games_per_pair))),
        ("seed", Some(text(&setup.seed))),
        (
            "challengers",
            (!own.challengers.is_empty()).then(|| text(&own.challengers)),
        ),
        ("sprt", own.sprt.as_ref().map(text)),
    ]
    .into_iter()
    .filter_map(|(key, value)| Some((key.to_string(), value?)))
    .collect()
}

fn players(results: &Results) -> Table {
    let rows = results
        .experiment
        .own
        .players
        .iter()
        .map(|p| vec![p.name.clone(), text(&p.strategy)])
        .collect();
    Table::new(&["player", "strategy"], rows).code(1)
}

fn standings(results: &Results) -> Table {
    let rows = results
        .standings
        .iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                s.player.clone(),
                s.games.to_string(),
                format!("{}/{}/{}", s.wins, s.draws, s.losses),
                s.score.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
                elo_interval(s.rating, s.rating_low, s.rating_high),
            ]
        })
        .collect();
    Table::new(
        &["rank", "player", "games", "W/D/L", "score", "rating [95%]"],
        rows,
    )
}

/// What each player's moves cost, from `costs.csv`.
fn costs(rows: &[CostRow]) -> Table {
    let decimals = |x: Option<f64>, d: usize| x.map_or("-".into(), |v| format!("{v:.d$}"));
    let rows = rows
        .iter()
        .map(|c| {
            vec![
                c.player.clone(),
                c.games.to_string(),
                c.moves.to_string(),
                c.nodes.to_string(),
                decimals(c.nodes_per_move, 0),
                decimals(c.seconds, 2),
                decimals(c.ms_per_move, 3),
            ]
        })
        .collect();
    Table::new(
        &[
            "player",
            "games",
            "moves chosen",
            "nodes",
            "nodes/move",
            "seconds",
            "ms/move",
        ],
        rows,
    )
}

fn pairs(results: &Results) -> Table {
    let mut header = vec![
        "A",
        "B",
        "games",
        "W/D/L (A)",
        "A's score [95%]",
        "Elo (A - B) [95%]",
        "LOS",
        "model, sample",
        "A's margin [95%]",
        "Elo, trinomial [95%]",
    ];
    // After a stop, the fixed-sample Elo is biased by it: labelled, and the SPRT's
    // own figures in a table of their own (`sprt_table`), so that neither table is
    // wider than a page (13 columns needed a scrollbar at 1,400 pixels).
    if results.pairs.iter().any(|p| p.sprt_estimate().is_some()) {
        header[5] = "Elo (A - B), fixed-sample [95%]";
    }
    let signed = |x: f64| crate::numbers::signed(x, 1);
    let rows = results
        .pairs
        .iter()
        .map(|p| {
            vec![
                p.player_a.clone(),
                p.player_b.clone(),
                p.games.to_string(),
                format!("{}/{}/{}", p.wins, p.draws, p.losses),
                percent_interval(p.score, p.score_low, p.score_high),
                elo_interval(p.elo, p.elo_low, p.elo_high),
                p.los.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
                model_cell(p),
                match (p.margin_mean, p.margin_low, p.margin_high) {
                    (Some(m), Some(l), Some(h)) => {
                        format!("{} [{}, {}]", signed(m), signed(l), signed(h))
                    }
                    (Some(m), _, _) => signed(m),
                    _ => "-".into(),
                },
                elo_interval(p.elo, p.trinomial_elo_low, p.trinomial_elo_high),
            ]
        })
        .collect();
    Table::new(&header, rows)
}

/// The SPRT's pairs: the LLR with its bounds, the verdict and, after a stop, the
/// median-unbiased Elo beside the fixed-sample one. None without an SPRT.
fn sprt_table(results: &Results) -> Option<Table> {
    let pairs: Vec<&PairRow> = results
        .pairs
        .iter()
        .filter(|p| p.sprt_llr.is_some())
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let stopped = pairs.iter().any(|p| p.sprt_estimate().is_some());
    let finished = results.run.status.is_finished();
    let mut header = vec![
        "A",
        "B",
        "Elo (A - B), fixed-sample [95%]",
        "SPRT LLR [bounds]",
        "SPRT",
    ];
    if stopped {
        header.push("Elo (A - B), median-unbiased after the SPRT [95%]");
    }
    let rows = pairs
        .iter()
        .map(|p| {
            let mut row = vec![
                p.player_a.clone(),
                p.player_b.clone(),
                elo_interval(p.elo, p.elo_low, p.elo_high),
                match (p.sprt_llr, p.sprt_lower, p.sprt_upper) {
                    (Some(v), Some(l), Some(u)) => format!("{v:.2} [{l:.2}, {u:.2}]"),
                    (Some(v), _, _) => format!("{v:.2}"),
                    _ => "-".into(),
                },
                sprt_cell(p, finished),
            ];
            if stopped {
                row.push(p.sprt_estimate().map_or("-".into(), |(e, l, h)| {
                    crate::numbers::elo_interval(e, l, h)
                }));
            }
            row
        })
        .collect();
    Some(Table::new(&header, rows))
}

fn colours(results: &Results) -> Table {
    let score = |s: Option<f64>| s.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v));
    let rows = results
        .pairs
        .iter()
        .map(|p| {
            vec![
                p.player_a.clone(),
                p.player_b.clone(),
                format!("{}/{}/{}", p.black_wins, p.black_draws, p.black_losses),
                score(p.black_score),
                format!("{}/{}/{}", p.white_wins, p.white_draws, p.white_losses),
                score(p.white_score),
            ]
        })
        .collect();
    Table::new(
        &[
            "A",
            "B",
            "A as black W/D/L",
            "A's score as black",
            "A as white W/D/L",
            "A's score as white",
        ],
        rows,
    )
}

/// The report of a run.
pub(crate) fn document(results: &Results, charts: &[Chart]) -> Document {
    let name = results.name();
    let mut sections = vec![Section::new("experiment", "The experiment as run")
        .with(Block::Table(Table::pairs(
            ["setting", "value"],
            &setup(results),
        )))
        .with(Block::Table(players(results)))
        .with(Block::Subheading("How it was run".into()))
        .with(Block::Table(how_run(&results.run, false)))];
    let mut standing = Section::new("standings", "Standings").with(Block::Text(
        "Ratings: a Bradley-Terry (logistic Elo) MAP fit with a weak prior over all games, averaging 0, with 95% intervals (see Statistics).".into(),
    ));
    let gauntlet = field::against_the_field(results);
    if gauntlet.is_some() {
        standing = standing.with(Block::Text(field::STANDINGS_NOTE.into()));
    }
    sections.push(standing.with(Block::Table(standings(results))));
    if let Some(section) = gauntlet {
        sections.push(section);
    }
    let mut drawn = Section::new("charts", "Charts");
    for chart in charts {
        drawn = drawn.with(Block::Chart(chart.clone()));
    }
    sections.push(drawn);
    let mut pairs_section = Section::new("pairs", "Pairs")
        .with(Block::Text("From A's point of view, with 95% intervals in the model the \"model, sample\" column names (see Statistics); LOS is the likelihood that A is stronger.".into()))
        .with(Block::Table(pairs(results)));
    if let Some(table) = sprt_table(results) {
        pairs_section = pairs_section
            .with(Block::Text("The SPRT of each pair that ran one (see Statistics): its log-likelihood ratio with the bounds in force, its verdict and, once it stopped, the Elo corrected for stopping early beside the fixed-sample figure.".into()))
            .with(Block::Table(table));
    }
    sections.push(pairs_section);
    sections
        .push(Section::new("colours", "Results by colour").with(Block::Table(colours(results))));
    sections.push(super::diversity::section(results));
    sections.extend(super::engines::section(results));
    if let Some(rows) = &results.costs {
        sections.push(
            Section::new("costs", "Cost per player")
                .with(Block::Text(COSTS_NOTE.into()))
                .with(Block::Table(costs(rows))),
        );
    }
    sections.extend(notable::section(results));
    sections.push(Section::new("statistics", "Statistics").with(Block::List(statistics(results))));
    Document {
        title: format!("Experiment report: {name}"),
        warning: [
            super::partial_note(results),
            super::diversity::warning(results),
        ]
        .into_iter()
        .flatten()
        .reduce(|a, b| format!("{a} {b}")),
        sections,
    }
}
