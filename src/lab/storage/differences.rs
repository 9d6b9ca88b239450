//! How a folder's recorded settings differ from a new run's, named key by key (a
//! player's own strategy keys included), for the refusal of a resume that would mix them.

use crate::setting::{Said, Setting};

/// How two `players` lists differ, naming the player and the key (a strategy's own
/// keys included: `player 'rhino': strategy.command = [..] in run.toml but [..] now`).
fn player_differences(recorded: Option<&toml::Value>, now: Option<&toml::Value>) -> String {
    let list = |v: Option<&toml::Value>| {
        v.and_then(toml::Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let (was, is) = (list(recorded), list(now));
    let name = |p: &toml::Value| p.get("name").map_or("?".to_string(), ToString::to_string);
    if was.len() != is.len() {
        return format!(
            "players differ: {} in run.toml but {} now",
            was.len(),
            is.len()
        );
    }
    let show = |v: Option<&toml::Value>| v.map_or("(none)".to_string(), ToString::to_string);
    let mut found = Vec::new();
    for (a, b) in was.iter().zip(&is) {
        if a.get("name") != b.get("name") {
            found.push(format!("player {} in run.toml is {} now", name(a), name(b)));
            continue;
        }
        let keys = |p: &toml::Value| {
            p.as_table()
                .map(|t| t.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
        };
        let mut all = keys(a);
        all.extend(keys(b));
        all.sort();
        all.dedup();
        for key in all {
            let (x, y) = (a.get(&key), b.get(&key));
            if x == y {
                continue;
            }
            match (
                x.and_then(toml::Value::as_table),
                y.and_then(toml::Value::as_table),
            ) {
                (Some(x), Some(y)) => {
                    let mut inner: Vec<&String> = x.keys().chain(y.keys()).collect();
                    inner.sort();
                    inner.dedup();
                    for sub in inner.into_iter().filter(|s| x.get(*s) != y.get(*s)) {
                        found.push(format!(
                            "player {}: {key}.{sub} = {} in run.toml but {} now",
                            name(a),
                            show(x.get(sub)),
                            show(y.get(sub))
                        ));
                    }
                }
                _ => found.push(format!(
                    "player {}: {key} = {} in run.toml but {} now",
                    name(a),
                    show(x),
                    show(y)
                )),
            }
        }
    }
    if found.is_empty() {
        "players differ".to_string()
    } else {
        found.join("; ")
    }
}

/// The top-level keys whose values differ between two experiment tables, with
/// both values: for messages that say which setting changed, `; ` between them.
/// The settings in `again` (those a run can be given again) say how to continue.
#[must_use]
pub fn differences(recorded: &toml::Table, now: &toml::Table, again: &[&'static Setting]) -> Said {
    let mut keys: Vec<&String> = recorded.keys().chain(now.keys()).collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&toml::Value>| v.map_or("(none)".to_string(), ToString::to_string);
    let found = keys
        .into_iter()
        .filter(|k| recorded.get(*k) != now.get(*k))
        .map(|k| {
            let overshoot = |t: Option<&toml::Value>| t.and_then(|s| s.get("overshoot")).cloned();
            let without = |t: Option<&toml::Value>| {
                t.and_then(toml::Value::as_table).map(|s| {
                    let mut s = s.clone();
                    s.remove("overshoot");
                    s
                })
            };
            if k == "sprt"
                && without(recorded.get(k)) == without(now.get(k))
                && overshoot(recorded.get(k)).is_some()
            {
                // A run from before the correction existed, or with it set otherwise.
                let was = overshoot(recorded.get(k)).map_or("-".into(), |v| v.to_string());
                Said::text(format!("sprt overshoot = {was} in run.toml but not now (set overshoot = {was} under [sprt] to continue it)"))
            } else if k == "players" {
                Said::text(player_differences(recorded.get(k), now.get(k)))
            } else if let (Some(toml::Value::Table(was)), Some(toml::Value::Table(is))) =
                (recorded.get(k), now.get(k))
            {
                // A table's keys one by one (`rules.anti = false in run.toml but true now`).
                let mut inner: Vec<&String> = was.keys().chain(is.keys()).collect();
                inner.sort();
                inner.dedup();
                let each: Vec<String> = inner
                    .into_iter()
                    .filter(|sub| was.get(*sub) != is.get(*sub))
                    .map(|sub| {
                        format!(
                            "{k}.{sub} = {} in run.toml but {} now",
                            show(was.get(sub)),
                            show(is.get(sub))
                        )
                    })
                    .collect();
                Said::text(each.join("; "))
            } else {
                let said = Said::text(format!(
                    "{k} = {} in run.toml but {} now",
                    show(recorded.get(k)),
                    show(now.get(k))
                ));
                // The two a run can be given again: say how.
                let again = again.iter().find(|s| s.key == k.as_str());
                match (again, recorded.get(k)) {
                    (Some(setting), Some(v)) => said
                        .then(" (pass ")
                        .given(setting, v)
                        .then(" to continue it)"),
                    _ => said,
                }
            }
        });
    let mut said = Said::default();
    for (i, difference) in found.enumerate() {
        if i > 0 {
            said = said.then("; ");
        }
        said = said.and(difference);
    }
    said
}
