//! Studies built on the lab layer: tuning evaluation weights by play, measuring
//! what each feature of an evaluation is worth, and sweeping a parameter for strength against cost.

pub mod ablate;
pub mod sweep;
pub mod tune;
