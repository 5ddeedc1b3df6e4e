#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run's tools/run.sh, with stand-in programs that exit as told: the
# second program runs whatever the first gave, the status is the worse of
# the two, a line names each, and a signal stops it at once. And what
# make run installs first (tools/install-deps.sh run), checked without
# installing anything: none of qemu, busybox, cpio, docutils or
# matplotlib, and every header and tool the build uses, and every library
# the programs load, in a package its Depends bring.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# prog NAME STATUS: a stand-in that says it ran and exits STATUS
prog() {
	printf '#!/bin/sh\necho "%s ran"\nexit %s\n' "$1" "$2" >"$T_TMP/$1"
	chmod +x "$T_TMP/$1"
}

# both A B WANT: A and B exit as told; tools/run.sh exits WANT, both ran
both() {
	prog first "$1"
	prog second "$2"
	run_capture run tools/run.sh "$T_TMP/first" "$T_TMP/second"
	expect "make run, $1 then $2: exit $3 (rc=$RC)" test "$RC" -eq "$3"
	expect "make run, $1 then $2: the second ran" grep -q '^second ran$' "$T_TMP/run.out"
	expect "make run, $1 then $2: a line names each status, then the run's" \
		test "$(tail -n 3 "$T_TMP/run.err" | sed 's/ (.*)$//')" = \
		"$(printf 'make run: %s\n' "$T_TMP/first exited $1" \
			"$T_TMP/second exited $2" "exit $3")"
}

both 0 0 0
both 3 0 3
both 0 3 3
both 1 3 1
both 3 1 1
both 2 3 2
both 1 2 1

prog first 130
prog second 0
run_capture run tools/run.sh "$T_TMP/first" "$T_TMP/second"
expect "make run, interrupted first: exit 130 (rc=$RC)" test "$RC" -eq 130
expect "make run, interrupted first: the second did not run" \
	test -z "$(grep '^second ran$' "$T_TMP/run.out")"
expect "make run: names the signal" grep -q 'interrupted by signal 2' "$T_TMP/run.err"

# ---- make run's packages ----
DEPS=tools/install-deps.sh
list() { "$DEPS" --list "$@" | tr '\n' ' '; }
RUN_PKGS=$(list run)
echo "# run group: $RUN_PKGS"
# has WORDS PKG...: every PKG is among WORDS
has() {
	local w=" $1 " p
	shift
	for p; do
		[[ $w == *" $p "* ]] || { echo "# $p missing"; return 1; }
	done
}
# none WORDS: no word of WORDS is a package that only the tests, vmtest
# or make plot need
none() {
	local bad
	bad=$(tr ' ' '\n' <<<"$1" | grep -E '^(qemu|busybox|cpio|python3-docutils|docutils|python3-matplotlib|matplotlib|linux-source)')
	[ -z "$bad" ] || { echo "# there:" $bad; return 1; }
}
expect "run group: no qemu, busybox, cpio, docutils, matplotlib or linux-source" none "$RUN_PKGS"
expect "run group: the compilers, make, libbpf, bpftool, libelf, zlib, jansson, sdt" \
	has "$RUN_PKGS" clang gcc libc6-dev make libbpf-dev bpftool libelf-dev \
	zlib1g-dev libjansson-dev systemtap-sdt-dev
expect "make deps is make check's group" test "$(list)" = "$(list check)"
# shellcheck disable=SC2046
expect "check group: run's, vmtest's, plot's" has "$(list check)" $RUN_PKGS \
	$(list vmtest) $(list plot)
expect "check group: what the tests use (python3, docutils, pgrep, the kernel's kselftest runner)" \
	has "$(list check)" python3 python3-docutils procps linux-source-6.1
expect "vmtest group: run's (its static build), qemu, busybox, cpio, libzstd" \
	has "$(list vmtest)" $RUN_PKGS qemu-system-x86 busybox-static cpio libzstd-dev
expect "plot group: matplotlib alone, no compiler" \
	test "$(list plot)" = "python3 python3-matplotlib "
expect "arm64 group: run's and the cross toolchain" has "$(list arm64)" $RUN_PKGS \
	gcc-aarch64-linux-gnu libbpf-dev:arm64 qemu-system-arm
run_capture badgroup "$DEPS" --list bogus
expect "install-deps.sh bogus: exit 2 (rc=$RC)" test "$RC" -eq 2

# each target installs its own group first (make -n prints it)
first_dep() {
	# as a user types it: not as make check's sub-make, which says
	# "Entering directory" first
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n "$@" >"$T_TMP/n.out" 2>&1
	head -n 1 "$T_TMP/n.out"
}
for t in run:run check:check deps:check vmtest:vmtest vmtest-arm64:arm64 \
	 "plot JSON=x.json":plot; do
	# shellcheck disable=SC2086
	got=$(first_dep ${t%%:*})
	expect "make ${t%%:*} installs the ${t#*:} group first ($got)" \
		test "$got" = "$DEPS ${t#*:}"
done

# What installing run's packages brings: their Depends, recursively (no
# Recommends: install-deps.sh installs them without), as installed here.
# Each file the build uses must come from one of these.
apt-cache depends --recurse --installed --no-recommends --no-suggests \
	--no-conflicts --no-breaks --no-replaces --no-enhances $RUN_PKGS \
	2>/dev/null | grep -v '^[ <]' | sed 's/:.*//' | sort -u >"$T_TMP/closure"
CLOSURE=" $(tr '\n' ' ' <"$T_TMP/closure")"
echo "# run's packages bring $(wc -l <"$T_TMP/closure") packages"
expect "run group's Depends: no qemu, busybox, cpio, docutils or matplotlib" \
	none "$CLOSURE"

# from_run FILE...: each FILE comes from a package that run's bring: one
# that ships it by its path, its target, or either with or without /usr
# (one dpkg -S for them all)
from_run() {
	local f p o ok=0
	declare -A owner=()
	for f; do
		for p in "$f" "$(readlink -f "$f")"; do
			printf '%s\n' "$p" "${p#/usr}" "/usr$p"
		done
	done | sort -u >"$T_TMP/paths"
	while IFS= read -r line; do
		o=${line%: *}
		owner[${line##*: }]+=" ${o//, / }"
	done < <(xargs -d '\n' dpkg -S <"$T_TMP/paths" 2>/dev/null | grep -v '^diversion')
	for f; do
		o=
		for p in "$f" "$(readlink -f "$f")"; do
			o+="${owner[$p]:-}${owner[${p#/usr}]:-}${owner[/usr$p]:-}"
		done
		o=$(tr ' ' '\n' <<<"$o" | sort -u | tr '\n' ' ')
		if [ -z "$o" ]; then
			echo "# $f: no package ships it"
			ok=1
		elif ! tr ' ' '\n' <<<"$o" | sed 's/:.*//' | grep -qxF -f - "$T_TMP/closure"; then
			echo "# $f: from ${o% }, which run's packages do not bring"
			ok=1
		fi
	done
	return $ok
}

# every header the build includes: the compilers' own list (-M), the
# generated ones (-MG: vmlinux.h, the skeletons) and the tree's left out
MA=$(cc -print-multiarch 2>/dev/null)
ARCH=$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
headers() { tr ' \\' '\n\n' | grep '^/' | grep -v "^$TOP/" | sort -u; }
cc -Ibuild -I. -Irunner -Ioverhead -M -MG ./*.c runner/*/*.c overhead/*.c maps/*.c tests/*.c 2>"$T_TMP/m.err" | headers >"$T_TMP/h.user"
clang -target bpf -D__TARGET_ARCH_$ARCH -Ibuild -I. ${MA:+-I/usr/include/$MA} \
	-M -MG ./*_kern.c 2>>"$T_TMP/m.err" | headers >"$T_TMP/h.bpf"
set_up "the compilers list the build's headers" \
	test -s "$T_TMP/h.user" -a -s "$T_TMP/h.bpf" || cat "$T_TMP/m.err"
for h in libbpf.h gelf.h jansson.h zlib.h sys/sdt.h bpf_helpers.h usdt.bpf.h; do
	expect "the build's headers include $h" grep -q "/$h\$" "$T_TMP/h.user" "$T_TMP/h.bpf"
done
# shellcheck disable=SC2046
expect "every header the build includes ($(cat "$T_TMP"/h.* | wc -l)) comes with run's packages" \
	from_run $(cat "$T_TMP"/h.*)
# the tools the Makefile and tools/run.sh call, and those gcc calls
tools=()
for t in clang bpftool cc make as ld; do
	p=$(command -v "$t") || p=/nonexistent/$t
	tools+=("$p")
done
expect "every tool the build calls (${tools[*]}) comes with run's packages" \
	from_run "${tools[@]}"
# every library the programs load (a build that make check made)
if [ -x ./test_overhead ] && [ -x ./map_perf_test ]; then
	libs=$(ldd ./test_overhead ./map_perf_test | awk '$3 ~ /^\// { print $3 }' | sort -u)
	expect "every library the programs load ($(echo $libs | wc -w)) comes with run's packages" \
		from_run $libs
else
	skip "no ./test_overhead and ./map_perf_test to read the libraries of: run make"
fi
finish
