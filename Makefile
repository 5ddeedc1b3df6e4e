# SPDX-License-Identifier: GPL-2.0
# BPF overhead benchmarks: test_overhead and map_perf_test.
#
#   make               build both programs (CO-RE, libbpf skeletons)
#   make STATIC=1      self-contained static binaries (what vmtest boots)
#   make STATIC=1 ARCH=arm64
#                      the same for arm64, cross-built into build/arm64/static/
#   make check         install what is missing, build, host tests, vmtest
#   make testing       the test build: the programs with their test faults
#                      (BENCH_TEST_FAULT), in build/testing/, for make check
#   make mutation-check  each check of the tools deleted in turn: a test fails
#   make first-run     RUNS= default runs of each program: what a user sees
#   make repro         RUNS= runs of each program: the figures' spread run to
#                      run, their intervals' calibration, A/A compares
#   make run           install what building and running is missing (no
#                      qemu, docutils or matplotlib), build, run both programs
#                      (the worse exit status of the two, both named)
#   make vmtest-arm64  the arm64 binaries on Debian's arm64 kernel under qemu
#   make check-arm64   the arm64 cross build's checks (no qemu)
#   make plot JSON=F   pictures of --json files F (tools/plot.py)
#   make install [DESTDIR=dir] [prefix=/usr]
#                      both programs in $(sbindir) (as bpftool's
#                      /usr/sbin), their man pages, the bash completion and
#                      the documentation, bench-fleet (LAVA cases and KCIDB
#                      reports) and the LAVA test definition in
#                      $(datarootdir)/bpf-overhead-bench/lava; prefix
#                      /usr/local by default, and
#                      GNU's directory variables (sbindir, mandir, docdir,
#                      ...). make uninstall removes exactly that
#   make man           the man pages, from Documentation/ by rst2man
#   make deb           the Debian package (debian/), dpkg-buildpackage on a
#                      copy of the tree in build/deb/, then lintian;
#                      make check-deb builds it and checks it installs
#   make kselftest-install [INSTALL_PATH=dir]
#                      a kselftest collection, bpf_overhead, of the static
#                      programs with the kernel's run_kselftest.sh (from
#                      Debian's linux-source-6.1: make deps), in
#                      build/kselftest by default; make kselftest-tar
#                      packs it as the kernel's gen_tar does. ARCH=arm64:
#                      the arm64 programs, in build/arm64/kselftest
#   make vmtest-kselftest [ARCH=arm64]
#                      that package run by the kernel's runner in a stock
#                      kernel under qemu (tools/vmtest.sh --kselftest)
#   make V=1           show full commands
#   make LIBBPF=bookworm  the same against another libbpf (below)
# CLANG=, BPFTOOL=, CC=, VMLINUX_BTF= override the tools and the BTF source;
# for ARCH=arm64 also CROSS_COMPILE= and VMLINUX_IMAGE= (the arm64 kernel
# Image whose BTF build/arm64/vmlinux.h is made of).
#
# LIBBPF= is the libbpf the programs are built against and run:
#   system    (default) the installed libbpf-dev: make deps takes it from
#             bookworm-backports (1.4)
#   bookworm  bookworm's own libbpf-dev (1.1), its .deb unpacked
#   trixie    trixie's libbpf source package (1.5), built static
# bookworm and trixie land in build/libbpf/ (tools/libbpf.sh), are linked
# in statically and never installed; their builds go to build/<LIBBPF>/
# (build/arm64/<LIBBPF>/), binaries in its dynamic/ or static/.

CLANG ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
CC ?= cc
HOST_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
# only ARCH= on the command line counts, never one in the environment
ifeq ($(origin ARCH),command line)
override ARCH := $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(ARCH)))
else
ARCH := $(HOST_ARCH)
endif
OUTPUT := build

# Another architecture: everything it builds goes under build/$(ARCH)/,
# never mixed with the host's. arm64 only, static only: the binaries are
# for the arm64 guests of tools/vmtest.sh --arch arm64.
ifneq ($(ARCH),$(HOST_ARCH))
ifneq ($(ARCH),arm64)
$(error ARCH=$(ARCH): only the host's architecture ($(HOST_ARCH)) and arm64 are built)
endif
# (the kselftest package's goals build the static programs themselves)
ifneq ($(STATIC),1)
ifneq ($(filter-out kselftest-install kselftest-tar vmtest-kselftest,$(or $(MAKECMDGOALS),all)),)
$(error ARCH=$(ARCH) builds static binaries only: make STATIC=1 ARCH=$(ARCH))
endif
endif
CROSS := $(ARCH)
OUTPUT := build/$(ARCH)
CROSS_COMPILE ?= aarch64-linux-gnu-
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
# a cross build installs its toolchain first, as make run and make check
# install theirs: every directory of the build waits for it
TOOLCHAIN := deps-$(ARCH)
endif

LIBBPF ?= system
ifneq ($(LIBBPF),system)
ifeq ($(filter bookworm trixie,$(LIBBPF)),)
$(error LIBBPF=$(LIBBPF): system, bookworm or trixie)
endif
LIBBPF_DIR := build/libbpf/$(LIBBPF)-$(if $(CROSS),$(ARCH),$(HOST_ARCH))
LIBBPF_A := $(LIBBPF_DIR)/lib/libbpf.a
OUTPUT := $(OUTPUT)/$(LIBBPF)
endif

# The BPF programs' vmlinux.h comes from the target kernel's BTF: the running
# kernel's, or for a cross build an arm64 kernel Image's own .BTF, by default
# that of the kernel vmtest.sh --arch arm64 boots (fetched into build/vmtest/).
ifeq ($(CROSS),)
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
else
VMLINUX_BTF ?= $(OUTPUT)/vmlinux.btf
endif

PROGS := $(patsubst %_user.c,%,$(wildcard *_user.c))
# the runner both programs share: its folders' files (runner/*/), each
# folder a subsystem, one file per job (Documentation/runner.rst)
RUNNER := $(wildcard runner/*/*.c)
HEADERS := $(wildcard *.h runner/*/*.h overhead/*.h)
# test_overhead's parts, one job per file (overhead/)
test_overhead_SRCS := $(wildcard overhead/*.c)
# each program's BPF objects, one skeleton each
test_overhead_BPF := test_overhead_kprobe_kern test_overhead_tp_kern \
		     test_overhead_uprobe_kern test_overhead_batch_kern \
		     test_overhead_raw_tp_kern test_overhead_fentry_kern \
		     test_overhead_usdt_kern
map_perf_test_BPF := map_perf_test_kern
# map_perf_test's own files, one job each
HEADERS += $(wildcard maps/*.h)

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Wno-unused-parameter -I$(OUTPUT) -I. -Ioverhead -Irunner
# a call without its declaration is an int, and time's u64 truncated
CFLAGS += -Werror=implicit-function-declaration
# uprobe targets need frame pointers to start with "push %rbp" (x86-64)
CFLAGS += -fno-omit-frame-pointer
BPF_CFLAGS := -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) -I$(OUTPUT) -I. \
	      -Irunner
# usdt.bpf.h includes <linux/errno.h>, whose <asm/errno.h> lives in the
# target's multiarch directory, which clang -target bpf does not search:
# ask the C compiler, so that a cross build names its own
# (Debian's arm64 triplet while the cross compiler is not installed yet)
MULTIARCH := $(or $(shell $(CC) -print-multiarch 2>/dev/null),$(if $(CROSS),aarch64-linux-gnu))
BPF_CFLAGS += $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH))
LDLIBS := -lbpf -lelf -lz -ljansson -lpthread
# another libbpf's headers come first, for the BPF programs too, and its
# libbpf.a replaces -lbpf
ifneq ($(LIBBPF_A),)
CFLAGS += -I$(LIBBPF_DIR)/include
BPF_CFLAGS := -I$(LIBBPF_DIR)/include $(BPF_CFLAGS)
LDLIBS := $(LIBBPF_A) $(filter-out -lbpf,$(LDLIBS))
endif
ifeq ($(STATIC),1)
LDFLAGS += -static
LDLIBS += -lzstd
endif
# stats/stats.c: sqrt, lgamma, erfc
LDLIBS += -lm

.DEFAULT_GOAL := all

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

$(OUTPUT): | $(TOOLCHAIN)
	$(Q)mkdir -p $@

# bookworm's or trixie's libbpf, once (tools/libbpf.sh)
$(LIBBPF_A): | $(TOOLCHAIN)
	$(call msg,LIBBPF,$(LIBBPF_DIR))
	$(Q)CC='$(CC)' tools/libbpf.sh $(LIBBPF) $(if $(CROSS),$(ARCH),$(HOST_ARCH)) $(LIBBPF_DIR)

$(OUTPUT)/vmlinux.h: $(if $(CROSS),$(VMLINUX_BTF)) | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

# VMLINUX_IMAGE= names the Image; else vmtest.sh fetches its default kernel
$(OUTPUT)/vmlinux.btf: | $(OUTPUT)
	$(call msg,BTF,$@)
	$(Q)image='$(VMLINUX_IMAGE)'; \
	if [ -z "$$image" ]; then \
		image=$$(tools/vmtest.sh --arch $(ARCH) --fetch-only | tail -n 1); \
		[ -f "$$image" ] || { \
			[ -z "$$image" ] || echo "$$image" >&2; \
			echo "no $(ARCH) kernel Image to take the BTF from: run 'make deps-$(ARCH)'" \
			     "(apt lists for :$(ARCH)), or give VMLINUX_IMAGE=<$(ARCH) Image>" \
			     "or VMLINUX_BTF=<BTF file>" >&2; \
			exit 1; }; \
	fi; \
	python3 tools/btf_extract.py "$$image" $@.tmp && mv $@.tmp $@

$(OUTPUT)/%_kern.o: %_kern.c $(HEADERS) $(OUTPUT)/vmlinux.h $(LIBBPF_A)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/%_kern.skel.h: $(OUTPUT)/%_kern.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# objects of static and dynamic builds are kept apart so they never mix;
# with ARCH=arm64 OUTPUT is build/arm64 and the static build build/arm64/static
OBJDIR := $(OUTPUT)/$(if $(filter 1,$(STATIC)),static,dynamic)
$(OBJDIR): | $(TOOLCHAIN)
	$(Q)mkdir -p $@

$(OBJDIR)/%.o: %.c $(HEADERS) $(LIBBPF_A) | $(OBJDIR)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(patsubst %.c,$(OBJDIR)/%.o,test_overhead_user.c $(test_overhead_SRCS)): \
	$(test_overhead_BPF:%=$(OUTPUT)/%.skel.h)
$(OBJDIR)/map_perf_test_user.o: $(map_perf_test_BPF:%=$(OUTPUT)/%.skel.h)

# static binaries land in build/static/ (build/arm64/static/ for ARCH=arm64),
# the host's at the top; another libbpf's beside their objects
BINDIR := $(if $(filter 1,$(STATIC))$(LIBBPF_A),$(OBJDIR),.)
all: $(PROGS:%=$(BINDIR)/%) tests

$(BINDIR)/%: $(OBJDIR)/%_user.o $(patsubst %.c,$(OBJDIR)/%.o,$(RUNNER))
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# map_perf_test's fills, verification, output and its tests of other
# shapes (a buffer's consumer, bpf() calls): maps/, one job a file
map_perf_test_SRCS := $(wildcard maps/*.c)
$(BINDIR)/map_perf_test: $(patsubst %.c,$(OBJDIR)/%.o,$(map_perf_test_SRCS))
$(patsubst %.c,$(OBJDIR)/%.o,$(map_perf_test_SRCS)): \
	$(map_perf_test_BPF:%=$(OUTPUT)/%.skel.h)
$(OBJDIR)/maps/%.o: maps/%.c $(HEADERS) $(LIBBPF_A) | $(OBJDIR)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# the uprobe events' targets, per architecture, and the rest of overhead/
$(BINDIR)/test_overhead: $(patsubst %.c,$(OBJDIR)/%.o,$(test_overhead_SRCS))
# The uprobe modes attach to those targets by name, which libbpf looks up
# in the binary's symbol tables: in .dynsym too, so that they survive a
# package's strip (dh_strip takes .symtab). A static binary has none.
UPROBE_TARGETS := uprobe_nop uprobe_push uprobe_ret
ifneq ($(STATIC),1)
$(BINDIR)/test_overhead: LDFLAGS += \
	$(foreach t,$(UPROBE_TARGETS),-Wl,--export-dynamic-symbol=$(t) \
	-Wl,--export-dynamic-symbol='$(t)_[0-9]' \
	-Wl,--export-dynamic-symbol='$(t)_[0-9][0-9]' -Wl,--export-dynamic-symbol=$(t)_base)
endif

# The test build, for the tests that inject faults (BENCH_TEST_FAULT, see
# bench.h): the same programs compiled with -DBENCH_TESTING, BPF objects
# included, every object of its own under build/testing/ (build/static/
# testing/ with STATIC=1), never mixed with what make builds, which has no
# test faults at all. Only the two programs: nothing else needs faults.
TESTDIR := $(if $(filter 1,$(STATIC)),$(OBJDIR)/testing,$(OUTPUT)/testing)
TESTING_PROGS := $(PROGS:%=$(TESTDIR)/%)
testing: $(TESTING_PROGS)

$(TESTDIR):
	$(Q)mkdir -p $@

$(TESTDIR)/%_kern.o: %_kern.c $(HEADERS) $(OUTPUT)/vmlinux.h | $(TESTDIR)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DBENCH_TESTING -c $< -o $@

$(TESTDIR)/%_kern.skel.h: $(TESTDIR)/%_kern.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# its skeletons before the shipped ones in build/
$(TESTDIR)/%.o: %.c $(HEADERS) | $(TESTDIR)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) -DBENCH_TESTING -I$(TESTDIR) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(patsubst %.c,$(TESTDIR)/%.o,test_overhead_user.c $(test_overhead_SRCS)): \
	$(test_overhead_BPF:%=$(TESTDIR)/%.skel.h)
$(TESTDIR)/map_perf_test_user.o: $(map_perf_test_BPF:%=$(TESTDIR)/%.skel.h)
$(TESTDIR)/test_overhead: $(patsubst %.c,$(TESTDIR)/%.o,$(test_overhead_SRCS))
$(TESTDIR)/map_perf_test: $(patsubst %.c,$(TESTDIR)/%.o,$(map_perf_test_SRCS))
$(patsubst %.c,$(TESTDIR)/%.o,$(map_perf_test_SRCS)): \
	$(map_perf_test_BPF:%=$(TESTDIR)/%.skel.h)
$(TESTDIR)/maps/%.o: maps/%.c $(HEADERS) | $(TESTDIR)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) -DBENCH_TESTING -I$(TESTDIR) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(TESTING_PROGS): $(TESTDIR)/%: $(TESTDIR)/%_user.o \
		  $(patsubst %.c,$(TESTDIR)/%.o,$(RUNNER))
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# unit tests of the runner's pure parts, run by tests/test_stats.sh, and
# a program the tests attach beside ours
STATS_TEST := $(OBJDIR)/stats_test
# what stats_test leaves out of the runner: main(), and the files that
# ask the kernel or run the sampler (it stubs the few calls it needs of
# them): the folders that do (kernel/, attach/, sample/) but the pure
# files it tests there, and the sampler with its passes. Any
# other runner file is linked: a new one in a folder is taken with it.
RUNNER_LIVE := $(filter-out runner/kernel/probes.c runner/sample/verify.c, \
	       $(wildcard runner/kernel/*.c runner/attach/*.c runner/sample/*.c)) \
	       runner/cli/main.c runner/passes/sampler.c
HOLD_HOOK := $(OBJDIR)/hold_hook
tests: $(STATS_TEST) $(HOLD_HOOK)

$(OBJDIR)/tests/%.o: tests/%.c $(HEADERS) $(LIBBPF_A) | $(OBJDIR)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(STATS_TEST): $(OBJDIR)/tests/stats_test.o \
	       $(patsubst %.c,$(OBJDIR)/%.o,$(filter-out $(RUNNER_LIVE),$(RUNNER)) \
	       overhead/uprobe_targets.c)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(OBJDIR)/tests/hold_hook.o: $(OUTPUT)/test_overhead_raw_tp_kern.skel.h

# unit tests of the programs' tables: no two entries claim a test_flags
# bit. Each compiles its program's source in (tests/test_flags.sh).
FLAGS_TESTS := $(OBJDIR)/overhead_flags_test $(OBJDIR)/map_flags_test
tests: $(FLAGS_TESTS)

$(OBJDIR)/tests/overhead_flags_test.o: test_overhead_user.c \
	$(test_overhead_BPF:%=$(OUTPUT)/%.skel.h)
$(OBJDIR)/tests/map_flags_test.o: map_perf_test_user.c \
	$(map_perf_test_BPF:%=$(OUTPUT)/%.skel.h)

$(OBJDIR)/overhead_flags_test: $(OBJDIR)/tests/overhead_flags_test.o \
	$(patsubst %.c,$(OBJDIR)/%.o,$(RUNNER) $(test_overhead_SRCS))
$(OBJDIR)/map_flags_test: $(OBJDIR)/tests/map_flags_test.o \
	$(patsubst %.c,$(OBJDIR)/%.o,$(RUNNER) $(map_perf_test_SRCS))
$(FLAGS_TESTS):
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(HOLD_HOOK): $(OBJDIR)/tests/hold_hook.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The README's two commands. Both install what they need first, each its
# own group (tools/install-deps.sh): make run no qemu, docutils or
# matplotlib. make deps is all that make check needs.
deps:
	$(Q)tools/install-deps.sh check

deps-run deps-vmtest deps-plot deps-install deps-deb:
	$(Q)tools/install-deps.sh $(@:deps-%=%)

# run's, the cross toolchain, arm64's static libraries and qemu for arm64
deps-arm64:
	$(Q)tools/install-deps.sh arm64

# the man pages' lists of modes, events and map tests, from the programs'
# own (tools/doc-tables.py); tests/test_docs.sh fails when they differ
docs: all
	$(Q)./test_overhead --list --json $(OUTPUT)/test_overhead.list.json
	$(Q)./map_perf_test --list --json $(OUTPUT)/map_perf_test.list.json
	$(Q)tools/doc-tables.py Documentation $(OUTPUT)/test_overhead.list.json \
		$(OUTPUT)/map_perf_test.list.json

# The man pages, test_overhead(8) and map_perf_test(8): their sources are
# Documentation/test_overhead.rst and map_perf_test.rst, which include
# Documentation/common_*.rst, made by docutils' rst2man as bpftool's are
RST2MAN ?= rst2man
MAN8 := $(PROGS:%=build/man/%.8)
man: $(MAN8)

build/man/%.8: Documentation/%.rst $(wildcard Documentation/common_*.rst)
	$(call msg,GEN,$@)
	$(Q)command -v $(RST2MAN) >/dev/null || { \
		echo "$(RST2MAN) not found: make deps-install (python3-docutils)" >&2; \
		exit 1; }
	$(Q)mkdir -p $(@D)
	$(Q)$(RST2MAN) --halt=warning --strip-comments $< $@.tmp && mv $@.tmp $@

# make install: GNU's directory variables, with DESTDIR for a staging
# tree (a package's); programs in sbindir, as bpftool in /usr/sbin: they
# are for the machine's administrator (root, or CAP_BPF and CAP_PERFMON).
# bash-completion finds the completion in $$XDG_DATA_DIRS/bash-completion/
# completions, /usr/local/share and /usr/share by default (bpftool's
# Makefile has /usr/share's whatever the prefix).
prefix ?= /usr/local
exec_prefix ?= $(prefix)
sbindir ?= $(exec_prefix)/sbin
datarootdir ?= $(prefix)/share
mandir ?= $(datarootdir)/man
man8dir ?= $(mandir)/man8
docdir ?= $(datarootdir)/doc/bpf-overhead-bench
bashcompdir ?= $(datarootdir)/bash-completion/completions
INSTALL ?= install

# what make install puts there, for make uninstall: the completion's one
# file under each program's name (map_perf_test's a link to it); the
# fleets' converter beside the programs (it runs them), the LAVA test
# definition and its run step in the project's data directory
DOC_FILES := README.rst $(wildcard Documentation/*.rst)
pkgdatadir ?= $(datarootdir)/bpf-overhead-bench
LAVA_FILES := bpf-overhead-bench.yaml run.sh
INSTALLED := $(PROGS:%=$(sbindir)/%) $(sbindir)/bench-fleet \
	     $(PROGS:%=$(man8dir)/%.8) \
	     $(PROGS:%=$(bashcompdir)/%) $(DOC_FILES:%=$(docdir)/%) \
	     $(LAVA_FILES:%=$(pkgdatadir)/lava/%)
INSTALL_DIRS := $(sbindir) $(man8dir) $(bashcompdir) $(docdir)/Documentation \
		$(pkgdatadir)/lava

# installs the man pages' tool first, as make run and make check do theirs
install: deps-install
	$(Q)$(MAKE) --no-print-directory install-files

install-files: $(PROGS:%=$(BINDIR)/%) $(MAN8)
	$(call msg,INSTALL,$(DESTDIR)$(prefix))
	$(Q)$(INSTALL) -d -m 755 $(addprefix $(DESTDIR),$(INSTALL_DIRS))
	$(Q)$(INSTALL) -m 755 $(PROGS:%=$(BINDIR)/%) $(DESTDIR)$(sbindir)
	$(Q)$(INSTALL) -m 755 tools/bench-fleet.py $(DESTDIR)$(sbindir)/bench-fleet
	$(Q)$(INSTALL) -m 644 tools/lava/bpf-overhead-bench.yaml $(DESTDIR)$(pkgdatadir)/lava
	$(Q)$(INSTALL) -m 755 tools/lava/run.sh $(DESTDIR)$(pkgdatadir)/lava
	$(Q)$(INSTALL) -m 644 $(MAN8) $(DESTDIR)$(man8dir)
	$(Q)$(INSTALL) -m 644 bash-completion/test_overhead $(DESTDIR)$(bashcompdir)
	$(Q)ln -sf test_overhead $(DESTDIR)$(bashcompdir)/map_perf_test
	$(Q)$(INSTALL) -m 644 README.rst $(DESTDIR)$(docdir)
	$(Q)$(INSTALL) -m 644 $(wildcard Documentation/*.rst) $(DESTDIR)$(docdir)/Documentation

# the files, and the project's own directories (docdir's Documentation,
# and docdir when it is named for the project, as its default is), as
# they become empty. As automake's, never a directory it may share with
# others (sbindir, man8dir, bashcompdir), DESTDIR or not: with DESTDIR=/
# an empty /usr/local/sbin is Debian's.
OWN_DIRS := $(docdir)/Documentation \
	    $(if $(filter bpf-overhead-bench,$(notdir $(docdir))),$(docdir)) \
	    $(pkgdatadir)/lava \
	    $(if $(filter bpf-overhead-bench,$(notdir $(pkgdatadir))),$(pkgdatadir))
uninstall:
	$(call msg,UNINST,$(DESTDIR)$(prefix))
	$(Q)rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	$(Q)for d in $(addprefix $(DESTDIR),$(OWN_DIRS)); do \
		[ ! -d "$$d" ] || rmdir --ignore-fail-on-non-empty "$$d" || exit 1; \
	done

# The Debian package, built as the issue's check does: dpkg-buildpackage
# -us -uc -b on a copy of the tree's files (build/deb/), lintian after
deb: deps-deb
	$(Q)tools/deb.sh build/deb

# that build, then the package checked against make install's layout,
# installed here, run from /usr/sbin and removed (slow: not in make check;
# .ci/run runs it)
check-deb: deps-deb
	$(Q)tests/run.sh tests/test_deb_package.sh

# the build before the tests on every CPU, unless make was given -j
# (expanded in the recipe, where MAKEFLAGS has it)
CHECK_JOBS = $(if $(findstring jobserver,$(MAKEFLAGS))$(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))
check: deps
	$(Q)$(MAKE) --no-print-directory $(CHECK_JOBS) all testing
	$(Q)tests/run.sh

# the checks of figures that only undisturbed rows have (statistics of
# samples, fits, --prog-stats' timings): strict, for a quiet machine; on
# the shared CI machine make check skips them when every row is disturbed
QUIET_TESTS := $(filter-out tests/test_arm64_% tests/test_vm% tests/test_deb_%,$(wildcard tests/test_*.sh))
check-quiet: all testing
	$(Q)BENCH_TESTS_QUIET=1 tests/run.sh $(sort $(QUIET_TESTS))

# both programs whatever the first gives; the worse status of the two
run: deps-run
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tools/run.sh

# pictures of --json results: make plot JSON="a.json b.json" [PLOTDIR=dir]
PLOTDIR ?= $(OUTPUT)/plots
# (matplotlib is installed only once JSON= is given)
plot: $(if $(JSON),deps-plot)
	$(if $(JSON),,$(error give the --json files: make plot JSON="a.json ..."))
	$(Q)tools/plot.py -o $(PLOTDIR) $(JSON)

# the signal and stall matrix whole: every program and way of running
# interrupted at each moment, every kind of child held (tests/
# test_matrix.sh; make check runs one case of each kind), and the
# parent's SIGKILL at each of test_faults.sh's 8 points (make check: 4);
# .ci/run runs it
matrix: all testing
	$(Q)MATRIX=full tests/run.sh tests/test_matrix.sh
	$(Q)MATRIX=full T_SECTIONS=kills tests/run.sh tests/test_faults.sh

# every check of the tools made to fail by its test (.ci/run runs it
# after make check: it rebuilds each mutant and runs its check's section)
mutation-check: all testing
	$(Q)tests/mutation-check.sh

vmtest: deps-vmtest
	$(Q)tools/vmtest.sh

vmtest-arm64: deps-arm64
	$(Q)tools/vmtest.sh --arch arm64

# the kselftest package under a stock kernel, run by the kernel's
# run_kselftest.sh (ARCH=arm64: the arm64 package on an arm64 kernel)
vmtest-kselftest: $(if $(CROSS),deps-$(ARCH),deps-vmtest)
	$(Q)tools/vmtest.sh --kselftest $(if $(CROSS),--arch $(ARCH))

# the arm64 cross build's checks, no qemu (not part of 'make check' yet)
check-arm64: deps-arm64
	$(Q)tests/run.sh tests/test_arm64_build.sh

# make bench's reference: the kernel's own samples/bpf test_overhead, its
# empty programs, built from Debian's linux-source-6.12 (tools/upstream.sh)
UPSTREAM := build/upstream
$(UPSTREAM)/test_overhead: tools/upstream.sh $(OUTPUT)/vmlinux.h
	$(call msg,UPSTREAM,$@)
	$(Q)CLANG='$(CLANG)' CC='$(CC)' tools/upstream.sh $(UPSTREAM) $(OUTPUT)/vmlinux.h

# make bench's probe of what the count costs, part by part
# (tools/count_cost.c)
COUNT_COST := $(OUTPUT)/count_cost
$(OUTPUT)/count_cost_kern.o: tools/count_cost_kern.c $(HEADERS) $(OUTPUT)/vmlinux.h $(LIBBPF_A)
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(COUNT_COST): tools/count_cost.c $(OUTPUT)/count_cost_kern.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $< $(LDLIBS) -o $@

bench: all testing $(UPSTREAM)/test_overhead $(COUNT_COST)
	$(Q)tools/bench.sh

# how far a figure can be trusted: RUNS runs of each program, A/A
# compares, a known change's verdicts (tools/repro.sh)
repro: all
	$(Q)RUNS=$(or $(RUNS),10) tools/repro.sh

# what a new user sees: RUNS default runs of each program, as they come
first-run: all
	$(Q)RUNS=$(or $(RUNS),10) tools/first-run.sh

# A kselftest collection, laid out as the kernel's "make -C
# tools/testing/selftests install" does, with the kernel's own runner
# files, taken from Debian's linux-source-6.1 tarball (make deps
# installs it). The programs are the static build, as vmtest's guests get;
# with ARCH=arm64 (LIBBPF=) the arm64 (that libbpf's) static build, and the
# tree by default in build/arm64/kselftest (build/<LIBBPF>/kselftest).
INSTALL_PATH ?= $(OUTPUT)/kselftest
LINUX_SOURCE_TAR ?= /usr/src/linux-source-6.1.tar.xz
KSFT_RUNNER := build/kselftest-runner
KSFT_TOP := $(patsubst %.tar.xz,%,$(notdir $(LINUX_SOURCE_TAR)))/tools/testing/selftests

$(KSFT_RUNNER)/run_kselftest.sh:
	$(if $(wildcard $(LINUX_SOURCE_TAR)),,$(error $(LINUX_SOURCE_TAR) is missing: 'make deps' installs linux-source-6.1))
	$(call msg,UNTAR,$(KSFT_RUNNER))
	$(Q)rm -rf $(KSFT_RUNNER) && mkdir -p $(KSFT_RUNNER)
	$(Q)tar -I 'xz -T0' -xf $(LINUX_SOURCE_TAR) -C $(KSFT_RUNNER) --strip-components=4 \
		--wildcards '$(KSFT_TOP)/run_kselftest.sh' '$(KSFT_TOP)/kselftest/*'

kselftest-install: $(KSFT_RUNNER)/run_kselftest.sh
	$(Q)$(MAKE) --no-print-directory STATIC=1 $(OUTPUT)/static/test_overhead \
		$(OUTPUT)/static/map_perf_test
	$(Q)tools/kselftest-install.sh $(OUTPUT)/static $(KSFT_RUNNER) $(INSTALL_PATH)

# the installed directory as the kernel's "make gen_tar" packs it, for a
# fleet that fetches a kselftest tarball
kselftest-tar: kselftest-install
	$(call msg,TAR,$(INSTALL_PATH)/kselftest-packages/kselftest.tar.gz)
	$(Q)mkdir -p $(INSTALL_PATH)/kselftest-packages
	$(Q)tar -czf $(INSTALL_PATH)/kselftest-packages/kselftest.tar.gz \
		--exclude=kselftest-packages -C $(INSTALL_PATH) .

clean:
	$(call msg,CLEAN)
	$(Q)rm -rf $(OUTPUT)/*.o $(OUTPUT)/*.skel.h $(OUTPUT)/vmlinux.h \
		$(OUTPUT)/static $(OUTPUT)/dynamic $(OUTPUT)/testing \
		test_overhead map_perf_test
	$(Q)rm -rf build/arm64 build/bookworm build/trixie
	$(Q)rm -rf $(KSFT_RUNNER) build/kselftest build/man build/deb build/upstream

.PHONY: all docs man install install-files uninstall deb check-deb \
	tests testing deps deps-run deps-vmtest deps-plot deps-install deps-deb deps-arm64 kselftest-install kselftest-tar check check-quiet check-arm64 run vmtest vmtest-arm64 vmtest-kselftest bench plot \
	first-run repro \
	clean mutation-check matrix
.DELETE_ON_ERROR:
.SECONDARY:
