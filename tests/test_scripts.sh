#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every shell script of the tree passes Debian's shellcheck at -S warning,
# sourced files followed (-x): tools/, tests/, .ci/, bash-completion/ and
# debian/'s, found by name (*.sh) or by their first line (a sh or bash
# interpreter, or a "shellcheck shell=" directive). Each finding fails the
# test naming file:line and the check. A script planted in a directory of
# the test's own, with a finding, shows the check fails and names its
# line. And a script removes only what it made: tools/libbpf.sh leaves a
# DIR that is not its own. Needs no root and no BPF; skipped where
# Debian's shellcheck is not installed.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

if ! command -v shellcheck >/dev/null; then
	skip "shellcheck is not installed (make deps installs it)"
	finish
	exit
fi

# is_shell FILE: a script of sh or bash, by its name or its first lines
is_shell() {
	case $1 in *.sh | *.bash) return 0 ;; esac
	head -n 1 "$1" 2>/dev/null | grep -qE '^#!(/usr)?/bin/(env +)?(ba|da)?sh\b' && return 0
	head -n 5 "$1" 2>/dev/null | grep -qE '^# *shellcheck +shell=(ba|da)?sh\b'
}

# scripts DIR...: the shell scripts under DIR..., one a line, sorted;
# of debian/, its own files, not what a package build left in its
# folders (debian/tmp, the packages' trees and their maintainer scripts)
scripts() {
	local f
	while IFS= read -r -d '' f; do
		is_shell "$f" && printf '%s\n' "$f"
	done < <(find "$@" -path 'debian/*/*' -prune -o -type f -print0 2>/dev/null) | sort
}

# lint NAME FILE...: shellcheck of FILE..., a finding one "file:line:
# column: level: text [SCnnnn]" line in $T_TMP/NAME.lint; $RC its status
lint() {
	local name=$1
	shift
	shellcheck -x -S warning -f gcc "$@" >"$T_TMP/$name.lint" 2>&1
	RC=$?
}

# findings NAME: each finding of $T_TMP/NAME.lint as a failure of its own
findings() {
	local line
	while IFS= read -r line; do
		fail "shellcheck: $line"
	done <"$T_TMP/$1.lint"
}

mapfile -t SCRIPTS < <(scripts tools tests .ci bash-completion debian)
expect "the tree's shell scripts found: tools/, tests/lib.sh, .ci/run, the completion (${#SCRIPTS[@]})" \
	eval 'printf "%s\n" "${SCRIPTS[@]}" | grep -qx tests/lib.sh &&
		printf "%s\n" "${SCRIPTS[@]}" | grep -qx tools/deb.sh &&
		printf "%s\n" "${SCRIPTS[@]}" | grep -qx .ci/run &&
		printf "%s\n" "${SCRIPTS[@]}" | grep -qx bash-completion/test_overhead'

lint tree "${SCRIPTS[@]}"
if [ "$RC" -eq 0 ] && [ ! -s "$T_TMP/tree.lint" ]; then
	pass "shellcheck -x -S warning: every one of ${#SCRIPTS[@]} scripts clean"
else
	findings tree
	[ -s "$T_TMP/tree.lint" ] || fail "shellcheck exited $RC, saying nothing"
fi

# the check bites: a script of the test's own, its name no .sh, with a
# cd that may fail (SC2164) at line 4
mkdir "$T_TMP/planted"
cat >"$T_TMP/planted/bad" <<'EOF'
#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
dir=$1
cd $dir
echo "in $dir"
EOF
mapfile -t PLANTED < <(scripts "$T_TMP/planted")
lint planted "${PLANTED[@]}"
expect "a planted bad script is found by its first line, and fails the check (rc=$RC)" \
	test "${#PLANTED[@]}" -eq 1 -a "$RC" -ne 0
expect "... its finding names file:line" \
	grep -q "^$T_TMP/planted/bad:4:[0-9]*: warning: .*\[SC2164\]" "$T_TMP/planted.lint"

# a script removes only what it made: tools/libbpf.sh replaces DIR only
# when DIR's VERSION is one it wrote, not any tree's VERSION file; it
# says so before fetching anything
mkdir "$T_TMP/notours"
echo 1.0 >"$T_TMP/notours/VERSION"
echo keep >"$T_TMP/notours/file"
run_capture notours timeout 60 tools/libbpf.sh bookworm x86 "$T_TMP/notours"
expect "tools/libbpf.sh into a directory with a VERSION not its own: exit 1, one line (rc=$RC)" \
	eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$T_TMP/notours.err")" -eq 1 ] && grep -q "is not a libbpf of tools/libbpf.sh" "$T_TMP/notours.err"'
expect "... and the directory is as it was" \
	eval '[ "$(cat "$T_TMP/notours/file")" = keep ] && [ "$(cat "$T_TMP/notours/VERSION")" = 1.0 ]'

finish
