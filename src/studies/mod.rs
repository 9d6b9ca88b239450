//! Studies built on the lab layer: tuning evaluation weights by play, measuring
//! what each feature of an evaluation is worth, sweeping a parameter for strength against
//! cost, move quality against perfect play, whether a change helped (`compare`), and
//! balanced opening lists.

pub mod ablate;
pub mod analyze;
pub mod compare;
pub mod label;
pub mod openings;
pub mod patterns;
pub mod probcut;
pub mod section;
pub mod sharded;
pub mod sprt_plan;
pub mod sweep;
pub mod tune;
