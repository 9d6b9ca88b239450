//! Unit tests of the statistics against values worked by hand and reference data.

use super::fit::*;
use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// The data rows of a reference file (comment lines start with `#`), header dropped.
fn reference_rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect()
}

#[test]
fn elo_by_hand() {
    assert!(close(elo_from_score(0.5), 0.0, 1e-12));
    // 0.75: -400 log10(1/3) = 190.848...
    assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
    assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
    assert!(close(score_from_elo(190.848_501_887_865), 0.75, 1e-12));
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
}

#[test]
fn trinomial_by_hand() {
    // 6 wins, 2 draws, 2 losses: s = 0.7; var = 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16.
    let t = Trinomial {
        wins: 6,
        draws: 2,
        losses: 2,
    };
    let s = t.score();
    assert!(close(s.mean, 0.7, 1e-12));
    assert!(close(s.se, (0.16f64 / 10.0).sqrt(), 1e-12));
    let i = t.interval95();
    assert_eq!((i.model, i.n), (Model::Trinomial, 10));
    let (elo, low, high) = i.elo();
    assert!(close(elo, 147.190_7, 1e-3));
    assert!(low < elo && elo < high);
}

#[test]
fn pentanomial_by_hand() {
    // Pairs: 1 x 0/2, 2 x 1/2, 4 x 2/2 (1.0 normalised: 0, .5, 1 ...)
    let p = Pentanomial([1, 0, 2, 0, 4]);
    let (mean, var) = p.mean_var();
    // normalised scores: 0, .5, .5, 1, 1, 1, 1 -> mean 5/7
    assert!(close(mean, 5.0 / 7.0, 1e-12));
    let expected_var =
        (1.0 * (0.0 - mean).powi(2) + 2.0 * (0.5 - mean).powi(2) + 4.0 * (1.0 - mean).powi(2))
            / 7.0;
    assert!(close(var, expected_var, 1e-12));
    assert!(close(p.score().se, (expected_var / 7.0).sqrt(), 1e-12));
    let mut q = Pentanomial::default();
    q.record(1.5);
    q.record(0.0);
    assert_eq!(q.0, [1, 0, 0, 1, 0]);
}

#[test]
fn the_maximum_likelihood_fit_has_the_asked_mean() {
    let q = normalised(&regularised(&[22, 3, 14, 2, 3]));
    for s in [0.01, 0.2784, 0.5, 0.5288, 0.99] {
        let p = mle_with_mean(&q, s);
        let total: f64 = p.iter().sum();
        let mean: f64 = (0..5).map(|k| p[k] * k as f64 / 4.0).sum();
        assert!(close(total, 1.0, 1e-12), "{s}: {total}");
        assert!(close(mean, s, 1e-12), "{s}: {mean}");
    }
    // At the observed mean the fit is the data themselves (theta = 0).
    let observed: f64 = (0..5).map(|k| q[k] * k as f64 / 4.0).sum();
    let p = mle_with_mean(&q, observed);
    assert!((0..5).all(|k| close(p[k], q[k], 1e-12)));
}

#[test]
fn sprt_bounds_and_the_normal_approximation_by_hand() {
    let (lower, upper) = sprt_bounds(0.05, 0.05);
    assert!(close(lower, -2.944_438_979, 1e-9));
    assert!(close(upper, 2.944_438_979, 1e-9));
    // 100 pairs: 10 / 20 / 40 / 20 / 10 -> mean 0.5, var = (10*.25+20*.0625)*2/100 = 0.075.
    let p = Pentanomial([10, 20, 40, 20, 10]);
    let (s0, s1) = (score_from_elo(0.0), score_from_elo(10.0));
    let expected = 100.0 * (s1 - s0) * (2.0 * 0.5 - s0 - s1) / (2.0 * 0.075);
    assert!(close(
        p.llr_normal_approximation(0.0, 10.0),
        expected,
        1e-12
    ));
    // Near H0 the approximation and the exact ratio agree to about 1%.
    let exact = p.llr(0.0, 10.0);
    assert!(exact < 0.0, "an even result favours H0");
    assert!(
        close(exact, expected, 0.01 * expected.abs()),
        "{exact} {expected}"
    );
}

#[test]
fn exact_llr_matches_the_published_method() {
    let rows = reference_rows(include_str!("../../tests/data/sprt-llr.csv"));
    assert!(rows.len() >= 5);
    for row in rows {
        let counts: Vec<u64> = row[1..6].iter().map(|c| c.parse().unwrap()).collect();
        let (elo0, elo1): (f64, f64) = (row[6].parse().unwrap(), row[7].parse().unwrap());
        let expected: f64 = row[8].parse().unwrap();
        let p = Pentanomial(counts.try_into().unwrap());
        let llr = p.llr(elo0, elo1);
        assert!(
            close(llr, expected, 1e-9 * expected.abs().max(1.0)),
            "{}: {llr} against {expected}",
            row[0]
        );
    }
}

#[test]
fn a_perfect_result_gives_a_finite_llr_that_crosses_the_bound() {
    let (lower, upper) = sprt_bounds(0.05, 0.05);
    let perfect = Pentanomial([0, 0, 0, 0, 100]);
    let llr = perfect.llr(0.0, 20.0);
    assert!(llr.is_finite() && llr > upper, "{llr}");
    // The approximation gives 0 here: the pair variance is 0.
    assert_eq!(perfect.llr_normal_approximation(0.0, 20.0), 0.0);
    let lost = Pentanomial([100, 0, 0, 0, 0]);
    let llr = lost.llr(0.0, 20.0);
    assert!(llr.is_finite() && llr < lower, "{llr}");
    // The LLR of a perfect result grows by at most ln(s1 / s0) per pair: with
    // elo1 = 10 that is 0.0284, so 100 pairs stay below the bound and 104 cross.
    assert!(Pentanomial([0, 0, 0, 0, 100]).llr(0.0, 10.0) < upper);
    assert!(Pentanomial([0, 0, 0, 0, 104]).llr(0.0, 10.0) > upper);
    assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
}

#[test]
fn score_intervals_match_the_reference() {
    let rows = reference_rows(include_str!("../../tests/data/score-intervals.csv"));
    assert!(rows.len() >= 5);
    for row in rows {
        let counts: Vec<u64> = row[1].split(' ').map(|c| c.parse().unwrap()).collect();
        let expected: Vec<f64> = row[2..5].iter().map(|v| v.parse().unwrap()).collect();
        let interval = match row[0] {
            "trinomial" => Trinomial {
                losses: counts[0],
                draws: counts[1],
                wins: counts[2],
            }
            .interval95(),
            _ => Pentanomial(counts.clone().try_into().unwrap()).interval95(),
        };
        let got = [interval.mean, interval.low, interval.high];
        for (g, e) in got.iter().zip(&expected) {
            assert!(close(*g, *e, 1e-9), "{row:?}: {got:?}");
        }
    }
}

#[test]
fn without_draws_the_trinomial_interval_is_wilsons() {
    for (wins, losses) in [(60u64, 40u64), (1, 199), (7, 3), (500, 500)] {
        let t = Trinomial {
            wins,
            draws: 0,
            losses,
        };
        let n = (wins + losses) as f64;
        let p = wins as f64 / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        let i = t.interval95();
        // The regularised empty draw cell (1e-3 of a game) moves the ends by
        // less than 1e-3 / n.
        let tolerance = 1e-3 / n;
        assert!(
            close(i.low, centre - half, tolerance),
            "{wins}-{losses}: {i:?}"
        );
        assert!(
            close(i.high, centre + half, tolerance),
            "{wins}-{losses}: {i:?}"
        );
    }
}

#[test]
fn intervals_stay_in_the_unit_range_and_are_never_empty() {
    let all_lost = Trinomial {
        wins: 0,
        draws: 0,
        losses: 200,
    }
    .interval95();
    assert_eq!((all_lost.mean, all_lost.low), (0.0, 0.0));
    assert!(
        all_lost.high > 0.018 && all_lost.high < 0.019,
        "{all_lost:?}"
    );
    let (elo, low, high) = all_lost.elo();
    assert_eq!((elo, low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
    assert!(high.is_finite() && high < -600.0, "{high}");
    let one_win = Trinomial {
        wins: 1,
        draws: 0,
        losses: 199,
    }
    .interval95();
    assert!(
        one_win.low > 0.0 && one_win.low < one_win.mean,
        "{one_win:?}"
    );
    assert!(one_win.elo().1.is_finite() && one_win.elo().2.is_finite());
    let perfect = Pentanomial([0, 0, 0, 0, 100]).interval95();
    assert_eq!((perfect.mean, perfect.high), (1.0, 1.0));
    assert!(perfect.low > 0.95 && perfect.low < 1.0, "{perfect:?}");
    assert!(perfect.elo().1.is_finite());
    for counts in [
        [0, 0, 7, 0, 0],
        [3, 0, 0, 0, 1],
        [1, 1, 1, 1, 1],
        [0, 1, 0, 0, 0],
    ] {
        let i = Pentanomial(counts).interval95();
        assert!(0.0 <= i.low && i.low < i.mean && i.mean < i.high && i.high <= 1.0);
    }
    let none = Pentanomial::default().interval95();
    assert!(none.mean.is_nan() && none.low.is_nan());
}

#[test]
fn the_p_value_is_below_5_percent_exactly_when_the_interval_excludes_a_half() {
    for counts in [
        [22, 3, 14, 2, 3],
        [9, 0, 35, 0, 23],
        [10, 20, 40, 20, 10],
        [5, 20, 40, 25, 10],
        [4, 20, 40, 26, 10],
        [0, 0, 0, 0, 6],
    ] {
        // Two games per pair (their split does not matter here).
        let pairs: u64 = counts.iter().sum();
        let games = Trinomial {
            wins: pairs,
            draws: 0,
            losses: pairs,
        };
        let paired = Paired {
            games,
            pairs: Pentanomial(counts),
        };
        assert_eq!(paired.model(), Model::Pentanomial);
        let i = paired.interval95();
        let excludes = i.low > 0.5 || i.high < 0.5;
        assert_eq!(paired.p_value() < 0.05, excludes, "{counts:?}: {i:?}");
        assert!((paired.los() > 0.5) == (i.mean > 0.5) || i.mean == 0.5);
    }
}

#[test]
fn the_headline_model_is_pentanomial_only_for_complete_pairs() {
    let games = Trinomial {
        wins: 3,
        draws: 0,
        losses: 2,
    };
    let pairs = Pentanomial([0, 0, 2, 0, 0]);
    assert_eq!(Paired { games, pairs }.model(), Model::Trinomial);
    let games = Trinomial {
        wins: 2,
        draws: 0,
        losses: 2,
    };
    assert_eq!(Paired { games, pairs }.model(), Model::Pentanomial);
    assert_eq!(Paired::default().model(), Model::Trinomial);
}

#[test]
fn holm_by_hand() {
    // Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 -> 0.06 (monotone).
    let adjusted = holm(&[0.01, 0.04, 0.03, 0.005, f64::NAN]);
    let expected = [0.03, 0.06, 0.06, 0.02];
    for (a, e) in adjusted.iter().zip(expected) {
        assert!(close(*a, e, 1e-12), "{adjusted:?}");
    }
    assert!(adjusted[4].is_nan());
    assert_eq!(holm(&[0.6, 0.7]), vec![1.0, 1.0]);
}

#[test]
fn moments_by_hand() {
    let mut m = Moments::default();
    for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
        m.push(x);
    }
    let e = m.estimate();
    assert!(close(e.mean, 5.0, 1e-12));
    // variance dividing by n: 32/8 = 4
    assert!(close(e.se, (4.0f64 / 8.0).sqrt(), 1e-12));
}

#[test]
fn bradley_terry_two_players_matches_the_elo_formula() {
    let t = Trinomial {
        wins: 60,
        draws: 0,
        losses: 40,
    };
    let r = Trinomial {
        wins: 40,
        draws: 0,
        losses: 60,
    };
    let results = vec![vec![Trinomial::default(), t], vec![r, Trinomial::default()]];
    let fit = bradley_terry(&results);
    let diff = fit[0].0 - fit[1].0;
    // The prior pulls slightly towards 0: 70.3 Elo against the formula's 70.4.
    assert!(close(elo_from_score(0.6), 70.437, 1e-3));
    assert!(close(diff, 70.25, 0.01), "{diff}");
    assert!(close(fit[0].0, -fit[1].0, 1e-6));
    // Standard error of the difference: 1/sqrt(n p (1-p)) in natural units.
    let se_diff = 1.0 / (100.0f64 * 0.6 * 0.4).sqrt() * 400.0 / std::f64::consts::LN_10;
    assert!(
        close(fit[0].1, se_diff / 2.0, 0.5),
        "{} vs {}",
        fit[0].1,
        se_diff / 2.0
    );
}

#[test]
fn bradley_terry_covariance_gives_the_se_of_a_difference() {
    let t = Trinomial {
        wins: 60,
        draws: 0,
        losses: 40,
    };
    let results = vec![
        vec![Trinomial::default(), t],
        vec![t.mirrored(), Trinomial::default()],
    ];
    let (fit, cov) = bradley_terry_covariance(&results);
    assert_eq!(fit, bradley_terry(&results));
    assert!(close(cov[0][0].sqrt(), fit[0].1, 1e-9));
    // The two ratings of one fit move against each other: the difference's se is
    // twice each one's, not sqrt(2) times (what independence would say).
    let se_diff = (cov[0][0] + cov[1][1] - 2.0 * cov[0][1]).sqrt();
    let formula = 1.0 / (100.0f64 * 0.6 * 0.4).sqrt() * 400.0 / std::f64::consts::LN_10;
    assert!(close(se_diff, 2.0 * fit[0].1, 1e-6));
    assert!(close(se_diff, formula, 1.0), "{se_diff} vs {formula}");
}

#[test]
fn bradley_terry_keeps_a_perfect_score_finite() {
    let t = |w, l| Trinomial {
        wins: w,
        draws: 0,
        losses: l,
    };
    let z = Trinomial::default();
    // A wins every game; B and C split theirs.
    let results = vec![
        vec![z, t(20, 0), t(20, 0)],
        vec![t(0, 20), z, t(10, 10)],
        vec![t(0, 20), t(10, 10), z],
    ];
    let fit = bradley_terry(&results);
    assert!(fit.iter().all(|(r, se)| r.is_finite() && se.is_finite()));
    assert!(fit[0].0 > 300.0 && fit[1].0 < 0.0, "{fit:?}");
}

#[test]
fn bradley_terry_orders_a_field() {
    // A beats B 70%, B beats C 70%, A beats C 85%.
    let t = |w, l| Trinomial {
        wins: w,
        draws: 0,
        losses: l,
    };
    let z = Trinomial::default();
    let results = vec![
        vec![z, t(70, 30), t(85, 15)],
        vec![t(30, 70), z, t(70, 30)],
        vec![t(15, 85), t(30, 70), z],
    ];
    let fit = bradley_terry(&results);
    assert!(fit[0].0 > fit[1].0 && fit[1].0 > fit[2].0);
    assert!(close(fit[0].0 + fit[1].0 + fit[2].0, 0.0, 1e-6));
    assert!(fit.iter().all(|(_, se)| se.is_finite() && *se > 0.0));
}
