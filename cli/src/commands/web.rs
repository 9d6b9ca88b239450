//! `reversi-lab web`: the options of the local web view, and what play takes from
//! the `play` command (its levels, value scales and result line), handed to `web`.

use crate::commands::interactive::{eval_fallback, result_text, Level, Scale};
use crate::commands::Outcome;
use reversi_lab::error::Result;
use reversi_lab::web::{PlayBook, Web, WebOptions};
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;

/// Options of `reversi-lab web`.
#[derive(Clone, Debug, clap::Args)]
pub struct WebArgs {
    /// The results root: every results folder under it is listed.
    #[arg(default_value = "results")]
    pub root: PathBuf,
    /// The port (0: any free one, printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Off loopback every request needs the token.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// The token requests must carry (?token= once, then a cookie); drawn and printed
    /// when --host is not loopback and none is given.
    #[arg(long)]
    pub token: Option<String>,
    /// Open the address in the default browser.
    #[arg(long)]
    pub open: bool,
    /// At most this many connections open at once (a live page holds one); past it
    /// a new one gets 503.
    #[arg(long, default_value_t = reversi_lab::web::CONNECTIONS as u64, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub connections: u64,
}

fn level_spec(name: &str, size: u32, rules: reversi_lab::game::Rules) -> Option<&'static str> {
    <Level as clap::ValueEnum>::from_str(name, true)
        .ok()
        .map(|l| l.spec_for(size, rules))
}

/// What `web`'s play takes from `play`.
pub const BOOK: PlayBook = PlayBook {
    levels: &["easy", "medium", "hard", "expert"],
    level_spec,
    eval_fallback,
    value_text: |spec, value, empties| Scale::of(spec).text(value, empties),
    value_legend: |spec| Scale::of(spec).legend(),
    result_text,
};

/// `reversi-lab web`: serves until stopped (Ctrl-C).
pub fn web(args: &WebArgs, out: &mut dyn Write) -> Result<Outcome> {
    let server = Web::bind(WebOptions {
        root: args.root.clone(),
        host: args.host,
        port: args.port,
        token: args.token.clone(),
        play: BOOK,
        connections: usize::try_from(args.connections).unwrap_or(usize::MAX),
    })?;
    // Ctrl-C and SIGTERM end the process without dropping the server: its scratch
    // folder goes first, and the exit is 130 as a stopped run's.
    let scratch = server.scratch().to_path_buf();
    let _ = ctrlc::set_handler(move || {
        let _ = std::fs::remove_dir_all(&scratch);
        std::process::exit(130);
    });
    let url = server.url();
    writeln!(out, "serving {} at {url}", args.root.display()).ok();
    if server.on_every_interface() {
        // The kernel's name for this machine, where it says one.
        let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "this machine's name".into());
        writeln!(
            out,
            "listening on every interface ({}): from another machine, open the address above with {name} (or its IP address) instead of {}",
            args.host,
            if args.host.is_ipv6() { "[::1]" } else { "127.0.0.1" }
        )
        .ok();
    }
    if server.token().is_some() {
        writeln!(out, "every request needs the token: open the address above (it sets a cookie), or send Authorization: Bearer TOKEN").ok();
    }
    writeln!(
        out,
        "read-only: nothing is written into the results; Ctrl-C stops"
    )
    .ok();
    out.flush().ok();
    if args.open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        if std::process::Command::new(opener)
            .arg(&url)
            .spawn()
            .is_err()
        {
            writeln!(out, "could not start {opener}: open {url} yourself").ok();
        }
    }
    server.run()?;
    Ok(Outcome::Finished)
}
