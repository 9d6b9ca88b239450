//! Storing results: the rows and files of a results folder, the folder and its lock
//! (the one write path), shards and their merge, and provenance.

pub mod csv_table;
mod differences;
pub mod file_names;
mod flat_csv;
pub mod folder;
pub mod games_file;
mod growing;
pub mod merge;
pub mod provenance;
pub mod results_folder;
pub mod rows;
pub mod shard;
