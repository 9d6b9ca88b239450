//! Studies built on the lab layer: tuning evaluation weights by play, measuring
//! what each feature of an evaluation is worth, and balanced opening lists.

pub mod ablate;
pub mod openings;
pub mod tune;
