//! Unit tests of the match: its plan, refusals, stream and summary.

use super::*;

#[test]
fn tally_summary_and_interval() {
    // 100 games in 50 colour-swapped pairs: A wins both games of 20 pairs,
    // wins one and loses one in 20, loses both in 10.
    let mut games = Vec::new();
    for pair in 0..50u64 {
        let (first, second) = match pair {
            0..20 => (1, 1),
            20..40 => (1, -1),
            _ => (-1, -1),
        };
        games.push(MatchTally::game(2 * pair, first));
        games.push(MatchTally::game(2 * pair + 1, second));
    }
    // Any order of addition gives the same tally.
    let forward: MatchTally = games.iter().cloned().sum();
    let backward: MatchTally = games.iter().rev().cloned().sum();
    assert_eq!(forward.paired, backward.paired);
    assert_eq!(forward.paired.pairs.0, [10, 0, 20, 0, 20]);
    let interval = forward.paired.pairs.interval95();
    let line = summary(&forward, "A", "B");
    assert_eq!(
        line,
        format!(
            "A vs B: 60 wins, 0 draws, 40 losses (win rate 60.0%, score 60.0% [{:.1}%, {:.1}%], 95% pentanomial interval over 50 game pairs)",
            100.0 * interval.low,
            100.0 * interval.high
        )
    );
    // One game more: not every game is in a pair, so the per-game interval.
    let odd = forward + MatchTally::game(100, 0);
    assert!(summary(&odd, "A", "B").ends_with("95% trinomial interval over 101 games)"));
}

#[test]
fn a_time_margin_needs_a_time_control() {
    let mut options = MatchOptions::new("greedy", "random");
    options.time_margin = Some("50ms".into());
    let refused = MatchPlan::new(&options).err().unwrap().to_string();
    assert!(refused.contains("--time-margin"), "{refused}");
    assert!(refused.contains("add --move-time or --clock"), "{refused}");
    options.move_time = Some("100ms".into());
    assert!(MatchPlan::new(&options).is_ok());
}

#[test]
fn a_refusal_names_the_setting_as_the_edge_that_gave_it() {
    use crate::setting::Edge;
    let mut options = MatchOptions::new("greedy", "random");
    options.openings = 70;
    let refused = MatchPlan::new(&options).err().unwrap();
    let fill = "70 would fill the 8x8 board: use fewer";
    assert_eq!(refused.worded(Edge::Cli), format!("--openings {fill}"));
    assert_eq!(refused.worded(Edge::Python), format!("openings={fill}"));
    assert_eq!(
        refused.worded(Edge::Config),
        format!("random_plies = {fill}")
    );
    options.openings = 0;
    options.move_time = Some("1s".into());
    options.clock = Some("60".into());
    let refused = MatchPlan::new(&options).err().unwrap();
    let why = "are both given: a player has one time control, so keep one";
    assert_eq!(
        refused.worded(Edge::Cli),
        format!("--move-time and --clock {why}")
    );
    assert_eq!(
        refused.worded(Edge::Python),
        format!("move_time and clock {why}")
    );
    options.clock = None;
    options.move_time = Some("soon".into());
    assert_eq!(
        MatchPlan::new(&options).err().unwrap().worded(Edge::Cli),
        "--move-time \"soon\" is not a time of at most a day: write it like \"100ms\" or \"2s\""
    );
    options.move_time = None;
    options.games = 0;
    assert_eq!(
        MatchPlan::new(&options).err().unwrap().worded(Edge::Python),
        "games=0: play at least 1 game"
    );
}

#[test]
fn a_match_takes_the_seeds_a_run_takes() {
    let mut options = MatchOptions::new("greedy", "random");
    options.seed = crate::lab::setup::MAX_SEED;
    assert!(MatchPlan::new(&options).is_ok());
    options.seed += 1;
    assert_eq!(
        MatchPlan::new(&options).err().unwrap().to_string(),
        "--seed 9223372036854775808 is too large: use 0 to 9223372036854775807"
    );
}

#[test]
fn a_watched_match_counts_its_games_and_writes_them_to_memory() {
    let mut options = MatchOptions::new("greedy", "random");
    options.games = 9;
    options.threads = Some(2);
    let plan = MatchPlan::new(&options).unwrap();
    let played = AtomicU64::new(0);
    let mut rows: Vec<u8> = Vec::new();
    let watch = MatchWatch {
        stop: None,
        played: Some(&played),
    };
    let logs = Path::new("unused");
    let done = plan
        .play_watched(["a", "b"], Some((logs, &mut rows)), logs, watch)
        .unwrap();
    assert_eq!(played.load(Ordering::Relaxed), 9);
    assert_eq!(done.tally.paired.games.games(), 9);
    let unwatched = plan.play(["a", "b"], None, logs).unwrap();
    assert_eq!(unwatched.tally.paired, done.tally.paired);
    assert_eq!(rows.iter().filter(|&&b| b == b'\n').count(), 9);
    // A stop set before the first game plays none.
    let stop = AtomicBool::new(true);
    let stopped = MatchWatch {
        stop: Some(&stop),
        played: None,
    };
    let none = plan.play_watched(["a", "b"], None, logs, stopped).unwrap();
    assert_eq!(none.tally.paired.games.games(), 0);
}

#[test]
fn match_tallies_pair_twins_across_any_split() {
    let margins: Vec<i32> = (0..37).map(|g| g * 7 % 5 - 2).collect();
    let one = |range: std::ops::Range<usize>| -> MatchTally {
        range.map(|g| MatchTally::game(g as u64, margins[g])).sum()
    };
    let whole = one(0..margins.len());
    assert_eq!(whole.paired.pairs.pairs(), 18);
    for cut in 0..margins.len() {
        for second in cut..margins.len() {
            let split = one(0..cut) + one(cut..second) + one(second..margins.len());
            assert_eq!(split.paired.pairs, whole.paired.pairs, "{cut} {second}");
            assert_eq!(split.paired.games, whole.paired.games);
        }
    }
}
