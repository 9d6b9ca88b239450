//! The integration tests, one binary: each suite is a module here (see tests/README.md).
// One crate links the library and the dev-dependencies once, instead of once per suite:
// that is most of a cold test build's time. Suites now share a process and run on its
// threads together, so none may change the process's environment or current folder,
// and each keeps its files in its own temporary folder.

mod common;

mod analyze;
mod browser;
mod cli;
mod cluster;
mod compare;
mod compress;
mod costs;
mod disk_full;
mod docs;
mod engines;
mod export;
mod fuzz;
mod golden;
mod hardening;
mod import;
mod label;
mod openings;
mod patterns;
mod play;
mod reference;
mod report;
mod run;
mod shards;
mod strategies;
mod sweep;
mod tune;
mod walks;
mod web;
mod web_browser;
