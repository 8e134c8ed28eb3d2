// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of `make bench`: the files a C driver would write for what
 * rust_debugfs_bench.ko shows, measured in the same boot.
 *
 *   debugfs_bench_c/u64      debugfs_create_u64()
 *   debugfs_bench_c/show     DEFINE_SHOW_ATTRIBUTE() printing a u64
 *   debugfs_bench_c/blob4k   debugfs_create_blob(), 4 KiB
 *   debugfs_bench_c/blob1m   debugfs_create_blob(), 1 MiB
 *   debugfs_bench_c/x64      debugfs_create_x64()
 *   debugfs_bench_c/records  a seq_file over 100000 records "event N: 3N"
 *   debugfs_bench_c/regs     debugfs_create_regset32() of 4 registers in memory
 *   debugfs_bench_c/null     the floor: operations that return a constant and
 *                            touch nothing, so that a system call on it costs
 *                            the VFS and DebugFS's proxy alone
 *   debugfs_bench_c/control  "hold KIND N": keep N files of KIND (u64, blob,
 *                            show) in held/; "release": remove them;
 *                            "churn N": create N u64 files in a directory
 *                            and remove it, timed into result
 *   debugfs_bench_c/result   nanoseconds of the last churn
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#define BLOB_SMALL	4096
#define BLOB_LARGE	(1 << 20)

static struct dentry *root, *held;
static u64 value = 42, last_ns;
static char small[BLOB_SMALL];
static struct debugfs_blob_wrapper blob_small = { .data = small, .size = BLOB_SMALL };
static struct debugfs_blob_wrapper blob_large = { .size = BLOB_LARGE };

#define RECORDS		100000

struct record {
	u32 seq;
	u32 value;
};

static struct record *records;
static u32 registers[4] = { 0x010000ed, 1, 0x80000000, 42 };
static const struct debugfs_reg32 register_names[] = {
	{ "ID", 0x0 }, { "CTRL", 0x4 }, { "STATUS", 0x8 }, { "COUNT", 0xc },
};
static struct debugfs_regset32 regset = {
	.regs = register_names,
	.nregs = ARRAY_SIZE(register_names),
};

static void *records_start(struct seq_file *m, loff_t *pos)
{
	return *pos < RECORDS ? &records[*pos] : NULL;
}

static void *records_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return records_start(m, pos);
}

static void records_stop(struct seq_file *m, void *v)
{
}

static int records_show(struct seq_file *m, void *v)
{
	const struct record *r = v;

	seq_printf(m, "event %u: %u\n", r->seq, r->value);
	return 0;
}

static const struct seq_operations records_sops = {
	.start = records_start,
	.next = records_next,
	.stop = records_stop,
	.show = records_show,
};
DEFINE_SEQ_ATTRIBUTE(records);

static int value_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%llu\n", *(u64 *)m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(value);

/*
 * The floor's operations: no state, no buffer, no copy. A read is at the end
 * of the file at once and a write takes everything; open and release are
 * the proxy's own with nothing behind them.
 */
static ssize_t null_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	return 0;
}

static ssize_t null_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	return count;
}

static const struct file_operations null_fops = {
	.owner = THIS_MODULE,
	.read = null_read,
	.write = null_write,
	.llseek = noop_llseek,
};

static struct dentry *create_many(const char *dir_name, const char *kind, unsigned int n)
{
	struct dentry *dir = debugfs_create_dir(dir_name, root);
	char name[16];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%u", i);
		if (!strcmp(kind, "u64"))
			debugfs_create_u64(name, 0600, dir, &value);
		else if (!strcmp(kind, "blob"))
			debugfs_create_blob(name, 0400, dir, &blob_small);
		else
			debugfs_create_file(name, 0400, dir, &value, &value_fops);
	}
	return dir;
}

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char cmd[32], kind[8];
	unsigned int n;
	u64 start;

	if (count >= sizeof(cmd) || copy_from_user(cmd, ubuf, count))
		return -EINVAL;
	cmd[count] = '\0';
	if (sscanf(cmd, "hold %7s %u", kind, &n) == 2) {
		debugfs_remove(held);
		held = create_many("held", kind, n);
	} else if (!strncmp(cmd, "release", 7)) {
		debugfs_remove(held);
		held = NULL;
	} else if (sscanf(cmd, "churn %u", &n) == 1) {
		start = ktime_get_ns();
		debugfs_remove(create_many("churn", "u64", n));
		last_ns = ktime_get_ns() - start;
	} else {
		return -EINVAL;
	}
	return count;
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.write = control_write,
};

static int __init c_debugfs_bench_init(void)
{
	u32 i;

	blob_large.data = vzalloc(BLOB_LARGE);
	records = kvmalloc_array(RECORDS, sizeof(*records), GFP_KERNEL);
	if (!blob_large.data || !records) {
		vfree(blob_large.data);
		kvfree(records);
		return -ENOMEM;
	}
	for (i = 0; i < RECORDS; i++) {
		records[i].seq = i;
		records[i].value = 3 * i;
	}
	/* readl() of ordinary memory: what a regset costs, without a device. */
	regset.base = (void __iomem __force *)registers;
	root = debugfs_create_dir("debugfs_bench_c", NULL);
	debugfs_create_u64("u64", 0600, root, &value);
	debugfs_create_file("show", 0400, root, &value, &value_fops);
	debugfs_create_blob("blob4k", 0400, root, &blob_small);
	debugfs_create_blob("blob1m", 0400, root, &blob_large);
	debugfs_create_x64("x64", 0600, root, &value);
	debugfs_create_file("records", 0400, root, NULL, &records_fops);
	debugfs_create_regset32("regs", 0400, root, &regset);
	debugfs_create_file("null", 0600, root, NULL, &null_fops);
	debugfs_create_file("control", 0200, root, NULL, &control_fops);
	debugfs_create_u64("result", 0400, root, &last_ns);
	return 0;
}

static void __exit c_debugfs_bench_exit(void)
{
	debugfs_remove(root);
	vfree(blob_large.data);
	kvfree(records);
}

module_init(c_debugfs_bench_init);
module_exit(c_debugfs_bench_exit);
MODULE_DESCRIPTION("C DebugFS files to compare kernel::debugfs with");
MODULE_LICENSE("GPL");
