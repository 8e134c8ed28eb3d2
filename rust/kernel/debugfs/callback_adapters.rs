// SPDX-License-Identifier: GPL-2.0

//! Callback files without storing the callbacks.
//!
//! A callback file shows a `T` through a closure `F` and updates it through a closure `W`,
//! instead of through `T`'s own [`Writer`] and [`Reader`]. Storing the closures would take memory
//! next to the file; boxing them would allocate. Instead, only their *types* are carried: the
//! file's data is viewed as a [`Callbacks<T, F, W>`], which wraps `T` and names `F` and `W` in a
//! [`PhantomData`], and whose [`Writer`] and [`Reader`] conjure the closures back from their types
//! with [`materialize_zst`].
//!
//! This is possible because the closures must be zero-sized (a function item or a closure that
//! captures nothing), which each table checks at compile time, so a capturing closure is
//! rejected where it is passed. It is sound because whoever created the file held a `&'static F`
//! (and `&'static W`), which proves that the type has a value, and because the closures must be
//! [`Copy`], so conjuring one more value forges nothing (see [`materialize_zst`]).
//!
//! [`Callbacks`] is `#[repr(transparent)]` over the data, so the [`FileOps`] of
//! `Callbacks<T, F, W>` can serve files whose `i_private` points at a plain `T` (see [`adapt`]).
//! The rest of the module only sees the resulting tables: [`read_only`], [`read_write`] and
//! [`write_only`].

use super::{
    file_ops::{
        FileOps,
        ShortFileOps, //
    },
    Reader,
    Writer, //
};
use crate::{
    fmt,
    prelude::*,
    uaccess::UserSliceReader, //
};
use core::marker::PhantomData;

/// Data of a callback file, rendered by the closure type `F` and updated by the closure type `W`.
///
/// A file that cannot be read has `()` as `F`, one that cannot be written `()` as `W`: `()` is
/// no closure, so the adapter then has no [`Writer`] or no [`Reader`].
#[repr(transparent)]
struct Callbacks<T, F, W> {
    inner: T,
    _callbacks: PhantomData<(F, W)>,
}

impl<T, F, W> Writer for Callbacks<T, F, W>
where
    F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Copy + 'static,
{
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: `F` is inhabited: data is only viewed as a `Callbacks` (a type private to this
        // module) by the tables of `read_only` and `read_write`, which took a `&'static F`.
        let format = unsafe { materialize_zst::<F>() };
        format(&self.inner, f)
    }
}

impl<T, F, W> Reader for Callbacks<T, F, W>
where
    W: Fn(&T, &mut UserSliceReader) -> Result + Copy + 'static,
{
    fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
        // SAFETY: `W` is inhabited: data is only viewed as a `Callbacks` (a type private to this
        // module) by the tables of `read_write` and `write_only`, which took a `&'static W`.
        let write = unsafe { materialize_zst::<W>() };
        write(&self.inner, reader)
    }
}

/// Serves files whose data is a plain `T` with the table of `Callbacks<T, F, W>`.
const fn adapt<T, F, W, O>(
    file_ops: &'static FileOps<Callbacks<T, F, W>, O>,
) -> &'static FileOps<T, O> {
    const { assert!(FileOps::<Callbacks<T, F, W>, O>::same_layout_as::<T>()) };
    // SAFETY: `FileOps` is `#[repr(C)]` and its data type only appears in a `PhantomData` (a
    // zero-sized field with alignment 1 for every type), so both types have the same fields at
    // the same offsets (also checked just above): the cast keeps size, alignment and validity.
    // The type invariant of `FileOps` carries over: `Callbacks<T, F, W>` is `#[repr(transparent)]`
    // over `T` with only a `PhantomData` beside it, so a pointer to a live `T` is a pointer to a
    // live `Callbacks<T, F, W>`.
    unsafe { &*core::ptr::from_ref(file_ops).cast() }
}

/// Fails the build unless `F` is zero-sized.
const fn assert_zero_sized<F>() {
    assert!(
        core::mem::size_of::<F>() == 0,
        "DebugFS callbacks must be zero-sized: a function or a closure that captures nothing"
    );
}

/// The table of read-only files showing a `T` through `F`.
pub(crate) fn read_only<T, F>(_f: &'static F) -> &'static FileOps<T>
where
    T: Sync + 'static,
    F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Sync + Copy + 'static,
{
    const { assert_zero_sized::<F>() };
    adapt(&FileOps::<Callbacks<T, F, ()>>::READ_ONLY)
}

/// The table of read-write files showing a `T` through `F` and updating it through `W`.
pub(crate) fn read_write<T, F, W>(_f: &'static F, _w: &'static W) -> &'static FileOps<T>
where
    T: Sync + 'static,
    F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Sync + Copy + 'static,
    W: Fn(&T, &mut UserSliceReader) -> Result + Sync + Copy + 'static,
{
    const { assert_zero_sized::<F>() };
    const { assert_zero_sized::<W>() };
    adapt(&FileOps::<Callbacks<T, F, W>>::READ_WRITE)
}

/// The table of write-only files updating a `T` through `W`.
pub(crate) fn write_only<T, W>(_w: &'static W) -> &'static ShortFileOps<T>
where
    T: Sync + 'static,
    W: Fn(&T, &mut UserSliceReader) -> Result + Sync + Copy + 'static,
{
    const { assert_zero_sized::<W>() };
    adapt(&ShortFileOps::<Callbacks<T, (), W>>::WRITE_ONLY)
}

/// Returns a reference to the value of the zero-sized type `F`.
///
/// `F` must be `Copy`: a zero-sized type whose values are freely duplicated has no identity, no
/// address that matters and nothing to drop, so one more reference to a conjured value is
/// indistinguishable from a reference to the one the caller saw. (A non-`Copy` zero-sized type
/// may be a token whose construction means something, such as proof that a lock is held; this
/// function must not forge those.)
///
/// # Safety
///
/// `F` must be inhabited: the caller must know that a value of `F` has existed, for example
/// because it was given a `&'static F`. Conjuring a value of an empty type is undefined
/// behaviour.
unsafe fn materialize_zst<F: Copy>() -> &'static F {
    const { assert_zero_sized::<F>() };
    // SAFETY: `F` is zero-sized (checked at compile time above), so a dangling, well-aligned
    // pointer is valid for reads of `F` and points at a value of `F`: there are no bytes to be
    // initialised, and `F` is inhabited by the caller's guarantee.
    unsafe { core::ptr::NonNull::<F>::dangling().as_ref() }
}
