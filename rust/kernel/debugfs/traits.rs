// SPDX-License-Identifier: GPL-2.0

//! How values are shown in and updated from DebugFS files.
//!
//! Text files use [`Writer`] (for `cat`) and [`Reader`] (for `echo`); binary files use
//! [`BinaryWriter`] and [`BinaryReader`] (or its `&mut` form [`BinaryReaderMut`]), which copy raw
//! bytes at the file offset, like C's `debugfs_create_blob`.

use super::formats::{
    Hex,
    YesNo, //
};
use crate::{
    alloc::{
        Allocator,
        KVVec, //
    },
    bindings,
    error::to_result,
    fmt,
    fs::file::Offset,
    prelude::*,
    str::kstrtobool_bytes,
    sync::{
        atomic::{
            Atomic,
            AtomicBasicOps,
            AtomicType,
            Relaxed, //
        },
        Arc,
        Mutex, //
    },
    uaccess::{
        UserSliceReader,
        UserSliceWriter, //
    }, //
};
use core::{
    any::Any,
    str::FromStr,
    sync::atomic as core_atomic, //
};
use zerocopy::Immutable;

/// A value that can be rendered as text, for reading its file.
///
/// Every [`Debug`](fmt::Debug) type is one, printing `{:?}` and a newline; `Debug` output is not
/// stable, so implement `Writer` where user space parses what it reads. `write` may hold a spinlock
/// (the file never allocates while it runs) and may run more than once per `read(2)`, so it should
/// have no side effects.
///
/// The [module documentation](super) has an example.
pub trait Writer {
    /// Renders the value; an error fails the `read(2)` with `EINVAL`.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: fmt::Debug> Writer for T {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{self:?}")
    }
}

impl<T: Writer> Writer for Mutex<T> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.lock().write(f)
    }
}

/// A value that can be updated from text, for writing its file.
///
/// `read_from_slice` gets the bytes of one `write(2)`: it takes them as a whole new value or fails
/// leaving the value unchanged. Copy the bytes out, bounded, before parsing them.
///
/// # C's parsing
///
/// The impls here (an [`Atomic`], `core::sync::atomic` integer or [`Mutex`] of integers, `bool`,
/// [`Hex`] or [`YesNo`]) read text as C DebugFS does: `kstrtoull`/`kstrtoll` with base 0 (decimal,
/// `0x` hex, leading-`0` octal, optional trailing newline) and `kstrtobool`. Malformed input fails
/// with `EINVAL`, leaving the value as it was. Unlike C, which parses only the first 23 bytes of a
/// write and stores a number too large for the type truncated (`256` into a `u8` stores 0), input
/// over 128 bytes fails with `EINVAL` and an out-of-range number with `ERANGE`. Other types, such
/// as a driver's own [`AtomicType`] enum, parse with [`FromStr`].
///
/// The [module documentation](super) has an example.
pub trait Reader {
    /// Updates the value from the text in `reader`.
    fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result;
}

/// The longest text the parsers here accept: room for any integer, leading zeros and a newline.
const TEXT_INPUT_MAX: usize = 128;

/// Text this short (any integer as C prints it, and a newline) uses a smaller buffer to zero.
const SHORT_TEXT_MAX: usize = 31;

/// Copies `len` bytes of text with `fill` into a stack buffer and hands them to `parse`
/// NUL-terminated, as C's parsers want them. Text longer than [`TEXT_INPUT_MAX`] is `EINVAL`
/// before `fill` runs, and so is text holding a NUL byte, where C would stop parsing.
fn with_nul<T>(
    len: usize,
    fill: impl FnOnce(&mut [u8]) -> Result,
    parse: impl FnOnce(CText<'_>) -> Result<T>,
) -> Result<T> {
    let (mut short, mut long);
    let buf: &mut [u8] = if len <= SHORT_TEXT_MAX {
        short = [0u8; SHORT_TEXT_MAX + 1];
        &mut short
    } else if len <= TEXT_INPUT_MAX {
        long = [0u8; TEXT_INPUT_MAX + 1];
        &mut long
    } else {
        return Err(EINVAL);
    };
    // The zeroed buffer is longer than `len`, so the text is NUL-terminated.
    fill(buf.get_mut(..len).ok_or(EINVAL)?)?;
    let text = buf.get(..=len).ok_or(EINVAL)?;
    // Not `CStr::from_bytes_with_nul`: its call into `core` cost a short write 40 instructions.
    if text.iter().position(|&byte| byte == 0) != Some(len) {
        return Err(EINVAL);
    }
    // INVARIANT: The first NUL of `text` is its last byte.
    parse(CText(text))
}

/// The text of one write, NUL-terminated for C's parsers.
///
/// # Invariants
///
/// The slice ends with a NUL byte, its only one.
#[derive(Clone, Copy)]
pub struct CText<'a>(&'a [u8]);

impl<'a> CText<'a> {
    /// The text, without its NUL.
    fn bytes(self) -> &'a [u8] {
        self.0.split_last().map_or(&[], |(_, text)| text)
    }
}

/// Parses the text of one write with `parse`; see [`with_nul`].
fn parse_write<T>(
    reader: &mut UserSliceReader,
    parse: impl FnOnce(CText<'_>) -> Result<T>,
) -> Result<T> {
    with_nul(reader.len(), |buf| reader.read_slice(buf), parse)
}

/// Parses `text` as C would; see [`with_nul`].
pub(super) fn parse_str_like_c<T: ParseLikeC>(text: &str) -> Result<T> {
    let fill = |buf: &mut [u8]| {
        buf.copy_from_slice(text.as_bytes());
        Ok(())
    };
    with_nul(text.len(), fill, T::parse_like_c)
}

/// Text values parsed exactly as C DebugFS parses them (see [`Reader`]).
///
/// Public only to bound [`HexDigits`](super::HexDigits); the module is private.
pub trait ParseLikeC: Sized {
    /// Parses `text`, with `EINVAL` for malformed input and `ERANGE` for out-of-range numbers.
    fn parse_like_c(text: CText<'_>) -> Result<Self>;
}

/// Implements [`ParseLikeC`] for integer types via the C function `$parse` on `$wide`.
macro_rules! impl_parse_like_c {
    ($parse:ident, $wide:ty: $($int:ty),*) => {$(
        impl ParseLikeC for $int {
            fn parse_like_c(text: CText<'_>) -> Result<Self> {
                let mut value: $wide = 0;
                // SAFETY: `text.0` is NUL-terminated (`CText`'s invariant), as `$parse` needs, and
                // `value` is a local `$wide`, the type `$parse` stores into.
                to_result(unsafe { bindings::$parse(text.0.as_ptr().cast(), 0, &mut value) })?;
                Self::try_from(value).map_err(|_| ERANGE)
            }
        }
    )*};
}

impl_parse_like_c!(kstrtoull, u64: u8, u16, u32, u64, usize);
impl_parse_like_c!(kstrtoll, i64: i8, i16, i32, i64, isize);

impl ParseLikeC for bool {
    fn parse_like_c(text: CText<'_>) -> Result<Self> {
        kstrtobool_bytes(text.bytes())
    }
}

/// Parses the text of one write into a `T`.
///
/// Types with a [`ParseLikeC`] impl use it; any other type parses with [`FromStr`]: the text must
/// be UTF-8, one trailing newline is dropped, and every parse error is `EINVAL`.
fn parse_value<T: FromStr + 'static>(text: CText<'_>) -> Result<T> {
    let mut parsed: Option<T> = None;
    let slot: &mut dyn Any = &mut parsed;
    macro_rules! parse_like_c_if {
        ($($ty:ty),*) => {$(
            if let Some(slot) = slot.downcast_mut::<Option<$ty>>() {
                *slot = Some(<$ty>::parse_like_c(text)?);
            }
        )*};
    }
    parse_like_c_if!(bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
    parse_like_c_if!(Hex<u8>, Hex<u16>, Hex<u32>, Hex<u64>, Hex<usize>, YesNo);
    match parsed {
        Some(value) => Ok(value),
        None => {
            let text = core::str::from_utf8(text.bytes()).map_err(|_| EINVAL)?;
            let text = text.strip_suffix('\n').unwrap_or(text);
            text.parse::<T>().map_err(|_| EINVAL)
        }
    }
}

impl<T: AtomicType + FromStr + 'static> Reader for Atomic<T>
where
    T::Repr: AtomicBasicOps,
{
    fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
        self.store(parse_write(reader, parse_value::<T>)?, Relaxed);
        Ok(())
    }
}

/// Implements [`Reader`] for each listed `core` atomic, holding the given value type.
macro_rules! impl_reader_for_core_atomics {
    ($($value:ty => $atomic:ident),* $(,)?) => {$(
        impl Reader for core_atomic::$atomic {
            fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
                let value = parse_write(reader, <$value>::parse_like_c)?;
                self.store(value, core_atomic::Ordering::Relaxed);
                Ok(())
            }
        }
    )*};
}

impl_reader_for_core_atomics!(
    bool => AtomicBool, i8 => AtomicI8, i16 => AtomicI16, i32 => AtomicI32, isize => AtomicIsize,
    u8 => AtomicU8, u16 => AtomicU16, u32 => AtomicU32, usize => AtomicUsize,
);

// 32-bit PowerPC and 32-bit UML have no 64-bit atomics, and `core` then no `AtomicU64`.
#[cfg(target_has_atomic = "64")]
impl_reader_for_core_atomics!(i64 => AtomicI64, u64 => AtomicU64);

impl<T: FromStr + Unpin + 'static> Reader for Mutex<T> {
    fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
        let value = parse_write(reader, parse_value::<T>)?;
        *self.lock() = value;
        Ok(())
    }
}

/// A value that can be read as raw bytes, for reading its binary file.
///
/// It is implemented for plain-old-data values (zerocopy's `IntoBytes + Immutable`), vectors of
/// them, and locks, boxes and `Arc`s of such values. Those copy the value as it is in memory, as
/// C's `debugfs_create_blob()` does: a `u32` of 1 reads as `01 00 00 00` on x86_64 and arm64 but
/// `00 00 00 01` on s390. For the same bytes everywhere, use `to_le_bytes()`, as below.
///
/// # Examples
///
/// A register, little-endian whatever the CPU:
///
/// ```
/// use kernel::debugfs::{BinaryWriter, Dir};
/// use kernel::fs::file::Offset;
/// use kernel::uaccess::UserSliceWriter;
///
/// struct Id(u32);
///
/// impl BinaryWriter for Id {
///     fn write_to_slice(&self, w: &mut UserSliceWriter, offset: &mut Offset) -> Result<usize> {
///         w.write_slice_file(&self.0.to_le_bytes(), offset)
///     }
/// }
///
/// let dir = Dir::new(c"example_binary_writer");
/// // `xxd .../id` shows `34 12 00 00` on every CPU.
/// let id = KBox::pin_init(dir.read_binary_file(c"id", Id(0x1234)), GFP_KERNEL)?;
/// # Ok::<(), Error>(())
/// ```
pub trait BinaryWriter {
    /// Copies bytes of the value from `*offset` on into `writer`, as many as it has room for;
    /// advances `*offset` by the number copied and returns it.
    ///
    /// Like C's `simple_read_from_buffer` ([`UserSliceWriter::write_slice_file`]), the copy is
    /// short at the end, 0 bytes at or past it, and a negative offset is `EINVAL`.
    fn write_to_slice(&self, writer: &mut UserSliceWriter, offset: &mut Offset) -> Result<usize>;
}

impl<T: Immutable + IntoBytes> BinaryWriter for T {
    fn write_to_slice(&self, writer: &mut UserSliceWriter, offset: &mut Offset) -> Result<usize> {
        writer.write_slice_file(self.as_bytes(), offset)
    }
}

impl<T: BinaryWriter> BinaryWriter for Mutex<T> {
    fn write_to_slice(&self, writer: &mut UserSliceWriter, offset: &mut Offset) -> Result<usize> {
        self.lock().write_to_slice(writer, offset)
    }
}

impl<T: Immutable + IntoBytes, A: Allocator> BinaryWriter for Vec<T, A> {
    fn write_to_slice(&self, writer: &mut UserSliceWriter, offset: &mut Offset) -> Result<usize> {
        writer.write_slice_file(self.as_slice().as_bytes(), offset)
    }
}

/// Implements `$trait` for `Box`, `Pin<Box>` and `Arc` of a `T: $trait` by calling `T`'s.
macro_rules! impl_through_pointers {
    ($trait:ident, [$($unsized:tt)*], fn $method:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        impl<T: $($unsized)* $trait, A: Allocator> $trait for Box<T, A> {
            fn $method(&self, $($arg: $ty),*) -> $ret {
                (**self).$method($($arg),*)
            }
        }

        impl<T: $($unsized)* $trait, A: Allocator> $trait for Pin<Box<T, A>> {
            fn $method(&self, $($arg: $ty),*) -> $ret {
                (**self).$method($($arg),*)
            }
        }

        impl<T: $($unsized)* $trait> $trait for Arc<T> {
            fn $method(&self, $($arg: $ty),*) -> $ret {
                (**self).$method($($arg),*)
            }
        }
    };
}

impl_through_pointers!(
    BinaryWriter, [],
    fn write_to_slice(writer: &mut UserSliceWriter, offset: &mut Offset) -> Result<usize>
);

/// A value that can be overwritten with raw bytes, given exclusive access.
///
/// It is implemented for plain-old-data values (zerocopy's `FromBytes + IntoBytes`), vectors of
/// them and boxes; a [`Mutex`] of such a value is a [`BinaryReader`]. Numbers take the bytes in
/// the CPU's order (see [`BinaryWriter`]).
pub trait BinaryReaderMut {
    /// Copies the bytes in `reader` into the value from `*offset` on; advances `*offset` by the
    /// number of bytes copied and returns it.
    ///
    /// Binary values have a fixed size (vectors are never grown): a write that does not fit at
    /// its offset fails as a whole with `EFBIG`, a negative offset with `EINVAL`. Implementations
    /// must be all or nothing: after any error, including `EFAULT`, the value is as it was.
    fn read_from_slice_mut(
        &mut self,
        reader: &mut UserSliceReader,
        offset: &mut Offset,
    ) -> Result<usize>;
}

/// Bytes of a binary write staged on the stack; longer writes are staged on the heap.
const STAGE_ON_STACK: usize = 64;

/// Copies `reader` into `bytes` at `*offset`, all or nothing (see [`BinaryReaderMut`]).
///
/// The bytes are staged and land in `bytes` only once all have arrived: a copy that faults
/// part-way would otherwise leave some of them, and zeros, in the value.
fn overwrite_bytes(
    bytes: &mut [u8],
    reader: &mut UserSliceReader,
    offset: &mut Offset,
) -> Result<usize> {
    // Negative is `EINVAL`; past what a `usize` holds (a 32-bit kernel) is past the end.
    if *offset < 0 {
        return Err(EINVAL);
    }
    let start = usize::try_from(*offset).map_err(|_| EFBIG)?;
    let end = start.checked_add(reader.len()).ok_or(EFBIG)?;
    let window = bytes.get_mut(start..end).ok_or(EFBIG)?;
    let mut stack = [0u8; STAGE_ON_STACK];
    if let Some(stage) = stack.get_mut(..window.len()) {
        reader.read_slice(stage)?;
        window.copy_from_slice(stage);
    } else {
        let mut stage = KVVec::new();
        stage.resize(window.len(), 0, GFP_KERNEL)?;
        reader.read_slice(&mut stage)?;
        window.copy_from_slice(&stage);
    }
    // CAST: `window` is part of a slice, whose length fits in an `Offset`.
    *offset += window.len() as Offset;
    Ok(window.len())
}

impl<T: FromBytes + IntoBytes> BinaryReaderMut for T {
    fn read_from_slice_mut(
        &mut self,
        reader: &mut UserSliceReader,
        offset: &mut Offset,
    ) -> Result<usize> {
        overwrite_bytes(self.as_mut_bytes(), reader, offset)
    }
}

impl<T: ?Sized + BinaryReaderMut, A: Allocator> BinaryReaderMut for Box<T, A> {
    fn read_from_slice_mut(
        &mut self,
        reader: &mut UserSliceReader,
        offset: &mut Offset,
    ) -> Result<usize> {
        (**self).read_from_slice_mut(reader, offset)
    }
}

impl<T: FromBytes + IntoBytes, A: Allocator> BinaryReaderMut for Vec<T, A> {
    fn read_from_slice_mut(
        &mut self,
        reader: &mut UserSliceReader,
        offset: &mut Offset,
    ) -> Result<usize> {
        overwrite_bytes(self.as_mut_slice().as_mut_bytes(), reader, offset)
    }
}

/// A value that can be overwritten with raw bytes through a shared reference, for writing its
/// binary file: a [`BinaryReaderMut`] whose exclusive access the implementation provides, as the
/// one for [`Mutex`] does by locking.
pub trait BinaryReader {
    /// Copies `reader` into the value at `*offset`, see [`BinaryReaderMut::read_from_slice_mut`].
    fn read_from_slice(&self, reader: &mut UserSliceReader, offset: &mut Offset) -> Result<usize>;
}

impl<T: BinaryReaderMut + Unpin> BinaryReader for Mutex<T> {
    fn read_from_slice(&self, reader: &mut UserSliceReader, offset: &mut Offset) -> Result<usize> {
        self.lock().read_from_slice_mut(reader, offset)
    }
}

impl_through_pointers!(
    BinaryReader, [?Sized +],
    fn read_from_slice(reader: &mut UserSliceReader, offset: &mut Offset) -> Result<usize>
);
