// SPDX-License-Identifier: GPL-2.0

//! Reading text files without `seq_file`.
//!
//! Nearly every read of a DebugFS text file is `cat`: one `read(2)` at offset 0 into a buffer
//! larger than the text, then one more that must return 0. `seq_file` would allocate a
//! `struct seq_file`, a `seq_operations` and a page of buffer at every open, to show a value of a
//! few bytes. Here such a read renders the text into a buffer on the stack (spilling to the heap
//! only if the text is longer than [`STACK_TEXT`]) and copies it out whole. All the file remembers
//! is how many bytes it handed out, in its `private_data`, so that the next read ends the file
//! instead of rendering again, which would tear the text if the value changed in between. An
//! open descriptor costs nothing else.
//!
//! Other reads get what `seq_file` would give them. If the reader's buffer is shorter than the
//! text, or a read starts at an offset of a rendering the file did not keep, the file makes a
//! [`Snapshot`] that it keeps until it is closed. Reads at an offset are served from the
//! snapshot, so a reader taking the text in pieces sees one rendering; a read from offset 0
//! renders afresh. Each read renders the text at most once.

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

/// Bytes of text rendered on the stack; longer text spills to the heap.
///
/// Integers (at most 20 digits, a sign and a newline) and small structures fit.
const STACK_TEXT: usize = 128;

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
    // SAFETY: The file is open for the call, and the rest is the function's contract.
    let state = unsafe { OpenText::of(file) };
    // SAFETY: By the function's contract, `ppos` is valid and ours for the call.
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
    /// Returns the read state of `file`.
    ///
    /// # Safety
    ///
    /// `file` must be a readable text file whose `release` is [`release`], stay open for `'a`,
    /// and have its `private_data` used by nothing but [`OpenText`].
    unsafe fn of(file: *mut bindings::file) -> Self {
        // SAFETY: `file` is valid for `'a` by the function's contract, so is its `private_data`,
        // which is pointer-aligned and, by the contract too, only ever accessed atomically.
        let word = unsafe { Atomic::from_ptr(&raw mut (*file).private_data) };
        // INVARIANT: The VFS opens files with a null `private_data`, which encodes `Unread`, and
        // nothing else writes it, by the function's contract.
        Self { word }
    }

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
            ReadState::Delivered(len) if usize::try_from(*pos).is_ok_and(|pos| pos >= len) => {
                return Ok(0)
            }
            ReadState::Unread | ReadState::Delivered(_) => {}
        }
        let rendering = Rendering::new(text)?;
        let bytes = rendering.as_bytes();
        if *pos == 0 && bytes.len() <= out.len() {
            out.write_slice(bytes)?;
            let word = delivered(bytes.len());
            // A descriptor read again and again from offset 0 (`pread`) mostly finds the word
            // it would write; an atomic read-modify-write is then not worth its cost.
            if word != seen {
                // INVARIANT: `Unread` or `Delivered` becomes `Delivered`. If the word changed
                // since it was read, it is left alone: a later read then learns from it no less
                // than it would from this one.
                let _ = self.word.cmpxchg(seen, word, Full);
            }
            // CAST: `bytes.len() <= out.len() <= MAX_RW_COUNT`, which fits.
            *pos = bytes.len() as Offset;
            return Ok(bytes.len());
        }
        let snapshot = self.snapshot(seen)?;
        read_snapshot(&snapshot, text, Some(rendering), out, pos)
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
                // Another read made it first; `fresh`, if any, is dropped.
                return Ok(snapshot);
            }
            let new = match fresh.take() {
                Some(new) => new,
                None => KBox::pin_init(new_mutex!(None), GFP_KERNEL)?,
            }
            .into_foreign();
            // INVARIANT: `Unread` or `Delivered` becomes `Kept`, and the snapshot then stays
            // until `release`.
            match self.word.cmpxchg(seen, new, Full) {
                // SAFETY: `new` came from `into_foreign` and is freed only by `release`.
                Ok(_) => return Ok(unsafe { KeptSnapshot::borrow(new) }),
                Err(now) => {
                    // SAFETY: `new` came from `into_foreign` above and was not published.
                    fresh = Some(unsafe { KeptSnapshot::from_foreign(new) });
                    seen = now;
                }
            }
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
    rendering: Option<Rendering>,
    out: &mut UserSliceWriter,
    pos: &mut Offset,
) -> Result<usize> {
    let mut kept = snapshot.lock();
    if rendering.is_some() || *pos == 0 || kept.is_none() {
        // The old rendering goes first, so that after a failure the next read renders again.
        *kept = None;
        let rendering = match rendering {
            Some(rendering) => rendering,
            None => Rendering::new(text)?,
        };
        *kept = Some(rendering.into_vec()?);
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
    // SAFETY: `file` is valid, and no read runs on it any more.
    let word = unsafe { (*file).private_data };
    if !word.is_null() && word.addr() & 1 == 0 {
        // SAFETY: By the invariants of `OpenText`, an even non-null word is a `KeptSnapshot`
        // owned by the file, and nothing uses it any more.
        drop(unsafe { KeptSnapshot::from_foreign(word) });
    }
    0
}

/// One rendering of a file's text: on the stack, or on the heap once it outgrows the stack.
struct Rendering {
    stack: [u8; STACK_TEXT],
    /// Bytes of `stack` in use, until the text spills.
    len: usize,
    /// All of the text once it is longer than `stack`.
    spilled: Option<KVVec<u8>>,
    out_of_memory: bool,
}

impl Rendering {
    /// Renders `text`: `ENOMEM` if it does not fit in memory, `EINVAL` if the
    /// [`Writer`](super::Writer) fails.
    fn new(text: fmt::Arguments<'_>) -> Result<Self> {
        let mut this = Self {
            stack: [0; STACK_TEXT],
            len: 0,
            spilled: None,
            out_of_memory: false,
        };
        let result = fmt::Write::write_fmt(&mut this, text);
        if this.out_of_memory {
            return Err(ENOMEM);
        }
        result.map_err(|_| EINVAL)?;
        Ok(this)
    }

    fn as_bytes(&self) -> &[u8] {
        match &self.spilled {
            Some(heap) => heap,
            None => &self.stack[..self.len],
        }
    }

    /// Moves the text to the heap, to be kept.
    fn into_vec(self) -> Result<KVVec<u8>> {
        match self.spilled {
            Some(heap) => Ok(heap),
            None => {
                let mut heap = KVVec::with_capacity(self.len, GFP_KERNEL)?;
                heap.extend_from_slice(&self.stack[..self.len], GFP_KERNEL)?;
                Ok(heap)
            }
        }
    }

    fn append(&mut self, s: &str) -> Result {
        if let Some(heap) = &mut self.spilled {
            return Ok(heap.extend_from_slice(s.as_bytes(), GFP_KERNEL)?);
        }
        if let Some(room) = self.stack.get_mut(self.len..self.len + s.len()) {
            room.copy_from_slice(s.as_bytes());
            self.len += s.len();
            return Ok(());
        }
        let mut heap = KVVec::with_capacity(2 * (self.len + s.len()), GFP_KERNEL)?;
        heap.extend_from_slice(&self.stack[..self.len], GFP_KERNEL)?;
        heap.extend_from_slice(s.as_bytes(), GFP_KERNEL)?;
        self.spilled = Some(heap);
        Ok(())
    }
}

impl fmt::Write for Rendering {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.append(s).map_err(|_| {
            // Allocation is all that can fail here.
            self.out_of_memory = true;
            fmt::Error
        })
    }
}
