#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install and make uninstall: DESTDIR, prefix (/usr/local by
# default) and GNU's directory variables put the programs, their man
# pages, the completion and the documentation where they say; the
# installed programs run from / with the source tree out of their reach
# (their BPF objects are in them, libbpf skeletons: a real run of a
# program, a uprobe and a USDT probe of the installed binary is
# verified); make uninstall removes exactly what make install put there,
# and leaves what it did not. make install installs its group first.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

# make as a user types it: not as make check's sub-make
umake() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory "$@"; }

# expected PREFIX SBIN MAN8 COMP DOC DATA: what make install lays out
expected() {
	local f
	{
		printf 'f %s\n' "$2/test_overhead" "$2/map_perf_test" \
			"$2/bench-fleet" \
			"$3/test_overhead.8" "$3/map_perf_test.8" \
			"$4/test_overhead" "$5/README.rst" \
			"$6/lava/bpf-overhead-bench.yaml" "$6/lava/run.sh"
		printf 'l %s -> test_overhead\n' "$4/map_perf_test"
		for f in Documentation/*.rst; do
			printf 'f %s\n' "$5/$f"
		done
	} | sed 's| /| |' | sort
}

run_capture n umake -n install
expect "make install installs its group first ($(head -n 1 "$T_TMP/n.out"))" \
	test "$(head -n 1 "$T_TMP/n.out")" = "tools/install-deps.sh install"
expect "the install group: run's, and docutils for rst2man" \
	test "$(tools/install-deps.sh --list install | tr '\n' ' ')" = \
	"$( (tools/install-deps.sh --list run; echo python3-docutils) | sort | tr '\n' ' ')"

# ---- the default prefix, and /usr as the Debian package has it ----
dest=$T_TMP/dest
for prefix in /usr/local /usr; do
	arg=()
	[ $prefix = /usr/local ] || arg=("prefix=$prefix")
	how="DESTDIR${arg:+ ${arg[*]}} (prefix $prefix)"
	rm -rf "$dest"
	run_capture install umake install DESTDIR="$dest" "${arg[@]}"
	expect "make install $how: exit 0 (rc=$RC)" test "$RC" -eq 0
	layout "$dest" >"$T_TMP/got"
	expected $prefix ${prefix#/}/sbin ${prefix#/}/share/man/man8 \
		${prefix#/}/share/bash-completion/completions \
		${prefix#/}/share/doc/bpf-overhead-bench \
		${prefix#/}/share/bpf-overhead-bench >"$T_TMP/want"
	expect "make install $how: the programs and bench-fleet in $prefix/sbin, the man pages, the completion under both names, the documentation, the LAVA test definition; nothing else" \
		diff "$T_TMP/want" "$T_TMP/got"
	expect "make install $how: the programs, bench-fleet and the LAVA run step are executable, the rest is not" \
		test "$(cd "$dest" && find . -type f -perm /111 | sort | tr '\n' ' ')" = \
		"./${prefix#/}/sbin/bench-fleet ./${prefix#/}/sbin/map_perf_test ./${prefix#/}/sbin/test_overhead ./${prefix#/}/share/bpf-overhead-bench/lava/run.sh "
	expect "make install $how: the installed programs are the built ones" \
		cmp -s "$dest$prefix/sbin/test_overhead" ./test_overhead
	expect "make install $how: man finds both pages in its tree" \
		test "$(MANPATH="$dest$prefix/share/man" man -w test_overhead map_perf_test 2>/dev/null | wc -l)" = 2
	run_capture uninstall umake uninstall DESTDIR="$dest" "${arg[@]}"
	expect "make uninstall $how: exit 0, no file left, and the project's own doc directory gone (rc=$RC)" \
		eval 'test "$RC" -eq 0 -a -z "$(layout "$dest")" &&
			test ! -e "$dest$prefix/share/doc/bpf-overhead-bench"'
	# as automake's: the directories it may share with others stay, empty
	expect "make uninstall $how: the directories install made that are not the project's own stay (sbin, man8, completions)" \
		test -d "$dest$prefix/sbin" -a -d "$dest$prefix/share/man/man8" -a \
			-d "$dest$prefix/share/bash-completion/completions"
done

# ---- DESTDIR=/: what uninstall would remove of the machine's ----
run_capture n-root umake -n uninstall DESTDIR=/
# every directory its commands name (but rm -f's files) is the doc's or
# the LAVA files' own
grep -vE '^rm -f |UNINST' "$T_TMP/n-root.out" | grep -oE "[^ ]*usr/[^ ;]*" >"$T_TMP/n-root.dirs"
expect "make -n uninstall DESTDIR=/: it removes no directory but the project's own doc and data directories ($(tr '\n' ' ' <"$T_TMP/n-root.dirs"))" \
	eval 'test "$RC" -eq 0 -a -s "$T_TMP/n-root.dirs" &&
		! grep -vqE "^//?usr/local/share/(doc/bpf-overhead-bench(/Documentation)?|bpf-overhead-bench(/lava)?)$" "$T_TMP/n-root.dirs"'
sed 's/^/# /' "$T_TMP/n-root.out"

# ---- the GNU directory variables, and what was there before ----
rm -rf "$dest"
mkdir -p "$dest/opt/bench/bin" "$dest/usr/share/man/man8"
echo keep >"$dest/opt/bench/bin/other"
echo keep >"$dest/usr/share/man/man8/other.8"
dirs=(prefix=/opt/bench sbindir=/opt/bench/bin mandir=/usr/share/man
      docdir=/opt/bench/doc bashcompdir=/opt/bench/completions)
run_capture gnu umake install DESTDIR="$dest" "${dirs[@]}"
layout "$dest" | grep -v other >"$T_TMP/got"
expected /opt/bench opt/bench/bin usr/share/man/man8 opt/bench/completions \
	opt/bench/doc opt/bench/share/bpf-overhead-bench >"$T_TMP/want"
expect "make install sbindir= mandir= docdir= bashcompdir=: each file where its variable says (rc=$RC)" \
	diff "$T_TMP/want" "$T_TMP/got"
run_capture gnu-un umake uninstall DESTDIR="$dest" "${dirs[@]}"
expect "make uninstall: what make install put there is gone, the files that were there stay (rc=$RC)" \
	test "$RC" -eq 0 -a "$(layout "$dest" | tr '\n' ' ')" = \
	"f opt/bench/bin/other f usr/share/man/man8/other.8 "
run_capture again umake uninstall DESTDIR="$dest" "${dirs[@]}"
expect "make uninstall with nothing installed: exit 0 (rc=$RC)" test "$RC" -eq 0

# ---- the installed programs, from /, the tree out of reach ----
rm -rf "$dest"
umake install DESTDIR="$dest" >/dev/null 2>&1
sbin=$dest/usr/local/sbin
# from_root PROG ARGS: PROG run from / in a mount namespace where the
# source tree is an empty tmpfs
cat >"$T_TMP/from_root" <<EOF
#!/bin/sh
exec unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "\$0" && cd / && exec "\$@"' \
	"$TOP" "\$@"
EOF
chmod +x "$T_TMP/from_root"
for prog in test_overhead map_perf_test; do
	run_capture "$prog-list" "$T_TMP/from_root" "$sbin/$prog" --list --json -
	expect "installed $prog --list --json, run from / without the tree: exit 0 and its rows (rc=$RC)" \
		J "$T_TMP/$prog-list.out" 'len(R) > 0'
done
# stripped, as a package's build strips it: the uprobe targets are
# found by name in .dynsym (the Makefile exports them)
mkdir -p "$T_TMP/strip"
strip -o "$T_TMP/strip/test_overhead" "$sbin/test_overhead"
expect "stripped, the installed test_overhead has no .symtab, and its uprobe targets in .dynsym" \
	eval '! readelf -S "$T_TMP/strip/test_overhead" | grep -q "\.symtab" &&
		nm -D "$T_TMP/strip/test_overhead" | grep -qw uprobe_push'
cat >"$T_TMP/installed" <<EOF
#!/bin/sh
exec "$T_TMP/from_root" "$T_TMP/strip/test_overhead" "\$@"
EOF
chmod +x "$T_TMP/installed"
BIN=$T_TMP/installed run_json installed -n 5000 -r 1 -m base,raw_tp,uprobe,usdt \
	-e task_rename,uprobe-push,usdt-nop
expect "installed test_overhead from /: exit status fits the rows (rc=$RC)" exit_matches installed
jexpect "installed and stripped test_overhead from /: its 6 rows, none FAILED, every one that ran verified (raw_tp from its skeleton, uprobe on its own binary by name, usdt by its ELF note)" \
	"$T_TMP/installed.json" \
	'len(R) == 6 and not rows(status="failed") and all(verified(r) for r in R if ran(r) and r["name"] != "base")'
umake uninstall DESTDIR="$dest" >/dev/null 2>&1
finish
