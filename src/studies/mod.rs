//! Studies built on the lab layer: tuning evaluation weights by play, and measuring
//! what each feature of an evaluation is worth.

pub mod ablate;
pub mod tune;
