// SPDX-License-Identifier: GPL-2.0
/*
 * User-space side of `make bench`: tight loops over one DebugFS file.
 *
 *   dfsbench open   PATH ITER BATCHES       open + read(64) + close
 *   dfsbench openclose PATH ITER BATCHES    open + close, no read: what the
 *                                           open and the release cost alone
 *   dfsbench pread  PATH SIZE ITER BATCHES  pread(SIZE) at offset 0 of an open file
 *   dfsbench write  PATH TEXT ITER BATCHES  write(TEXT) to an open file; text
 *                                           files take each write as a whole value
 *   dfsbench slurp  PATH SIZE ITER BATCHES  open + read(SIZE) until the end + close
 *   dfsbench hold   PATH N                  open N descriptors and read(64) from
 *                                           each, keeping them open
 *   dfsbench spin   COUNT ITER BATCHES      a loop of COUNT times two instructions
 *                                           (x86-64, arm64, arm), no system call
 *
 * Each batch times ITER operations; prints the median, 10th and 90th
 * percentile of the per-operation time over the batches, in nanoseconds.
 * Under QEMU's -icount shift=0 the guest clock advances one nanosecond per
 * instruction, so the same figures are instructions per operation; "spin"
 * shows that they are: two spins whose COUNTs differ by D differ by 2 * D.
 * "hold" prints "N CALLS BYTES CALLS' BYTES'": the live allocations and
 * their bytes summed over /proc/allocinfo before and after: what an open
 * descriptor costs once it has been read, its struct file included.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Sums the live allocations and their bytes over all allocation sites. */
static void live_allocations(long long *calls, long long *bytes)
{
	FILE *f = fopen("/proc/allocinfo", "r");
	long long site_bytes, site_calls;
	char line[512];

	if (!f)
		die("/proc/allocinfo");
	*calls = *bytes = 0;
	while (fgets(line, sizeof(line), f)) {
		/* Each site is "BYTES CALLS FILE:LINE ..."; skip the header lines. */
		if (sscanf(line, "%lld %lld", &site_bytes, &site_calls) != 2)
			continue;
		*calls += site_calls;
		*bytes += site_bytes;
	}
	fclose(f);
}

/* Opens n descriptors of path, reads each once and reports the slab growth. */
static int hold(const char *path, long n)
{
	long long calls0, bytes0, calls1, bytes1;
	char buf[64];
	long i;

	/*
	 * Grow the descriptor table first, so that its reallocation is not
	 * counted as the files' cost.
	 */
	if (dup2(0, n + 16) < 0)
		die("dup2");
	close(n + 16);
	live_allocations(&calls0, &bytes0);
	for (i = 0; i < n; i++) {
		int fd = open(path, O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			die(path);
	}
	live_allocations(&calls1, &bytes1);
	printf("%ld %lld %lld %lld %lld\n", n, calls0, bytes0, calls1, bytes1);
	return 0;
}

/* COUNT times two instructions, whatever the compiler makes of the rest. */
static void spin(long count)
{
#if defined(__x86_64__)
	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(count) : : "cc");
#elif defined(__aarch64__)
	asm volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(count) : : "cc");
#elif defined(__arm__)
	asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(count) : : "cc");
#else
#error "spin() needs its two instructions for this architecture"
#endif
}

enum mode { OPEN, OPENCLOSE, SLURP, PREAD, WRITE, SPIN };

int main(int argc, char **argv)
{
	static const char *const modes[] = {
		[OPEN] = "open", [OPENCLOSE] = "openclose", [SLURP] = "slurp",
		[PREAD] = "pread", [WRITE] = "write", [SPIN] = "spin",
	};
	const char *path, *text = "5\n";
	long iter, batches, size = 64, count = 0, b, i;
	static char buf[1 << 20];
	enum mode mode = OPEN;
	size_t text_len;
	double *per_op;
	int fd = -1;

	if (argc < 4 || (argc < 5 && strcmp(argv[1], "hold"))) {
		fprintf(stderr, "usage: see the comment at the top of dfsbench.c\n");
		return 2;
	}
	path = argv[2];
	if (!strcmp(argv[1], "hold"))
		return hold(path, atol(argv[3]));
	/* The mode is looked up once: the loop costs each mode the same. */
	while (strcmp(argv[1], modes[mode]))
		if (++mode > SPIN)
			return 2;
	if (mode == PREAD || mode == SLURP)
		size = atol(argv[3]);
	else if (mode == WRITE)
		text = argv[3];
	else if (mode == SPIN)
		count = atol(argv[2]);
	text_len = strlen(text);
	iter = atol(argv[argc - 2]);
	batches = atol(argv[argc - 1]);
	if (size > (long)sizeof(buf) || iter < 1 || batches < 1 ||
	    (mode == SPIN && count < 1))
		return 2;
	per_op = calloc(batches, sizeof(*per_op));
	if (mode == PREAD || mode == WRITE) {
		fd = open(path, mode == WRITE ? O_WRONLY : O_RDONLY);
		if (fd < 0)
			die(path);
	}
	for (b = 0; b < batches; b++) {
		long long start = now_ns();

		for (i = 0; i < iter; i++) {
			ssize_t n;

			switch (mode) {
			case OPEN:
			case OPENCLOSE:
				fd = open(path, O_RDONLY);
				if (fd < 0 || (mode == OPEN && read(fd, buf, 64) < 0))
					die(path);
				close(fd);
				break;
			case SLURP:
				fd = open(path, O_RDONLY);
				if (fd < 0)
					die(path);
				while ((n = read(fd, buf, size)) > 0)
					;
				if (n < 0)
					die(path);
				close(fd);
				break;
			case PREAD:
				if (pread(fd, buf, size, 0) < 0)
					die(path);
				break;
			case WRITE:
				if (write(fd, text, text_len) < 0)
					die(path);
				break;
			case SPIN:
				spin(count);
				break;
			}
		}
		per_op[b] = (double)(now_ns() - start) / iter;
	}
	qsort(per_op, batches, sizeof(*per_op), cmp);
	printf("%.0f %.0f %.0f\n", per_op[batches / 2], per_op[batches / 10],
	       per_op[batches - 1 - batches / 10]);
	return 0;
}
