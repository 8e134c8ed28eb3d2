// SPDX-License-Identifier: GPL-2.0

//! Record files: long text rendered one record at a time, through `seq_file`.
//!
//! A [`Writer`] renders a file's whole text at once, which suits a value but not a table of a
//! hundred thousand entries; a [`Records`] type is read the way C's `seq_file` iterators are.

use super::{
    file_ops::{
        FileOps,
        Rendered, //
    },
    Writer, //
};
use crate::{
    alloc::KVec,
    bindings,
    fmt,
    prelude::*,
    seq_file::SeqFile,
    sync::{
        Mutex,
        MutexGuard, //
    }, //
};
use core::marker::PhantomData;

/// A sequence of records shown one after the other, like a C `seq_file` iterator.
///
/// The file is a real `seq_file`: `cat`, short reads and `lseek` behave as in C, and an open file
/// holds one buffer (a page, or twice the longest record if more) whatever their number. Each
/// `read(2)` calls [`start`](Records::start) with the index (from 0) of the first record it needs,
/// alternates [`show`](Records::show) and [`next`](Records::next) until the buffer is full or the
/// records end, and drops the cursor (C's `stop`) before copying to user space, so the cursor's
/// lock is never held across a page fault. The next read goes on at the next *index*: a record
/// inserted or removed before it meanwhile makes the reader see one twice or miss one, as in C.
///
/// `show` renders a record whole, under whatever the cursor holds, so it must not sleep if that is
/// a spinlock (the file never allocates while it runs). It may run again for the same record when
/// the buffer was too small, so it should have no side effects. `lseek` (and `pread`) renders and
/// discards every record up to the offset under one cursor, and one hold of its lock, as C does.
///
/// It is implemented for [`KVec<T>`] and a [`Mutex`] of one, whose records are the elements,
/// rendered by their [`Writer`].
///
/// # Examples
///
/// ```
/// use kernel::debugfs::Dir;
///
/// // One line per element, e.g. `cat .../events` prints "1\n2\n3\n".
/// let mut events = KVec::new();
/// events.extend_from_slice(&[1u32, 2, 3], GFP_KERNEL)?;
/// let dir = Dir::new(c"example_records");
/// let events =
///     KBox::pin_init(dir.records_file(c"events", kernel::new_mutex!(events)), GFP_KERNEL)?;
/// // The driver keeps adding records; readers see them from their next `read(2)` on.
/// events.lock().push(4, GFP_KERNEL)?;
/// assert_eq!(events.lock().len(), 4);
/// # Ok::<(), Error>(())
/// ```
pub trait Records: Sync {
    /// Where a read is: a position, and what keeps the records still (a lock guard, say).
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

/// The mutex is held from `start` until the read drops the cursor. Only for a [`Mutex`], as a
/// [`Writer`] may sleep; records under a spinlock need a [`Records`] of the driver's own whose
/// `show` does not sleep.
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

/// The cursor of a read, its lifetime erased between `seq_file`'s calls; it is always dropped
/// before the read returns, by `next` at the end of the records or by `stop`.
type Cursor<T> = <T as Records>::Cursor<'static>;

/// The `seq_operations` of record files showing a `T`.
///
/// The value the callbacks pass around (`seq_file`'s `void *v`) is the address of the file's `T`
/// while a cursor is live, and null when there is none, so `stop` knows whether to drop one. A
/// cursor that fits in a pointer (a [`KVec`]'s index) is kept in the `seq_file`'s `private`
/// pointer itself; a larger one (a [`Mutex`]'s guard and index) in an allocation that `private`
/// points at (see [`cursor_place`]).
pub(super) struct RecordOps<T>(PhantomData<T>);

impl<T: Records + 'static> FileOps<T> {
    /// Read-only file of records, rendered by `seq_file`.
    pub(crate) const RECORDS: Self = {
        let operations = bindings::file_operations {
            open: Some(open::<T>),
            read: Some(bindings::seq_read),
            llseek: Some(bindings::seq_lseek),
            // Undoes `open`, which picks `__seq_open_private()` unless the cursor is `INLINE`.
            release: Some(if RecordOps::<T>::INLINE {
                bindings::seq_release
            } else {
                bindings::seq_release_private
            }),
            ..pin_init::zeroed()
        };
        // SAFETY: `open` does not touch the `T`; `seq_read` and `seq_lseek` call the `SEQ` that
        // `open` installed, sound on a file whose `i_private` points at a live `T` within the
        // proxy's call; the release functions only free what `open` allocated.
        unsafe { Self::new(operations) }
    };
}

impl<T: Records + 'static> RecordOps<T> {
    /// The iterator `seq_file` drives.
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

/// Returns where the cursor of a read of `seq`, a record file that [`open`] opened, is kept.
///
/// The place is aligned and large enough for the cursor: the `private` pointer itself
/// ([`RecordOps::INLINE`]), or the allocation `__seq_open_private()` made (`CURSOR_FITS`).
fn cursor_place<T: Records + 'static>(seq: &SeqFile) -> *mut Cursor<T> {
    if RecordOps::<T>::INLINE {
        seq.private_field().cast()
    } else {
        seq.private().cast()
    }
}

/// `open` of record files: a `seq_file`, with room for a cursor (see [`RecordOps`]).
///
/// # Safety
///
/// Called by the VFS with a valid `file` being opened.
pub(super) unsafe extern "C" fn open<T: Records + 'static>(
    _inode: *mut bindings::inode,
    file: *mut bindings::file,
) -> c_int {
    let () = RecordOps::<T>::CURSOR_FITS;
    // CAST: `CURSOR_FITS` checked that the size fits in a `c_int`.
    let size = core::mem::size_of::<Cursor<T>>() as c_int;
    // SAFETY: `file` is valid and being opened; `SEQ` is `'static`. On success the `seq_file` is
    // the file's `private_data`, with a null `private` or one that points at `size` bytes.
    unsafe {
        if RecordOps::<T>::INLINE {
            bindings::seq_open(file, RecordOps::<T>::SEQ)
        } else if bindings::__seq_open_private(file, RecordOps::<T>::SEQ, size).is_null() {
            ENOMEM.to_errno()
        } else {
            0
        }
    }
}

/// `start` of [`RecordOps`]: makes the cursor of record `*pos`, or returns null past the end.
///
/// # Safety
///
/// Called by `seq_file` with its mutex held, during a read or seek of a record file that [`open`]
/// opened and the DebugFS proxy holds an active reference to, with that file's `seq_file`, which
/// has no live cursor (not between another `start` and its `stop`), and a valid `pos`.
unsafe extern "C" fn start<T: Records + 'static>(
    seq: *mut bindings::seq_file,
    pos: *mut bindings::loff_t,
) -> *mut c_void {
    // SAFETY: `pos` is valid. `seq` is valid, and only this thread uses it until the `stop` of
    // this read, which `seq_file` calls with its mutex still held. `seq_open` set its `file` to the
    // record file, whose `i_private` points at the `T` the file shows; the proxy's active reference
    // keeps the dentry, and so the `T`, alive until the read returns.
    let (seq, index, data) = unsafe {
        let data = (*(*(*seq).file).f_inode).i_private.cast::<T>();
        (SeqFile::from_raw(seq), *pos, &*data)
    };
    let Some(cursor) = usize::try_from(index).ok().and_then(|i| data.start(i)) else {
        return core::ptr::null_mut();
    };
    let place = cursor_place::<T>(seq);
    // SAFETY: The place is aligned and large enough for a cursor (`cursor_place`) and ours until
    // `stop`, with `seq_file`'s mutex held. It holds no cursor: `seq_file` calls `stop` after every
    // `start` before the next one (within a read too, when it grows its buffer and starts again),
    // and `stop` or an earlier `next` dropped that cursor. The cursor is dropped before the read or
    // seek returns, while the active reference that keeps `data` alive is held, so its erased
    // lifetime is never outlived.
    unsafe { place.write(cursor) };
    core::ptr::from_ref(data).cast_mut().cast()
}

/// `next` of [`RecordOps`]: moves to the next record, or drops the cursor at the end.
///
/// # Safety
///
/// Called by `seq_file` with its mutex held, during a read or seek of a record file that [`open`]
/// opened, with that file's `seq_file`, the non-null value the last `start` or `next` returned and
/// a valid `pos`.
unsafe extern "C" fn next<T: Records + 'static>(
    seq: *mut bindings::seq_file,
    v: *mut c_void,
    pos: *mut bindings::loff_t,
) -> *mut c_void {
    // SAFETY: `pos` is valid. `seq` is valid and only this thread uses it during the call. The
    // non-null `v` of `start` or `next` is the file's live `T`, and says that the cursor at its
    // place is live and ours until `stop` (see `start`).
    let (data, cursor) = unsafe {
        *pos += 1;
        let cursor = cursor_place::<T>(SeqFile::from_raw(seq));
        (&*v.cast::<T>(), &mut *cursor)
    };
    if data.next(cursor) {
        return v;
    }
    // SAFETY: The cursor is live and ours, as above, and not used again: returning null tells
    // `seq_file` that there is none any more.
    unsafe { core::ptr::drop_in_place(cursor) };
    core::ptr::null_mut()
}

/// `stop` of [`RecordOps`]: drops the cursor if there is one, releasing what it held.
///
/// # Safety
///
/// Called by `seq_file` with its mutex held, during a read or seek of a record file that [`open`]
/// opened, with that file's `seq_file` and the value the last `start` or `next` returned.
unsafe extern "C" fn stop<T: Records + 'static>(seq: *mut bindings::seq_file, v: *mut c_void) {
    if !v.is_null() {
        // SAFETY: `seq` is valid and only this thread uses it during the call. A non-null `v` says
        // the cursor at its place is live (see `start`); `seq_file` uses neither after `stop`.
        unsafe { core::ptr::drop_in_place(cursor_place::<T>(SeqFile::from_raw(seq))) };
    }
}

/// `show` of [`RecordOps`]: renders the current record into the `seq_file` buffer.
///
/// A record that does not fit overflows the buffer, and `seq_file` retries with a larger one. A
/// [`fmt::Error`] fails the `read(2)` with `EINVAL` at its first record, else ends it before.
///
/// # Safety
///
/// Called by `seq_file` with its mutex held, during a read or seek of a record file that [`open`]
/// opened, with that file's `seq_file` and the non-null value the last `start` or `next` returned.
unsafe extern "C" fn show<T: Records + 'static>(
    seq: *mut bindings::seq_file,
    v: *mut c_void,
) -> c_int {
    // SAFETY: `seq` is valid and only this thread uses it during the call. The non-null `v` of
    // `start` or `next` is the file's live `T`, and says that the cursor at its place is live (see
    // `start`).
    let (seq, data, cursor) = unsafe {
        let seq = SeqFile::from_raw(seq);
        (seq, &*v.cast::<T>(), &*cursor_place::<T>(seq))
    };
    match seq.write_fmt(format_args!("{}", Rendered::new(|f| data.show(cursor, f)))) {
        Ok(()) => 0,
        Err(fmt::Error) => EINVAL.to_errno(),
    }
}

impl super::Dir {
    /// Creates a read-only file (mode 0400) of [`Records`], rendered like a C `seq_file`.
    pub fn records_file<'a, T: Records + Send + Sync + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
    ) -> impl PinInit<super::File<T>, E> + 'a {
        self.create_file(name, data, &FileOps::<T>::RECORDS, 0)
    }
}

impl<'data> super::ScopedDir<'data, '_> {
    /// Creates a read-only file of [`Records`], see [`super::Dir::records_file`].
    pub fn records_file<T: Records + Send + Sync + 'static>(&self, name: &CStr, data: &'data T) {
        self.create_file(name, data, &FileOps::<T>::RECORDS, 0)
    }
}
