#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion (bash-completion/test_overhead, installed under
# both programs' names), driven as bash-completion drives it: COMP_WORDS
# and COMP_CWORD set, the function called, COMPREPLY read. -m, -e,
# --body, -t, -a and --memory complete every name --list --json gives,
# asked of the program at completion time (a program with a new mode
# completes it); the last item of a comma-separated list; every option
# --help lists; nothing for a number; files for --json. Installed by
# make install, bash-completion's own loader finds it for both names.
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1

COMP=$TOP/bash-completion/test_overhead
BASH_COMPLETION=/usr/share/bash-completion/bash_completion
if [ ! -r "$BASH_COMPLETION" ]; then
	fail "bash-completion is installed ($BASH_COMPLETION; make deps installs it)"
	finish
	exit
fi

# complete FILE LINE: the words the completion of FILE offers for LINE
# (split on blanks; a trailing blank is an empty last word), sorted
complete_line() {
	bash --norc --noprofile -c '
		source "$1" || exit 1
		[ "$2" = - ] || source "$2" || exit 1
		compopt() { :; }	# a completion in progress has it
		COMP_LINE=$3
		COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		__load_completion "${COMP_WORDS[0]}" 2>/dev/null
		func=$(complete -p "${COMP_WORDS[0]##*/}" 2>/dev/null |
			sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		[ -n "$func" ] || { echo "no completion for ${COMP_WORDS[0]}" >&2; exit 1; }
		"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' sh "$BASH_COMPLETION" "$1" "$2" \
		>"$T_TMP/reply" || return 1
	sed '/^$/d' "$T_TMP/reply" | sort
}

# names PROG KEY: the names of --list --json's KEY, sorted
names() { "$1" --list --json - | jget - "sorted(e['name'] for e in d['$2'])"; }

# offers NAME WANT LINE: the completion of LINE is exactly WANT's words
offers() {
	local got want
	got=$(complete_line "$COMP" "$3") || { fail "$1: the completion ran"; return; }
	got=$(tr '\n' ' ' <<<"$got")
	[ -n "$got" ] || got=" "
	want=$(tr ' ' '\n' <<<"$2" | sed '/^$/d' | sort | tr '\n' ' ')
	[ -n "$want" ] || want=" "
	[ "$got" = "$want" ] && { pass "$1"; return; }
	fail "$1"
	echo "#   want: $want"
	echo "#   got:  $got"
}

for key in modes:-m events:-e bodies:--body; do
	all=$(names ./test_overhead "${key%%:*}" | tr '\n' ' ')
	n=$(wc -w <<<"$all")
	offers "test_overhead ${key#*:}: every one of the $n ${key%%:*} --list --json names" \
		"$all" "./test_overhead ${key#*:} "
done
all=$(names ./test_overhead modes | tr '\n' ' ')
offers "test_overhead --modes: the same" "$all" "./test_overhead -q --modes "
# starting PREFIX HEAD: the modes of --list --json that start with
# PREFIX, each after HEAD: what a completion of PREFIX offers (when one
# alone, that one), whatever modes are added
starting() {
	names ./test_overhead modes | awk -v p="$1" -v h="$2" 'index($0, p) == 1 { print h $0 }' |
		tr '\n' ' '
}
# offers_some NAME WANT LINE: offers, when a mode starts so (a check of
# nothing, otherwise)
offers_some() {
	[ -n "$2" ] || { fail "$1: a mode of --list --json starts so"; return; }
	offers "$@"
}
want=$(starting tp raw_tp,)
offers_some "test_overhead -m raw_tp,tp: the list's last item (${want% }), the rest kept" \
	"$want" "./test_overhead -m raw_tp,tp"
want=$(starting ra)
offers_some "test_overhead --modes=ra: the value after = (${want% })" \
	"$want" "./test_overhead --modes=ra"
for key in tests:-t methods:-a memory_kinds:--memory; do
	all=$(names ./map_perf_test "${key%%:*}" | tr '\n' ' ')
	extra=
	case ${key#*:} in -a) extra="all auto" ;; --memory) extra=all ;; esac
	n=$(wc -w <<<"$all")
	offers "map_perf_test ${key#*:}: every one of the $n ${key%%:*} --list --json names${extra:+, and $extra}" \
		"$all $extra" "./map_perf_test ${key#*:} "
done
offers "map_perf_test -t hash_lookup,sys_: the sys_* tests after the first" \
	"$(names ./map_perf_test tests | grep '^sys_' | sed 's/^/hash_lookup,/' | tr '\n' ' ')" \
	"./map_perf_test -t hash_lookup,sys_"

# options: each program's long options as its --help lists them
for prog in test_overhead map_perf_test; do
	opts=$(./$prog --help | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' |
		grep -oE -- '--[a-z-]+' | sort -u | tr '\n' ' ')
	offers "$prog --: every option of --help ($(wc -w <<<"$opts"))" "$opts" "./$prog --"
	offers "$prog -c: nothing to offer for a number" "" "./$prog -c "
done
offers "test_overhead -e getpgid --body: the bodies after other options" \
	"$(names ./test_overhead bodies | tr '\n' ' ')" "./test_overhead -e getpgid --body "
mkdir -p "$T_TMP/files/sub" && touch "$T_TMP/files/a.json" "$T_TMP/files/b.txt"
offers "--json: files (a .json, a directory)" "$T_TMP/files/a.json $T_TMP/files/sub" \
	"./test_overhead --json $T_TMP/files/"
offers "--compare: .json files on both sides" "$T_TMP/files/a.json $T_TMP/files/sub" \
	"./test_overhead --compare x.json -- $T_TMP/files/"

# the values come from the program completed, at completion time: one
# whose --list --json names a mode no script knows completes it
stub=$T_TMP/stub/test_overhead
mkdir -p "${stub%/*}"
cat >"$stub" <<'EOF'
#!/bin/sh
[ "$1" = --list ] || exit 2
printf '{\n  "modes": [\n    {\n      "name": "brand_new",\n      "help": "x"\n    },\n    {\n      "name": "raw_tp"\n    }\n  ],\n  "events": []\n}\n'
EOF
chmod +x "$stub"
offers "-m: the modes of the program being completed, asked then (a new one included)" \
	"brand_new raw_tp" "$stub -m "

# installed: bash-completion's loader finds it under either name, in
# $XDG_DATA_DIRS/bash-completion/completions (/usr/local/share and
# /usr/share by default), and it asks the installed program
dest=$T_TMP/dest
if env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory install \
	DESTDIR="$dest" >"$T_TMP/install.out" 2>&1; then
	sbin=$dest/usr/local/sbin
	for prog in test_overhead map_perf_test; do
		key=modes opt=-m
		[ $prog = test_overhead ] || key=tests opt=-t
		all=$(names "$sbin/$prog" $key | tr '\n' ' ')
		got=$(XDG_DATA_DIRS=$dest/usr/local/share complete_line - \
			"$sbin/$prog $opt ") && got=$(tr '\n' ' ' <<<"$got")
		expect "installed $prog: bash-completion loads its completion and $opt completes every one of its $key" \
			test "$got" = "$all"
	done
else
	fail "make install DESTDIR=$dest: $(tail -n 1 "$T_TMP/install.out")"
fi
finish
