// SPDX-License-Identifier: GPL-2.0
/*
 * Code-size probe of `make bench`, C side: built with -DEXTRA_SHOW (one
 * more DEFINE_SHOW_ATTRIBUTE file, C's callback file), -DEXTRA_U32 (one
 * more debugfs_create_u32 file, C's typed file) and -DEXTRA_BLOB (one more
 * debugfs_create_blob file, C's binary file) to compare with the Rust
 * probe.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>

static struct dentry *dir;
static u64 base_value;
static u32 extra_value __maybe_unused;
static u8 extra_bytes[16] __maybe_unused;
static struct debugfs_blob_wrapper extra_blob __maybe_unused = {
	.data = extra_bytes,
	.size = sizeof(extra_bytes),
};

static int base_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%llu\n", base_value);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(base);

#ifdef EXTRA_SHOW
static int extra_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", extra_value);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(extra);
#endif

static int __init size_init(void)
{
	dir = debugfs_create_dir("debugfs_size_c", NULL);
	debugfs_create_file("base", 0400, dir, NULL, &base_fops);
#ifdef EXTRA_SHOW
	debugfs_create_file("extra_show", 0400, dir, NULL, &extra_fops);
#endif
#ifdef EXTRA_U32
	debugfs_create_u32("extra_u32", 0600, dir, &extra_value);
#endif
#ifdef EXTRA_BLOB
	debugfs_create_blob("extra_blob", 0400, dir, &extra_blob);
#endif
	return 0;
}

static void __exit size_exit(void)
{
	debugfs_remove(dir);
}

module_init(size_init);
module_exit(size_exit);
MODULE_DESCRIPTION("C DebugFS code-size probe");
MODULE_LICENSE("GPL");
