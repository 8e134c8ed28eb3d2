// SPDX-License-Identifier: GPL-2.0

//! C DebugFS's text formats, as value types.
//!
//! Each wrapper shows what its C counterpart (`debugfs_create_x32()`, `debugfs_create_bool()`,
//! ...) shows and parses what it parses, and combines with everything else: an
//! [`Atomic<Hex<u32>>`](Atomic) or a [`Mutex<YesNo>`] in a [`File`](super::File), or `Hex(x)`
//! printed by a callback.

use super::{
    traits::{
        parse_str_like_c,
        CText,
        ParseLikeC, //
    },
    Reader,
    Writer, //
};
use crate::{
    alloc::KVec,
    fmt,
    prelude::*,
    str::{
        CStr,
        CString, //
    },
    sync::{
        atomic::AtomicType,
        Mutex, //
    },
    uaccess::UserSliceReader,
};
use core::str::FromStr;

/// An unsigned integer shown as C's `debugfs_create_x8()` to `debugfs_create_x64()` show it.
///
/// The text is `0x` and the value in lower-case hexadecimal, zero-padded to the width of the
/// type (`0x%08llx` for [`u32`]). Writes parse as C's do (see [`Reader`]), in any base. It is an
/// [`AtomicType`] wherever its integer is.
///
/// # Examples
///
/// ```
/// use kernel::debugfs::{Dir, Hex};
/// use kernel::str::CString;
/// use kernel::sync::atomic::{Atomic, Relaxed};
///
/// let dir = Dir::new(c"example_hex");
/// // `cat .../status` prints "0x0000002a"; `echo 0x10 > .../status` sets it to 16.
/// let status = dir.read_write_file(c"status", Atomic::new(Hex(42u32)));
/// let status = KBox::pin_init(status, GFP_KERNEL)?;
/// status.store(Hex(0xbeef), Relaxed);
///
/// // Callbacks format it as C would too.
/// let (a, b, c, d) = (Hex(7u8), Hex(0xbeef_u16), Hex(7u64), Hex(u64::MAX));
/// let text = CString::try_from_fmt(fmt!("{} {} {} {}", a, b, c, d))?;
/// assert_eq!(text.to_bytes(), b"0x07 0xbeef 0x0000000000000007 0xffffffffffffffff");
/// assert_eq!("0x10\n".parse::<Hex<u8>>()?, Hex(16));
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hex<T>(pub T);

/// The unsigned integers [`Hex`] shows, with the number of hex digits of each.
pub trait HexDigits: Copy + ParseLikeC + private::Sealed {
    /// Two digits per byte.
    const DIGITS: usize = 2 * core::mem::size_of::<Self>();

    /// The value, widened without loss.
    #[doc(hidden)]
    fn widen(self) -> u64;
}

mod private {
    /// Only this module's integer types may be [`Hex`](super::Hex).
    pub trait Sealed {}
}

macro_rules! impl_hex_digits {
    ($($int:ty => |$value:ident| $widen:expr),* $(,)?) => {$(
        impl private::Sealed for $int {}
        impl HexDigits for $int {
            fn widen(self) -> u64 {
                let $value = self;
                $widen
            }
        }
    )*};
}

impl_hex_digits!(
    u8 => |v| u64::from(v),
    u16 => |v| u64::from(v),
    u32 => |v| u64::from(v),
    u64 => |v| v,
    // CAST: `usize` is at most 64 bits wide on every architecture the kernel supports.
    usize => |v| v as u64,
);

/// The longest text of a [`Hex`]: `0x` and the 16 digits of a `u64`.
const HEX_TEXT_MAX: usize = 2 + 16;

impl<T: HexDigits> core::fmt::Display for Hex<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // By hand: `{:0width$x}` goes through the formatter's slower padding code.
        const HEX_CHARS: &[u8; 16] = b"0123456789abcdef";
        let mut text = [b'0'; HEX_TEXT_MAX];
        text[1] = b'x';
        // Every `HexDigits` type is at most 64 bits wide; checked when `T` is instantiated.
        const { assert!(T::DIGITS <= HEX_TEXT_MAX - 2) }
        let end = 2 + T::DIGITS;
        let mut value = self.0.widen();
        for digit in text[2..end].iter_mut().rev() {
            // CAST: `value & 0xf` is below 16, so it fits in a `usize`.
            *digit = HEX_CHARS[(value & 0xf) as usize];
            value >>= 4;
        }
        // Only ASCII was written: this cannot fail.
        f.write_str(core::str::from_utf8(&text[..end]).map_err(|_| fmt::Error)?)
    }
}

// SAFETY: `Hex<T>` is `#[repr(transparent)]` over `T`, so every `Hex<T>` is a `T`, which by `T`'s
// own `AtomicType` impl has the size and alignment of `T::Repr` and is round-trip transmutable to
// it; and `Hex<T>` is `Send` as `T` is (`HexDigits` only admits the unsigned integers).
unsafe impl<T: HexDigits + AtomicType> AtomicType for Hex<T> {
    type Repr = T::Repr;
}

/// A `bool` shown as C's `debugfs_create_bool()` shows it: `Y` or `N`.
///
/// Writes parse as in C (see [`Reader`]). It is an [`AtomicType`].
///
/// # Examples
///
/// ```
/// use kernel::debugfs::{Dir, YesNo};
/// use kernel::sync::atomic::Atomic;
///
/// let dir = Dir::new(c"example_yes_no");
/// // `cat .../enabled` prints "N"; `echo on > .../enabled` makes it "Y".
/// let enabled = dir.read_write_file(c"enabled", Atomic::new(YesNo(false)));
/// let _enabled = KBox::pin_init(enabled, GFP_KERNEL)?;
/// assert_eq!("1".parse::<YesNo>()?, YesNo(true));
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct YesNo(pub bool);

impl core::fmt::Display for YesNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "Y" } else { "N" })
    }
}

// SAFETY: `YesNo` is `#[repr(transparent)]` over `bool`, so it has `bool`'s layout and, by `bool`'s
// own `AtomicType` impl, is round-trip transmutable to its representation (`i8`). It is `Send`, as
// `bool` is.
unsafe impl AtomicType for YesNo {
    type Repr = <bool as AtomicType>::Repr;
}

/// Implements the kernel's `$trait` by forwarding to `core`'s [`Display`](core::fmt::Display): the
/// kernel's [`fmt::Display`] is what `fmt!` uses, [`fmt::Debug`] what the blanket [`Writer`] shows.
macro_rules! forward_display {
    ($($trait:ident: impl$({$($generics:tt)*})? for $ty:ty;)*) => {$(
        impl$(<$($generics)*>)? fmt::$trait for $ty
        where
            $ty: core::fmt::Display,
        {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                core::fmt::Display::fmt(self, f)
            }
        }
    )*};
}

forward_display! {
    Display: impl{T} for Hex<T>;
    Debug: impl{T} for Hex<T>;
    Display: impl for YesNo;
    Debug: impl for YesNo;
    Display: impl{A} for SpaceSeparated<A>;
    Display: impl{S} for Str<S>;
    Debug: impl{S} for Str<S>;
}

/// Implements [`ParseLikeC`] and [`FromStr`] for a wrapper by parsing what it wraps as C does.
macro_rules! parse_as_inner {
    ($(impl$({$($generics:tt)*})? for $ty:ty => $inner:ty;)*) => {$(
        impl$(<$($generics)*>)? ParseLikeC for $ty {
            fn parse_like_c(text: CText<'_>) -> Result<Self> {
                <$inner>::parse_like_c(text).map(Self)
            }
        }

        impl$(<$($generics)*>)? FromStr for $ty {
            type Err = Error;

            fn from_str(text: &str) -> Result<Self> {
                parse_str_like_c(text)
            }
        }
    )*};
}

parse_as_inner! {
    impl{T: HexDigits} for Hex<T> => T;
    impl for YesNo => bool;
}

/// Numbers shown as C's `debugfs_create_u32_array()` shows them: separated by spaces, with a
/// newline after the last.
///
/// It shows arrays and [`KVec`]s of anything [`Display`](fmt::Display)able. An empty one shows
/// nothing, not even the newline, as in C. Like the C file it is read-only; put it in a [`Mutex`]
/// to change it from the driver.
///
/// # Examples
///
/// ```
/// use kernel::debugfs::{Dir, SpaceSeparated};
/// use kernel::str::CString;
///
/// let dir = Dir::new(c"example_space_separated");
/// // `cat .../lanes` prints "0 1 4 5\n"; `{}` leaves the newline out.
/// let lanes = dir.read_only_file(c"lanes", SpaceSeparated([0u32, 1, 4, 5]));
/// let lanes = KBox::pin_init(lanes, GFP_KERNEL)?;
/// let text = CString::try_from_fmt(fmt!("{}", &**lanes))?;
/// assert_eq!(text.to_bytes(), b"0 1 4 5");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SpaceSeparated<A>(pub A);

/// Writes `items` separated by spaces, and a newline after the last if `newline`.
fn write_spaced<E: core::fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: &[E],
    newline: bool,
) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        core::fmt::Display::fmt(item, f)?;
    }
    if newline && !items.is_empty() {
        f.write_str("\n")?;
    }
    Ok(())
}

/// Implements `Display` (without the final newline) and [`Writer`] for `SpaceSeparated<$ty>`.
macro_rules! impl_space_separated {
    ($(impl[$($generics:tt)*] for $ty:ty;)*) => {$(
        impl<$($generics)*> core::fmt::Display for SpaceSeparated<$ty> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_spaced(f, &self.0, false)
            }
        }

        impl<$($generics)*> Writer for SpaceSeparated<$ty> {
            fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_spaced(f, &self.0, true)
            }
        }
    )*};
}

impl_space_separated! {
    impl[E: core::fmt::Display, const N: usize] for [E; N];
    impl[E: core::fmt::Display] for KVec<E>;
}

/// A string shown as C's `debugfs_create_str()` shows it: as is, with a newline.
///
/// No quotes or escapes, unlike `{:?}`; bytes that are not UTF-8 are shown as `\xNN`.
///
/// A [`Mutex<Str<CString>>`](Mutex) is writable as the C file is: a write replaces the string with
/// the bytes written minus trailing white space (leading white space stays, as in C), and fails
/// with `E2BIG` if it has `PAGE_SIZE` bytes or more and `EINVAL` if it holds a NUL byte. Unlike C,
/// a write at an offset does not append but fails with `EINVAL`, as for every text file here.
///
/// # Examples
///
/// ```
/// use kernel::debugfs::{Dir, Str};
/// use kernel::str::CString;
/// use kernel::sync::Mutex;
///
/// let dir = Dir::new(c"example_str");
/// // `cat .../label` prints "port0"; `echo ' x ' > .../label` stores " x".
/// let label = kernel::new_mutex!(Str(CString::try_from(c"port0")?));
/// let label = KBox::pin_init(dir.read_write_file(c"label", label), GFP_KERNEL)?;
/// let text = CString::try_from_fmt(fmt!("{}", Str(c"a\tb")))?;
/// assert_eq!(text.to_bytes(), b"a\tb");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Str<S>(pub S);

impl<S: core::ops::Deref<Target = CStr>> core::fmt::Display for Str<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.to_bytes().utf8_chunks() {
            f.write_str(chunk.valid())?;
            for byte in chunk.invalid() {
                write!(f, "\\x{byte:02x}")?;
            }
        }
        Ok(())
    }
}

impl Reader for Mutex<Str<CString>> {
    fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
        let len = reader.len();
        if len >= crate::page::PAGE_SIZE {
            return Err(E2BIG);
        }
        // Room for the NUL, so that the `push` below does not allocate.
        let mut text = KVec::with_capacity(len + 1, GFP_KERNEL)?;
        text.resize(len, 0, GFP_KERNEL)?;
        reader.read_slice(&mut text)?;
        // Trim trailing white space as the kernel's `isspace()` defines it, as C does.
        let end = text
            .iter()
            .rposition(|byte| !matches!(byte, b'\t'..=b'\r' | b' ' | 0xa0))
            .map_or(0, |last| last + 1);
        text.truncate(end);
        text.push(0, GFP_KERNEL)?;
        let value = CString::try_from(CStr::from_bytes_with_nul(&text).map_err(|_| EINVAL)?)?;
        self.lock().0 = value;
        Ok(())
    }
}
