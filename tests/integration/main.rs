//! The integration tests, one binary: each suite is a module here (see tests/README.md).
// One crate links the library and the dev-dependencies once, instead of once per suite:
// that is most of a cold test build's time. Suites now share a process and run on its
// threads together, so none may change the process's environment or current folder,
// and each keeps its files in its own temporary folder.

mod common;

// The one change of folder, made before `main` and so before any test runs: cargo runs
// a test binary in the folder of the package that declares it, `cli/` (the binary's
// package, for `CARGO_BIN_EXE_reversi-lab`), while the suites name the repository's
// files (`experiments/`, `tests/data/`) from its root, as a user's command line does.
// A static constructor, as the platforms' C runtimes run them: libtest has no hook
// before the first test.
#[cfg(any(target_os = "linux", target_os = "macos", windows))]
#[used]
#[cfg_attr(target_os = "linux", link_section = ".init_array")]
#[cfg_attr(target_os = "macos", link_section = "__DATA,__mod_init_func")]
#[cfg_attr(windows, link_section = ".CRT$XCU")]
static TO_ROOT: extern "C" fn() = {
    extern "C" fn to_root() {
        // A failure shows as the suites' missing files, not as a panic before main.
        let _ = std::env::set_current_dir(common::root());
    }
    to_root
};

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
mod mcts;
mod openings;
mod packages;
mod patterns;
mod play;
mod python_worker;
mod reference;
mod replay;
mod report;
mod run;
mod shards;
mod strategies;
mod sweep;
mod tune;
mod walks;
mod web;
mod web_browser;
mod web_live;
