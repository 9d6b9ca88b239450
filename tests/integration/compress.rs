//! `compress = "zstd"`: games.csv.zst holds exactly the plain games.csv's bytes, and
//! resume after a kill, partial and full reports, and merge all read it.

use crate::common::{ok, Dir};
use std::fs;
use std::path::Path;

fn unzstd(path: &Path) -> Vec<u8> {
    zstd::decode_all(fs::File::open(path).unwrap()).unwrap()
}

const PLAIN: &str = "name = \"z\"\nseed = 9\ngames_per_pair = 400\n[openings]\nrandom_plies = 4\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n[[players]]\nname = \"mobility\"\nstrategy = \"mobility\"\n";

fn compressed() -> String {
    PLAIN.replace("seed = 9\n", "seed = 9\ncompress = \"zstd\"\n")
}

#[test]
fn compressed_games_equal_the_plain_ones_and_everything_reads_them() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("plain.toml"), PLAIN).unwrap();
    fs::write(d.join("z.toml"), compressed()).unwrap();
    ok(d, &["run", "plain.toml", "--out", "plain", "--quiet"]);
    ok(d, &["run", "z.toml", "--out", "z", "--quiet"]);
    let plain = fs::read(d.join("plain/games.csv")).unwrap();
    assert!(!d.join("z/games.csv").exists());
    let packed = d.join("z/games.csv.zst");
    assert_eq!(unzstd(&packed), plain);
    assert!(fs::metadata(&packed).unwrap().len() * 2 < plain.len() as u64);
    for file in ["pairs.csv", "standings.csv"] {
        assert_eq!(
            fs::read(d.join("plain").join(file)).unwrap(),
            fs::read(d.join("z").join(file)).unwrap()
        );
    }
    let html = fs::read_to_string(d.join("z/report.html")).unwrap();
    assert!(
        html.contains(r#"<section id="notable">"#) && html.contains(r#"class="rv""#),
        "the notable games come from games.csv.zst too"
    );

    // A kill mid-run: the compressed file cut inside a block, the run marked running.
    let bytes = fs::read(&packed).unwrap();
    fs::write(&packed, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let run = fs::read_to_string(d.join("z/run.toml")).unwrap();
    fs::write(
        d.join("z/run.toml"),
        run.replace("status = \"complete\"", "status = \"running\""),
    )
    .unwrap();
    fs::remove_file(d.join("z/pairs.csv")).unwrap();
    let partial = ok(d, &["report", "z"]);
    assert!(partial.contains("report.html"), "{partial}");
    let html = fs::read_to_string(d.join("z/report.html")).unwrap();
    assert!(html.contains("PARTIAL RESULTS"));
    ok(
        d,
        &[
            "run",
            "z.toml",
            "--out",
            "z",
            "--resume",
            "--quiet",
            "--no-report",
        ],
    );
    assert_eq!(
        unzstd(&packed),
        plain,
        "resume continues the compressed file exactly"
    );
    assert_eq!(
        fs::read(d.join("plain/pairs.csv")).unwrap(),
        fs::read(d.join("z/pairs.csv")).unwrap()
    );

    // Compressed shards merge into a compressed games file with the same games.
    for i in 1..=3 {
        ok(
            d,
            &["run", "z.toml", "--shard", &format!("{i}/3"), "--quiet"],
        );
    }
    ok(d, &["merge", "results/z", "--quiet"]);
    assert_eq!(unzstd(&d.join("results/z/games.csv.zst")), plain);
    assert_eq!(
        fs::read(d.join("plain/standings.csv")).unwrap(),
        fs::read(d.join("results/z/standings.csv")).unwrap()
    );
}
