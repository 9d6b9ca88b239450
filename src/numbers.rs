//! Numbers as people read them in reports, terminal lines and chart ticks: signed
//! values without a `-0`, infinities as `+inf` / `-inf`, ticks without needless decimals.

/// `x` with a sign and `decimals` decimals: `+12`, `-3.5`, `+inf`. A value that
/// rounds to zero is written `0` (or `0.0`), never `-0` or `+0`: a sign on zero
/// would claim a direction the rounded number does not have.
#[must_use]
pub fn signed(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        return "-".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "+inf" } else { "-inf" }.into();
    }
    let text = format!("{x:+.decimals$}");
    if is_zero(&text) {
        text[1..].to_string()
    } else {
        text
    }
}

/// `x` as written in a message: plainly (`2.5`, `40`) in the range people write by
/// hand, in exponent form (`1e300`) beyond it, where plain digits would run to hundreds.
#[must_use]
pub fn plain(x: f64) -> String {
    let large = x.abs() >= 1e9;
    let tiny = x != 0.0 && x.abs() < 1e-6;
    if x.is_finite() && (large || tiny) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// `1 file`, `2 files`, `3 losses`, `0 entries`: a count with its noun, plural unless
/// the count is one (the regular English plurals: -es after s, x, ch and sh, -ies for a
/// consonant and y, else -s). Every message that counts something says it through this.
#[must_use]
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let consonant_y = noun.strip_suffix('y').filter(|stem| {
        stem.chars()
            .last()
            .is_some_and(|c| !"aeiou".contains(c.to_ascii_lowercase()))
    });
    let plural = if let Some(stem) = consonant_y {
        format!("{stem}ies")
    } else if ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end)) {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    };
    format!("{n} {plural}")
}

/// `x` with `decimals` decimals and a sign only when negative, never `-0.000`.
#[must_use]
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    if text.starts_with('-') && is_zero(&text) {
        text[1..].to_string()
    } else {
        text
    }
}

/// An Elo value with its interval: `+120 [+98, +143]`, `0 [-166, +166]`, `+inf [+166, +inf]`.
#[must_use]
pub fn elo_interval(elo: f64, low: f64, high: f64) -> String {
    format!(
        "{} [{}, {}]",
        signed(elo, 0),
        signed(low, 0),
        signed(high, 0)
    )
}

/// A chart's tick label: at most two decimals, trailing zeros dropped (`100`, `0.5`,
/// `-0.25`), and never `-0`. Plotters' default writes `100.0` for a whole number and
/// `-0.0` for a tick a rounding error below zero.
#[must_use]
pub fn tick(x: f64) -> String {
    let mut text = format!("{x:.2}");
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if text.starts_with('-') && is_zero(&text) {
        text.remove(0);
    }
    text
}

/// Whether a formatted number (with an optional sign) is zero.
fn is_zero(text: &str) -> bool {
    text.trim_start_matches(['+', '-'])
        .chars()
        .all(|c| c == '0' || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_plural_unless_one() {
        assert_eq!(counted(1, "file"), "1 file");
        assert_eq!(counted(0, "file"), "0 files");
        assert_eq!(counted(1, "whole game"), "1 whole game");
        assert_eq!(counted(3, "whole game"), "3 whole games");
        assert_eq!(counted(2, "loss"), "2 losses");
        assert_eq!(counted(2, "entry"), "2 entries");
        assert_eq!(counted(2, "day"), "2 days");
        assert_eq!(counted(1, "thread"), "1 thread");
    }

    #[test]
    fn plain_numbers_stay_short() {
        assert_eq!(plain(1.5), "1.5");
        assert_eq!(plain(40.0), "40");
        assert_eq!(plain(1e300), "1e300");
        assert_eq!(plain(-2.5e-9), "-2.5e-9");
    }

    #[test]
    fn zero_has_no_sign() {
        assert_eq!(signed(-0.0, 0), "0");
        assert_eq!(signed(-0.3, 0), "0");
        assert_eq!(signed(0.2, 0), "0");
        assert_eq!(signed(-0.04, 1), "0.0");
        assert_eq!(signed(-0.6, 0), "-1");
        assert_eq!(signed(12.4, 0), "+12");
        assert_eq!(signed(f64::INFINITY, 0), "+inf");
        assert_eq!(signed(f64::NEG_INFINITY, 1), "-inf");
        assert_eq!(elo_interval(-0.0, -163.0, 163.0), "0 [-163, +163]");
        assert_eq!(fixed(-0.0001, 3), "0.000");
        assert_eq!(fixed(-1.5, 1), "-1.5");
    }

    #[test]
    fn ticks_drop_needless_decimals() {
        assert_eq!(tick(-400.0), "-400");
        assert_eq!(tick(10.0), "10");
        assert_eq!(tick(-1e-17), "0");
        assert_eq!(tick(-0.0), "0");
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(-0.25), "-0.25");
        assert_eq!(tick(2.0 / 3.0), "0.67");
    }
}
