//! Whole-number flags that take a negative number as their value, so that `--games -1`
//! is refused naming the flag and the least value it takes: without this, clap reads
//! `-1` after a flag as an unknown option and the message loses the flag.

/// A clap value parser for a whole number of at least `min` (the least the command
/// accepts; smaller whole numbers are passed on for the command's own message).
/// Anything that is not a whole number, a negative one included, is refused with
/// "give a whole number of MIN or more" (`usage_error` puts the flag and value first).
pub fn at_least<T>(min: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |text: &str| {
        let advice = || format!("give a whole number of {min} or more");
        let trimmed = text.trim();
        if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
            return Err(advice());
        }
        trimmed
            .parse::<u64>()
            .ok()
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| "the number is too large".to_string())
    }
}

/// A clap value parser for a board size, taking a negative number as its value.
pub fn board_size(text: &str) -> Result<u32, String> {
    let sizes = reversi_lab::board::SIZES.map(|s| s.to_string()).join(", ");
    text.trim()
        .parse::<u32>()
        .map_err(|_| format!("use one of {sizes}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_and_bad_numbers_get_the_least_value() {
        let games = at_least::<u64>(1);
        assert_eq!(games("12"), Ok(12));
        assert_eq!(games("0"), Ok(0));
        assert_eq!(games("-1").unwrap_err(), "give a whole number of 1 or more");
        assert_eq!(
            games("1.5").unwrap_err(),
            "give a whole number of 1 or more"
        );
        assert_eq!(games("").unwrap_err(), "give a whole number of 1 or more");
        assert_eq!(
            at_least::<u32>(0)("99999999999").unwrap_err(),
            "the number is too large"
        );
        assert_eq!(board_size("-8").unwrap_err(), "use one of 4, 6, 8, 10");
        assert_eq!(board_size("6"), Ok(6));
    }
}
