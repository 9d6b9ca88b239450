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

/// A study's list entry for a player (a sweep's or a tune's panel, a tune's
/// opponents): a one-line spec names itself; a table gives `name` and `strategy`.
/// The name and the strategy's value, which the caller reads against its own folder;
/// `what` names the entry in a refusal ("panel entry").
pub(crate) fn named_strategy<'v>(
    entry: &'v toml::Value,
    what: &str,
) -> std::result::Result<(String, &'v toml::Value), String> {
    use toml::Value;
    const KEYS: [&str; 2] = ["name", "strategy"];
    match entry {
        Value::String(text) => Ok((text.clone(), entry)),
        Value::Table(table) => {
            if let Some(key) = table.keys().find(|k| !KEYS.contains(&k.as_str())) {
                let misfit = crate::lab::running::shape::Misfit::UnknownKey {
                    key: key.clone(),
                    within: format!("a {what}"),
                    known: KEYS.to_vec(),
                };
                return Err(misfit.to_string());
            }
            match (table.get("name"), table.get("strategy")) {
                (Some(Value::String(name)), Some(strategy)) => Ok((name.clone(), strategy)),
                (name @ (Some(Value::String(_)) | None), _) => {
                    let lacking = if name.is_none() { "name" } else { "strategy" };
                    Err(format!(
                        "a {what} has no `{lacking}`: write it as {{ name = \"...\", strategy = ... }} with both, or as a one-line spec (\"greedy\")"
                    ))
                }
                (Some(name), _) => Err(format!(
                    "a {what}'s name = {name} is not accepted: use text in quotes"
                )),
            }
        }
        other => Err(format!(
            "each {what} is a one-line spec (\"greedy\") or a table {{ name = \"...\", strategy = ... }}, not a {}",
            other.type_str()
        )),
    }
}
