//! Game formats: importing and exporting games, position files and the recorded
//! games of a results folder read back for replay.

pub mod export;
pub mod import;
pub mod positions;
pub mod recorded;
