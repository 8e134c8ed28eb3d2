// SPDX-License-Identifier: GPL-2.0

//! Callback files without storing the callbacks.
//!
//! A callback file shows a `T` through a closure `F` and updates it through a closure `W`. Only
//! the closures' *types* are carried: the file's data is viewed as a [`Callbacks<T, F, W>`], whose
//! [`Writer`] and [`Reader`] conjure the closures back with [`materialize_zst`]. The closures must
//! be zero-sized (a function item or a capture-less closure; [`adapt`] checks it at compile time)
//! and [`Copy`], and the file's creator held a `&'static F`, proof that `F` has a value.

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
/// `()` (no closure) as `F` or `W` gives no [`Writer`] or no [`Reader`].
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
        // SAFETY: `F` is inhabited: only the tables of `read_only` and `read_write`, which took a
        // `&'static F`, view data as a `Callbacks` (private to this module).
        let format = unsafe { materialize_zst::<F>() };
        format(&self.inner, f)
    }
}

impl<T, F, W> Reader for Callbacks<T, F, W>
where
    W: Fn(&T, &mut UserSliceReader) -> Result + Copy + 'static,
{
    fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
        // SAFETY: `W` is inhabited: only the tables of `read_write` and `write_only`, which took
        // a `&'static W`, view data as a `Callbacks` (private to this module).
        let write = unsafe { materialize_zst::<W>() };
        write(&self.inner, reader)
    }
}

/// Serves files whose data is a plain `T` with the table of `Callbacks<T, F, W>`.
const fn adapt<T, F, W, O>(
    file_ops: &'static FileOps<Callbacks<T, F, W>, O>,
) -> &'static FileOps<T, O> {
    const { assert_zero_sized::<F>() };
    const { assert_zero_sized::<W>() };
    // SAFETY: `FileOps` is `#[repr(C)]` with its data type only in a `PhantomData`, so both types
    // have the same layout and validity. The invariant of `FileOps` carries over: `Callbacks` is
    // `#[repr(transparent)]` over `T`, so a pointer to a live `T` is one to a live `Callbacks`.
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
    adapt(&FileOps::<Callbacks<T, F, ()>>::READ_ONLY)
}

/// The table of read-write files showing a `T` through `F` and updating it through `W`.
pub(crate) fn read_write<T, F, W>(_f: &'static F, _w: &'static W) -> &'static FileOps<T>
where
    T: Sync + 'static,
    F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Sync + Copy + 'static,
    W: Fn(&T, &mut UserSliceReader) -> Result + Sync + Copy + 'static,
{
    adapt(&FileOps::<Callbacks<T, F, W>>::READ_WRITE)
}

/// The table of write-only files updating a `T` through `W`.
pub(crate) fn write_only<T, W>(_w: &'static W) -> &'static ShortFileOps<T>
where
    T: Sync + 'static,
    W: Fn(&T, &mut UserSliceReader) -> Result + Sync + Copy + 'static,
{
    adapt(&ShortFileOps::<Callbacks<T, (), W>>::WRITE_ONLY)
}

/// Returns a reference to the value of the zero-sized type `F`.
///
/// `F` must be `Copy`, so that a conjured value forges nothing: a non-`Copy` zero-sized type may
/// be a token whose construction means something, such as proof that a lock is held.
///
/// # Safety
///
/// `F` must be inhabited: the caller must know that a value of `F` has existed, for example
/// because it was given a `&'static F`.
unsafe fn materialize_zst<F: Copy>() -> &'static F {
    const { assert_zero_sized::<F>() };
    // SAFETY: `F` is zero-sized (checked above), so a dangling, well-aligned pointer is valid for
    // reads of `F`, and points at a value of `F` as `F` is inhabited (our caller's guarantee).
    unsafe { core::ptr::NonNull::<F>::dangling().as_ref() }
}
