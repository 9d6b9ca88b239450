//! A game's `random.Random` seeded without the interpreter lock: CPython's
//! `Random.seed(int)` (Mersenne Twister's `init_by_array`) cost a tenth of a one-line
//! random mover's game, all of it under the lock that the playing threads share. The
//! same state is computed here beforehand, on the playing thread alone, and copied into
//! the object, which then draws exactly what `random.Random(seed)` draws. Used only where
//! a check at first use found CPython's layout of the object and the same state as
//! `seed`; anywhere else `seed` is called.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::{ffi, intern};

/// The generator's words (N of MT19937).
const N: usize = 624;

/// The Mersenne Twister's state after CPython's `random.seed(seed)`: `init_by_array`
/// over the seed's 32-bit words, least significant first (one word below 2**32).
pub fn state(seed: u64) -> [u32; N] {
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    for i in 1..N {
        let previous = mt[i - 1];
        mt[i] = 1_812_433_253u32
            .wrapping_mul(previous ^ (previous >> 30))
            .wrapping_add(i as u32);
    }
    let words = [seed as u32, (seed >> 32) as u32];
    let key = &words[..if seed >> 32 == 0 { 1 } else { 2 }];
    let (mut i, mut j) = (1, 0);
    for _ in 0..N.max(key.len()) {
        let previous = mt[i - 1];
        mt[i] = (mt[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1_664_525))
            .wrapping_add(key[j])
            .wrapping_add(j as u32);
        i += 1;
        j += 1;
        if i >= N {
            mt[0] = mt[N - 1];
            i = 1;
        }
        if j >= key.len() {
            j = 0;
        }
    }
    for _ in 0..N - 1 {
        let previous = mt[i - 1];
        mt[i] = (mt[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1_566_083_941))
            .wrapping_sub(i as u32);
        i += 1;
        if i >= N {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    mt[0] = 0x8000_0000;
    mt
}

/// CPython's `RandomObject`: the object's head, then `int index` and `uint32_t
/// state[N]`; its size rounded up to a pointer's.
const INDEX_AT: usize = std::mem::size_of::<ffi::PyObject>();
const STATE_AT: usize = INDEX_AT + 4;
const BASIC_SIZE: usize = (STATE_AT + 4 * N).div_ceil(8) * 8;

/// Writes `state` into `rng`, a `random.Random`, as `seed` leaves it.
///
/// # Safety
/// `rng` is a `random.Random` of an interpreter that [`direct`] accepted.
unsafe fn write(rng: *mut ffi::PyObject, state: &[u32; N]) {
    let base = rng.cast::<u8>();
    base.add(INDEX_AT).cast::<i32>().write_unaligned(N as i32);
    std::ptr::copy_nonoverlapping(state.as_ptr().cast::<u8>(), base.add(STATE_AT), 4 * N);
}

/// Whether states can be written here: CPython, `_random.Random` of the layout above,
/// and a written state drawing as `seed` does for a few seeds of either key length.
fn direct(py: Python<'_>, class: &Bound<'_, PyAny>) -> bool {
    static DIRECT: PyOnceLock<bool> = PyOnceLock::new();
    *DIRECT.get_or_init(py, || checked(py, class).unwrap_or(false))
}

fn checked(py: Python<'_>, class: &Bound<'_, PyAny>) -> PyResult<bool> {
    let implementation: String = py
        .import("sys")?
        .getattr("implementation")?
        .getattr("name")?
        .extract()?;
    let base = class.getattr("__base__")?;
    let size: usize = base.getattr("__basicsize__")?.extract()?;
    let module: String = base.getattr("__module__")?.extract()?;
    if implementation != "cpython" || module != "_random" || size != BASIC_SIZE {
        return Ok(false);
    }
    for seed in [0, 1, u64::from(u32::MAX), 1 << 32, u64::MAX] {
        let expected = class.call1((seed,))?.call_method0("getstate")?;
        let written = class.call1((seed ^ 1,))?;
        // SAFETY: a `random.Random` just made, of CPython's layout (checked above).
        unsafe { write(written.as_ptr(), &state(seed)) };
        written.setattr("gauss_next", py.None())?;
        if !written.call_method0("getstate")?.eq(expected)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Seeds `rng` (made by `class`, `random.Random`) as `rng.seed(seed)` does, from
/// `state`, the state of `seed` made beforehand, when it can be written.
pub fn seed(
    py: Python<'_>,
    class: &Bound<'_, PyAny>,
    rng: &Bound<'_, PyAny>,
    seed: u64,
    state: &[u32; N],
) -> PyResult<()> {
    if rng.get_type().is(class) && direct(py, class) {
        // SAFETY: a `random.Random` of an accepted interpreter.
        unsafe { write(rng.as_ptr(), state) };
        // What `Random.seed` clears beside the generator.
        return rng.setattr(intern!(py, "gauss_next"), py.None());
    }
    rng.call_method1(intern!(py, "seed"), (seed,)).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_cpythons_for_either_key_length() {
        // random.Random(seed).getstate()[1] at words 0, 1, 2, 311 and 623 (CPython 3.11).
        for (seed, words) in [
            (0, [2147483648, 766982754, 497961170, 652504502, 2902720905]),
            (
                1,
                [2147483648, 163610392, 3414454684, 3857516299, 1781494222],
            ),
            (
                4294967295,
                [2147483648, 2159790430, 4274725319, 3298412812, 2300076184],
            ),
            (
                4294967296,
                [2147483648, 3247729875, 1917745790, 2204960721, 2855728268],
            ),
            (
                u64::MAX,
                [2147483648, 2932382577, 2128964480, 1832500807, 861141058],
            ),
        ] {
            let state = state(seed);
            assert_eq!(
                [state[0], state[1], state[2], state[311], state[623]],
                words,
                "{seed}"
            );
        }
    }
}
