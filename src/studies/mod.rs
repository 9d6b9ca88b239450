//! Studies built on the lab layer: tuning evaluation weights by play, measuring
//! what each feature of an evaluation is worth, sweeping a parameter for strength against
//! cost, and move quality against perfect play.

pub mod ablate;
pub mod analyze;
pub mod sweep;
pub mod tune;
