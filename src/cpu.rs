//! The processor check at start-up: a release build for x86-64-v3 dies with SIGILL
//! and no message on an older CPU, so the binary looks first and says what to do.

/// The instruction-set extensions this binary was compiled to use that the
/// processor running it lacks (empty: all is well).
#[must_use]
pub fn missing_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! check {
            ($($feature:tt),*) => {$(
                if cfg!(target_feature = $feature) && !std::is_x86_feature_detected!($feature) {
                    missing.push($feature);
                }
            )*};
        }
        check!("popcnt", "lzcnt", "bmi1", "bmi2", "avx", "avx2", "fma");
    }
    missing
}

/// The one-line message for a processor that lacks `missing`.
#[must_use]
pub fn advice(missing: &[&str]) -> String {
    format!(
        "this reversi-lab was built for x86-64-v3 processors, and this one lacks {}: rebuild it for this machine with RUSTFLAGS='-C target-cpu=native' cargo build --release",
        missing.join(", ")
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_build_machine_has_what_the_build_uses() {
        assert_eq!(super::missing_features(), Vec::<&str>::new());
        assert!(super::advice(&["avx2"]).contains("lacks avx2: rebuild"));
    }
}
