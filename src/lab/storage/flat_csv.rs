//! A serde serializer for one flat CSV row of integers, booleans and text: what a
//! `games.csv` row is. It writes the bytes the csv crate writes, without the csv
//! crate's per-field state machine, because a run formats a row for every game.

use serde::ser::{self, Impossible, Serialize};
use std::fmt;
use std::mem::MaybeUninit;

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

/// Appends what `write` writes to `out`, at most `bound` bytes (more panics), through a
/// [`Cursor`] over the vector's spare room: room reserved once, then each byte one
/// bounds-checked store, where a `push` checks the capacity for every byte and may
/// reload the vector's length after each store.
#[inline(always)]
pub fn append(out: &mut Vec<u8>, bound: usize, write: impl FnOnce(&mut Cursor<'_>)) {
    out.reserve(bound);
    let len = out.len();
    let mut cursor = Cursor {
        room: &mut out.spare_capacity_mut()[..bound],
        at: 0,
    };
    write(&mut cursor);
    let written = cursor.at;
    // SAFETY: `room` starts at `len` within the capacity, and a cursor moves past a
    // byte only once it has written it, so every byte of `len..len + written` is set.
    unsafe { out.set_len(len + written) };
}

/// Writes a row's bytes one after another into room [`append`] reserved.
pub struct Cursor<'a> {
    room: &'a mut [MaybeUninit<u8>],
    at: usize,
}

/// The two-digit numbers 00 to 99, as itoa and most formatters keep them.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

impl Cursor<'_> {
    /// One byte.
    #[inline(always)]
    pub fn byte(&mut self, byte: u8) {
        self.room[self.at] = MaybeUninit::new(byte);
        self.at += 1;
    }

    /// Bytes as they are.
    #[inline(always)]
    pub fn bytes(&mut self, bytes: &[u8]) {
        let to = &mut self.room[self.at..self.at + bytes.len()];
        // SAFETY: `to` is `bytes.len()` long and cannot overlap a shared slice, and
        // `MaybeUninit<u8>` has the layout of `u8`.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), to.as_mut_ptr().cast(), bytes.len());
        }
        self.at += bytes.len();
    }

    /// `value` in decimal (at most 20 bytes), the digits itoa writes.
    #[inline(always)]
    pub fn unsigned(&mut self, value: u64) {
        // Most numbers of a row (discs, plies, passes, pairs) are under 100.
        if value < 10 {
            self.byte(b'0' + value as u8);
            return;
        }
        if value < 100 {
            self.byte(DIGIT_PAIRS[2 * value as usize]);
            self.byte(DIGIT_PAIRS[2 * value as usize + 1]);
            return;
        }
        let digits = value.ilog10() as usize + 1;
        let to = &mut self.room[self.at..self.at + digits];
        let pair = |n: usize| [DIGIT_PAIRS[2 * n], DIGIT_PAIRS[2 * n + 1]].map(MaybeUninit::new);
        // Four digits a step from the right, as itoa does: a seed has twenty.
        let mut rest = value;
        let mut end = digits;
        while rest >= 10_000 {
            let four = (rest % 10_000) as usize;
            rest /= 10_000;
            end -= 4;
            to[end..end + 2].copy_from_slice(&pair(four / 100));
            to[end + 2..end + 4].copy_from_slice(&pair(four % 100));
        }
        let mut rest = rest as usize;
        if rest >= 100 {
            end -= 2;
            to[end..end + 2].copy_from_slice(&pair(rest % 100));
            rest /= 100;
        }
        if rest >= 10 {
            to[..2].copy_from_slice(&pair(rest));
        } else {
            to[0] = MaybeUninit::new(b'0' + rest as u8);
        }
        self.at += digits;
    }

    /// `value` in decimal with a leading `-` when negative (at most 20 bytes).
    #[inline(always)]
    pub fn signed(&mut self, value: i64) {
        if value < 0 {
            self.byte(b'-');
        }
        self.unsigned(value.unsigned_abs());
    }

    /// `text` as one field (at most twice its length and 2 bytes), quoted as the csv
    /// crate quotes by default: only when it holds a comma, a quote or a line break,
    /// with its quotes doubled.
    #[inline(always)]
    pub fn text(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if needs_quotes(bytes) {
            self.quoted(bytes);
        } else {
            self.bytes(bytes);
        }
    }

    /// `bytes` in quotes, each quote doubled: rare, so kept out of line and out of the
    /// way of a row's usual path.
    #[cold]
    #[inline(never)]
    fn quoted(&mut self, bytes: &[u8]) {
        self.byte(b'"');
        for &b in bytes {
            if b == b'"' {
                self.byte(b'"');
            }
            self.byte(b);
        }
        self.byte(b'"');
    }
}

#[inline]
fn needs_quotes(text: &[u8]) -> bool {
    // The bytes that need quotes (line breaks, `"`, `,`) all sort below `-`, and most
    // fields hold no byte that low (a transcript never does). Whether any does is found
    // eight bytes a step, without a branch: subtracting `-` from every byte of a word
    // sets a byte's top bit, where the byte's own top bit is clear, only if some byte
    // at or below it is under `-`. Only then are the four bytes looked for.
    const LOW: u64 = u64::from_ne_bytes([b'-'; 8]);
    const TOP: u64 = u64::from_ne_bytes([0x80; 8]);
    let special = |b: &u8| matches!(b, b',' | b'"' | b'\n' | b'\r');
    let mut words = text.chunks_exact(8);
    let mut below = 0;
    for word in words.by_ref() {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        below |= word.wrapping_sub(LOW) & !word;
    }
    (below & TOP != 0 && text.iter().any(special)) || words.remainder().iter().any(special)
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
        append(self.0, 2 * text.len() + 2, |row| row.text(text));
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
    use crate::lab::GameRow;
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
            names in proptest::collection::vec("[a-z ,\"\\n\\r:=é-]{0,12}", 6),
            discs in (0u32..101, 0u32..101),
            margin in any::<i32>(),
            plies in any::<u32>(),
            seed in any::<u64>(),
        ) {
            let record = GameRow {
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
                termination: names[5].as_str().into(),
            };
            let expected = String::from_utf8(by_csv_crate(&record)).unwrap();
            let mut ours = Vec::new();
            write_row(&record, &mut ours).unwrap();
            prop_assert_eq!(String::from_utf8(ours).unwrap(), expected.clone());
            let mut written = b"kept,".to_vec();
            record.write_csv(&mut written);
            prop_assert_eq!(String::from_utf8(written).unwrap(), format!("kept,{expected}"));
        }
    }

    #[test]
    fn numbers_are_written_as_itoa_writes_them_at_every_width() {
        let mut edges: Vec<u64> = vec![0, 9, 10, 99, 100, 101, 999, 1000, u64::MAX];
        edges.extend((1..20).flat_map(|k| [10u64.pow(k) - 1, 10u64.pow(k)]));
        let write = |value: i128| {
            let mut out = b"x".to_vec();
            append(&mut out, 21, |row| match u64::try_from(value) {
                Ok(value) => row.unsigned(value),
                Err(_) => row.signed(value as i64),
            });
            out
        };
        for value in edges {
            assert_eq!(write(value.into()), format!("x{value}").into_bytes());
        }
        for value in [-1, -9, -10, -99, -100, i32::MIN.into(), i64::MIN, i64::MAX] {
            assert_eq!(write(value.into()), format!("x{value}").into_bytes());
        }
    }

    #[test]
    fn quotes_are_needed_exactly_where_a_special_byte_is() {
        // Every special byte, a low plain byte (space) and a high one (UTF-8), at every
        // offset of fields that end a word early, on one and past it.
        for len in [1, 7, 8, 9, 16, 23, 120] {
            for at in 0..len {
                for byte in [b',', b'"', b'\n', b'\r', b' ', b'-', 0xc3, 0xff, 0] {
                    let mut text = vec![b'e'; len];
                    text[at] = byte;
                    let plain = text
                        .iter()
                        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'));
                    assert_eq!(needs_quotes(&text), plain, "{text:?}");
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn a_cursor_stops_at_its_bound() {
        append(&mut Vec::new(), 3, |row| row.text("four"));
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
