// SPDX-License-Identifier: GPL-2.0

//! Reading text files without `seq_file`.
//!
//! Nearly every read of a DebugFS text file is `cat`: one `read(2)` at offset 0 into a buffer
//! larger than the text, then one more that must return 0. `seq_file` makes three allocations at
//! every open (its `struct seq_file`, the `seq_operations` of `single_open()` and a page of
//! buffer) to show a value of a few bytes; measured with `make bench`, this module makes none.
//! Such a read renders the text into a buffer on the stack and copies it out whole. The file
//! remembers only how many bytes it handed out, in its `private_data`, so that the next read ends
//! the file instead of rendering again, which would tear the text if the value changed between.
//!
//! Rendering never allocates, so the [`Writer`](super::Writer) or callback may hold a spinlock or
//! be in an RCU read-side section, as a `seq_file` `show` may: the text goes into a buffer that
//! exists before the rendering starts, and what does not fit is only counted. A text longer than
//! [`STACK_TEXT`] is then rendered again into a heap buffer of that length allocated in between
//! (and again, larger, should it have grown), as `seq_file` calls `show` again on overflow.
//!
//! Other reads get what `seq_file` would give them. If the reader's buffer is shorter than the
//! text, or a read starts at an offset of a rendering the file did not keep, the file makes a
//! [`Snapshot`] that it keeps until it is closed. Reads at an offset are served from it, so a
//! reader taking the text in pieces sees one rendering; a read from offset 0 renders afresh.

use crate::{
    alloc::KVVec,
    bindings,
    fmt,
    fs::file::Offset,
    new_mutex,
    prelude::*,
    sync::{
        atomic::{
            Acquire,
            Atomic,
            Full, //
        },
        Mutex, //
    },
    types::ForeignOwnable,
    uaccess::{
        UserPtr,
        UserSlice,
        UserSliceWriter, //
    }, //
};

/// Bytes of text rendered on the stack; longer text is rendered again on the heap.
///
/// Integers (at most 20 digits, a sign and a newline) and small structures fit.
const STACK_TEXT: usize = 128;

/// The longest text a file renders: 1 GiB. Longer text fails the read with `ENOMEM`.
const TEXT_MAX: usize = 1 << 30;

/// One rendering of a file's text, kept by an open file that is read in pieces.
///
/// `None` until the first rendering, and after a rendering that failed. The mutex serialises
/// reads through one descriptor, as `seq_file`'s does, so that concurrent `pread(2)`s each see a
/// whole rendering.
type Snapshot = Mutex<Option<KVVec<u8>>>;

/// How a snapshot is owned by its file: `private_data` holds it as a foreign pointer.
type KeptSnapshot = Pin<KBox<Snapshot>>;

// `ReadState` tells a snapshot from a length by the lowest bit of the word.
const _: () = assert!(<KeptSnapshot as ForeignOwnable>::FOREIGN_ALIGN >= 2);

/// What a readable text file's `private_data` says about the reads so far.
///
/// The word is null before the first read, odd (`(len << 1) | 1`) once a rendering of `len` bytes
/// was read whole from offset 0 and nothing was kept, and otherwise a [`KeptSnapshot`].
enum ReadState<'a> {
    Unread,
    Delivered(usize),
    Kept(Pin<&'a Snapshot>),
}

/// `read` of readable text files, given the file's data as `text` to render.
///
/// This is all of a text file's `read` but the `format_args!` that makes `text`, so the code that
/// each data type adds to a module is that one line.
///
/// # Safety
///
/// Called by the VFS as the `read` of a readable text file `file` whose `release` is [`release`]
/// and whose `private_data` only this module uses, with a user buffer `buf` of `count` bytes and
/// a valid `ppos` that nothing else uses during the call.
pub(super) unsafe fn read(
    file: *mut bindings::file,
    text: fmt::Arguments<'_>,
    buf: *mut c_char,
    count: usize,
    ppos: *mut Offset,
) -> isize {
    // SAFETY: `private_data` is a pointer field, so aligned for one. The VFS keeps `file` open
    // during `read`, so the field is valid for reads and writes while `word` is used, here. Only
    // this module accesses it while the file is open (the caller's guarantee), atomically, so
    // nothing races.
    let word = unsafe { Atomic::from_ptr(&raw mut (*file).private_data) };
    // INVARIANT: The VFS opens files with a null `private_data`, which encodes `Unread`; only
    // this module writes it, and `release` is [`release`].
    let state = OpenText { word };
    // SAFETY: The caller passes a valid `ppos` that nothing else uses during the call.
    let pos = unsafe { &mut *ppos };
    let mut out = UserSlice::new(UserPtr::from_ptr(buf.cast()), count).writer();
    match state.read(text, &mut out, pos) {
        // The VFS caps `count` at `MAX_RW_COUNT`, so it fits.
        Ok(done) => done as isize,
        Err(e) => e.to_errno() as isize,
    }
}

/// The read state of one open text file, kept in its `private_data`.
///
/// # Invariants
///
/// `word` is the `private_data` of a readable text file that is open for at least `'a` and whose
/// `release` is [`release`]. Nothing but this type touches the word while the file is open, and
/// only atomically. The word always encodes a [`ReadState`]; once it holds a [`KeptSnapshot`], it
/// holds that snapshot until [`release`] frees it.
struct OpenText<'a> {
    word: &'a Atomic<*mut c_void>,
}

impl<'a> OpenText<'a> {
    /// Serves one `read(2)` at `pos` into `out`; `text` renders the file's text.
    fn read(
        &self,
        text: fmt::Arguments<'_>,
        out: &mut UserSliceWriter,
        pos: &mut Offset,
    ) -> Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let seen = self.word.load(Acquire);
        match self.decode(seen) {
            ReadState::Kept(snapshot) => return read_snapshot(&snapshot, text, None, out, pos),
            // The read after a whole one: the end of the file, with nothing rendered. A read
            // from anywhere else, offset 0 above all, renders afresh.
            ReadState::Delivered(len) if *pos != 0 && usize::try_from(*pos) == Ok(len) => {
                return Ok(0)
            }
            ReadState::Unread | ReadState::Delivered(_) => {}
        }
        let mut stack = [0u8; STACK_TEXT];
        let len = render(text, &mut stack)?;
        let rendering = match stack.get(..len) {
            Some(bytes) if *pos == 0 && len <= out.len() => {
                return self.deliver(bytes, out, pos, seen)
            }
            Some(bytes) => {
                let mut heap = KVVec::new();
                heap.extend_from_slice(bytes, GFP_KERNEL)?;
                heap
            }
            None => render_to_vec(text, len)?,
        };
        if *pos == 0 && rendering.len() <= out.len() {
            return self.deliver(&rendering, out, pos, seen);
        }
        let snapshot = self.snapshot(seen)?;
        read_snapshot(&snapshot, text, Some(rendering), out, pos)
    }

    /// Copies a whole rendering `bytes` out from offset 0 and records that it was read whole.
    ///
    /// `seen` is the word as it was when the read began.
    fn deliver(
        &self,
        bytes: &[u8],
        out: &mut UserSliceWriter,
        pos: &mut Offset,
        seen: *mut c_void,
    ) -> Result<usize> {
        out.write_slice(bytes)?;
        let word = delivered(bytes.len());
        // A descriptor read again and again from offset 0 (`pread`) mostly finds the word it
        // would write; an atomic read-modify-write is then not worth its cost.
        if word != seen {
            // INVARIANT: `Unread` or `Delivered` becomes `Delivered`. If the word changed since it
            // was read, it is left alone: a later read then learns from it no less than it would
            // from this one.
            let _ = self.word.cmpxchg(seen, word, Full);
        }
        // CAST: `bytes.len() <= out.len() <= MAX_RW_COUNT`, which fits.
        *pos = bytes.len() as Offset;
        Ok(bytes.len())
    }

    /// Tells what `word`, a value of this file's word, says.
    fn decode(&self, word: *mut c_void) -> ReadState<'a> {
        if word.is_null() {
            ReadState::Unread
        } else if word.addr() & 1 == 1 {
            ReadState::Delivered(word.addr() >> 1)
        } else {
            // SAFETY: By the type invariants, an even non-null word is a `KeptSnapshot` that the
            // file holds until `release`, which cannot run while the file is open, so for `'a`.
            ReadState::Kept(unsafe { KeptSnapshot::borrow(word) })
        }
    }

    /// Returns the file's snapshot, making it if the word, last seen as `seen`, has none.
    fn snapshot(&self, mut seen: *mut c_void) -> Result<Pin<&'a Snapshot>> {
        let mut fresh: Option<KeptSnapshot> = None;
        loop {
            if let ReadState::Kept(snapshot) = self.decode(seen) {
                // This read or another one published it; `fresh`, if any, is dropped.
                return Ok(snapshot);
            }
            let new = match fresh.take() {
                Some(new) => new,
                None => KBox::pin_init(new_mutex!(None), GFP_KERNEL)?,
            }
            .into_foreign();
            // INVARIANT: `Unread` or `Delivered` becomes `Kept`, and the snapshot then stays
            // until `release`.
            seen = match self.word.cmpxchg(seen, new, Full) {
                Ok(_) => new,
                Err(_) => {
                    // SAFETY: `new` came from `into_foreign` above and was not published.
                    fresh = Some(unsafe { KeptSnapshot::from_foreign(new) });
                    // A failed `cmpxchg` orders nothing, so the word is read again with
                    // `Acquire`: if it is another read's snapshot now, this pairs with the fully
                    // ordered `cmpxchg` that published it, and the snapshot's initialisation is
                    // visible before `decode` borrows it.
                    self.word.load(Acquire)
                }
            };
        }
    }
}

/// The word that says a rendering of `len` bytes was read whole.
///
/// `len` is at most `MAX_RW_COUNT`, which is below `isize::MAX`, so the shift loses nothing.
fn delivered(len: usize) -> *mut c_void {
    core::ptr::without_provenance_mut((len << 1) | 1)
}

/// Serves a read from `snapshot`.
///
/// The read gets `rendering` if it made one; otherwise a read from offset 0, or the first read of
/// the snapshot, renders `text` into it.
fn read_snapshot(
    snapshot: &Snapshot,
    text: fmt::Arguments<'_>,
    rendering: Option<KVVec<u8>>,
    out: &mut UserSliceWriter,
    pos: &mut Offset,
) -> Result<usize> {
    let mut kept = snapshot.lock();
    if rendering.is_some() || *pos == 0 || kept.is_none() {
        // The old rendering goes first, so that after a failure the next read renders again. Its
        // length is the best guess of the new one's.
        let guess = kept.take().map_or(STACK_TEXT, |old| old.len());
        *kept = Some(match rendering {
            Some(rendering) => rendering,
            None => render_to_vec(text, guess)?,
        });
    }
    out.write_slice_file(kept.as_deref().unwrap_or_default(), pos)
}

/// `release` of readable text files: frees the snapshot, if the file made one.
///
/// It does not touch the file's data, which may be gone by now (the DebugFS proxy calls `release`
/// even after the file was removed).
///
/// # Safety
///
/// Called by the VFS, once, when a readable text file whose `private_data` is used by
/// [`OpenText`] alone is closed.
pub(super) unsafe extern "C" fn release(
    _inode: *mut bindings::inode,
    file: *mut bindings::file,
) -> c_int {
    // SAFETY: The VFS passes a valid `file`, on which no read runs any more.
    let word = unsafe { (*file).private_data };
    if !word.is_null() && word.addr() & 1 == 0 {
        // SAFETY: By the invariants of `OpenText`, an even non-null word is a `KeptSnapshot`
        // owned by the file, and nothing uses it any more.
        drop(unsafe { KeptSnapshot::from_foreign(word) });
    }
    0
}

/// Renders `text` into `buf` and returns the length of the whole text.
///
/// Text past the end of `buf` is counted, not kept: if the result is larger than `buf`, `buf`
/// holds only the beginning of the text. Nothing is allocated while `text` is being formatted.
/// `EINVAL` if the [`Writer`](super::Writer) fails.
fn render(text: fmt::Arguments<'_>, buf: &mut [u8]) -> Result<usize> {
    let mut sink = Sink { buf, len: 0 };
    fmt::Write::write_fmt(&mut sink, text).map_err(|_| EINVAL)?;
    Ok(sink.len)
}

/// Renders `text` into a heap buffer, guessing that it is `len` bytes long.
///
/// The buffer is allocated before each rendering; if the text turns out longer (the value changed
/// since it was measured), it is rendered again into a buffer at least twice as large.
fn render_to_vec(text: fmt::Arguments<'_>, mut len: usize) -> Result<KVVec<u8>> {
    loop {
        // Past this, `kvmalloc` would warn; no DebugFS text is that long.
        if len > TEXT_MAX {
            return Err(ENOMEM);
        }
        let mut heap = KVVec::new();
        heap.resize(len, 0, GFP_KERNEL)?;
        let needed = render(text, &mut heap)?;
        if needed <= len {
            heap.truncate(needed);
            return Ok(heap);
        }
        len = needed.max(len.saturating_mul(2));
    }
}

/// The [`fmt::Write`] of [`render`]: fills `buf` and counts the rest.
struct Sink<'a> {
    buf: &'a mut [u8],
    /// Bytes written so far, including those that did not fit.
    len: usize,
}

impl fmt::Write for Sink<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Past the end of the buffer, the text is counted, not kept.
        let start = self.len.min(self.buf.len());
        let room = &mut self.buf[start..];
        let kept = room.len().min(s.len());
        room[..kept].copy_from_slice(&s.as_bytes()[..kept]);
        self.len = self.len.saturating_add(s.len());
        Ok(())
    }
}
