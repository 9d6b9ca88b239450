//! Simulated SPRTs with a known true Elo: the median bias of the median-unbiased
//! and the fixed-sample Elo, both intervals' coverage, and the error rates with and
//! without the overshoot correction. Its output is quoted in `docs/statistics.md`.
//!
//! Run: `cargo run --release --example sprt_simulation [RUNS]` (default 4000 a row);
//! `-- --grid [RUNS]` runs the estimate's grid of designs and extreme results instead
//! (`stats::ESTIMATE_GRID`, 200 tests a cell in the unit test).

use reversi_lab::stats::{summarise, SprtDesign, ESTIMATE_GRID};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let grid = args.first().is_some_and(|a| a == "--grid");
    let runs: u64 = args
        .get(usize::from(grid))
        .and_then(|a| a.parse().ok())
        .unwrap_or(if grid { 2000 } else { 4000 });
    if grid {
        println!("| design | true Elo | draw ratio | tests | mean pairs | median of median-unbiased Elo | corrected interval covers |");
        println!("|---|---|---|---|---|---|---|");
        for (i, &(elo0, elo1, elo, draw)) in ESTIMATE_GRID.iter().enumerate() {
            let design = SprtDesign {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
                overshoot: true,
            };
            let s = summarise(
                &design,
                elo,
                draw,
                runs,
                20_261_205 + 100_000 * i as u64,
                1_000_000,
            );
            println!(
                "| [{elo0}, {elo1}] | {elo} | {draw} | {runs} | {:.0} | {:+.1} | {:.1}% |",
                s.mean_pairs,
                s.median_unbiased,
                100.0 * s.coverage_corrected
            );
        }
        return;
    }
    let (draw_ratio, seed, max_pairs) = (0.3, 20_261_201, 1_000_000);
    println!(
        "Independent games drawing {:.0}% of the time, alpha = beta = 0.05, {runs} tests a row (seeds from {seed})",
        100.0 * draw_ratio
    );
    // A fine test (small LLR jumps) and a coarse one, where the overshoot matters.
    for (elo1, elos) in [
        (20.0, vec![-10.0, 0.0, 10.0, 20.0, 30.0]),
        (80.0, vec![0.0, 40.0, 80.0]),
    ] {
        println!();
        println!("SPRT elo0 = 0, elo1 = {elo1}:");
        println!();
        println!("| overshoot correction | true Elo | accepted H1 | accepted H0 | mean pairs | median of median-unbiased Elo | median of fixed-sample Elo | corrected interval covers | fixed-sample interval covers |");
        println!("|---|---|---|---|---|---|---|---|---|");
        for overshoot in [true, false] {
            let design = SprtDesign {
                elo0: 0.0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
                overshoot,
            };
            for &elo in &elos {
                let s = summarise(&design, elo, draw_ratio, runs, seed, max_pairs);
                println!(
                    "| {} | {elo} | {:.2}% | {:.2}% | {:.0} | {:+.2} | {:+.2} | {:.1}% | {:.1}% |",
                    if overshoot { "on" } else { "off" },
                    100.0 * s.accepted_h1,
                    100.0 * s.accepted_h0,
                    s.mean_pairs,
                    s.median_unbiased,
                    s.median_fixed,
                    100.0 * s.coverage_corrected,
                    100.0 * s.coverage_fixed
                );
            }
        }
    }
}
