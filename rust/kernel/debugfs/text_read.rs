// SPDX-License-Identifier: GPL-2.0

//! Reading text files without `seq_file`.
//!
//! Nearly every read of a DebugFS text file is `cat`: one `read(2)` at offset 0 into a buffer
//! larger than the text, then one that must return 0. `seq_file` makes three allocations at every
//! open to show a few bytes; this module makes none: it renders into a stack buffer, copies it
//! out whole and remembers in `private_data` only how many bytes it handed out, so that the next
//! read ends the file instead of rendering again (which could tear the text). Rendering never
//! allocates, so the [`Writer`](super::Writer) may hold a spinlock or be in an RCU read-side
//! section: text that does not fit is only counted, then rendered again into a heap buffer
//! allocated in between, as `seq_file` calls `show` again on overflow.
//!
//! A reader whose buffer is shorter than the text, or that reads at an offset of a rendering the
//! file did not keep, gets a [`Snapshot`] kept until close, so the pieces come from one rendering;
//! a read from offset 0 renders afresh.

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

/// Bytes of text rendered on the stack: integers and small structures fit.
const STACK_TEXT: usize = 128;

/// The longest text a file renders: 1 GiB, short of where `kvmalloc` warns. Longer text fails the
/// read with `ENOMEM`.
const TEXT_MAX: usize = 1 << 30;

/// One rendering of a file's text, kept by an open file that is read in pieces.
///
/// `None` until the first rendering, and after one that failed. The mutex serialises reads
/// through one descriptor, as `seq_file`'s does.
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
    // SAFETY: `private_data` is a pointer field, so aligned for one, and valid while `word` is
    // used here, as the VFS keeps `file` open during `read`. Only this module accesses it while
    // the file is open (the caller's guarantee), atomically, so nothing races. `ppos` is valid and
    // nothing else uses it during the call (`# Safety` above).
    let (word, pos) = unsafe { (Atomic::from_ptr(&raw mut (*file).private_data), &mut *ppos) };
    // INVARIANT: The VFS opens files with a null `private_data`, which encodes `Unread`; only
    // this module writes it, and `release` is [`release`]. `state` is dropped when this `read`
    // returns, while the file is still open.
    let state = OpenText { word };
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
            // The read after a whole one: the end of the file, with nothing rendered.
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

    /// Copies a whole rendering `bytes` out from offset 0 and records that in the word, which was
    /// `seen` when the read began.
    fn deliver(
        &self,
        bytes: &[u8],
        out: &mut UserSliceWriter,
        pos: &mut Offset,
        seen: *mut c_void,
    ) -> Result<usize> {
        out.write_slice(bytes)?;
        // The word of `Delivered(bytes.len())`; the shift loses nothing, as the length is at most
        // `MAX_RW_COUNT`, below `isize::MAX`.
        let word = core::ptr::without_provenance_mut((bytes.len() << 1) | 1);
        // Repeated `pread`s from 0 mostly find the word they would write: skip the atomic then.
        if word != seen {
            // INVARIANT: `Unread` or `Delivered` becomes `Delivered`. A word that changed since is
            // left alone: it tells a later read no less.
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
                    // A failed `cmpxchg` orders nothing: this `Acquire` pairs with the `cmpxchg`
                    // that published another read's snapshot, before `decode` borrows it.
                    self.word.load(Acquire)
                }
            };
        }
    }
}

/// Serves a read from `snapshot`: with `rendering` if the read made one; otherwise a read from
/// offset 0, or the first read of the snapshot, renders `text` into it.
fn read_snapshot(
    snapshot: &Snapshot,
    text: fmt::Arguments<'_>,
    rendering: Option<KVVec<u8>>,
    out: &mut UserSliceWriter,
    pos: &mut Offset,
) -> Result<usize> {
    let mut kept = snapshot.lock();
    if rendering.is_some() || *pos == 0 || kept.is_none() {
        // The old rendering goes first, so that after a failure the next read renders again.
        let guess = kept.take().map_or(STACK_TEXT, |old| old.len());
        *kept = Some(match rendering {
            Some(rendering) => rendering,
            None => render_to_vec(text, guess)?,
        });
    }
    out.write_slice_file(kept.as_deref().unwrap_or_default(), pos)
}

/// `release` of readable text files: frees the snapshot, if any, and not the file's data, which
/// may be gone.
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

/// Renders `text` into `buf`, without allocating, and returns the length of the whole text; what
/// does not fit is counted, not kept. `EINVAL` if the [`Writer`](super::Writer) fails.
fn render(text: fmt::Arguments<'_>, buf: &mut [u8]) -> Result<usize> {
    let mut sink = Sink { buf, len: 0 };
    fmt::Write::write_fmt(&mut sink, text).map_err(|_| EINVAL)?;
    Ok(sink.len)
}

/// Renders `text` into a heap buffer, guessing that it is `len` bytes long; if it turns out
/// longer, it is rendered again into a buffer at least twice as large.
fn render_to_vec(text: fmt::Arguments<'_>, mut len: usize) -> Result<KVVec<u8>> {
    loop {
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
        let start = self.len.min(self.buf.len());
        let room = &mut self.buf[start..];
        let kept = room.len().min(s.len());
        room[..kept].copy_from_slice(&s.as_bytes()[..kept]);
        self.len = self.len.saturating_add(s.len());
        Ok(())
    }
}
