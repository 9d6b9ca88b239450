//! Squares, colours and their names (`a1` top-left, `h8` bottom-right on 8x8).

use std::fmt;
use std::mem::MaybeUninit;

/// Every square's name on every board size up to 10, made at compile time so that
/// naming a square is a lookup: the name zero-padded to three bytes, then its length.
/// 256 entries a size, so any `Square` indexes it without a bounds check, and four
/// bytes an entry, so a transcript copies one word a move.
static NAMES: [[[u8; 4]; 256]; 11] = {
    let mut names = [[[0u8; 4]; 256]; 11];
    let mut size = 1;
    while size <= 10 {
        let mut index = 0;
        while index < size * size {
            let (column, row) = (index % size, index / size + 1);
            let name = &mut names[size][index];
            name[0] = b'a' + column as u8;
            if row >= 10 {
                name[1] = b'0' + (row / 10) as u8;
                name[2] = b'0' + (row % 10) as u8;
                name[3] = 3;
            } else {
                name[1] = b'0' + row as u8;
                name[3] = 2;
            }
            index += 1;
        }
        size += 1;
    }
    names
};

/// A square index, row-major from the top-left corner. The board size gives it
/// meaning, so naming and parsing take the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with this row-major index.
    #[inline(always)]
    #[must_use]
    pub const fn new(index: u32) -> Self {
        Square(index as u8)
    }

    /// The square at `column` (0 = `a`) and `row` (0 = `1`) on a board of `size`.
    #[must_use]
    pub const fn at(column: u32, row: u32, size: u32) -> Self {
        Square((row * size + column) as u8)
    }

    /// The row-major index.
    #[inline(always)]
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// Column (0 = `a`) on a board of `size`.
    #[must_use]
    pub const fn column(self, size: u32) -> u32 {
        self.0 as u32 % size
    }

    /// Row (0 = `1`) on a board of `size`.
    #[must_use]
    pub const fn row(self, size: u32) -> u32 {
        self.0 as u32 / size
    }

    /// The name of the square on a board of `size`, such as `f5` or `j10`.
    #[must_use]
    pub fn name(self, size: u32) -> String {
        let mut name = String::with_capacity(3);
        self.push_name(size, &mut name);
        name
    }

    /// Appends the square's name to `out` without allocating or dividing (transcripts
    /// are written for every game a run plays).
    #[inline]
    pub fn push_name(self, size: u32, out: &mut String) {
        let name = &NAMES[size as usize][usize::from(self.0)];
        // SAFETY: the table holds ASCII letters and digits only, so `out` stays UTF-8.
        let bytes = unsafe { out.as_mut_vec() };
        // Byte by byte: copying a slice is a call to memcpy, dearer than these pushes.
        bytes.reserve(3);
        bytes.push(name[0]);
        bytes.push(name[1]);
        if name[3] == 3 {
            bytes.push(name[2]);
        }
    }

    /// Appends the names of `squares` to `out` (a transcript, `f5d6c3`): on 8x8 computed
    /// sixteen at a time, on other sizes each entry copied as four bytes from the table
    /// and the end moved on by the name's length (runs write one per game).
    pub fn push_names(squares: &[Square], size: u32, out: &mut String) {
        // SAFETY: only ASCII letters and digits are kept (on the table's path, the bytes
        // past `end` are left out by `set_len`), so `out` stays UTF-8.
        let bytes = unsafe { out.as_mut_vec() };
        if size == 8 {
            // On 8x8 (what runs play by the million) a name is the index's low three
            // bits as a letter and its high three as a digit: a loop without loads that
            // the compiler turns into vector code, sixteen names a step.
            let start = bytes.len();
            bytes.reserve(2 * squares.len());
            let room = &mut bytes.spare_capacity_mut()[..2 * squares.len()];
            for (name, square) in room.chunks_exact_mut(2).zip(squares) {
                name[0] = MaybeUninit::new(b'a' + (square.0 & 7));
                name[1] = MaybeUninit::new(b'1' + ((square.0 >> 3) & 7));
            }
            // SAFETY: the loop wrote both bytes of each of the `squares.len()` names.
            unsafe { bytes.set_len(start + 2 * squares.len()) };
            return;
        }
        let table = &NAMES[size as usize];
        // At most three bytes a name, and one spare: the last entry's length byte.
        bytes.reserve(3 * squares.len() + 1);
        let base = bytes.as_mut_ptr();
        let mut end = bytes.len();
        for square in squares {
            let name = table[usize::from(square.0)];
            // SAFETY: after k names `end` is at most 3k past the start, so these four
            // bytes end within the room reserved above. Unchecked and unzeroed: a
            // bounds check and a fill were half of the loop's cost.
            unsafe { base.add(end).cast::<[u8; 4]>().write_unaligned(name) };
            end += usize::from(name[3]);
        }
        // SAFETY: every byte up to `end` has been written, within the capacity.
        unsafe { bytes.set_len(end) };
    }

    /// Parses a square name (`f5`, `F5`, `j10`) for a board of `size`.
    pub fn parse(text: &str, size: u32) -> Option<Self> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let column = u32::from(letter as u8 - b'a');
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: u32 = digits.parse().ok()?;
        if column >= size || row == 0 || row > size || digits.starts_with('0') {
            return None;
        }
        Some(Square::at(column, row - 1, size))
    }
}

/// The colour of a disc or of the side to move. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; `X` in OBF.
    Black,
    /// Moves second; `O` in OBF.
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn opposite(self) -> Self {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Lowercase name, as written in CSV files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The OBF character: `X` for black, `O` for white.
    #[must_use]
    pub const fn obf(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_is_the_names_one_after_another() {
        for size in [4, 8, 10] {
            let squares: Vec<Square> = (0..size * size).rev().map(Square::new).collect();
            let mut out = String::from("x,");
            Square::push_names(&squares, size, &mut out);
            let names: String = squares.iter().map(|s| s.name(size)).collect();
            assert_eq!(out, format!("x,{names}"));
        }
    }

    #[test]
    fn names_round_trip_on_every_size() {
        for size in [4, 6, 8, 10] {
            for index in 0..size * size {
                let square = Square::new(index);
                let name = square.name(size);
                assert_eq!(Square::parse(&name, size), Some(square), "{name}");
                assert_eq!(Square::parse(&name.to_uppercase(), size), Some(square));
            }
        }
    }

    #[test]
    fn known_names() {
        assert_eq!(Square::parse("a1", 8), Some(Square::new(0)));
        assert_eq!(Square::parse("h1", 8), Some(Square::new(7)));
        assert_eq!(Square::parse("a2", 8), Some(Square::new(8)));
        assert_eq!(Square::parse("h8", 8), Some(Square::new(63)));
        assert_eq!(Square::parse("j10", 10), Some(Square::new(99)));
        for bad in ["", "a", "i1", "a9", "a0", "a01", "11", "j10", "a-1"] {
            assert_eq!(Square::parse(bad, 8), None, "{bad}");
        }
    }
}
