# SPDX-License-Identifier: GPL-2.0
#
# Harness of the Rust DebugFS abstraction. Heavy state lives in the cache
# directory ($DEBUGFS_CACHE, default /var/cache/rust-debugfs); nothing is
# built inside the repository. `make help` lists the targets.

H := harness

# What the harness sets for its own scripts never comes from the caller:
# `TOOLCHAIN=newest make test` must still test with rustc 1.85.1.
unexport DEBUGFS_LOCKED KSRC NO_KVM RESULTS CONFIG_ONLY TOOLCHAIN

.PHONY: help run test check bench kunit chroot source overlay config kernel fmt patches upstream-fixes \
	clean

help:
	@echo 'Main targets:'
	@echo '  run      - build if needed, boot the test kernel, show the samples in use'
	@echo '  test     - every test: builds, lints, KUnit doctests, selftests in QEMU'
	@echo '  check    - fast loop: rebuild the test kernel, one boot, KUnit and selftests'
	@echo '             (TESTS=test_debugfs_samples.sh,... runs only those selftests)'
	@echo '  bench    - ours and upstream'"'"'s kernel::debugfs against C DebugFS: table and CSV'
	@echo '             (BOOTS=n: n pairs of boots)'
	@echo '  kunit    - the kernel::debugfs doctests with kunit.py and our .kunitconfig'
	@echo 'Stages (each runs what it needs first):'
	@echo '  chroot   - Debian trixie toolchain roots, minimum and newest rustc (downloads)'
	@echo '  source   - extract linux-source-7.3 (downloads the package once)'
	@echo '  overlay  - lay our files into the base tree, replacing its debugfs'
	@echo '  config   - write .config of every configuration in harness/configs'
	@echo '  kernel   - build the test kernel and modules (LLVM=1 CLIPPY=1)'
	@echo 'Tools:'
	@echo '  fmt      - rustfmt our Rust files with the kernel rustfmt config'
	@echo '  patches  - the series (git format-patch), checkpatch.pl, git am and a build'
	@echo '             after every patch (BISECT=0: no build)'
	@echo '  upstream-fixes - our fixes as patches against the base tree'"'"'s own debugfs:'
	@echo '             checkpatch.pl, git am, both kernels built and booted'
	@echo '  clean    - delete the build directories (keeps toolchain and source)'
	@echo 'Variables: DEBUGFS_CACHE=dir, JOBS=n, V=1 (show build output),'
	@echo '           PATCH_AUTHOR="Name <email>" (From: of the series)'

run:
	@bash $(H)/run.sh

# make test is the same run everywhere: the default boot timeout (900 s).
test:
	@env -u BOOT_TIMEOUT bash $(H)/test.sh

check:
	@bash $(H)/check.sh

bench:
	@bash $(H)/bench.sh

kunit: source
	@bash $(H)/kunit.sh

chroot:
	@bash $(H)/chroot.sh
	@TOOLCHAIN=newest bash $(H)/chroot.sh

source: chroot
	@bash $(H)/source.sh

overlay: source
	@bash $(H)/overlay.sh

config: overlay
	@bash $(H)/config.sh test
	@bash $(H)/config.sh nodebugfs
	@bash $(H)/config.sh debug

kernel: config
	@bash $(H)/build.sh test bzImage modules

fmt: source
	@bash $(H)/fmt.sh

patches: source
	@BISECT=$${BISECT:-1} bash $(H)/patches.sh

upstream-fixes: source
	@bash $(H)/upstream-fixes.sh --verdict

clean:
	@bash -c '. $(H)/lib.sh && rm -rf "$$CACHE/build" && msg "Removed $$CACHE/build."'
