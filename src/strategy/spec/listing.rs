//! Every strategy kind with its parameters, defaults and help, as one JSON array
//! (`strategies --format json`, and the Python package's `strategies()`).

use super::{defaults, KINDS};

/// `[{"kind", "help", "params": [{"name", "default", "help"}]}]`, in the listing's order.
#[must_use]
pub fn kinds_json() -> serde_json::Value {
    let kinds = KINDS
        .iter()
        .map(|kind| {
            let params: Vec<serde_json::Value> = kind
                .params
                .iter()
                .zip(defaults(kind))
                .map(|(p, default)| {
                    serde_json::json!({ "name": p.name, "default": default, "help": p.help })
                })
                .collect();
            serde_json::json!({ "kind": kind.name, "help": kind.help, "params": params })
        })
        .collect();
    serde_json::Value::Array(kinds)
}
