// SPDX-License-Identifier: GPL-2.0
/*
 * User-space side of `make bench`: tight loops over one DebugFS file.
 *
 *   dfsbench open   PATH ITER BATCHES       open + read(64) + close
 *   dfsbench pread  PATH SIZE ITER BATCHES  pread(SIZE) at offset 0 of an open file
 *   dfsbench write  PATH TEXT ITER BATCHES  write(TEXT) to an open file; text
 *                                           files take each write as a whole value
 *   dfsbench slurp  PATH SIZE ITER BATCHES  open + read(SIZE) until the end + close
 *   dfsbench hold   PATH N                  open N descriptors and read(64) from
 *                                           each, keeping them open
 *
 * Each batch times ITER operations; prints the median, 10th and 90th
 * percentile of the per-operation time over the batches, in nanoseconds.
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

int main(int argc, char **argv)
{
	const char *mode, *path;
	long iter, batches, size = 64, b, i;
	const char *text = "5\n";
	static char buf[1 << 20];
	double *per_op;
	int fd = -1;

	if (argc < 4 || (argc < 5 && strcmp(argv[1], "hold"))) {
		fprintf(stderr, "usage: see the comment at the top of dfsbench.c\n");
		return 2;
	}
	mode = argv[1];
	path = argv[2];
	if (!strcmp(mode, "hold"))
		return hold(path, atol(argv[3]));
	if (!strcmp(mode, "pread") || !strcmp(mode, "slurp"))
		size = atol(argv[3]);
	else if (!strcmp(mode, "write"))
		text = argv[3];
	iter = atol(argv[argc - 2]);
	batches = atol(argv[argc - 1]);
	if (size > (long)sizeof(buf) || iter < 1 || batches < 1)
		return 2;
	per_op = calloc(batches, sizeof(*per_op));
	if (strcmp(mode, "open") && strcmp(mode, "slurp")) {
		fd = open(path, strcmp(mode, "write") ? O_RDONLY : O_WRONLY);
		if (fd < 0)
			die(path);
	}
	for (b = 0; b < batches; b++) {
		long long start = now_ns();

		for (i = 0; i < iter; i++) {
			if (!strcmp(mode, "open")) {
				fd = open(path, O_RDONLY);
				if (fd < 0 || read(fd, buf, 64) < 0)
					die(path);
				close(fd);
			} else if (!strcmp(mode, "slurp")) {
				ssize_t n;

				fd = open(path, O_RDONLY);
				if (fd < 0)
					die(path);
				while ((n = read(fd, buf, size)) > 0)
					;
				if (n < 0)
					die(path);
				close(fd);
			} else if (!strcmp(mode, "pread")) {
				if (pread(fd, buf, size, 0) < 0)
					die(path);
			} else if (write(fd, text, strlen(text)) < 0) {
				die(path);
			}
		}
		per_op[b] = (double)(now_ns() - start) / iter;
	}
	qsort(per_op, batches, sizeof(*per_op), cmp);
	printf("%.0f %.0f %.0f\n", per_op[batches / 2], per_op[batches / 10],
	       per_op[batches - 1 - batches / 10]);
	return 0;
}
