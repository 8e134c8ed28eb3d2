// SPDX-License-Identifier: GPL-2.0

//! Seq file bindings.
//!
//! C header: [`include/linux/seq_file.h`](srctree/include/linux/seq_file.h)

use crate::{
    bindings,
    ffi::c_void,
    fmt,
    str::CStrExt as _,
    types::NotThreadSafe,
    types::Opaque, //
};

/// A utility for generating the contents of a seq file.
#[repr(transparent)]
pub struct SeqFile {
    inner: Opaque<bindings::seq_file>,
    _not_send: NotThreadSafe,
}

impl SeqFile {
    /// Creates a new [`SeqFile`] from a raw pointer.
    ///
    /// # Safety
    ///
    /// The caller must ensure that for the duration of `'a` the following is satisfied:
    /// * The pointer points at a valid `struct seq_file`.
    /// * The `struct seq_file` is not accessed from any other thread.
    pub unsafe fn from_raw<'a>(ptr: *mut bindings::seq_file) -> &'a SeqFile {
        // SAFETY: The caller ensures that the reference is valid for 'a. There's no way to trigger
        // a data race by using the `&SeqFile` since this is the only thread accessing the seq_file.
        //
        // CAST: The layout of `struct seq_file` and `SeqFile` is compatible.
        unsafe { &*ptr.cast() }
    }

    /// Used by the [`seq_print`] macro.
    #[inline]
    pub fn call_printf(&self, args: fmt::Arguments<'_>) {
        // SAFETY: Passing a void pointer to `Arguments` is valid for `%pA`.
        unsafe {
            bindings::seq_printf(
                self.inner.get(),
                c"%pA".as_char_ptr(),
                core::ptr::from_ref(&args).cast::<crate::ffi::c_void>(),
            );
        }
    }

    /// Appends `args` to the seq file, or returns the error of a formatting trait.
    ///
    /// Text that does not fit in the buffer is not an error: the seq file is then marked as
    /// overflowed, and `seq_read()` discards it and calls `show` again with a larger buffer.
    /// [`call_printf`](Self::call_printf) ignores errors of the formatting traits (`%pA` cannot
    /// report them); this reports them, so that `show` can fail instead of showing part of a
    /// record. Nothing is allocated.
    pub fn write_fmt(&self, args: fmt::Arguments<'_>) -> fmt::Result {
        fmt::Write::write_fmt(&mut Appender(self), args)
    }

    /// Returns the `private` pointer.
    ///
    /// `seq_open()` leaves it null for the user of the seq file, `__seq_open_private()` points it
    /// at the zeroed allocation it made, and `single_open()` sets it to its `data`.
    pub fn private(&self) -> *mut c_void {
        // SAFETY: `from_raw` requires `inner` to be a valid `struct seq_file` that no other thread
        // accesses.
        unsafe { (*self.inner.get()).private }
    }

    /// Returns the address of the `private` pointer.
    ///
    /// This is for a user that keeps a value of up to a pointer's size and alignment in the
    /// pointer itself, after `seq_open()`, which leaves it to the user.
    pub fn private_field(&self) -> *mut *mut c_void {
        // SAFETY: `from_raw` requires `inner` to be a valid `struct seq_file`; taking the address
        // of its field reads nothing.
        unsafe { &raw mut (*self.inner.get()).private }
    }
}

/// The [`fmt::Write`] of [`SeqFile::write_fmt`]: appends each piece with `seq_write()`.
struct Appender<'a>(&'a SeqFile);

impl fmt::Write for Appender<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // SAFETY: `from_raw` requires `inner` to be a valid `struct seq_file` that no other thread
        // accesses; `s` is valid for reading `s.len()` bytes. `seq_write()` copies nothing and
        // marks the seq file overflowed if the bytes do not fit, which `seq_read()` then sees.
        unsafe { bindings::seq_write(self.0.inner.get(), s.as_ptr().cast(), s.len()) };
        Ok(())
    }
}

/// Write to a [`SeqFile`] with the ordinary Rust formatting syntax.
#[macro_export]
macro_rules! seq_print {
    ($m:expr, $($arg:tt)+) => (
        $m.call_printf($crate::prelude::fmt!($($arg)+))
    );
}
pub use seq_print;
