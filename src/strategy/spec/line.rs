//! The one-line spec syntax (`alphabeta:depth=4,eval=(weighted:preset=paip)`),
//! read into the same TOML table a config file would give, so one parser checks both.

use crate::strategy::error::InlineProblem;
use crate::strategy::{SpecError, StrategySpec};
use toml::{Table, Value};

/// Splits `text` at top-level occurrences of `sep` (outside (), [], {} and quotes).
fn split_top(text: &str, sep: char) -> Result<Vec<&str>, SpecError> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quote = !quote,
            '(' | '[' | '{' if !quote => depth += 1,
            ')' | ']' | '}' if !quote => depth -= 1,
            c if c == sep && depth == 0 && !quote => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return Err(SpecError::ExtraClosingBracket { spec: text.into() });
        }
    }
    if depth != 0 || quote {
        return Err(SpecError::Unclosed { spec: text.into() });
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// The table a one-line spec stands for: `kind` or `kind:key=value,...`, or a TOML
/// inline table when it starts with `{`. Values are TOML values where they parse
/// as one, else bare words, so `preset=paip` needs no quotes.
pub(super) fn parse_line(text: &str) -> Result<Table, SpecError> {
    if text.is_empty() {
        return Err(SpecError::EmptySpec);
    }
    if text.starts_with('{') {
        const WRAP: &str = "s = ";
        return match toml::from_str::<Table>(&format!("{WRAP}{text}")) {
            Ok(mut wrapped) => match wrapped.remove("s") {
                Some(Value::Table(t)) => Ok(t),
                _ => Err(SpecError::NotInlineTable {
                    spec: text.into(),
                    problem: InlineProblem::TextAfter(text.into()),
                }),
            },
            Err(e) => {
                // Where TOML stopped, from its typed span (no reading of its words).
                let stop = e
                    .span()
                    .map_or(0, |span| span.start.saturating_sub(WRAP.len()));
                Err(SpecError::NotInlineTable {
                    spec: text.into(),
                    problem: inline_problem(text, stop),
                })
            }
        };
    }
    let (kind, params) = match text.split_once(':') {
        Some((kind, params)) => (kind.trim(), params),
        None => (text, ""),
    };
    let mut table = Table::new();
    table.insert("kind".to_string(), Value::String(kind.to_string()));
    if params.trim().is_empty() {
        return Ok(table);
    }
    for part in split_top(params, ',')? {
        let (key, value) = part.split_once('=').ok_or_else(|| {
            // `engine:gtp:cat`: a kind's own line form is a whole spec, not a parameter.
            match StrategySpec::read_line(part.trim()) {
                Some(_) => SpecError::LineFormInside {
                    spec: text.into(),
                    part: part.trim().into(),
                },
                None => SpecError::NotKeyValue {
                    spec: text.into(),
                    part: part.trim().into(),
                },
            }
        })?;
        let key = key.trim();
        let value = value.trim();
        let parsed = if let Some(inner) = value.strip_prefix('(').and_then(|v| v.strip_suffix(')'))
        {
            // A kind's own line form (`(gtp:cat)`) is no `key=value` list: kept as the
            // spec string it is, which the nested parameter reads as `base="gtp:cat"`.
            match StrategySpec::read_line(inner.trim()) {
                Some(_) => Value::String(inner.trim().to_string()),
                None => Value::Table(parse_line(inner.trim())?),
            }
        } else {
            match toml::from_str::<Table>(&format!("v = {value}")) {
                Ok(mut t) => t.remove("v").unwrap_or(Value::String(value.to_string())),
                Err(_) => Value::String(value.to_string()),
            }
        };
        if table.insert(key.to_string(), parsed).is_some() {
            return Err(SpecError::RepeatedKey {
                spec: text.into(),
                key: key.into(),
            });
        }
    }
    Ok(table)
}

/// What is wrong with `text`, an inline table TOML refused, as far as can be told
/// by reading it as the one-line form is read; else from `stop`, where TOML stopped.
fn inline_problem(text: &str, stop: usize) -> InlineProblem {
    if split_top(text, ',').is_err() {
        return InlineProblem::Unclosed;
    }
    // The table's own closing brace: the first that brings the depth back to zero.
    let mut depth = 0;
    let mut quote = false;
    let mut end = None;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quote = !quote,
            '(' | '[' | '{' if !quote => depth += 1,
            ')' | ']' | '}' if !quote => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(end) = end else {
        return InlineProblem::Unclosed;
    };
    let after = text[end + 1..].trim();
    if !after.is_empty() {
        return InlineProblem::TextAfter(after.into());
    }
    let inner = &text[1..end];
    if !inner.trim().is_empty() {
        let mut keys = Vec::new();
        for part in split_top(inner, ',').unwrap_or_default() {
            let Some((key, value)) = part.split_once('=') else {
                return InlineProblem::NotKeyValue(part.trim().into());
            };
            let (key, value) = (key.trim(), value.trim());
            if keys.contains(&key) {
                return InlineProblem::RepeatedKey(key.into());
            }
            keys.push(key);
            if toml::from_str::<Table>(&format!("v = {value}")).is_err() {
                return InlineProblem::BadValue {
                    key: key.into(),
                    value: value.into(),
                };
            }
        }
    }
    let from = text.get(stop.min(text.len())..).unwrap_or(text).trim();
    InlineProblem::From(if from.is_empty() { text } else { from }.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_inline_table_is_told_what_is_wrong_in_the_projects_words() {
        let problem = |text: &str| match parse_line(text) {
            Err(SpecError::NotInlineTable { problem, .. }) => problem,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(problem("{kind = \"greedy\""), InlineProblem::Unclosed);
        assert_eq!(
            problem("{kind = \"greedy\"} x"),
            InlineProblem::TextAfter("x".into())
        );
        assert_eq!(
            problem("{kind = \"alphabeta\", depth}"),
            InlineProblem::NotKeyValue("depth".into())
        );
        assert_eq!(
            problem("{kind = greedy}"),
            InlineProblem::BadValue {
                key: "kind".into(),
                value: "greedy".into()
            }
        );
        assert_eq!(
            problem("{kind = \"greedy\", kind = \"random\"}"),
            InlineProblem::RepeatedKey("kind".into())
        );
        assert!(matches!(
            problem("{kind = \"greedy\", a b = 1}"),
            InlineProblem::From(_)
        ));
        let said = parse_line("{kind = greedy}").unwrap_err().to_string();
        assert_eq!(
            said,
            "strategy spec '{kind = greedy}' is not a TOML inline table: the value of kind ('greedy') is no TOML value (a word goes in quotes: \"greedy\"); write it as {kind = \"alphabeta\", depth = 4}, or as alphabeta:depth=4"
        );
    }

    #[test]
    fn splits_only_at_the_top_level() {
        assert_eq!(
            split_top("a=1,b=(c:d=2,e=3),f=[1,2],g=\"x,y\"", ',').unwrap(),
            ["a=1", "b=(c:d=2,e=3)", "f=[1,2]", "g=\"x,y\""]
        );
        assert!(matches!(
            split_top("a)", ','),
            Err(SpecError::ExtraClosingBracket { .. })
        ));
        assert!(matches!(
            split_top("a=(b", ','),
            Err(SpecError::Unclosed { .. })
        ));
    }

    #[test]
    fn reads_words_values_and_nested_specs() {
        let table =
            parse_line("alphabeta:depth=4,eval=(weighted:preset=paip),table=false").unwrap();
        assert_eq!(table["kind"].as_str(), Some("alphabeta"));
        assert_eq!(table["depth"].as_integer(), Some(4));
        assert_eq!(table["table"].as_bool(), Some(false));
        assert_eq!(table["eval"]["preset"].as_str(), Some("paip"));
        assert_eq!(
            parse_line("eval:depth=4,depth=5").unwrap_err().to_string(),
            "strategy spec 'eval:depth=4,depth=5': 'depth' is given twice"
        );
        let err = parse_line("{ kind = ").unwrap_err().to_string();
        assert!(err.starts_with("strategy spec '{ kind = ' is not a TOML inline table: "));
        assert!(!err.contains('\n'), "{err}");
    }
}
