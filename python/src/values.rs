//! The library's typed values (a match's summary, `run.toml`'s tables, the strategy
//! listing) as Python objects through their serde form: dicts (in the fields' order),
//! lists, ints, floats, str, bool and None, with no JSON text for Python to parse again.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use serde::ser::{self, Serialize};
use std::fmt;

/// `value` as the Python object of its serde form.
pub fn to_python<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    value.serialize(Python_(py)).map_err(|e| e.0)
}

/// A failed conversion (a Python error, or serde's own message).
#[derive(Debug)]
pub struct Failed(PyErr);

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Failed {}

impl ser::Error for Failed {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Failed(PyValueError::new_err(message.to_string()))
    }
}

impl From<PyErr> for Failed {
    fn from(error: PyErr) -> Self {
        Failed(error)
    }
}

type Out<'py> = Result<Bound<'py, PyAny>, Failed>;

/// The serializer: each value becomes a Python object.
#[allow(non_camel_case_types)]
#[derive(Clone, Copy)]
struct Python_<'py>(Python<'py>);

/// A list being filled (sequences, tuples).
struct Items<'py> {
    py: Python<'py>,
    items: Vec<Bound<'py, PyAny>>,
    /// The variant a tuple variant is keyed by (`{"Variant": [...]}`), as serde_json does.
    variant: Option<&'static str>,
}

/// A dict being filled (maps, structs).
struct Fields<'py> {
    py: Python<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
}

fn keyed<'py>(py: Python<'py>, variant: Option<&str>, value: Bound<'py, PyAny>) -> Out<'py> {
    match variant {
        None => Ok(value),
        Some(name) => {
            let dict = PyDict::new(py);
            dict.set_item(name, value)?;
            Ok(dict.into_any())
        }
    }
}

impl<'py> ser::Serializer for Python_<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;
    type SerializeSeq = Items<'py>;
    type SerializeTuple = Items<'py>;
    type SerializeTupleStruct = Items<'py>;
    type SerializeTupleVariant = Items<'py>;
    type SerializeMap = Fields<'py>;
    type SerializeStruct = Fields<'py>;
    type SerializeStructVariant = Fields<'py>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        Ok(v.into_bound_py_any(self.0)?)
    }
    fn serialize_i8(self, v: i8) -> Out<'py> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Out<'py> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Out<'py> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Out<'py> {
        Ok(v.into_bound_py_any(self.0)?)
    }
    fn serialize_u8(self, v: u8) -> Out<'py> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Out<'py> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Out<'py> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Out<'py> {
        Ok(v.into_bound_py_any(self.0)?)
    }
    fn serialize_f32(self, v: f32) -> Out<'py> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        // JSON had no NaN or infinity: what its text read back as (None) stays.
        if v.is_finite() {
            Ok(v.into_bound_py_any(self.0)?)
        } else {
            self.serialize_none()
        }
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        Ok(v.to_string().into_bound_py_any(self.0)?)
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        Ok(v.into_bound_py_any(self.0)?)
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        Ok(v.to_vec().into_bound_py_any(self.0)?)
    }
    fn serialize_none(self) -> Out<'py> {
        Ok(self.0.None().into_bound(self.0))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Out<'py> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Out<'py> {
        let inner = value.serialize(self)?;
        keyed(self.0, Some(variant), inner)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Items<'py>, Failed> {
        Ok(Items {
            py: self.0,
            items: Vec::with_capacity(len.unwrap_or(0)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Items<'py>, Failed> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items<'py>, Failed> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items<'py>, Failed> {
        let mut items = self.serialize_seq(Some(len))?;
        items.variant = Some(variant);
        Ok(items)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Fields<'py>, Failed> {
        Ok(Fields {
            py: self.0,
            dict: PyDict::new(self.0),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Fields<'py>, Failed> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<'py>, Failed> {
        let mut fields = self.serialize_map(Some(len))?;
        fields.variant = Some(variant);
        Ok(fields)
    }
}

impl<'py> Items<'py> {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Failed> {
        self.items.push(value.serialize(Python_(self.py))?);
        Ok(())
    }
    fn done(self) -> Out<'py> {
        let list = PyList::new(self.py, self.items)?.into_any();
        keyed(self.py, self.variant, list)
    }
}

macro_rules! items {
    ($($trait:ident::$method:ident),*) => {$(
        impl<'py> ser::$trait for Items<'py> {
            type Ok = Bound<'py, PyAny>;
            type Error = Failed;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Failed> {
                self.push(value)
            }
            fn end(self) -> Out<'py> {
                self.done()
            }
        }
    )*};
}

items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<'py> ser::SerializeMap for Fields<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Failed> {
        self.key = Some(key.serialize(Python_(self.py))?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Failed> {
        let key = self
            .key
            .take()
            .ok_or_else(|| <Failed as ser::Error>::custom("a value without its key"))?;
        self.dict
            .set_item(key, value.serialize(Python_(self.py))?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        keyed(self.py, self.variant, self.dict.into_any())
    }
}

impl<'py> Fields<'py> {
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<(), Failed> {
        self.dict
            .set_item(key, value.serialize(Python_(self.py))?)?;
        Ok(())
    }
}

impl<'py> ser::SerializeStruct for Fields<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        self.field(key, value)
    }
    fn end(self) -> Out<'py> {
        keyed(self.py, self.variant, self.dict.into_any())
    }
}

impl<'py> ser::SerializeStructVariant for Fields<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Failed;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Failed> {
        self.field(key, value)
    }
    fn end(self) -> Out<'py> {
        keyed(self.py, self.variant, self.dict.into_any())
    }
}
