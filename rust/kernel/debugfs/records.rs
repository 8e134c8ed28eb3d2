// SPDX-License-Identifier: GPL-2.0

//! Record files: long text rendered one record at a time, through `seq_file`.
//!
//! A [`Writer`] renders a file's whole text at once, which suits a value but not a table of a
//! hundred thousand entries. A [`Records`] type is read the way C's `seq_file` iterators are:
//! each `read(2)` starts at a record index, renders records into the `seq_file` buffer until it
//! is full, and stops. The file is a real `seq_file`, so `cat`, short reads and `lseek` behave
//! exactly as for a C `seq_file`, and an open file holds one buffer however many records there
//! are: a page, or twice the longest record it met if that is more (`seq_file` keeps a grown
//! buffer until the file is closed).
//!
//! What a read holds between records is the [`Records::Cursor`]: a position, and whatever keeps
//! the records still, such as a lock guard. A cursor lives from `start` to `stop` of one `read(2)`
//! (C's `seq_operations`) and is dropped before any data is copied to user space, so the driver's
//! lock is held only while records are rendered, never across a page fault.

use super::{
    text_read,
    Writer, //
};
use crate::{
    alloc::KVec,
    bindings,
    fmt,
    prelude::*,
    sync::{
        Mutex,
        MutexGuard, //
    }, //
};
use core::{
    marker::PhantomData,
    mem::MaybeUninit, //
};

/// A sequence of records shown one after the other, like a C `seq_file` iterator.
///
/// Each `read(2)` of the file calls [`start`](Records::start) with the index of the first record
/// it needs, then alternates [`show`](Records::show) and [`next`](Records::next) until the
/// reader's buffer is full or there are no more records, then drops the cursor. Records are
/// counted from 0; the file offset is a position in the text, which `seq_file` maps to records.
///
/// Between two reads the records may change. A reader then continues at the same record *index*:
/// a record inserted or removed before that index makes it see one record twice or miss one, as
/// with a C `seq_file` over a list. Each record is rendered whole, under whatever the cursor
/// holds.
///
/// `show` runs with the cursor's guard held and may run in atomic context if the guard is a
/// spinlock's: it must not sleep, and the file never allocates while it runs. It may be called
/// again for the same record when the buffer was too small, so it should have no side effects.
///
/// It is implemented for [`KVec<T>`] and for a [`Mutex`] of one, whose records are the elements,
/// rendered by their [`Writer`].
///
/// `lseek` (and `pread` at an offset) renders and discards every record up to the offset, with
/// one cursor held throughout, as C's `seq_file` does: with a spinlock in the cursor, a seek far
/// into a long file keeps preemption off for that long.
///
/// # Examples
///
/// ```
/// use kernel::debugfs::Dir;
/// use kernel::prelude::*;
/// use kernel::sync::Mutex;
///
/// // One line per element, e.g. `cat .../events` prints "1\n2\n3\n".
/// let mut events = KVec::new();
/// for id in 1..=3u32 {
///     events.push(id, GFP_KERNEL)?;
/// }
/// let dir = Dir::new(c"example_records");
/// let events =
///     KBox::pin_init(dir.records_file(c"events", kernel::new_mutex!(events)), GFP_KERNEL)?;
/// // The driver keeps adding records; readers see them from their next `read(2)` on.
/// events.lock().push(4, GFP_KERNEL)?;
/// assert_eq!(events.lock().len(), 4);
/// # Ok::<(), Error>(())
/// ```
pub trait Records: Sync {
    /// Where a read is: a position in the records, and what keeps them still while they are
    /// rendered (a lock guard, say).
    type Cursor<'a>
    where
        Self: 'a;

    /// Starts a read at record `index`, or returns `None` if there is no such record.
    fn start(&self, index: usize) -> Option<Self::Cursor<'_>>;

    /// Moves `cursor` to the next record, or returns `false` if there is none.
    fn next<'a>(&'a self, cursor: &mut Self::Cursor<'a>) -> bool;

    /// Renders the record at `cursor`.
    fn show<'a>(&'a self, cursor: &Self::Cursor<'a>, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: Writer + Sync> Records for KVec<T> {
    type Cursor<'a>
        = usize
    where
        Self: 'a;

    fn start(&self, index: usize) -> Option<usize> {
        (index < self.len()).then_some(index)
    }

    fn next<'a>(&'a self, cursor: &mut usize) -> bool {
        *cursor += 1;
        *cursor < self.len()
    }

    fn show<'a>(&'a self, cursor: &usize, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get(*cursor).map_or(Ok(()), |record| record.write(f))
    }
}

/// The mutex is taken at `start` and released when the read drops the cursor.
///
/// Only for a [`Mutex`]: records are rendered with the lock held, and a [`Writer`] may sleep (the
/// [`Writer`] of a [`Mutex`] does). Records under a spinlock need a [`Records`] of the driver's
/// own, whose `show` does not sleep.
impl<T: Writer + Send> Records for Mutex<KVec<T>> {
    type Cursor<'a>
        = (MutexGuard<'a, KVec<T>>, usize)
    where
        Self: 'a;

    fn start(&self, index: usize) -> Option<Self::Cursor<'_>> {
        let records = self.lock();
        (index < records.len()).then_some((records, index))
    }

    fn next<'a>(&'a self, (records, index): &mut Self::Cursor<'a>) -> bool {
        *index += 1;
        *index < records.len()
    }

    fn show<'a>(
        &'a self,
        (records, index): &Self::Cursor<'a>,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        records.get(*index).map_or(Ok(()), |record| record.write(f))
    }
}

/// The cursor of a read, its lifetime erased.
///
/// A cursor borrows the file's data for one read. It is stored between `seq_file`'s calls with its
/// lifetime erased to `'static`, and is always dropped before the read returns, by `next` at the
/// end of the records or by `stop`.
type Cursor<T> = <T as Records>::Cursor<'static>;

/// The `seq_operations` of record files showing a `T`.
///
/// The value the callbacks pass around (`seq_file`'s `void *v`) is the address of the live
/// cursor, or null when there is none: `seq_file` hands `stop` the value the last `start` or
/// `next` returned, so that is where the cursor is dropped if it is still there.
///
/// A cursor of a pointer's size or less, such as the index of a [`KVec`]'s, is kept in the
/// `seq_file`'s own `private` pointer; a larger one, such as a [`Mutex`]'s guard and index, in an
/// allocation of the cursor's size that `private` points at. An open file costs the same as a C
/// `seq_file` in the first case, and one small allocation more in the second.
pub(super) struct RecordOps<T>(PhantomData<T>);

impl<T: Records + 'static> RecordOps<T> {
    /// The iterator `seq_file` drives; `'static` by its type, as `seq_file` keeps the pointer.
    const SEQ: &'static bindings::seq_operations = &bindings::seq_operations {
        start: Some(start::<T>),
        next: Some(next::<T>),
        stop: Some(stop::<T>),
        show: Some(show::<T>),
    };

    /// Whether the cursor is kept in the `seq_file`'s `private` pointer itself.
    pub(super) const INLINE: bool = core::mem::size_of::<Cursor<T>>()
        <= core::mem::size_of::<*mut c_void>()
        && core::mem::align_of::<Cursor<T>>() <= core::mem::align_of::<*mut c_void>();

    // Otherwise `__seq_open_private` allocates the cursor's place with `kzalloc`, which aligns to
    // `ARCH_KMALLOC_MINALIGN` at least, takes its size as an `int`, and for a size of 0 returns
    // `ZERO_SIZE_PTR`, aligned for nothing (a zero-sized cursor aligned to more than a pointer is
    // refused here rather than given a place of its own).
    const CURSOR_FITS: () = assert!(
        Self::INLINE
            || (core::mem::size_of::<Cursor<T>>() > 0
                && core::mem::size_of::<Cursor<T>>() <= c_int::MAX as usize
                && core::mem::align_of::<Cursor<T>>() <= bindings::ARCH_KMALLOC_MINALIGN),
        "a Records cursor must fit in a pointer, or be sized and aligned for kmalloc"
    );
}

/// `open` of record files: a `seq_file`, with room for a cursor (see [`RecordOps`]).
///
/// It does not touch the `T`: only `start`, `next` and `show` do, during a read or seek. `release`
/// is C's `seq_release()` or `seq_release_private()`, which match the two ways of opening: no
/// cursor is left to drop when the file is closed.
///
/// # Safety
///
/// Called by the VFS with a valid `file` being opened.
pub(super) unsafe extern "C" fn open<T: Records + 'static>(
    _inode: *mut bindings::inode,
    file: *mut bindings::file,
) -> c_int {
    let () = RecordOps::<T>::CURSOR_FITS;
    if RecordOps::<T>::INLINE {
        // SAFETY: `file` is valid; `SEQ` is `'static`.
        return unsafe { bindings::seq_open(file, RecordOps::<T>::SEQ) };
    }
    // CAST: `CURSOR_FITS` checked that the size fits in a `c_int`.
    let size = core::mem::size_of::<Cursor<T>>() as c_int;
    // SAFETY: `file` is valid; `SEQ` is `'static`. On success the `seq_file` is the file's
    // `private_data` and its `private` the allocation of `size` bytes returned here.
    let place = unsafe { bindings::__seq_open_private(file, RecordOps::<T>::SEQ, size) };
    if place.is_null() {
        return ENOMEM.to_errno();
    }
    0
}

/// Returns the data of a record file.
///
/// # Safety
///
/// `seq` must be the `seq_file` of a record file opened by [`open`], used by `seq_file` during a
/// `read(2)` or `lseek(2)`, which the DebugFS proxy runs with an active reference to the file:
/// its `i_private` is then a live `T`.
unsafe fn data<'a, T: Records + 'static>(seq: *mut bindings::seq_file) -> &'a T {
    // SAFETY: By the function's contract; `seq_open` set `file`.
    unsafe { &*(*(*(*seq).file).f_inode).i_private.cast::<T>() }
}

/// `start` of [`RecordOps`]: makes the cursor of record `*pos`, or returns null past the end.
///
/// # Safety
///
/// Called by `seq_file`, during a read or seek of a record file that [`open`] opened, with that
/// file's `seq_file`, which has no live cursor: not between another `start` and its `stop`.
unsafe extern "C" fn start<T: Records + 'static>(
    seq: *mut bindings::seq_file,
    pos: *mut bindings::loff_t,
) -> *mut c_void {
    // SAFETY: `seq_file` calls this during a read or seek of a file `open` opened.
    let data = unsafe { data::<T>(seq) };
    // SAFETY: `pos` is valid for the call.
    let Some(cursor) = usize::try_from(unsafe { *pos })
        .ok()
        .and_then(|index| data.start(index))
    else {
        return core::ptr::null_mut();
    };
    let place: *mut Cursor<T> = if RecordOps::<T>::INLINE {
        // SAFETY: `seq` is valid; `INLINE` says the cursor fits in the pointer-aligned `private`
        // field, which a `seq_file` opened with `seq_open` leaves to its user.
        unsafe { core::ptr::addr_of_mut!((*seq).private).cast() }
    } else {
        // SAFETY: `open` made `private` an allocation of the cursor's size, not zero, aligned for
        // it (`CURSOR_FITS`).
        unsafe { (*seq).private.cast() }
    };
    // SAFETY: `seq_file` runs `start` to `stop` of one read or seek with the `seq_file`'s mutex
    // held, so the place is ours. It holds no cursor: `seq_file` calls `stop` after every `start`
    // before the next one (within a read too, when it grows its buffer and starts again), and
    // `stop` or an earlier `next` dropped that cursor. The cursor is dropped before the read or
    // seek returns, while the active reference that keeps `data` alive is held, so its erased
    // lifetime is never outlived.
    unsafe { place.write(cursor) };
    place.cast()
}

/// `next` of [`RecordOps`]: moves to the next record, or drops the cursor at the end.
///
/// # Safety
///
/// Called by `seq_file`, during a read or seek of a record file that [`open`] opened, with that
/// file's `seq_file` and the non-null value the last `start` or `next` returned.
unsafe extern "C" fn next<T: Records + 'static>(
    seq: *mut bindings::seq_file,
    v: *mut c_void,
    pos: *mut bindings::loff_t,
) -> *mut c_void {
    // SAFETY: `seq_file` calls this during a read of a file `open` opened; `pos` is valid.
    let data = unsafe {
        *pos += 1;
        data::<T>(seq)
    };
    let place = v.cast::<Cursor<T>>();
    // SAFETY: A non-null `v` is the place of a live cursor, ours until `stop` (see `start`).
    if data.next(unsafe { &mut *place }) {
        return v;
    }
    // SAFETY: As above; returning null tells `seq_file` that there is no cursor any more, so it
    // is not used again.
    unsafe { core::ptr::drop_in_place(place) };
    core::ptr::null_mut()
}

/// `stop` of [`RecordOps`]: drops the cursor if there is one, releasing what it held.
///
/// # Safety
///
/// Called by `seq_file`, during a read or seek of a record file that [`open`] opened, with that
/// file's `seq_file` and the value the last `start` or `next` returned.
unsafe extern "C" fn stop<T: Records + 'static>(_seq: *mut bindings::seq_file, v: *mut c_void) {
    if !v.is_null() {
        // SAFETY: A non-null `v` is the place of a live cursor (see `start`), not used after
        // `stop`.
        unsafe { core::ptr::drop_in_place(v.cast::<Cursor<T>>()) };
    }
}

/// `show` of [`RecordOps`]: renders the current record into the `seq_file` buffer.
///
/// A record that does not fit marks the buffer overflowed, and `seq_file` calls `show` again with
/// a larger one. A [`fmt::Error`] fails the `read(2)` with `EINVAL` if the record is the first of
/// that read, and otherwise ends the read before it.
///
/// # Safety
///
/// Called by `seq_file`, during a read or seek of a record file that [`open`] opened, with that
/// file's `seq_file` and the non-null value the last `start` or `next` returned.
unsafe extern "C" fn show<T: Records + 'static>(
    seq: *mut bindings::seq_file,
    v: *mut c_void,
) -> c_int {
    // SAFETY: `seq_file` calls this during a read of a file `open` opened.
    let data = unsafe { data::<T>(seq) };
    // SAFETY: `seq_file` calls `show` with the non-null value of a `start` or `next`: the place of
    // a live cursor (see `start`).
    let cursor = unsafe { &*v.cast::<Cursor<T>>() };
    // SAFETY: `seq_file` allocated `buf` (`size` bytes, of which the first `count <= size` are in
    // use) before calling `start`, and lets `show` append to it under its mutex.
    let (buf, size, count) = unsafe { ((*seq).buf, (*seq).size, (*seq).count) };
    // SAFETY: The free part of the buffer, `size - count` bytes from `buf + count`, is ours for
    // the call; it may be uninitialised, which `MaybeUninit` allows.
    let free: &mut [MaybeUninit<u8>] =
        unsafe { core::slice::from_raw_parts_mut(buf.add(count).cast(), size - count) };
    let free_len = free.len();
    match text_read::render_uninit(format_args!("{}", Shown(data, cursor)), free) {
        // SAFETY: `show` may grow `count` up to `size` (`seq_commit()`); `count == size` marks the
        // buffer overflowed (`seq_set_overflow()`), and `seq_file` then calls `show` again with a
        // larger buffer. A record that fills the buffer exactly counts as overflowed too, as for
        // `seq_printf()`.
        Ok(len) => unsafe { (*seq).count = if len <= free_len { count + len } else { size } },
        Err(e) => return e.to_errno(),
    }
    0
}

/// Displays the record at a cursor.
struct Shown<'a, 'c, T: Records>(&'a T, &'c T::Cursor<'a>);

impl<T: Records> core::fmt::Display for Shown<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.show(self.1, f)
    }
}
