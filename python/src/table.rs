//! A Python dict (an experiment, a strategy spec) as a TOML value, converted directly
//! rather than through JSON: JSON has no NaN or infinity (serde_json refused `nan` "at
//! line 1 column 110" of text the user never saw), TOML has them and the library
//! names the key that holds one. What TOML cannot hold is refused here by its key.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyList, PyMapping, PyString, PyTuple};

/// `value` as TOML; `origin` (`the experiment dict`) and `key` (`players[0].strategy`)
/// say where a value that TOML cannot hold sits.
pub fn to_toml(value: &Bound<'_, PyAny>, origin: &str, key: &str) -> PyResult<toml::Value> {
    let at = |problem: String| format!("{origin}: {problem}");
    if value.is_none() {
        return Err(PyValueError::new_err(at(format!(
            "{key} is None, which TOML cannot hold: leave the key out or give it a value"
        ))));
    }
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(toml::Value::Boolean(flag.is_true()));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(toml::Value::String(text.to_cow()?.into_owned()));
    }
    if let Ok(number) = value.cast::<PyFloat>() {
        return Ok(toml::Value::Float(number.value()));
    }
    if value.get_type().hasattr("__index__")? {
        return value
            .extract::<i64>()
            .map(toml::Value::Integer)
            .map_err(|_| {
                PyValueError::new_err(at(format!(
                    "{key} = {value} is out of range: TOML integers run from {} to {}",
                    i64::MIN,
                    i64::MAX
                )))
            });
    }
    if let Ok(mapping) = value.cast::<PyMapping>() {
        let mut table = toml::Table::new();
        for item in mapping.items()?.iter() {
            let (name, entry): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            let Ok(name) = name.cast::<PyString>() else {
                return Err(PyTypeError::new_err(at(format!(
                    "the key {} in {} is not a string: name every key with a str",
                    name.repr()?,
                    if key.is_empty() { "the dict" } else { key }
                ))));
            };
            let name = name.to_cow()?.into_owned();
            let inner = if key.is_empty() {
                name.clone()
            } else {
                format!("{key}.{name}")
            };
            table.insert(name, to_toml(&entry, origin, &inner)?);
        }
        return Ok(toml::Value::Table(table));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        return value
            .try_iter()?
            .enumerate()
            .map(|(i, entry)| to_toml(&entry?, origin, &format!("{key}[{i}]")))
            .collect::<PyResult<Vec<_>>>()
            .map(toml::Value::Array);
    }
    // A path given for `openings.file`, say.
    if let Ok(path) = value.py().import("os")?.call_method1("fspath", (value,)) {
        if let Ok(text) = path.cast::<PyString>() {
            return Ok(toml::Value::String(text.to_cow()?.into_owned()));
        }
    }
    Err(PyTypeError::new_err(at(format!(
        "{key} = {} is a {}, which TOML cannot hold: give a number, str, bool, list or dict",
        value.repr()?,
        value.get_type().name()?
    ))))
}
