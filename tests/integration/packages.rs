//! The workspace's packages: the library, and the Python package built on it, link no
//! command-line parser; clap belongs to the binary's package, `cli/`.

use crate::common::root;
use std::collections::{BTreeMap, BTreeSet};

/// The packages `manifest` (relative to the root) depends on for its build, not its
/// tests: its `[dependencies]` and every `[target.*.dependencies]`.
fn normal_dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap();
    let table: toml::Table = text.parse().unwrap();
    let mut sections = vec![table.get("dependencies")];
    if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
        sections.extend(targets.values().map(|target| target.get("dependencies")));
    }
    sections
        .into_iter()
        .flatten()
        .filter_map(|section| section.as_table())
        .flat_map(|section| section.keys().cloned())
        .collect()
}

/// Every package a build of `manifest` links, through `Cargo.lock`, by name. A
/// workspace member met on the way is followed through its own manifest: its entry in
/// the lock file also lists its dev-dependencies.
fn linked(manifest: &str) -> BTreeSet<String> {
    let members = BTreeMap::from([
        ("reversi-lab", "Cargo.toml"),
        ("reversi-lab-cli", "cli/Cargo.toml"),
        ("reversi-lab-python", "python/Cargo.toml"),
    ]);
    let lock: toml::Table = std::fs::read_to_string(root().join("Cargo.lock"))
        .unwrap()
        .parse()
        .unwrap();
    // Name to the names it depends on, over all its versions ("rand 0.8.8" is "rand").
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for package in lock["package"].as_array().unwrap() {
        let name = package["name"].as_str().unwrap().to_string();
        let dependencies = package.get("dependencies").and_then(|d| d.as_array());
        let names = dependencies.into_iter().flatten().map(|d| {
            let d = d.as_str().unwrap();
            d.split(' ').next().unwrap().to_string()
        });
        graph.entry(name).or_default().extend(names);
    }
    let mut seen = BTreeSet::new();
    let mut todo = normal_dependencies(manifest);
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        match members.get(name.as_str()) {
            Some(member) => todo.extend(normal_dependencies(member)),
            None => todo.extend(graph.get(&name).into_iter().flatten().cloned()),
        }
    }
    seen
}

#[test]
fn the_library_and_the_python_package_link_no_clap() {
    // The check sees what it must: the binary's package does link clap.
    assert!(linked("cli/Cargo.toml").contains("clap"));
    assert!(linked("python/Cargo.toml").contains("reversi-lab"));
    for manifest in ["Cargo.toml", "python/Cargo.toml"] {
        let clap: Vec<String> = linked(manifest)
            .into_iter()
            .filter(|name| name.starts_with("clap"))
            .collect();
        assert!(
            clap.is_empty(),
            "{manifest} links {clap:?}: the command-line grammar belongs to cli/ (docs/architecture.md)"
        );
    }
}
