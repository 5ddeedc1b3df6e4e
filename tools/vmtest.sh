#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vmtest.sh: run the statically linked benchmarks inside a stock kernel
# under qemu.  The host kernel lacks kprobes and BPF trampolines, so only a
# guest with a full-featured kernel can prove that every attach mode works.
# Under TCG the guest proves function (attach, fire counts, skips, exit
# codes), never speed.

set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=$TOP/build/vmtest
BINARIES=(test_overhead map_perf_test)
# The guest's architecture (--arch); set_arch sets what follows from it:
# BIN_DIR, where 'make $MAKE_ARGS' puts the static binaries, apart from the
# host build; DEFAULT_META; DEB_ARCH, the Debian architecture of the packages
# fetched (empty: the host's); QEMU, QEMU_MACHINE, TCG_CPU, CONSOLE_ARGS;
# BUSYBOX.
GUEST_ARCH=x86_64
# the libbpf the binaries are built against (--libbpf): the Makefile's LIBBPF
LIBBPF=system
# judges the rows each command printed as --json
JUDGE=$TOP/tools/vmtest-judge.py

KERNEL=
PKG=
CONFIG=
# a guest's whole run: every mode and test under TCG took 293 s of the old
# 300 on a 2-CPU host that was busy with other work; twice that, to spare
TIMEOUT=600
BUILD=1
ACCEL=auto
VERBOSE=0
FETCH_ONLY=0
CMDS=()
DEFAULT_RUN=1
APT_UPDATED=0
# the default commands' test_overhead -n and -r (--count, --repeat)
COUNT=20000
REPEAT=2
# the default map_perf_test run's -a (--attach)
MAP_ATTACH=all
WORK=
REASONS=()
PANICS=()
ACCEL_ARGS=
APPEND=
BOOTS=3
QEMU_PID=
RC=0
PACK_BINS=
# --kselftest: the tree of 'make kselftest-install' (KSFT_DIR, beside
# BIN_DIR), packed as /kselftest when PACK_KSFT is 1 and run by the
# kernel's run_kselftest.sh
KSELFTEST=0
KSFT_DIR=
PACK_KSFT=0

usage() {
	cat <<EOF
Usage: tools/vmtest.sh [options] [-- CMD [ARG...]]

Boot a stock kernel under qemu with a busybox initramfs holding the static
test_overhead and map_perf_test, run the command(s) from / in the guest and
judge every row of the results each command prints with --json -.

  --arch ARCH    the guest's architecture: x86_64 (default) or arm64.
                 arm64 boots qemu-system-aarch64 -M virt (TCG on an x86
                 host), Debian's arm64 kernel and busybox-static:arm64, and
                 the binaries of 'make STATIC=1 ARCH=arm64' (build/arm64/static)
  --libbpf NAME  the binaries of 'make LIBBPF=NAME' (bookworm, trixie; see
                 the Makefile), in build/NAME/static (build/arm64/NAME/static)
  -k PATH        kernel image (bzImage, or arm64's Image) to boot
  -p NAME        Debian kernel package to boot, fetched with apt-get download
                 and cached under build/vmtest/ (default: the package that
                 linux-image-cloud-amd64, for arm64 linux-image-cloud-arm64,
                 depends on)
  -c PATH        kernel config; for -p the package's boot/config-* is used.
                 With it, a row skipped although the config enables all
                 that --list says the row needs fails the run
  -t SECONDS     hard timeout for the guest (default $TIMEOUT)
  -v             show the guest console live
  --no-build     do not run 'make STATIC=1' first; pack the binaries as found
  --accel MODE   auto (default: KVM only if a probe boot succeeds), kvm, tcg
  --append ARGS  more kernel command-line arguments
  --fetch-only   fetch/unpack the kernel, print its path, do not boot
  --kselftest    run the kselftest collection instead: 'make kselftest-install'
                 (with --arch arm64, the arm64 one) into build/kselftest
                 (build/arm64/kselftest), packed as /kselftest, and the
                 guest runs its run_kselftest.sh, the kernel's runner. Each
                 KSELFTEST_<TEST>_ARGS of the environment is passed on (the
                 runner appends it to that test's command line), e.g.
                 KSELFTEST_TEST_OVERHEAD_SH_ARGS="-n 2000 -m raw_tp"
  --count N      the default test_overhead run's -n (default $COUNT)
  --repeat N     the default test_overhead run's -r (default $REPEAT)
  --attach LIST  the default map_perf_test run's -a (default $MAP_ATTACH).
                 make check's quick proof is --count 2000 --repeat 1
                 --attach kprobe,fentry: the host proves the others
  -h, --help     this text

Without CMD the guest runs (two units a row, so repeats run there too):
  ./test_overhead --list --json -
  ./test_overhead -n 20000 -r 2 --json -     (--count, --repeat)
  ./map_perf_test --list --json -            (if built)
  ./map_perf_test -n 2000 -r 1 -a all --json -  (if built: every method,
                                   --attach; test_overhead proves repeats)
With CMD it runs exactly that argv (use "sh -c '...'" for shell syntax).
With --kselftest it runs both programs' --list --json - and then
  cd /kselftest && ./run_kselftest.sh
whose KTAP is judged: each row of a test's nested KTAP PASS when ok, SKIP
when '# SKIP <reason>' (FAIL without a reason, or as for --json when the
config enables all the row needs), FAIL when 'not ok'; each test FAIL
when the runner says 'not ok', and the run fails unless one test is ok.
Rows of any command that prints a results document are judged: PASS when
ok (or disturbed with its hits verified: timing under TCG is no figure),
FAIL when failed, or skipped although the config enables everything the
row needs (from --list); the "no rows at all" check applies to the
default commands only.

A guest whose kernel dies before init starts (under TCG, 6.12 can hit a
stale int3 while booting: QEMU's emulation, not the tools) is booted
again, up to 3 boots; a third such death fails the run. Under TCG, a
guest whose kernel panics later is booted again once (6.12 has lost its
init to a general protection fault in busybox's signal handler); the
run says so, and a second panic fails it. Under KVM a panic is not
retried. Consoles of such boots: build/vmtest/panic-console-N.log.

Exit status: 0 PASS, 1 FAIL, 2 bad usage.  The last line is
"vmtest: PASS" or "vmtest: FAIL (<why>)".
EOF
}

# One line on stderr, exit 2: callers tell usage errors from test failures.
bad_usage() {
	echo "vmtest: $* (see -h)" >&2
	exit 2
}

fail_now() {
	echo "vmtest: FAIL ($*)"
	exit 1
}

note() { echo "vmtest: $*"; }

cleanup() { [ -n "$WORK" ] && rm -rf "$WORK"; }

need_arg() { [ "$2" -ge 2 ] || bad_usage "option $1 needs an argument"; }

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--arch) need_arg "$1" $#; GUEST_ARCH=$2; shift ;;
		--libbpf) need_arg "$1" $#; LIBBPF=$2; shift ;;
		-k) need_arg "$1" $#; KERNEL=$2; shift ;;
		-p) need_arg "$1" $#; PKG=$2; shift ;;
		-c) need_arg "$1" $#; CONFIG=$2; shift ;;
		-t) need_arg "$1" $#; TIMEOUT=$2; shift ;;
		--accel) need_arg "$1" $#; ACCEL=$2; shift ;;
		--append) need_arg "$1" $#; APPEND=$2; shift ;;
		--count) need_arg "$1" $#; COUNT=$2; shift ;;
		--repeat) need_arg "$1" $#; REPEAT=$2; shift ;;
		--attach) need_arg "$1" $#; MAP_ATTACH=$2; shift ;;
		-v) VERBOSE=1 ;;
		--no-build) BUILD=0 ;;
		--fetch-only) FETCH_ONLY=1 ;;
		--kselftest) KSELFTEST=1 ;;
		-h|--help) usage; exit 0 ;;
		--) shift; break ;;
		*) bad_usage "unknown option '$1'" ;;
		esac
		shift
	done
	[ $# -eq 0 ] || { CMDS=("$(quote_argv "$@")"); DEFAULT_RUN=0; }
	[ "$KSELFTEST" -eq 0 ] || [ "$DEFAULT_RUN" -eq 1 ] ||
		bad_usage "--kselftest runs the kernel's runner, not a command"
	set_arch "$GUEST_ARCH"
	set_libbpf "$LIBBPF"
	[ -z "$KERNEL" ] || [ -z "$PKG" ] || bad_usage "-k and -p exclude each other"
	[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || bad_usage "-t wants a positive number of seconds, not '$TIMEOUT'"
	[[ $COUNT =~ ^[1-9][0-9]*$ ]] || bad_usage "--count wants a positive number, not '$COUNT'"
	[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || bad_usage "--repeat wants a positive number, not '$REPEAT'"
	[[ $MAP_ATTACH =~ ^[a-z_,]+$ ]] || bad_usage "--attach wants a list of attach methods, not '$MAP_ATTACH'"
	# The name becomes a cache path: keep it to Debian package characters.
	[ -z "$PKG" ] || [[ $PKG =~ ^[a-z0-9][a-z0-9.+-]*$ ]] || bad_usage "bad package name '$PKG'"
	case $ACCEL in auto|kvm|tcg) ;; *) bad_usage "--accel wants auto, kvm or tcg" ;; esac
}

# set_arch ARCH: what differs between guest architectures, and only that.
set_arch() {
	case $1 in
	x86_64|x86|amd64)
		GUEST_ARCH=x86_64
		BIN_DIR=$TOP/build/static
		MAKE_ARGS="STATIC=1"
		DEFAULT_META=linux-image-cloud-amd64
		DEB_ARCH=
		QEMU=qemu-system-x86_64
		QEMU_MACHINE=
		TCG_CPU=max
		# loglevel=5: warnings too, so a WARN splat is in the console
		CONSOLE_ARGS="console=ttyS0 quiet loglevel=5 panic=-1"
		BUSYBOX=/bin/busybox ;;
	arm64|aarch64)
		GUEST_ARCH=arm64
		BIN_DIR=$TOP/build/arm64/static
		MAKE_ARGS="STATIC=1 ARCH=arm64"
		DEFAULT_META=linux-image-cloud-arm64
		DEB_ARCH=arm64
		QEMU=qemu-system-aarch64
		QEMU_MACHINE="-M virt"
		# The kernel signs every return address; QEMU's own pointer
		# authentication algorithm emulates far faster than QARMA
		TCG_CPU=max,pauth-impdef=on
		CONSOLE_ARGS="console=ttyAMA0 quiet loglevel=5 panic=-1"
		# the host's /bin/busybox is x86: fetch arm64's (fetch_busybox)
		BUSYBOX= ;;
	*) bad_usage "--arch wants x86_64 or arm64, not '$1'" ;;
	esac
}

# set_libbpf NAME: another libbpf's build has a directory of its own
set_libbpf() {
	case $1 in
	system) ;;
	bookworm|trixie)
		BIN_DIR=$(dirname "$BIN_DIR")/$1/static
		MAKE_ARGS+=" LIBBPF=$1" ;;
	*) bad_usage "--libbpf wants system, bookworm or trixie, not '$1'" ;;
	esac
	# where 'make $MAKE_ARGS kselftest-install' installs by default
	KSFT_DIR=$(dirname "$BIN_DIR")/kselftest
}

# apt's name of a package of the guest's architecture
apt_name() { echo "$1${DEB_ARCH:+:$DEB_ARCH}"; }

# Single-quote each word so the guest shell runs exactly the argv given.
quote_argv() {
	local a out=
	for a in "$@"; do
		out+=" '${a//\'/\'\\\'\'}'"
	done
	echo "${out# }"
}

# apt lists may be missing on a fresh machine; fetch them at most once.
apt_update_once() {
	[ "$APT_UPDATED" -eq 0 ] || return 1
	APT_UPDATED=1
	note "apt lists missing or stale: running apt-get update"
	apt-get update -qq >/dev/null 2>&1
}

default_pkg() {
	local dep
	dep=$(apt-cache depends "$(apt_name "$DEFAULT_META")" 2>/dev/null |
	      awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { sub(/:.*/, "", $2); print $2; exit }')
	if [ -z "$dep" ] && apt_update_once; then
		default_pkg
		return
	fi
	echo "$dep"
}

# fetch_pkg PKG [DIR]: unpack the guest architecture's PKG into DIR
# (default build/vmtest/PKG) once.  Unpack into a private temp dir, then
# rename: a concurrent run never sees a half-unpacked kernel.
fetch_pkg() {
	local pkg dir=${2:-$CACHE/$1} tmp
	pkg=$(apt_name "$1")
	[ -d "$dir/boot" ] || [ -d "$dir/bin" ] && return 0
	mkdir -p "$CACHE" || return 1
	tmp=$(mktemp -d "$CACHE/.fetch.XXXXXX") || return 1
	note "fetching $pkg"
	if ! (cd "$tmp" && apt-get download "$pkg") >"$tmp/log" 2>&1; then
		if ! apt_update_once ||
		   ! (cd "$tmp" && apt-get download "$pkg") >"$tmp/log" 2>&1; then
			tail -5 "$tmp/log"
			rm -rf "$tmp"
			return 1
		fi
	fi
	if ! dpkg -x "$tmp"/*.deb "$tmp/root" >>"$tmp/log" 2>&1; then
		tail -5 "$tmp/log"
		rm -rf "$tmp"
		return 1
	fi
	mv -T "$tmp/root" "$dir" 2>/dev/null || [ -d "$dir/boot" ] || [ -d "$dir/bin" ]
	local rc=$?
	rm -rf "$tmp"
	return $rc
}

# The console carries CRs and the firmware's terminal escapes; drop both so
# markers and rows match at the start of a line.
clean_log() { sed -u -e 's/\r$//' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' "$@"; }

# the console's last lines: where a dying guest says why
console_tail() { clean_log "$1" | tail -30; }

first_file() { [ -f "$1" ] && echo "$1"; }

resolve_kernel() {
	if [ -n "$KERNEL" ]; then
		[ -f "$KERNEL" ] || fail_now "kernel image $KERNEL not found"
	else
		[ -n "$PKG" ] || PKG=$(default_pkg)
		[ -n "$PKG" ] || fail_now "cannot tell which package $(apt_name "$DEFAULT_META") depends on (apt-cache depends${DEB_ARCH:+; apt knows :$DEB_ARCH packages after make deps-$DEB_ARCH})"
		fetch_pkg "$PKG" || fail_now "cannot fetch and unpack $PKG"
		KERNEL=$(first_file "$CACHE/$PKG"/boot/vmlinuz-*)
		[ -n "$KERNEL" ] || fail_now "no boot/vmlinuz-* in $PKG"
		[ -n "$CONFIG" ] || CONFIG=$(first_file "$CACHE/$PKG"/boot/config-*)
	fi
	[ -z "$CONFIG" ] || [ -f "$CONFIG" ] || fail_now "kernel config $CONFIG not found"
}

# busybox-static:arm64 cannot be installed beside the host's: unpack it.
fetch_busybox() {
	[ -z "$BUSYBOX" ] || return 0
	fetch_pkg busybox-static "$CACHE/busybox-static-$DEB_ARCH" ||
		fail_now "cannot fetch and unpack busybox-static:$DEB_ARCH"
	BUSYBOX=$CACHE/busybox-static-$DEB_ARCH/bin/busybox
}

# the two programs alone: the guest runs nothing else of the build
build_binaries() {
	local targets=("${BINARIES[@]/#/${BIN_DIR#"$TOP"/}/}") jobs=

	[ "$BUILD" -eq 1 ] || return 0
	# the install builds the programs first
	[ "$KSELFTEST" -eq 0 ] || targets=(kselftest-install)
	# every CPU, unless a make that called us shares its own
	case " ${MAKEFLAGS:-} " in
	*jobserver* | *" -j"*) ;;
	*) jobs=-j$(nproc) ;;
	esac
	note "building: make -C $TOP $jobs $MAKE_ARGS ${targets[*]}"
	# shellcheck disable=SC2086
	make -C "$TOP" $jobs $MAKE_ARGS "${targets[@]}" || fail_now "make $MAKE_ARGS failed"
}

# Only binaries that exist are packed; a dynamic one would die in the guest
# with a confusing "not found", so say why up front.
present_binaries() {
	local b
	for b in "${BINARIES[@]}"; do
		[ -x "$BIN_DIR/$b" ] || continue
		if readelf -l "$BIN_DIR/$b" 2>/dev/null | grep -q 'INTERP'; then
			note "warning: $b is dynamically linked and will not run in the guest (build with $MAKE_ARGS)" >&2
		fi
		echo "$b"
	done
}

default_cmds() {
	local have=" $* "
	[[ $have == *" test_overhead "* ]] || fail_now "no $BIN_DIR/test_overhead to run (build it or drop --no-build)"
	CMDS=("./test_overhead --list --json -" "./test_overhead -n $COUNT -r $REPEAT --json -")
	if [[ $have == *" map_perf_test "* ]]; then
		CMDS+=("./map_perf_test --list --json -" "./map_perf_test -n 2000 -r 1 -a $MAP_ATTACH --json -")
	fi
}

# The kselftest collection's guest commands: the lists (the rows' needs,
# for the judge), then the kernel's runner as a fleet runs it, with the
# KSELFTEST_*_ARGS of our environment.
kselftest_cmds() {
	local v env=
	[ -x "$KSFT_DIR/run_kselftest.sh" ] ||
		fail_now "no $KSFT_DIR/run_kselftest.sh (make $MAKE_ARGS kselftest-install, or drop --no-build)"
	for v in $(compgen -e); do
		[[ $v =~ ^KSELFTEST_[A-Z0-9_]+_ARGS$ ]] || continue
		env+="$v=$(quote_argv "${!v}") "
	done
	CMDS=("./kselftest/bpf_overhead/test_overhead --list --json -"
	      "./kselftest/bpf_overhead/map_perf_test --list --json -"
	      "cd /kselftest && ${env}./run_kselftest.sh")
}

# The kernel's runner calls "/usr/bin/timeout --foreground" (GNU's):
# busybox's timeout has no such option, and never leaves the foreground
# process group, which is what the option asks for. A timeout then shows
# as "# exit=143" (SIGTERM), not GNU's 124 "# TIMEOUT".
write_timeout() {
	cat >"$1" <<'EOF'
#!/bin/sh
# GNU timeout's --foreground for the kernel's kselftest runner (vmtest.sh)
[ "$1" = --foreground ] && shift
exec /bin/timeout "$@"
EOF
	chmod 755 "$1"
}

write_init() {
	cat >"$1" <<'EOF'
#!/bin/busybox sh
# PID 1 of the vmtest guest, written by tools/vmtest.sh.
/bin/busybox --install -s /bin
export PATH=/bin:/
# No /dev/console node is packed (that needs root): mount devtmpfs first,
# then point our output at the console.
mount -t devtmpfs devtmpfs /dev
# what udev makes on a full system; the kselftest runner appends to /dev/stdout
ln -s /proc/self/fd /dev/fd
ln -s fd/0 /dev/stdin
ln -s fd/1 /dev/stdout
ln -s fd/2 /dev/stderr
exec </dev/null >/dev/console 2>&1
m=
mnt() { mkdir -p "$3"; if mount -t "$1" "$2" "$3"; then m="$m $1=ok"; else m="$m $1=FAILED"; fi; }
mnt proc proc /proc
mnt sysfs sysfs /sys
mnt tracefs tracefs /sys/kernel/tracing
mnt debugfs debugfs /sys/kernel/debug
mnt bpf bpf /sys/fs/bpf
echo "VMTEST-BOOT $(uname -r) up $(cut -d' ' -f1 /proc/uptime)s mounts:$m"
cd /
# stdout and stderr apart: stdout may be JSON for the host to judge;
# appended to, as what opens /dev/stdout again appends (kselftest's runner)
i=1
while [ -e /vmtest/cmd.$i ]; do
	echo "VMTEST-RUN $i: $(cat /vmtest/cmd.$i)"
	: >/tmp/out
	sh /vmtest/cmd.$i </dev/null >>/tmp/out 2>/tmp/err
	rc=$?
	echo "VMTEST-OUT $i"
	cat /tmp/out
	echo
	echo "VMTEST-ERR $i"
	cat /tmp/err
	echo "VMTEST-END rc=$rc"
	i=$((i + 1))
done
poweroff -f
EOF
	chmod 755 "$1"
}

# build_initramfs OUT CMD...: busybox, the binaries and one file per command.
build_initramfs() {
	local out=$1 root i=1 c b
	shift
	root=$(mktemp -d "$WORK/root.XXXXXX") || return 1
	mkdir -p "$root"/{bin,dev,proc,sys,tmp,vmtest} || return 1
	cp "$BUSYBOX" "$root/bin/busybox" || return 1
	for b in $PACK_BINS; do
		cp "$BIN_DIR/$b" "$root/$b" || return 1
	done
	if [ "$PACK_KSFT" -eq 1 ]; then
		mkdir -p "$root/kselftest" "$root/usr/bin" || return 1
		tar -C "$KSFT_DIR" --exclude=./kselftest-packages -cf - . |
			tar -C "$root/kselftest" -xf - || return 1
		write_timeout "$root/usr/bin/timeout"
	fi
	for c in "$@"; do
		echo "$c" >"$root/vmtest/cmd.$i"
		i=$((i + 1))
	done
	write_init "$root/init"
	(cd "$root" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$out"
}

# run_qemu ACCEL_ARGS LOG SECONDS INITRD: the console goes to LOG; stdin
# stays out of qemu (-monitor none, </dev/null) because CI has none.
# timeout(1) runs in its own process group, so a ^C to us would not reach
# it: keep its pid for on_signal.
run_qemu() {
	local accel=$1 log=$2 secs=$3 initrd=$4 rc
	# shellcheck disable=SC2086
	timeout -k 5 "$secs" "$QEMU" $QEMU_MACHINE $accel -m 1024 -smp 2 \
		-kernel "$KERNEL" -initrd "$initrd" \
		-append "$CONSOLE_ARGS${APPEND:+ $APPEND}" \
		-nographic -no-reboot -monitor none -serial stdio -nic none \
		</dev/null >"$log" 2>"$log.err" &
	QEMU_PID=$!
	[ "$VERBOSE" -eq 0 ] ||
		tail -n +1 -s 0.2 -f --pid="$QEMU_PID" "$log" | clean_log &
	wait "$QEMU_PID"
	rc=$?
	QEMU_PID=
	wait	# for the live view to drain
	return $rc
}

on_signal() {
	[ -z "$QEMU_PID" ] || kill "$QEMU_PID" 2>/dev/null
	echo "vmtest: FAIL (interrupted)"
	exit 130
}

# /dev/kvm existing proves nothing here (guests hang or qemu aborts), so
# boot a tiny guest with KVM under a short timeout (a working KVM boots it
# in a second or two); cache the verdict.
kvm_works() {
	local key ans probe=$CACHE/kvm-probe
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	# KVM runs guests of the host's own architecture only
	[ "$(uname -m | sed 's/aarch64/arm64/')" = "$GUEST_ARCH" ] || return 1
	key="host=$(uname -r) qemu=$($QEMU --version | head -1 | awk '{print $4}') guest=$(basename "$KERNEL")"
	ans=$(grep -F "$key " "$probe" 2>/dev/null | tail -1 | awk '{print $NF}')
	if [ -z "$ans" ]; then
		note "probing KVM (bounded to 8 s, result cached in $probe)"
		PACK_BINS='' PACK_KSFT=0 build_initramfs "$WORK/probe.gz" true || return 1
		ans=no
		VERBOSE=0 run_qemu "-accel kvm -cpu host" "$WORK/probe.log" 8 "$WORK/probe.gz" &&
			grep -q 'VMTEST-END rc=0' <(clean_log "$WORK/probe.log") && ans=yes
		mkdir -p "$CACHE" && echo "$key $ans" >>"$probe"
	fi
	[ "$ans" = yes ]
}

# Sets ACCEL_ARGS (not echoed: the probe prints its own notes).
pick_accel() {
	case $ACCEL in
	kvm)
		[ "$(uname -m | sed 's/aarch64/arm64/')" = "$GUEST_ARCH" ] ||
			fail_now "KVM cannot run a $GUEST_ARCH guest on $(uname -m): use --accel tcg"
		ACCEL_ARGS="-accel kvm -cpu host" ;;
	tcg) ACCEL_ARGS="-accel tcg -cpu $TCG_CPU" ;;
	auto)
		ACCEL_ARGS="-accel tcg -cpu $TCG_CPU"
		! kvm_works || ACCEL_ARGS="-accel kvm -cpu host" ;;
	esac
}

# report LOG: each command's output, then one verdict per judged row.
report() {
	local log=$1 rows ends rc verdicts ksft_ok
	verdicts=$WORK/verdicts
	# --kselftest: the lists are for the judge; the runner's output is the
	# report (a list's lines are counted, not shown)
	clean_log "$log" | awk -v ksft="$KSELFTEST" '
		/VMTEST-BOOT / { sub(/.*VMTEST-BOOT /, ""); print "vmtest: guest: " $0; next }
		/VMTEST-RUN / { sub(/.*VMTEST-RUN /, "== "); print; list = ksft && / --list --json -$/; next }
		/VMTEST-OUT / { hide = list; n = 0; next }
		/VMTEST-ERR / { if (hide) print "(" n " lines of --list JSON, for the judge)"; hide = 0; next }
		/VMTEST-END rc=/ { sub(/.*VMTEST-END /, "== "); print; next }
		hide { n++; next }
		{ print }'
	python3 "$JUDGE" <(clean_log "$log") $CONFIG >"$verdicts"
	grep -E '^(PASS|SKIP|FAIL) ' "$verdicts" | sed '1i == summary'
	rows=$(awk '$1 == "ROWS" { print $2 }' "$verdicts")
	ends=$(awk '$1 == "ENDS" { print $2 }' "$verdicts")
	# 3: rows disturbed, none failed: emulated timing, judged above
	local n=0
	while read -r rc; do
		n=$((n + 1))
		[ "$rc" = 0 ] || [ "$rc" = 3 ] || REASONS+=("command $n exited $rc")
	done < <(clean_log "$log" | sed -n 's/.*VMTEST-END rc=//p')
	while read -r _ name; do
		REASONS+=("${name%% (*} FAILED")
	done < <(grep '^FAIL ' "$verdicts")
	if [ "${ends:-0}" -ne "${#CMDS[@]}" ]; then
		# Init or the kernel died; its last words may precede any marker.
		echo "last console lines:"
		console_tail "$log"
		REASONS+=("end marker missing: ${ends:-0} of ${#CMDS[@]} commands finished")
	fi
	[ "$DEFAULT_RUN" -eq 0 ] || [ "${rows:-0}" -gt 0 ] || REASONS+=("no rows judged")
	ksft_ok=$(awk '$1 == "KSFT_OK" { print $2 }' "$verdicts")
	[ "$KSELFTEST" -eq 0 ] || [ "${ksft_ok:-0}" -gt 0 ] ||
		REASONS+=("the kernel's runner reported no test ok")
}

# A hung guest must end the run, with enough console to see where it hung.
check_qemu_rc() {
	local rc=$1 log=$2
	case $rc in
	0) return 0 ;;
	124|137)
		echo "FAIL: guest timed out after $TIMEOUT s; last console lines:"
		console_tail "$log"
		fail_now "guest timed out after $TIMEOUT s" ;;
	*)
		echo "qemu exited $rc; last console and qemu lines:"
		console_tail "$log"
		tail -5 "$log.err"
		REASONS+=("qemu exited $rc") ;;
	esac
}

# panicked LOG: the guest's kernel panicked (init dying is a panic too)
panicked() { clean_log "$1" | grep -q 'Kernel panic - not syncing'; }

# in_boot LOG: init never printed its marker, so nothing of ours ran
in_boot() { ! clean_log "$1" | grep -q 'VMTEST-BOOT '; }

# boot_guest LOG: boots the guest and sets RC to qemu's exit status. A
# kernel that died before init is booted again, up to BOOTS boots; one
# that panicked later is booted again once, under TCG only (emulation
# flakes, see usage); a panic under KVM is the kernel's and is reported.
boot_guest() {
	local log=$1 start n=1 late=0 why
	while :; do
		start=$SECONDS
		run_qemu "$ACCEL_ARGS" "$log" "$TIMEOUT" "$WORK/initrd.gz"
		RC=$?
		# Keep a copy for after the temp dir is gone (the last run wins).
		clean_log "$log" >"$CACHE/last-console.log" 2>/dev/null
		note "guest ran $((SECONDS - start)) s; console kept in build/vmtest/last-console.log"
		panicked "$log" || return 0
		if in_boot "$log"; then
			why="the kernel died before init started"
		elif [[ $ACCEL_ARGS == *tcg* ]] && [ "$late" -eq 0 ]; then
			why="the kernel panicked under TCG after init started"
			late=1
		else
			return 0	# judged and reported as it is
		fi
		note "boot $n of at most $BOOTS: $why: $(clean_log "$log" | grep -m1 -E 'Oops|BUG|panic' | sed 's/^\[ *[0-9.]*\] //')"
		echo "last console lines:"
		console_tail "$log"
		# this run's own, whatever another run wrote as the last since
		clean_log "$log" >"$CACHE/panic-console-$n.log" 2>/dev/null
		[ "$n" -lt "$BOOTS" ] ||
			fail_now "the guest kernel died before init started, in $n boots"
		PANICS+=("boot $n: $why")
		n=$((n + 1))
	done
}

join_reasons() {
	local out=$1 r
	shift
	for r in "$@"; do out+="; $r"; done
	echo "$out"
}

main() {
	local log
	parse_args "$@"
	trap cleanup EXIT
	trap on_signal INT TERM
	resolve_kernel
	if [ "$FETCH_ONLY" -eq 1 ]; then
		echo "$KERNEL"
		exit 0
	fi
	command -v "$QEMU" >/dev/null || fail_now "$QEMU not installed"
	fetch_busybox
	[ -x "$BUSYBOX" ] || fail_now "$BUSYBOX missing (apt-get install busybox-static)"
	build_binaries
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/vmtest.XXXXXX") || fail_now "mktemp failed"
	if [ "$KSELFTEST" -eq 1 ]; then
		kselftest_cmds
		PACK_KSFT=1
	else
		PACK_BINS=$(present_binaries)
		# shellcheck disable=SC2086
		[ "$DEFAULT_RUN" -eq 0 ] || default_cmds $PACK_BINS
	fi
	build_initramfs "$WORK/initrd.gz" "${CMDS[@]}" || fail_now "cannot build the initramfs"
	pick_accel
	[ -n "$CONFIG" ] ||
		note "no kernel config known (-c): not checking that skipped rows are unsupported"
	note "booting $KERNEL ($ACCEL_ARGS, timeout $TIMEOUT s)"
	[[ $ACCEL_ARGS == *tcg* ]] &&
		note "TCG: the CPU is emulated; rates are meaningless as performance numbers"
	mkdir -p "$CACHE" || fail_now "cannot create $CACHE"
	log=$WORK/console.log
	boot_guest "$log"
	check_qemu_rc "$RC" "$log"
	report "$log"
	[ ${#PANICS[@]} -eq 0 ] ||
		note "booted again after: $(join_reasons "${PANICS[@]}")"
	[ ${#REASONS[@]} -eq 0 ] || fail_now "$(join_reasons "${REASONS[@]}")"
	echo "vmtest: PASS"
}

main "$@"
