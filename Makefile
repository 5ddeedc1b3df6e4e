# SPDX-License-Identifier: GPL-2.0
# BPF overhead benchmarks: test_overhead and map_perf_test.
#
#   make               build both programs (CO-RE, libbpf skeletons)
#   make STATIC=1      self-contained static binaries (what vmtest boots)
#   make check         install what is missing, build, host tests, vmtest
#   make mutation-check  each check of the tools deleted in turn: a test fails
#   make run           install what is missing, build, run both programs
#   make V=1           show full commands
# CLANG=, BPFTOOL=, CC=, VMLINUX_BTF= override the tools and the BTF source.

CLANG ?= clang
BPFTOOL ?= $(or $(shell command -v bpftool 2>/dev/null),/usr/sbin/bpftool)
CC ?= cc
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
OUTPUT := build

PROGS := $(patsubst %_user.c,%,$(wildcard *_user.c))
# the runner both programs share, one file per job
RUNNER := bench_main.c bench_msg.c bench_cmdline.c bench_kernel.c \
	  bench_workers.c bench_attach.c bench_report.c bench_stats.c \
	  bench_compare.c
HEADERS := $(wildcard *.h)
# each program's BPF objects, one skeleton each
test_overhead_BPF := test_overhead_kprobe_kern test_overhead_tp_kern \
		     test_overhead_uprobe_kern test_overhead_batch_kern \
		     test_overhead_raw_tp_kern test_overhead_fentry_kern
map_perf_test_BPF := map_perf_test_kern

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Wno-unused-parameter -I$(OUTPUT) -I.
# uprobe targets need frame pointers to start with "push %rbp"
CFLAGS += -fno-omit-frame-pointer
BPF_CFLAGS := -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) -I$(OUTPUT) -I.
LDLIBS := -lbpf -lelf -lz -ljansson
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

$(OUTPUT)/vmlinux.h: | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@

$(OUTPUT)/%_kern.o: %_kern.c $(HEADERS) $(OUTPUT)/vmlinux.h
	$(call msg,CLANG,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/%_kern.skel.h: $(OUTPUT)/%_kern.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp && mv $@.tmp $@

# objects of static and dynamic builds are kept apart so they never mix
OBJDIR := $(OUTPUT)/$(if $(filter 1,$(STATIC)),static,dynamic)
$(OBJDIR):
	$(Q)mkdir -p $@

$(OBJDIR)/%.o: %.c $(HEADERS) | $(OBJDIR)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(OBJDIR)/test_overhead_user.o: $(test_overhead_BPF:%=$(OUTPUT)/%.skel.h)
$(OBJDIR)/map_perf_test_user.o: $(map_perf_test_BPF:%=$(OUTPUT)/%.skel.h)

# static binaries land in build/static/, the host's at the top
BINDIR := $(if $(filter 1,$(STATIC)),$(OBJDIR),.)
all: $(PROGS:%=$(BINDIR)/%) tests

$(BINDIR)/%: $(OBJDIR)/%_user.o $(patsubst %.c,$(OBJDIR)/%.o,$(RUNNER))
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# unit tests of the runner's pure parts, run by tests/test_stats.sh
STATS_TEST := $(OBJDIR)/stats_test
tests: $(STATS_TEST)

$(OBJDIR)/tests/%.o: tests/%.c $(HEADERS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(STATS_TEST): $(OBJDIR)/tests/stats_test.o \
	       $(patsubst %.c,$(OBJDIR)/%.o,bench_stats.c \
	       bench_compare.c bench_cmdline.c bench_msg.c)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The README's two commands. Both install what they need first.
deps:
	$(Q)tools/install-deps.sh

check: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/run.sh

run: deps
	$(Q)$(MAKE) --no-print-directory all
	./test_overhead
	./map_perf_test

# every check of the tools made to fail by its test (slow: rebuilds)
mutation-check: all
	$(Q)tests/mutation-check.sh

vmtest: deps
	$(Q)tools/vmtest.sh

bench: all
	$(Q)tools/bench.sh

clean:
	$(call msg,CLEAN)
	$(Q)rm -rf $(OUTPUT)/*.o $(OUTPUT)/*.skel.h $(OUTPUT)/vmlinux.h \
		$(OUTPUT)/static $(OUTPUT)/dynamic test_overhead map_perf_test

.PHONY: all tests deps check run vmtest bench clean mutation-check
.DELETE_ON_ERROR:
.SECONDARY:
