# SPDX-License-Identifier: GPL-2.0
# BPF overhead benchmarks: test_overhead and map_perf_test.
#
#   make               build both programs (CO-RE, libbpf skeletons)
#   make STATIC=1      self-contained static binaries (what vmtest boots)
#   make STATIC=1 ARCH=arm64
#                      the same for arm64, cross-built into build/arm64/static/
#   make check         install what is missing, build, host tests, vmtest
#   make mutation-check  each check of the tools deleted in turn: a test fails
#   make run           install what is missing, build, run both programs
#                      (the worse exit status of the two, both named)
#   make vmtest-arm64  the arm64 binaries on Debian's arm64 kernel under qemu
#   make check-arm64   the arm64 cross build's checks (no qemu)
#   make plot JSON=F   pictures of --json files F (tools/plot.py)
#   make V=1           show full commands
# CLANG=, BPFTOOL=, CC=, VMLINUX_BTF= override the tools and the BTF source;
# for ARCH=arm64 also CROSS_COMPILE= and VMLINUX_IMAGE= (the arm64 kernel
# Image whose BTF build/arm64/vmlinux.h is made of).

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
ifneq ($(STATIC),1)
$(error ARCH=$(ARCH) builds static binaries only: make STATIC=1 ARCH=$(ARCH))
endif
CROSS := $(ARCH)
OUTPUT := build/$(ARCH)
CROSS_COMPILE ?= aarch64-linux-gnu-
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
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
# the runner both programs share, one file per job
RUNNER := bench_main.c bench_msg.c bench_cmdline.c bench_kernel.c \
	  bench_workers.c bench_attach.c bench_report.c bench_stats.c \
	  bench_compare.c bench_verify.c
HEADERS := $(wildcard *.h)
# each program's BPF objects, one skeleton each
test_overhead_BPF := test_overhead_kprobe_kern test_overhead_tp_kern \
		     test_overhead_uprobe_kern test_overhead_batch_kern \
		     test_overhead_raw_tp_kern test_overhead_fentry_kern \
		     test_overhead_usdt_kern
map_perf_test_BPF := map_perf_test_kern

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Wno-unused-parameter -I$(OUTPUT) -I.
# uprobe targets need frame pointers to start with "push %rbp" (x86-64)
CFLAGS += -fno-omit-frame-pointer
BPF_CFLAGS := -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) -I$(OUTPUT) -I.
# usdt.bpf.h includes <linux/errno.h>, whose <asm/errno.h> lives in the
# target's multiarch directory, which clang -target bpf does not search:
# ask the C compiler, so that a cross build names its own
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS += $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH))
LDLIBS := -lbpf -lelf -lz -ljansson -lpthread
ifeq ($(STATIC),1)
LDFLAGS += -static
LDLIBS += -lzstd
endif
# bench_stats.c: sqrt, lgamma, erfc
LDLIBS += -lm

.DEFAULT_GOAL := all

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

$(OUTPUT):
	$(Q)mkdir -p $@

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

$(OUTPUT)/%_kern.o: %_kern.c $(HEADERS) $(OUTPUT)/vmlinux.h
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/%_kern.skel.h: $(OUTPUT)/%_kern.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# objects of static and dynamic builds are kept apart so they never mix;
# with ARCH=arm64 OUTPUT is build/arm64 and the static build build/arm64/static
OBJDIR := $(OUTPUT)/$(if $(filter 1,$(STATIC)),static,dynamic)
$(OBJDIR):
	$(Q)mkdir -p $@

$(OBJDIR)/%.o: %.c $(HEADERS) | $(OBJDIR)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(OBJDIR)/test_overhead_user.o: $(test_overhead_BPF:%=$(OUTPUT)/%.skel.h)
$(OBJDIR)/map_perf_test_user.o: $(map_perf_test_BPF:%=$(OUTPUT)/%.skel.h)

# static binaries land in build/static/ (build/arm64/static/ for ARCH=arm64),
# the host's at the top
BINDIR := $(if $(filter 1,$(STATIC)),$(OBJDIR),.)
all: $(PROGS:%=$(BINDIR)/%) tests

$(BINDIR)/%: $(OBJDIR)/%_user.o $(patsubst %.c,$(OBJDIR)/%.o,$(RUNNER))
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# map_perf_test's tests of other shapes: a buffer's consumer, bpf() calls
map_perf_test_SRCS := map_perf_consumer.c map_perf_syscall.c
$(BINDIR)/map_perf_test: $(patsubst %.c,$(OBJDIR)/%.o,$(map_perf_test_SRCS))

# the uprobe events' targets, per architecture
$(BINDIR)/test_overhead: $(OBJDIR)/uprobe_targets.o

# unit tests of the runner's pure parts, run by tests/test_stats.sh, and
# a program the tests attach beside ours
STATS_TEST := $(OBJDIR)/stats_test
HOLD_HOOK := $(OBJDIR)/hold_hook
tests: $(STATS_TEST) $(HOLD_HOOK)

$(OBJDIR)/tests/%.o: tests/%.c $(HEADERS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(STATS_TEST): $(OBJDIR)/tests/stats_test.o \
	       $(patsubst %.c,$(OBJDIR)/%.o,bench_stats.c \
	       bench_compare.c bench_cmdline.c bench_msg.c bench_verify.c)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(OBJDIR)/tests/hold_hook.o: $(OUTPUT)/test_overhead_raw_tp_kern.skel.h

$(HOLD_HOOK): $(OBJDIR)/tests/hold_hook.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The README's two commands. Both install what they need first.
deps:
	$(Q)tools/install-deps.sh

# the cross toolchain, arm64's static libraries and qemu for arm64, too
deps-arm64:
	$(Q)tools/install-deps.sh arm64

check: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/run.sh

# the checks of figures that only undisturbed rows have (statistics of
# samples, fits, --prog-stats' timings): strict, for a quiet machine; on
# the shared CI machine make check skips them when every row is disturbed
QUIET_TESTS := $(filter-out tests/test_arm64_% tests/test_vm%,$(wildcard tests/test_*.sh))
check-quiet: all
	$(Q)BENCH_TESTS_QUIET=1 tests/run.sh $(sort $(QUIET_TESTS))

# both programs whatever the first gives; the worse status of the two
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tools/run.sh

# pictures of --json results: make plot JSON="a.json b.json" [PLOTDIR=dir]
PLOTDIR ?= $(OUTPUT)/plots
plot:
	$(if $(JSON),,$(error give the --json files: make plot JSON="a.json ..."))
	$(Q)tools/plot.py -o $(PLOTDIR) $(JSON)

# every check of the tools made to fail by its test (slow: rebuilds)
mutation-check: all
	$(Q)tests/mutation-check.sh

vmtest: deps
	$(Q)tools/vmtest.sh

vmtest-arm64: deps-arm64
	$(Q)tools/vmtest.sh --arch arm64

# the arm64 cross build's checks, no qemu (not part of 'make check' yet)
check-arm64: deps-arm64
	$(Q)tests/run.sh tests/test_arm64_build.sh

bench: all
	$(Q)tools/bench.sh

clean:
	$(call msg,CLEAN)
	$(Q)rm -rf $(OUTPUT)/*.o $(OUTPUT)/*.skel.h $(OUTPUT)/vmlinux.h \
		$(OUTPUT)/static $(OUTPUT)/dynamic test_overhead map_perf_test
	$(Q)rm -rf build/arm64

.PHONY: all tests deps deps-arm64 check check-quiet check-arm64 run vmtest vmtest-arm64 bench plot \
	clean mutation-check
.DELETE_ON_ERROR:
.SECONDARY:
