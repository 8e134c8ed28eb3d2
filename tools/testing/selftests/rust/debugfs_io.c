// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_io: the system calls the kernel::debugfs selftests cannot make
 * from a shell, all on one open descriptor.
 *
 *   debugfs_io FILE OP...
 *
 * opens FILE once (read-write, else read-only, else write-only) and runs
 * each OP on that descriptor, printing one line per OP: "OP: N TEXT" for a
 * read of N bytes (TEXT with newlines as \n), "OP: N" for a write, or
 * "OP: ENAME" for a failure.
 *
 *   read:N                 read(2) of up to N bytes at the file offset
 *   pread:N:OFF            pread(2) of up to N bytes at offset OFF
 *   pwrite-fault:OFF:LEN:MAPPED
 *                          pwrite(2) of LEN bytes at offset OFF from a
 *                          buffer whose first MAPPED bytes (0xa5) are
 *                          followed by an unmapped page
 *   echo:PATH:TEXT         writes TEXT to another file, PATH, through a
 *                          descriptor of its own
 *   lseek:OFF              lseek(2) to OFF from the start; prints the result
 *   mmio32:OFF             the 32-bit word at OFF of the file mapped with
 *                          mmap(2), as 0x%08x (for a PCI resourceN file)
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void report(const char *op, ssize_t n)
{
	if (n < 0)
		printf("%s: %s\n", op, strerrorname_np(errno));
	else
		printf("%s: %zd\n", op, n);
}

static void show(const char *op, const char *buf, ssize_t n)
{
	ssize_t i;

	if (n < 0) {
		report(op, n);
		return;
	}
	printf("%s: %zd ", op, n);
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n')
			fputs("\\n", stdout);
		else
			putchar(buf[i]);
	}
	putchar('\n');
}

/* A buffer of len bytes whose first mapped bytes are followed by a hole. */
static char *half_mapped(size_t len, size_t mapped)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t span = (mapped + page - 1) / page * page;
	char *area;

	if (mapped > len)
		return NULL;
	area = mmap(NULL, span + page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED || munmap(area + span, page))
		return NULL;
	memset(area + span - mapped, 0xa5, mapped);
	return area + span - mapped;
}

static int run(int fd, char *op)
{
	char spec[4096], *args, *buf;
	long a, b, c;
	ssize_t n;

	snprintf(spec, sizeof(spec), "%s", op);
	args = strchr(spec, ':');
	if (!args)
		return -1;
	*args++ = '\0';
	if (!strcmp(spec, "echo")) {
		char *text = strchr(args, ':');
		int other;

		if (!text)
			return -1;
		*text++ = '\0';
		other = open(args, O_WRONLY);
		if (other < 0) {
			report(op, -1);
			return 0;
		}
		n = write(other, text, strlen(text));
		report(op, n);
		close(other);
		return 0;
	}
	a = strtol(args, &args, 0);
	b = *args == ':' ? strtol(args + 1, &args, 0) : 0;
	c = *args == ':' ? strtol(args + 1, &args, 0) : 0;
	if (!strcmp(spec, "read") || !strcmp(spec, "pread")) {
		buf = malloc(a + 1);
		if (!buf)
			return -1;
		n = !strcmp(spec, "read") ? read(fd, buf, a) : pread(fd, buf, a, b);
		show(op, buf, n);
		free(buf);
		return 0;
	}
	if (!strcmp(spec, "lseek")) {
		report(op, lseek(fd, a, SEEK_SET));
		return 0;
	}
	if (!strcmp(spec, "mmio32")) {
		long page = sysconf(_SC_PAGESIZE);
		char *map;

		map = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, a / page * page);
		if (map == MAP_FAILED) {
			report(op, -1);
			return 0;
		}
		/*
		 * One 32-bit load, as a driver's readl() makes, and like
		 * readl() little-endian whatever the CPU's byte order.
		 */
		printf("%s: 0x%08x\n", op,
		       le32toh(__atomic_load_n((uint32_t *)(map + a % page), __ATOMIC_RELAXED)));
		munmap(map, page);
		return 0;
	}
	if (!strcmp(spec, "pwrite-fault")) {
		buf = half_mapped(b, c);
		if (!buf)
			return -1;
		report(op, pwrite(fd, buf, b, a));
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s FILE OP...\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("open: %s\n", strerrorname_np(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 2; i < argc; i++) {
		if (run(fd, argv[i])) {
			fprintf(stderr, "%s: bad operation '%s'\n", argv[0], argv[i]);
			return 2;
		}
	}
	return 0;
}
