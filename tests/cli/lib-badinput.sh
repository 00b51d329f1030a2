# Helpers for the bad-input suite (t9000-t9099), sourced after lib.sh.
#
# make_bad_inputs GOOD: makes, in the current directory, one bad variant of
# the good input file GOOD per kind of damage, named bad.KIND:
#   empty      0 bytes
#   trunc      GOOD cut in the middle of a line, about two thirds in
#   binary     text with NUL bytes (a core dump, an .so named .log)
#   nonutf8    GOOD with a Latin-1 byte in its first line
#   huge       1 GB, sparse (truncate): all NUL bytes, so refused as binary
#   zero       a link to /dev/zero: an endless stream, refused at its first read
#   dir        a directory where a file belongs
#   loop       a symbolic link to itself: open() fails with ELOOP, even for root
# plus the path bad.missing, which does not exist. The file that cannot be
# read is $UNREADABLE: /proc/self/clear_refs opens but read() fails with
# EINVAL for every user, root included (CI runs as root, where chmod 000
# changes nothing); locked_run runs a command as nobody on a mode-000 file
# when setpriv is there, the other way to get EACCES.
#
# check_bad CODE NAME -- tko ARGS...: ARGS must write their output to
# out/out.json (and out/out.md where the command has it). Runs the command
# twice: with no output there, then with an existing out/out.json holding
# a sentinel. Each time the exit status must be CODE, stderr one line that
# starts "tko " and contains NAME (the file at fault), and out/ must hold
# exactly what it held before: nothing half-written, no temporary file, the
# old output untouched. $bad_setup, when set, is run after out/ is made
# (to put a directory or a file where the output goes).

UNREADABLE=/proc/self/clear_refs

make_bad_inputs() {
	: >bad.empty &&
	n=$(wc -l <"$1") &&
	head -n $((n * 2 / 3)) "$1" >bad.trunc &&
	sed -n "$((n * 2 / 3 + 1))p" "$1" | head -c 7 >>bad.trunc &&
	{ head -c 200 "$1" && printf '\000\001\002\177ELF\000' && head -c 200 "$1"; } >bad.binary &&
	{ printf 'caf\351 ' && cat "$1"; } >bad.nonutf8 &&
	truncate -s 1G bad.huge &&
	ln -s /dev/zero bad.zero &&
	mkdir bad.dir &&
	ln -s bad.loop bad.loop
}

# 0 when $UNREADABLE really fails to read here.
unreadable_works() {
	! cat "$UNREADABLE" >/dev/null 2>&1 && test -e "$UNREADABLE"
}

check_bad_once() {
	ls -A out >out.before &&
	test_expect_code "$want" "$@" 2>err &&
	test_one_line_error err &&
	test_grep "$(printf '%s' "$name" | sed 's/[][\\.*^$+?(){}|]/\\&/g')" err &&
	ls -A out >out.after &&
	test_cmp out.before out.after
}

check_bad() {
	want=$1 name=$2
	shift 3
	rm -rf out && mkdir out && eval "${bad_setup:-:}" &&
	check_bad_once "$@" &&
	echo sentinel >out/out.json &&
	check_bad_once "$@" &&
	test "$(cat out/out.json)" = sentinel
}

# Runs a command as nobody (setpriv) when root, else as is.
as_nobody() {
	if test "$(id -u)" = 0; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# locked_run CODE NAME -- tko ARGS...: check_bad with the input locked
# (mode 000) and the command run as nobody; the trash directory is opened
# up for nobody first. Skipped (returns 0 with a note) without setpriv.
locked_run() {
	if test "$(id -u)" = 0 && ! command -v setpriv >/dev/null 2>&1; then
		echo "# skipped: root without setpriv"
		return 0
	fi
	chmod 777 "$TRASH" &&
	want=$1 name=$2 &&
	shift 3 &&
	shift &&
	rm -rf out && mkdir -m 777 out &&
	check_bad_once as_nobody "$TKO" "$@"
}
