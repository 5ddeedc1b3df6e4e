#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package (make check-deb; slow, so not in make check: .ci/run
# runs it). tools/deb.sh builds it as make deb does, dpkg-buildpackage
# -us -uc -b on a copy of the tree, and lintian finds no error; its files
# are make install's under /usr (the man pages gzipped, Debian's
# copyright and changelog added); its libbpf dependency is the package of
# the libbpf.so.1 its programs load. Installed here: test_overhead --list
# runs from /usr/sbin, from /; a real run of the packaged build (Debian's
# build flags) is verified; man and bash-completion find their files.
# Removed: the machine is as it was.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
PKG=bpf-overhead-bench

out=$T_TMP/deb
# OUTDIR's own files are not deb.sh's: they stay
mkdir -p "$out/theirs"
echo keep >"$out/theirs/file"
echo keep >"$out/notes.txt"
run_capture deb tools/deb.sh "$out"
expect "dpkg-buildpackage -us -uc -b on a copy of the tree, and lintian: exit 0 (rc=$RC)" \
	test "$RC" -eq 0
expect "tools/deb.sh OUTDIR: the files that were in OUTDIR stay, its own work directory is gone, the package's files and build.log are there" \
	eval 'test "$(cat "$out/theirs/file" "$out/notes.txt" 2>&1)" = "keep
keep" && test -z "$(find "$out" -mindepth 1 -maxdepth 1 -name ".deb.*")" &&
		test -f "$out/build.log" && ls "$out/${PKG}"_*.changes >/dev/null'
deb=$(ls "$out/${PKG}"_*.deb 2>/dev/null)
if [ ! -f "$deb" ]; then
	fail "the package is built: $(tail -n 3 "$T_TMP/deb.err" | tr '\n' ' ')"
	finish
	exit
fi
lintian "$out/${PKG}"_*.changes >"$T_TMP/lintian" 2>/dev/null
expect "lintian: 0 errors ($(grep -c '^E:' "$T_TMP/lintian") E:, $(grep -c '^W:' "$T_TMP/lintian") W:)" \
	test "$(grep -c '^E:' "$T_TMP/lintian")" -eq 0
grep '^[EW]:' "$T_TMP/lintian" | sed 's/^/# /'

# its files against make install's with the package's prefix
dpkg-deb -x "$deb" "$T_TMP/pkg"
dpkg-deb -c "$deb" >"$T_TMP/contents"
expect "dpkg-deb -c lists what the package unpacks" \
	test "$(grep -c '^-' "$T_TMP/contents")" -eq "$(find "$T_TMP/pkg" -type f | wc -l)"
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory install \
	DESTDIR="$T_TMP/mi" prefix=/usr >"$T_TMP/mi.out" 2>&1 ||
	fail "make install DESTDIR prefix=/usr: $(tail -n 1 "$T_TMP/mi.out")"
layout "$T_TMP/mi" >"$T_TMP/want"
doc=usr/share/doc/$PKG
layout "$T_TMP/pkg" | sed 's|^\(f usr/share/man/man8/.*\.8\)\.gz$|\1|' |
	grep -vxF -e "f $doc/copyright" -e "f $doc/changelog.gz" >"$T_TMP/got"
expect "the package's files are make install's with prefix=/usr (man pages gzipped; its copyright and changelog beside)" \
	diff "$T_TMP/want" "$T_TMP/got"
expect "the package has its copyright and changelog" \
	test -f "$T_TMP/pkg/$doc/copyright" -a -f "$T_TMP/pkg/$doc/changelog.gz"
for p in test_overhead map_perf_test; do
	expect "$p.8 in the package is make install's page" \
		cmp -s <(zcat "$T_TMP/pkg/usr/share/man/man8/$p.8.gz") "$T_TMP/mi/usr/share/man/man8/$p.8"
done

# Depends: the libbpf package is the one that ships the libbpf.so.1 the
# program loads here (ldd, dpkg -S), and what is installed satisfies it
depends=$(dpkg-deb -f "$deb" Depends)
echo "# Depends: $depends"
so=$(ldd "$T_TMP/pkg/usr/sbin/test_overhead" | awk '$1 == "libbpf.so.1" { print $3 }')
owner=$( (dpkg -S "$so" || dpkg -S "/usr$so" || dpkg -S "$(readlink -f "$so")") 2>/dev/null |
	head -n 1 | sed 's/:.*//')
dep=$(tr ',' '\n' <<<"$depends" | sed 's/^ *//' | grep "^$owner\b")
expect "Depends names $owner, the package of the libbpf.so.1 the program loads ($so): '$dep'" \
	test -n "$owner" -a -n "$dep"
have=$(dpkg-query -W -f '${Version}' "$owner" 2>/dev/null)
min=$(sed -n 's/.*(>= *\([^)]*\)).*/\1/p' <<<"$dep")
expect "the installed $owner $have satisfies it (>= ${min:-any})" \
	eval '[ -z "$min" ] || dpkg --compare-versions "$have" ge "$min"'

# ---- installed here, run, removed ----
if dpkg-query -W -f '${db:Status-Status}' $PKG 2>/dev/null | grep -qx installed; then
	skip "installing the package: $PKG is installed on this machine already (not replaced)"
	finish
	exit
fi
before=$T_TMP/before
ls -d /usr/sbin/test_overhead /usr/sbin/map_perf_test /usr/share/man/man8/test_overhead.8* \
	/usr/share/bash-completion/completions/test_overhead /usr/share/doc/$PKG >"$before" 2>/dev/null
at_exit dpkg -P $PKG
run_capture dpkg-i dpkg -i "$deb"
expect "dpkg -i: installed (rc=$RC)" test "$RC" -eq 0
run_capture list sh -c 'cd / && exec test_overhead --list'
expect "test_overhead --list from /, found on PATH in /usr/sbin: exit 0 (rc=$RC, $(command -v test_overhead))" \
	test "$RC" -eq 0 -a "$(command -v test_overhead)" = /usr/sbin/test_overhead -a -s "$T_TMP/list.out"
expect "man -w test_overhead map_perf_test: the package's pages" \
	test "$(man -w test_overhead map_perf_test 2>/dev/null | tr '\n' ' ')" = \
	"/usr/share/man/man8/test_overhead.8.gz /usr/share/man/man8/map_perf_test.8.gz "
expect "bash-completion loads both programs' completion from the package" \
	bash --norc -c 'source /usr/share/bash-completion/bash_completion &&
		__load_completion test_overhead && __load_completion map_perf_test &&
		complete -p test_overhead map_perf_test >/dev/null'
# the packaged build, Debian's flags and its strip and all: its uprobe
# targets are found by name (in .dynsym: .symtab is stripped) and still
# start as they must, its USDT note is there, its skeletons load
cat >"$T_TMP/from_root" <<'EOF'
#!/bin/sh
cd / && exec /usr/sbin/test_overhead "$@"
EOF
chmod +x "$T_TMP/from_root"
BIN=$T_TMP/from_root run_json packaged -n 5000 -r 1 \
	-m base,raw_tp,uprobe,uretprobe,uprobe.s,uprobe_multi,usdt \
	-e task_rename,uprobe-nop,uprobe-push,usdt-nop
expect "the packaged test_overhead: exit status fits the rows (rc=$RC)" exit_matches packaged
jexpect "the packaged test_overhead: its 14 rows, none FAILED, every one that ran verified" \
	"$T_TMP/packaged.json" \
	'len(R) == 14 and not rows(status="failed") and all(verified(r) for r in R if ran(r) and r["name"] != "base")'
run_capture dpkg-P dpkg -P $PKG
ls -d /usr/sbin/test_overhead /usr/sbin/map_perf_test /usr/share/man/man8/test_overhead.8* \
	/usr/share/bash-completion/completions/test_overhead /usr/share/doc/$PKG >"$T_TMP/after" 2>/dev/null
expect "dpkg -P: removed, and the machine as it was (rc=$RC)" \
	test "$RC" -eq 0 -a -z "$(dpkg-query -W -f '${db:Status-Status}' $PKG 2>/dev/null | grep -x installed)" \
	-a "$(cat "$before")" = "$(cat "$T_TMP/after")"
finish
