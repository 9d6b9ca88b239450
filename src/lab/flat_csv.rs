//! A serde serializer for one flat CSV row of integers, booleans and text: what a
//! `games.csv` row is. It writes the bytes the csv crate writes, without the csv
//! crate's per-field state machine, because a run formats a row for every game.

use serde::ser::{self, Impossible, Serialize};
use std::fmt;

/// A value this serializer does not write (floats, nested structures): the caller
/// falls back to the csv crate.
#[derive(Debug)]
pub struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a flat row of integers and text")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

/// Appends `row` (a struct of scalar fields) and a newline to `out`, quoting text as
/// the csv crate does by default: only when it holds a comma, a quote or a line break.
/// On `Err`, `out` may hold part of the row.
pub fn write_row<T: Serialize + ?Sized>(row: &T, out: &mut Vec<u8>) -> Result<(), Unsupported> {
    row.serialize(Row { out, fields: 0 })?;
    out.push(b'\n');
    Ok(())
}

/// The row being written.
struct Row<'a> {
    out: &'a mut Vec<u8>,
    fields: usize,
}

/// One field of the row.
struct Field<'a>(&'a mut Vec<u8>);

impl Field<'_> {
    #[inline]
    fn integer(self, value: impl itoa::Integer) -> Result<(), Unsupported> {
        self.0
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
        Ok(())
    }
}

#[inline]
fn needs_quotes(text: &[u8]) -> bool {
    // Most fields (names, results) are a few bytes: a plain scan beats memchr's setup there.
    if text.len() < 32 {
        return text
            .iter()
            .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'));
    }
    memchr::memchr3(b',', b'"', b'\n', text).is_some() || memchr::memchr(b'\r', text).is_some()
}

impl<'a> ser::SerializeStruct for Row<'a> {
    type Ok = ();
    type Error = Unsupported;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        if self.fields > 0 {
            self.out.push(b',');
        }
        self.fields += 1;
        value.serialize(Field(self.out))
    }

    fn end(self) -> Result<(), Unsupported> {
        // The csv crate writes a lone empty field as `""` so the line is not blank.
        if self.fields == 0 {
            return Err(Unsupported);
        }
        Ok(())
    }
}

/// Declares the serializer methods this serializer refuses.
macro_rules! refuse {
    ($($name:ident($($arg:ty),*) -> $ok:ty;)*) => {$(
        fn $name(self, $(_: $arg),*) -> Result<$ok, Unsupported> {
            Err(Unsupported)
        }
    )*};
}

/// Declares the refusals both serializers share: options, newtypes, floats, and
/// every structure a flat row of integers and text does not hold.
macro_rules! refuse_nested {
    () => {
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Unsupported> {
            Err(Unsupported)
        }

        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), Unsupported> {
            Err(Unsupported)
        }

        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Unsupported> {
            Err(Unsupported)
        }

        refuse! {
            serialize_f32(f32) -> ();
            serialize_f64(f64) -> ();
            serialize_char(char) -> ();
            serialize_bytes(&[u8]) -> ();
            serialize_none() -> ();
            serialize_unit() -> ();
            serialize_unit_struct(&'static str) -> ();
            serialize_unit_variant(&'static str, u32, &'static str) -> ();
            serialize_seq(Option<usize>) -> Self::SerializeSeq;
            serialize_tuple(usize) -> Self::SerializeTuple;
            serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
            serialize_map(Option<usize>) -> Self::SerializeMap;
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
        }
    };
}

impl<'a> ser::Serializer for Row<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Impossible<(), Unsupported>;
    type SerializeTuple = Impossible<(), Unsupported>;
    type SerializeTupleStruct = Impossible<(), Unsupported>;
    type SerializeTupleVariant = Impossible<(), Unsupported>;
    type SerializeMap = Impossible<(), Unsupported>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Unsupported>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Unsupported> {
        Ok(self)
    }

    refuse_nested!();

    refuse! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_str(&str) -> ();
    }
}

impl<'a> ser::Serializer for Field<'a> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Impossible<(), Unsupported>;
    type SerializeTuple = Impossible<(), Unsupported>;
    type SerializeTupleStruct = Impossible<(), Unsupported>;
    type SerializeTupleVariant = Impossible<(), Unsupported>;
    type SerializeMap = Impossible<(), Unsupported>;
    type SerializeStruct = Impossible<(), Unsupported>;
    type SerializeStructVariant = Impossible<(), Unsupported>;

    #[inline]
    fn serialize_bool(self, value: bool) -> Result<(), Unsupported> {
        self.0
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, value: i8) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_i16(self, value: i16) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_i32(self, value: i32) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_i64(self, value: i64) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_u8(self, value: u8) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_u16(self, value: u16) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_u32(self, value: u32) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_u64(self, value: u64) -> Result<(), Unsupported> {
        self.integer(value)
    }

    #[inline]
    fn serialize_str(self, text: &str) -> Result<(), Unsupported> {
        let bytes = text.as_bytes();
        if needs_quotes(bytes) {
            self.0.push(b'"');
            for &b in bytes {
                if b == b'"' {
                    self.0.push(b'"');
                }
                self.0.push(b);
            }
            self.0.push(b'"');
        } else {
            self.0.extend_from_slice(bytes);
        }
        Ok(())
    }

    refuse_nested!();

    refuse! {
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::GameRecord;
    use proptest::prelude::*;

    fn by_csv_crate<T: Serialize>(row: &T) -> Vec<u8> {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        writer.serialize(row).unwrap();
        writer.into_inner().unwrap()
    }

    proptest! {
        #[test]
        fn game_rows_are_the_bytes_the_csv_crate_writes(
            id in any::<u64>(),
            pair in any::<u64>(),
            names in proptest::collection::vec("[a-z ,\"\\n\\r:=é-]{0,12}", 5),
            discs in (0u32..101, 0u32..101),
            margin in any::<i32>(),
            plies in any::<u32>(),
            seed in any::<u64>(),
        ) {
            let record = GameRecord {
                game_id: id,
                pair_id: pair,
                opening: names[0].as_str().into(),
                black: names[1].as_str().into(),
                white: names[2].as_str().into(),
                black_discs: discs.0,
                white_discs: discs.1,
                result: names[3].as_str().into(),
                margin,
                plies,
                passes: plies / 3,
                moves: names[4].as_str().into(),
                seed,
            };
            let mut ours = Vec::new();
            write_row(&record, &mut ours).unwrap();
            prop_assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(by_csv_crate(&record)).unwrap());
        }
    }

    #[test]
    fn floats_and_options_are_left_to_the_csv_crate() {
        #[derive(serde::Serialize)]
        struct Floats {
            x: f64,
        }
        #[derive(serde::Serialize)]
        struct Optional {
            x: Option<u32>,
        }
        assert!(write_row(&Floats { x: 1.5 }, &mut Vec::new()).is_err());
        assert!(write_row(&Optional { x: Some(1) }, &mut Vec::new()).is_err());
        assert!(write_row(&7u32, &mut Vec::new()).is_err());
    }
}
