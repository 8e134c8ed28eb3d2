// SPDX-License-Identifier: GPL-2.0

//! File sizes: binary files whose `stat` reports a size, as C's `debugfs_create_file_size()`.

use super::{
    file_ops::ShortFileOps,
    BinaryReader,
    BinaryWriter,
    Dir,
    File,
    ScopedDir, //
};
use crate::prelude::*;

impl Dir {
    /// Creates a read-only binary file, see [`Dir::read_binary_file`], whose `stat` reports
    /// `size` bytes.
    ///
    /// This is C's `debugfs_create_file_size()`, for tools that size their reads by `st_size`.
    /// The size is set once: if the data later changes length, reads still return what is
    /// there, and only `stat` is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::debugfs::Dir;
    ///
    /// let dir = Dir::new(c"example_with_size");
    /// // `ls -l log` shows 4096 bytes, and `ls -l eeprom/data` 16 (that `dd` may patch).
    /// let log = dir.read_binary_file_with_size(c"log", [0u8; 4096], 4096);
    /// let log = KBox::pin_init(log, GFP_KERNEL)?;
    /// let eeprom = dir.scope(kernel::new_mutex!([0xffu8; 16]), c"eeprom", |eeprom, dir| {
    ///     dir.read_write_binary_file_with_size(c"data", eeprom, 16)
    /// });
    /// let eeprom = KBox::pin_init(eeprom, GFP_KERNEL)?;
    /// assert_eq!((log.len(), eeprom.lock()[0]), (4096, 0xff));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read_binary_file_with_size<'a, T: BinaryWriter + Send + Sync + 'static, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        size: usize,
    ) -> impl PinInit<File<T>, E> + 'a {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY, size)
    }

    /// Creates a sized read-write binary file, see [`Dir::read_binary_file_with_size`].
    pub fn read_write_binary_file_with_size<'a, T, E: 'a>(
        &'a self,
        name: &'a CStr,
        data: impl PinInit<T, E> + 'a,
        size: usize,
    ) -> impl PinInit<File<T>, E> + 'a
    where
        T: BinaryWriter + BinaryReader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE, size)
    }
}

impl<'data> ScopedDir<'data, '_> {
    /// Creates a sized read-only binary file, see [`Dir::read_binary_file_with_size`].
    pub fn read_binary_file_with_size<T>(&self, name: &CStr, data: &'data T, size: usize)
    where
        T: BinaryWriter + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_ONLY, size)
    }

    /// Creates a sized read-write binary file, see [`Dir::read_write_binary_file_with_size`].
    pub fn read_write_binary_file_with_size<T>(&self, name: &CStr, data: &'data T, size: usize)
    where
        T: BinaryWriter + BinaryReader + Send + Sync + 'static,
    {
        self.create_file(name, data, &ShortFileOps::<T>::BINARY_READ_WRITE, size)
    }
}
