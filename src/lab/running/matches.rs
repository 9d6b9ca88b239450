//! A match: two strategies, colour-swapped game pairs, A's tally and its summary
//! line, from typed options (the `match` command, the Python package and the
//! benchmarks all play through [`MatchPlan`]).

use crate::board::{Color, Geometry};
use crate::error::{Error, Result};
use crate::game::{Game, Rules, Termination};
use crate::lab::experiment::MAX_GAMES_PER_PAIR;
use crate::lab::faults::{at_fault, logs_in, prepare_logs, Broken, FaultWatch};
use crate::lab::runner::write_game_row;
use crate::lab::setup::{check_seed, check_threads, OpeningsFile, SetupFile, THREADS};
use crate::lab::{Cost, Delivery, Driver, Flow, Schedule, Setup, Slot};
use crate::numbers::counted;
use crate::setting::{Said, Setting, SettingError};
use crate::stats::{Paired, Pentanomial, Trinomial};
use crate::strategy::clock::{held_to, CLOCK, MARGIN, MOVE_TIME};
use crate::strategy::{Strategy, StrategySpec};
use crate::with_geometry;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A match's games: `--games`, `games=`.
pub static GAMES: Setting = Setting::new("", "--games", "games");
/// Where a match's engines keep their logs: `--logs DIR`.
pub static LOGS: Setting = Setting::new("", "--logs", "logs");

/// What a match plays: the `match` command's options, as values.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// Strategy A, as a spec such as `alphabeta:depth=4,eval=mobility`.
    pub a: String,
    /// Strategy B.
    pub b: String,
    /// Games to play.
    pub games: u64,
    /// Seed: the same seed replays the same games.
    pub seed: u64,
    /// Threads (`None`: one per core).
    pub threads: Option<usize>,
    /// Board size: 4, 6, 8 or 10.
    pub size: u32,
    /// Scoring rules.
    pub rules: Rules,
    /// Random opening plies: each colour-swapped pair of games starts from the same
    /// K random moves (0: the standard start).
    pub openings: u32,
    /// Time for each move of both players, such as `100ms`.
    pub move_time: Option<String>,
    /// A game clock for both players, such as `60+0.5`.
    pub clock: Option<String>,
    /// How far past its time a move may go before it loses on time (`None`: 50ms).
    pub time_margin: Option<String>,
}

impl MatchOptions {
    /// A's and B's specs with the command line's defaults: 1000 games, seed 1, one
    /// thread per core, 8x8, standard rules, from the start, untimed.
    #[must_use]
    pub fn new(a: impl Into<String>, b: impl Into<String>) -> Self {
        MatchOptions {
            a: a.into(),
            b: b.into(),
            games: 1000,
            seed: 1,
            threads: None,
            size: 8,
            rules: Rules::default(),
            openings: 0,
            move_time: None,
            clock: None,
            time_margin: None,
        }
    }
}

/// A match's results, addable run by run: contiguous runs of games, each added to
/// the one before it (rayon's reduction keeps that order while it sums in parallel):
/// every game, and the colour-swapped game pairs (games 2k and 2k+1 start from the
/// same position with colours swapped) once both of their games are in.
#[derive(Clone, Debug, Default)]
pub struct MatchTally {
    /// The games and the complete pairs.
    pub paired: Paired,
    /// Games of a contiguous run whose twin is outside it, by game number, with A's
    /// points: only its first and last game can be such, so a run holds at most two
    /// and adding runs allocates nothing.
    open: [Option<(u64, f64)>; 2],
    /// Games A (first) and B lost by a fault or on time, by termination (in the order
    /// of [`Termination::ALL`]; the first, `normal`, stays 0).
    pub forfeits: [[u64; Termination::ALL.len()]; 2],
}

impl MatchTally {
    /// One game: game number `game` of the match, A's margin in it.
    #[must_use]
    pub fn game(game: u64, a_margin: i32) -> Self {
        let t = Trinomial::of_margin(a_margin);
        MatchTally {
            paired: Paired {
                games: t,
                pairs: Pentanomial::default(),
            },
            open: [Some((game, t.points())), None],
            forfeits: [[0; Termination::ALL.len()]; 2],
        }
    }

    /// A finished game of the match: game number `game` of `slot`, with its forfeit
    /// (if it was lost by a fault or on time) counted against the side that lost it.
    #[must_use]
    pub fn of<G: Geometry>(game: u64, slot: Slot, played: &Game<G>, rules: Rules) -> Self {
        let margin = played.outcome(rules).expect("played to the end").margin;
        let mut tally = Self::game(game, a_margin(slot, margin));
        if let Some(forfeit) = played.forfeited() {
            let a_lost = (forfeit.loser == Color::Black) == slot.a_black();
            let kind = Termination::ALL
                .iter()
                .position(|&t| t == forfeit.termination)
                .unwrap_or(0);
            tally.forfeits[usize::from(!a_lost)][kind] += 1;
        }
        tally
    }

    /// What A and B lost by faults or on time, as `A: 2 stalled; B: 1 time`
    /// (empty when nothing was).
    #[must_use]
    pub fn forfeit_text(&self) -> String {
        let side = |name: &str, counts: &[u64; Termination::ALL.len()]| {
            let kinds: Vec<String> = Termination::ALL
                .iter()
                .zip(counts)
                .filter(|(_, &n)| n > 0)
                .map(|(t, n)| format!("{n} {}", t.name()))
                .collect();
            (!kinds.is_empty()).then(|| format!("{name} {}", kinds.join(", ")))
        };
        [side("A", &self.forfeits[0]), side("B", &self.forfeits[1])]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl std::ops::Add for MatchTally {
    type Output = Self;
    /// Adds the run after `self` (rayon keeps runs in order), pairing the twins
    /// that meet at the seam.
    #[inline]
    fn add(mut self, other: Self) -> Self {
        for (mine, theirs) in self.forfeits.iter_mut().zip(other.forfeits) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.paired.games += other.paired.games;
        self.paired.pairs += other.paired.pairs;
        // The common cases, once a game (a fold adds each game to the run before
        // it): nothing open on one side, or one game open on each.
        match (self.open, other.open) {
            (_, [None, None]) => self,
            ([None, None], open) => {
                self.open = open;
                self
            }
            ([Some(last), None], [Some(next), None]) if last.0 < next.0 => {
                if last.0 / 2 == next.0 / 2 {
                    self.paired.pairs.record(last.1 + next.1);
                    self.open = [None, None];
                } else {
                    self.open = [Some(last), Some(next)];
                }
                self
            }
            _ => self.add_sorted(other),
        }
    }
}

impl MatchTally {
    /// [`Add::add`](std::ops::Add::add) for any open games, in any order (a run's
    /// games have been added).
    fn add_sorted(mut self, other: Self) -> Self {
        let [a, b] = self.open;
        let [c, d] = other.open;
        let mut open = [a, b, c, d];
        open.sort_by_key(|item| item.map_or(u64::MAX, |(game, _)| game));
        let count = open.iter().flatten().count();
        let open: [(u64, f64); 4] = open.map(|item| item.unwrap_or((u64::MAX, 0.0)));
        let mut left = [None, None];
        let mut k = 0;
        let mut i = 0;
        while i < count {
            if i + 1 < count && open[i].0 / 2 == open[i + 1].0 / 2 {
                self.paired.pairs.record(open[i].1 + open[i + 1].1);
                i += 2;
            } else {
                assert!(k < 2, "runs of games must be added in order");
                left[k.min(1)] = Some(open[i]);
                k += 1;
                i += 1;
            }
        }
        self.open = left;
        self
    }
}

impl std::iter::Sum for MatchTally {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), std::ops::Add::add)
    }
}

/// A's margin in a game of `slot` from black's margin: A has black in even games.
pub const fn a_margin(slot: Slot, black_margin: i32) -> i32 {
    if slot.a_black() {
        black_margin
    } else {
        -black_margin
    }
}

/// The one-line match summary `A vs B: W wins, D draws, L losses (win rate X%,
/// score Y% [L%, H%], 95% pentanomial interval over N game pairs)`: the score
/// interval of the colour-swapped game pairs when every game is in one (an even
/// number of games), else the per-game (trinomial) one over the games.
#[must_use]
pub fn summary(tally: &MatchTally, a: &str, b: &str) -> String {
    let games = &tally.paired.games;
    let score = tally.paired.interval95();
    format!(
        "{a} vs {b}: {}, {}, {} (win rate {:.1}%, score {:.1}% [{:.1}%, {:.1}%], 95% {} interval over {})",
        counted(games.wins, "win"),
        counted(games.draws, "draw"),
        counted(games.losses, "loss"),
        100.0 * games.wins as f64 / games.games().max(1) as f64,
        100.0 * score.mean,
        100.0 * score.low,
        100.0 * score.high,
        score.model.name(),
        counted(score.n, score.model.unit().trim_end_matches('s'))
    ) + &match tally.forfeit_text() {
        text if text.is_empty() => String::new(),
        text => format!("; forfeits: {text}"),
    }
}

/// A match checked and ready to play: the setup, both strategies and the schedule
/// of its one pair. The CLI and the Python package both play from it.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    /// Size, rules, openings, seed and threads.
    pub setup: Setup,
    /// Strategies A and B.
    pub specs: [StrategySpec; 2],
    /// Game number to colours, opening and seed (one pair, A black in even games).
    pub schedule: Schedule,
    /// Games to play.
    pub games: u64,
}

impl MatchPlan {
    /// Checks a match's options, refusing bad ones with the command line's messages.
    pub fn new(args: &MatchOptions) -> Result<Self> {
        let spec_a =
            StrategySpec::parse(&args.a).map_err(|e| Error::input(format!("strategy A: {e}")))?;
        let spec_b =
            StrategySpec::parse(&args.b).map_err(|e| Error::input(format!("strategy B: {e}")))?;
        if args.games == 0 || args.games > MAX_GAMES_PER_PAIR {
            return Err(SettingError::OutOfRange {
                setting: &GAMES,
                value: args.games.to_string(),
                least: 1,
                most: MAX_GAMES_PER_PAIR,
                fix: Some(if args.games == 0 {
                    "play at least 1 game".into()
                } else {
                    format!("a match plays at most {MAX_GAMES_PER_PAIR} games").into()
                }),
            }
            .into());
        }
        if args.time_margin.is_some() && args.move_time.is_none() && args.clock.is_none() {
            return Err(SettingError::Needs {
                setting: &MARGIN,
                what: "how far past its time a move may go",
                either: [&MOVE_TIME, &CLOCK],
            }
            .into());
        }
        check_seed(args.seed)?;
        let file = SetupFile {
            seed: args.seed,
            size: args.size,
            rules: args.rules,
            threads: args
                .threads
                .map(|t| check_threads(t, &THREADS))
                .transpose()?,
            openings: OpeningsFile {
                random_plies: Some(args.openings),
                file: None,
            },
            move_time: args.move_time.clone(),
            clock: args.clock.clone(),
            time_margin: args.time_margin.clone(),
        };
        // Typed refusals: the caller words each setting as its flag or keyword.
        let setup = Setup::from_file(&file, Path::new("."))?;
        let schedule = Schedule::new(&setup, vec![(0, 1)], args.games);
        Ok(MatchPlan {
            setup,
            specs: [spec_a, spec_b],
            schedule,
            games: args.games,
        })
    }

    /// Strategies A and B for boards of geometry `G`, refused when one could not
    /// finish a game from the match's start in reasonable time.
    pub fn players<G: Geometry>(&self) -> Result<[Box<dyn Strategy<G>>; 2]> {
        let empties = self.setup.start_empties();
        let build = |spec: &StrategySpec, name: &str| {
            spec.check_practical_under(empties, self.setup.time.control().is_some())
                .and_then(|()| spec.build::<G>(self.setup.rules))
                .map(|s| held_to(s, self.setup.time.control()))
                .map_err(|e| Error::input(format!("strategy {name}: {e}")))
        };
        Ok([build(&self.specs[0], "A")?, build(&self.specs[1], "B")?])
    }

    /// Plays the match without writing its games (`match` without `--csv`): A's
    /// tally, what each player's moves cost, and the threads used.
    pub fn tally(&self) -> Result<(MatchTally, Vec<Cost>, usize)> {
        with_geometry!(self.setup.size, G => self.tally_on::<G>())
    }

    fn tally_on<G: Geometry>(&self) -> Result<(MatchTally, Vec<Cost>, usize)> {
        let [sa, sb] = self.players::<G>()?;
        let players: [&dyn Strategy<G>; 2] = [sa.as_ref(), sb.as_ref()];
        let driver = Driver::<G>::new(self.setup.threads)?;
        let rules = self.setup.rules;
        let (tally, costs) = driver.sum(
            &players,
            0..self.games,
            |g| {
                let (slot, _, deal) = self.schedule.deal::<G>(g);
                (slot, deal)
            },
            |g, slot, game| MatchTally::of(g, slot, &game, rules),
        );
        Ok((tally, costs, driver.threads()))
    }
}

/// A match played: A's tally, what each side's moves cost, the threads used, and the
/// player that broke if play stopped for it.
#[derive(Clone, Debug)]
pub struct MatchPlayed {
    /// A's results.
    pub tally: MatchTally,
    /// What each side's moves cost (A, B).
    pub costs: Vec<Cost>,
    /// The worker threads.
    pub threads: usize,
    /// The side ("A" or "B") that lost [`MAX_FAULTS_IN_A_ROW`](crate::lab::faults::MAX_FAULTS_IN_A_ROW) games in a row by a
    /// fault, where play stopped (the tally holds the games before the stop).
    pub broken: Option<Broken>,
}

/// Where a match's games go as they finish: the file's path (for messages) and its
/// writer (a [`GamesWriter`](crate::lab::games_file::GamesWriter), or memory).
pub type RowsOut<'a> = (&'a Path, &'a mut (dyn Write + Send));

/// What watches a match from outside while it plays (the Python package's progress bar
/// and Ctrl-C): a flag that stops it after the games in flight, and the count of games
/// counted so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchWatch<'a> {
    /// Set to stop: no game starts after it, the tally holds the games before.
    pub stop: Option<&'a AtomicBool>,
    /// Games in the tally so far.
    pub played: Option<&'a AtomicU64>,
}

/// Where a match's engine logs go when none is named: a new folder in the system's
/// temporary folder, one per process.
#[must_use]
pub fn default_logs() -> PathBuf {
    std::env::temp_dir().join(format!("reversi-lab-match-{}", std::process::id()))
}

impl MatchPlan {
    /// Plays the match: each game's `games.csv` row to `rows` (whose header the caller
    /// wrote; `names` fill its black and white columns) if given, an external engine's
    /// log under `logs` (`engines/A-*.log`, `engines/B-*.log`). Faults are accounted as
    /// `run` accounts for them: once a side has lost [`MAX_FAULTS_IN_A_ROW`](crate::lab::faults::MAX_FAULTS_IN_A_ROW) games in a
    /// row by one, no game starts and the match ends there.
    pub fn play(
        &self,
        names: [&str; 2],
        rows: Option<RowsOut<'_>>,
        logs: &Path,
    ) -> Result<MatchPlayed> {
        self.play_watched(names, rows, logs, MatchWatch::default())
    }

    /// [`play`](Self::play), stopped by and counted into `watch`.
    pub fn play_watched(
        &self,
        names: [&str; 2],
        rows: Option<RowsOut<'_>>,
        logs: &Path,
        watch: MatchWatch<'_>,
    ) -> Result<MatchPlayed> {
        with_geometry!(self.setup.size, G => self.play_on::<G>(names, rows, logs, watch))
    }

    fn play_on<G: Geometry>(
        &self,
        names: [&str; 2],
        mut rows: Option<RowsOut<'_>>,
        logs: &Path,
        watch: MatchWatch<'_>,
    ) -> Result<MatchPlayed> {
        let [sa, sb] = self.players::<G>()?;
        let players: [&dyn Strategy<G>; 2] = [sa.as_ref(), sb.as_ref()];
        // External engines (those that say what they are) can fault and log.
        let external = players.iter().any(|p| p.identity().is_some());
        let logged = players.map(|p| p.keeps_log());
        let watched = watch.stop.is_some() || watch.played.is_some();
        if rows.is_none() && !watched && !external {
            // Nothing to write and no fault to watch: the plain sum is the fastest.
            let (tally, costs, threads) = self.tally_on::<G>()?;
            return Ok(MatchPlayed {
                tally,
                costs,
                threads,
                broken: None,
            });
        }
        if logged.contains(&true) {
            prepare_logs(
                logs,
                Said::text("choose another ").name(&LOGS).then(" folder"),
            )?;
        }
        for (player, side) in players.iter().zip(SIDES) {
            player.attach(&logs_in(logs, side));
        }
        let driver = Driver::<G>::new(self.setup.threads)?;
        let rules = self.setup.rules;
        let mut tally = MatchTally::default();
        let mut faults = FaultWatch::new(2);
        let mut broken = None;
        let never = AtomicBool::new(false);
        let mut counted = 0;
        let writes = rows.is_some();
        let streamed = driver.stream_rows(
            &players,
            0..self.games,
            |g| {
                let (slot, opening, deal) = self.schedule.deal::<G>(g);
                ((slot, opening, deal.seats, deal.seed), deal)
            },
            |g, (slot, opening, seats, seed), game, row| {
                if writes {
                    let seated = seats.map(|i| names[i]);
                    write_game_row(g, 0, &opening, seated, seed, game, rules, row);
                }
                (
                    MatchTally::of(g, slot, game, rules),
                    seats,
                    at_fault(game, seats),
                )
            },
            watch.stop.unwrap_or(&never),
            |delivery| {
                let Delivery::Row((one, seats, fault), row) = delivery else {
                    if let Some((path, writer)) = &mut rows {
                        writer.flush().map_err(|e| Error::io(*path, e))?;
                    }
                    return Ok(Flow::Continue);
                };
                if let Some((path, writer)) = &mut rows {
                    writer.write_all(row).map_err(|e| Error::io(*path, e))?;
                }
                tally = std::mem::take(&mut tally) + one;
                counted += 1;
                if let Some(played) = watch.played {
                    played.store(counted, Ordering::Relaxed);
                }
                if let Some((side, last)) = faults.record(seats, fault) {
                    broken = Some(Broken::new(SIDES[side], last, logged[side].then_some(logs)));
                    return Ok(Flow::Stop);
                }
                Ok(Flow::Continue)
            },
        )?;
        Ok(MatchPlayed {
            tally,
            costs: streamed.costs,
            threads: driver.threads(),
            broken,
        })
    }
}

/// The two sides' names in logs and messages.
const SIDES: [&str; 2] = ["A", "B"];

/// What each side's moves cost, for the line after the speed: nodes and
/// milliseconds per move chosen.
#[must_use]
pub fn cost_line(costs: &[Cost]) -> String {
    let side = |name: &str, cost: &Cost| {
        let time = cost
            .ms_per_move()
            .map_or_else(|| "not timed".to_string(), |ms| format!("{ms:.3} ms/move"));
        format!(
            "{name} {:.0} nodes/move, {time}",
            cost.nodes_per_move().unwrap_or(0.0),
        )
    };
    format!("cost: {}; {}", side("A", &costs[0]), side("B", &costs[1]))
}

/// The match as one JSON object (the `--format json` output; its keys are stable):
/// `stopped` names the broken side when three faults in a row stopped play, else null.
#[must_use]
pub fn summary_json(
    tally: &MatchTally,
    args: &MatchOptions,
    seconds: f64,
    threads: usize,
    broken: Option<&Broken>,
) -> String {
    let mut value = summary_value(tally, args, seconds, threads);
    // Always there (null when the match played out), so that a reader need not guess
    // whether a short tally is the whole match.
    value["stopped"] = broken.map_or(serde_json::Value::Null, |b| {
        serde_json::json!({
            "player": b.player,
            "termination": b.last.name(),
            "logs": b.log_pattern().map(|l| l.display().to_string()),
        })
    });
    value.to_string()
}

/// The object [`summary_json`] prints, as a value (the Python package's `Match.info`).
#[must_use]
pub fn summary_value(
    tally: &MatchTally,
    args: &MatchOptions,
    seconds: f64,
    threads: usize,
) -> serde_json::Value {
    let games = &tally.paired.games;
    let score = tally.paired.interval95();
    serde_json::json!({
        "a": args.a,
        "b": args.b,
        "games": games.games(),
        "wins": games.wins,
        "draws": games.draws,
        "losses": games.losses,
        "score": score.mean,
        "score_low": score.low,
        "score_high": score.high,
        "interval": "95%",
        "model": score.model.name(),
        "n": score.n,
        "n_unit": score.model.unit(),
        "size": args.size,
        "openings": args.openings,
        "seed": args.seed,
        "threads": threads,
        "seconds": seconds,
        "forfeits": {
            "a": forfeit_counts(&tally.forfeits[0]),
            "b": forfeit_counts(&tally.forfeits[1]),
        },
    })
}

/// A side's forfeits by termination name (every termination but `normal`, zeros too,
/// so that the JSON's keys are stable).
fn forfeit_counts(counts: &[u64; Termination::ALL.len()]) -> serde_json::Value {
    Termination::ALL
        .iter()
        .zip(counts)
        .filter(|(t, _)| **t != Termination::Normal)
        .map(|(t, n)| (t.name().to_string(), serde_json::Value::from(*n)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

#[cfg(test)]
#[path = "matches_tests.rs"]
mod tests;
