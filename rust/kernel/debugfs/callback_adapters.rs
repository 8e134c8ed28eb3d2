// SPDX-License-Identifier: GPL-2.0

//! Callback files without storing the callbacks.
//!
//! A callback file shows a `T` through a closure `F` instead of through `T`'s own [`Writer`] or
//! [`Reader`]. Storing `F` would take memory next to the file; boxing it would allocate. Instead,
//! the closure's *type* is carried: the file's data is viewed as an adapter type that wraps `T`
//! and names `F` in a [`PhantomData`], and that adapter's [`Writer`] or [`Reader`] impl conjures
//! the closure back from its type with [`materialize_zst`]. This is possible because `F` must be
//! zero-sized (a function item or a closure that captures nothing), and it is sound because
//! whoever created the file held a `&'static F`, which proves that `F` has a value.
//!
//! The adapters are `#[repr(transparent)]` over the data, so a `&T` can be handed to DebugFS as
//! if it were a `&FormatAdapter<T, F>`, and the [`FileOps`] of the adapter type can serve files
//! whose `i_private` points at a plain `T` (see [`adapt`]). The rest of the module only
//! sees the resulting tables: [`read_only`], [`read_write`] and [`write_only`].

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
use core::{
    marker::PhantomData,
    ops::Deref, //
};

/// A wrapper type that has the same layout as the data it wraps.
///
/// # Safety
///
/// Implementers must be `#[repr(transparent)]` over a field of type [`Adapter::Inner`], and any
/// valid `Inner` must be a valid `Self` (so the other fields are zero-sized and have no
/// invariants).
unsafe trait Adapter {
    /// The wrapped type.
    type Inner;
}

/// Reuses the table of the adapter type `A` for files whose data is the wrapped type.
///
/// The callbacks of `FileOps<A, O>` read `i_private` as a `*const A`; by the [`Adapter`] contract
/// that is the same pointer as a `*const A::Inner` to the same data.
const fn adapt<A: Adapter, O>(file_ops: &'static FileOps<A, O>) -> &'static FileOps<A::Inner, O> {
    const { assert!(FileOps::<A, O>::same_layout_as::<A::Inner>()) };
    // SAFETY: `FileOps` is `#[repr(C)]` and its data type only appears in a `PhantomData` (a
    // zero-sized field with alignment 1 for every type), so `FileOps<A, O>` and
    // `FileOps<A::Inner, O>` have the same fields at the same offsets (also checked just above):
    // the cast keeps size, alignment and validity. The callbacks stay sound: a pointer to a live
    // `A::Inner` is a pointer to a live `A` (`Adapter` contract).
    unsafe { &*core::ptr::from_ref(file_ops).cast::<FileOps<A::Inner, O>>() }
}

/// Data of a callback file that is rendered by the closure type `F`.
#[repr(transparent)]
struct FormatAdapter<T, F> {
    inner: T,
    _format: PhantomData<F>,
}

// SAFETY: `#[repr(transparent)]` over `inner: T`; the `PhantomData` has no invariant.
unsafe impl<T, F> Adapter for FormatAdapter<T, F> {
    type Inner = T;
}

impl<T, F> Deref for FormatAdapter<T, F> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T, F> Writer for FormatAdapter<T, F>
where
    F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Copy + 'static,
{
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: This type is private to this module, and only the tables of `read_only` and
        // `read_write` view data as it; both took a `&'static F`, so `F` is inhabited.
        let format = unsafe { materialize_zst::<F>() };
        format(&self.inner, f)
    }
}

/// Data of a callback file that is updated by the closure type `W`.
///
/// `D` is the data seen by the file's other side: [`FormatAdapter`] if it is also readable
/// through a closure, [`NoWriter`] if it cannot be read.
#[repr(transparent)]
struct WritableAdapter<D, W> {
    inner: D,
    _write: PhantomData<W>,
}

// SAFETY: `#[repr(transparent)]` over `inner: D`; the `PhantomData` has no invariant.
unsafe impl<D, W> Adapter for WritableAdapter<D, W> {
    type Inner = D;
}

impl<D: Writer, W> Writer for WritableAdapter<D, W> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.write(f)
    }
}

impl<D: Deref, W> Reader for WritableAdapter<D, W>
where
    W: Fn(&D::Target, &mut UserSliceReader) -> Result + Copy + 'static,
{
    fn read_from_slice(&self, reader: &mut UserSliceReader) -> Result {
        // SAFETY: This type is private to this module, and only the tables of `read_write` and
        // `write_only` view data as it; both took a `&'static W`, so `W` is inhabited.
        let write = unsafe { materialize_zst::<W>() };
        write(&self.inner, reader)
    }
}

/// Data of a write-only callback file: the data itself, with no way to read it.
#[repr(transparent)]
struct NoWriter<T> {
    inner: T,
}

// SAFETY: `#[repr(transparent)]` over `inner: T`.
unsafe impl<T> Adapter for NoWriter<T> {
    type Inner = T;
}

impl<T> Deref for NoWriter<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.inner
    }
}

/// Fails the build unless `F` is zero-sized.
const fn assert_zero_sized<F>() {
    assert!(
        core::mem::size_of::<F>() == 0,
        "DebugFS callbacks must be zero-sized: a function or a closure that captures nothing"
    );
}

// The tables of the callback files, for files whose data is a plain `T`. Each one checks at
// compile time that its callbacks are zero-sized, so a capturing closure is rejected where it is
// passed. Each takes the callbacks themselves, unused: holding a `&'static F` proves that `F` is
// inhabited, which is what makes conjuring it later sound.

/// The table of read-only files showing a `T` through `F`.
pub(crate) fn read_only<T, F>(_f: &'static F) -> &'static FileOps<T>
where
    T: Sync + 'static,
    F: Fn(&T, &mut fmt::Formatter<'_>) -> fmt::Result + Sync + Copy + 'static,
{
    const { assert_zero_sized::<F>() };
    adapt(&FileOps::<FormatAdapter<T, F>>::READ_ONLY)
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
    adapt(adapt(
        &FileOps::<WritableAdapter<FormatAdapter<T, F>, W>>::READ_WRITE,
    ))
}

/// The table of write-only files updating a `T` through `W`.
pub(crate) fn write_only<T, W>(_w: &'static W) -> &'static ShortFileOps<T>
where
    T: Sync + 'static,
    W: Fn(&T, &mut UserSliceReader) -> Result + Sync + Copy + 'static,
{
    const { assert_zero_sized::<W>() };
    adapt(adapt(
        &ShortFileOps::<WritableAdapter<NoWriter<T>, W>>::WRITE_ONLY,
    ))
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
