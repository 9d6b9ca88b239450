//! The probe that reads a config type's shape from its `Deserialize`: a deserializer
//! that walks the declaration down a path of keys and stops once it has seen the
//! value asked for there.

use super::Shape;
use serde::de::value::{BorrowedStrDeserializer, U64Deserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;

/// How deep a type's tables are followed (nothing in a config nests deeper).
const DEEPEST: usize = 6;

/// The shape of `T` at `path`, as its `Deserialize` declares it.
pub(super) fn shape_at<T: DeserializeOwned>(path: &mut Vec<Step>) -> Shape {
    let found = RefCell::new(Shape::Any);
    let _ = T::deserialize(Probe {
        path,
        found: &found,
        given: None,
    });
    let shape = found.into_inner();
    if path.len() >= DEEPEST {
        return shape;
    }
    match shape {
        Shape::Table(keys, ..) => {
            let mut inner = BTreeMap::new();
            for &key in keys {
                path.push(Step::Key(key));
                inner.insert(key, shape_at::<T>(path));
                path.pop();
            }
            let required = required::<T>(path, &inner);
            Shape::Table(keys, inner, required)
        }
        Shape::Map(_) => {
            path.push(Step::Any);
            let inner = shape_at::<T>(path);
            path.pop();
            Shape::Map(Box::new(inner))
        }
        Shape::List(_) => {
            path.push(Step::Item);
            let inner = shape_at::<T>(path);
            path.pop();
            Shape::List(Box::new(inner))
        }
        other => other,
    }
}

/// The keys the table at `path` cannot do without, in the order its type declares
/// them: the table is offered the ones found so far, each with a made-up value of its
/// shape, and says which it misses next. It stops at a key whose value cannot be made
/// up (a nested table, a strategy): the keys after it are not known to be needed.
fn required<T: DeserializeOwned>(
    path: &[Step],
    inner: &BTreeMap<&'static str, Shape>,
) -> Vec<&'static str> {
    let mut required: Vec<&'static str> = Vec::new();
    loop {
        let given: Vec<(&'static str, &Shape)> =
            required.iter().map(|&key| (key, &inner[key])).collect();
        let found = RefCell::new(Shape::Any);
        match T::deserialize(Probe {
            path,
            found: &found,
            given: Some(&given),
        }) {
            Err(Stop::Needs(key)) if !required.contains(&key) && inner.contains_key(key) => {
                required.push(key);
            }
            _ => return required,
        }
    }
}

/// One step from a table to a value in it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    Key(&'static str),
    Any,
    Item,
}

/// A deserializer that walks a type's declaration down `path` and notes the shape
/// the type asks for there; it stops with an error once it has seen it.
struct Probe<'a> {
    path: &'a [Step],
    found: &'a RefCell<Shape>,
    /// Where the table at the path's end is to be offered these keys, to learn the
    /// next one it needs (see [`required`]).
    given: Option<&'a [(&'static str, &'a Shape)]>,
}

/// Why the probe stopped.
#[derive(Debug)]
enum Stop {
    /// It saw what it came for, or could go no further.
    Seen,
    /// A table lacked this key.
    Missing(&'static str),
    /// The table at the path's end, offered the given keys, lacked this one.
    Needs(&'static str),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stop")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<M: fmt::Display>(_: M) -> Self {
        Stop::Seen
    }

    fn missing_field(field: &'static str) -> Self {
        Stop::Missing(field)
    }
}

impl Probe<'_> {
    fn found<V>(self, shape: Shape) -> Result<V, Stop> {
        if self.path.is_empty() {
            *self.found.borrow_mut() = shape;
        }
        Err(Stop::Seen)
    }
}

macro_rules! leaf {
    ($($method:ident => $shape:expr),* $(,)?) => {
        $(fn $method<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            self.found($shape)
        })*
    };
}

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = Stop;

    leaf! {
        deserialize_any => Shape::Any,
        deserialize_bool => Shape::Bool,
        deserialize_i8 => Shape::Whole(i8::MIN.into(), i8::MAX.into()),
        deserialize_i16 => Shape::Whole(i16::MIN.into(), i16::MAX.into()),
        deserialize_i32 => Shape::Whole(i32::MIN.into(), i32::MAX.into()),
        deserialize_i64 => Shape::Whole(i64::MIN.into(), i64::MAX.into()),
        deserialize_u8 => Shape::Whole(0, u8::MAX.into()),
        deserialize_u16 => Shape::Whole(0, u16::MAX.into()),
        deserialize_u32 => Shape::Whole(0, u32::MAX.into()),
        deserialize_u64 => Shape::Whole(0, u64::MAX.into()),
        deserialize_f32 => Shape::Number,
        deserialize_f64 => Shape::Number,
        deserialize_char => Shape::Text,
        deserialize_str => Shape::Text,
        deserialize_string => Shape::Text,
        deserialize_identifier => Shape::Text,
        deserialize_bytes => Shape::Any,
        deserialize_byte_buf => Shape::Any,
        deserialize_unit => Shape::Any,
        deserialize_ignored_any => Shape::Any,
    }

    fn deserialize_i128<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.found(Shape::Any)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.found(Shape::Any)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: V,
    ) -> Result<V::Value, Stop> {
        self.found(Shape::Any)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.path.split_first() {
            Some((Step::Item, rest)) => visitor.visit_seq(One {
                probe: Some(Probe {
                    path: rest,
                    found: self.found,
                    given: self.given,
                }),
            }),
            _ => self.found(Shape::List(Box::new(Shape::Any))),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, Stop> {
        self.found(Shape::Any)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        _: V,
    ) -> Result<V::Value, Stop> {
        self.found(Shape::Any)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.path.split_first() {
            Some((Step::Any, rest)) => visitor.visit_map(Entry {
                key: Some("*"),
                value: Some(Probe {
                    path: rest,
                    found: self.found,
                    given: self.given,
                }),
            }),
            _ => self.found(Shape::Map(Box::new(Shape::Any))),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        // A value kept with its position reads as the value.
        if name == "$__serde_spanned_private_Spanned" {
            return visitor.visit_map(Spanned3 {
                at: 0,
                fields,
                probe: Some(self),
            });
        }
        match self.path.split_first() {
            Some((Step::Key(key), rest)) if fields.contains(key) => visitor.visit_map(Entry {
                key: Some(key),
                value: Some(Probe {
                    path: rest,
                    found: self.found,
                    given: self.given,
                }),
            }),
            None => match self.given {
                // `Missing` from here is this table's; from deeper it would be another's.
                Some(given) => match visitor.visit_map(Made::entries(given)) {
                    Err(Stop::Missing(key)) => Err(Stop::Needs(key)),
                    _ => Err(Stop::Seen),
                },
                None => self.found(Shape::Table(fields, BTreeMap::new(), Vec::new())),
            },
            _ => Err(Stop::Seen),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        self.found(Shape::Name(variants))
    }
}

/// A list of the one item a path goes through.
struct One<'a> {
    probe: Option<Probe<'a>>,
}

impl<'de> de::SeqAccess<'de> for One<'_> {
    type Error = Stop;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Stop> {
        match self.probe.take() {
            Some(probe) => seed.deserialize(probe).map(Some),
            None => Ok(None),
        }
    }
}

/// A table of the one key a path goes through.
struct Entry<'a> {
    key: Option<&'static str>,
    value: Option<Probe<'a>>,
}

impl<'de> de::MapAccess<'de> for Entry<'_> {
    type Error = Stop;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        match self.key.take() {
            Some(key) => seed
                .deserialize(BorrowedStrDeserializer::<Stop>::new(key))
                .map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Stop> {
        match self.value.take() {
            Some(probe) => seed.deserialize(probe),
            None => Err(Stop::Seen),
        }
    }
}

/// The three entries of a value kept with its position: start, end, the value.
struct Spanned3<D> {
    at: usize,
    fields: &'static [&'static str],
    probe: Option<D>,
}

impl<'de, D: de::Deserializer<'de, Error = Stop>> de::MapAccess<'de> for Spanned3<D> {
    type Error = Stop;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        match self.fields.get(self.at) {
            Some(field) => seed
                .deserialize(BorrowedStrDeserializer::<Stop>::new(field))
                .map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Stop> {
        self.at += 1;
        if self.at < self.fields.len() {
            return seed.deserialize(U64Deserializer::<Stop>::new(0));
        }
        match self.probe.take() {
            Some(probe) => seed.deserialize(probe),
            None => Err(Stop::Seen),
        }
    }
}

/// A made-up value of a shape (text empty, a number its least, anything as empty
/// text), or the entries of a table of made-up values: what [`required`] offers a
/// table for the keys it needs. A table or a list to make up, or a value its type
/// refuses, stops the probe.
struct Made<'a>(&'a Shape);

impl<'a> Made<'a> {
    fn entries(given: &'a [(&'static str, &'a Shape)]) -> MadeEntries<'a> {
        MadeEntries { given, at: 0 }
    }
}

impl<'de> de::Deserializer<'de> for Made<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match *self.0 {
            Shape::Text => visitor.visit_str(""),
            Shape::Bool => visitor.visit_bool(false),
            Shape::Number => visitor.visit_f64(0.0),
            Shape::Whole(least, most) => {
                let whole = 0.clamp(least, most);
                match (i64::try_from(whole), u64::try_from(whole)) {
                    (_, Ok(whole)) => visitor.visit_u64(whole),
                    (Ok(whole), _) => visitor.visit_i64(whole),
                    _ => Err(Stop::Seen),
                }
            }
            Shape::Name([first, ..]) => visitor.visit_borrowed_str(first),
            // A strategy, a parameter's value: text is one of the forms they take.
            Shape::Any => visitor.visit_str(""),
            _ => Err(Stop::Seen),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        // A value kept with its position: the made-up value at position 0.
        if name == "$__serde_spanned_private_Spanned" {
            return visitor.visit_map(Spanned3 {
                at: 0,
                fields,
                probe: Some(self),
            });
        }
        self.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        match *self.0 {
            Shape::Name([first, ..]) => de::Deserializer::deserialize_enum(
                BorrowedStrDeserializer::<Stop>::new(first),
                name,
                variants,
                visitor,
            ),
            _ => Err(Stop::Seen),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map identifier
        ignored_any
    }
}

/// A table's given keys, each with a made-up value.
struct MadeEntries<'a> {
    given: &'a [(&'static str, &'a Shape)],
    at: usize,
}

impl<'de> de::MapAccess<'de> for MadeEntries<'_> {
    type Error = Stop;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        match self.given.get(self.at) {
            Some(&(key, _)) => seed
                .deserialize(BorrowedStrDeserializer::<Stop>::new(key))
                .map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Stop> {
        let (_, shape) = self.given[self.at];
        self.at += 1;
        seed.deserialize(Made(shape))
    }
}
