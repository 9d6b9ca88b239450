//! Studies built on the lab layer: tuning evaluation weights by play, and measuring
//! what each feature of an evaluation is worth, and whether a change helped (`compare`).

pub mod ablate;
pub mod compare;
pub mod compare_anchor;
pub mod tune;
