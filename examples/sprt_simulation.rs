//! Simulated SPRTs with a known true Elo: the median bias of the median-unbiased
//! and the fixed-sample Elo, both intervals' coverage, and the error rates with and
//! without the overshoot correction. Its output is quoted in `docs/statistics.md`.
//!
//! Run: `cargo run --release --example sprt_simulation [RUNS]` (default 4000 a row).

use reversi_lab::stats::{summarise, SprtDesign};

fn main() {
    let runs: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4000);
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
