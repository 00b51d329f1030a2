#!/bin/sh
# A truncation pass over the corpus log (ctags' "chop"): cut at many byte
# offsets, tko summarize never crashes, and every cut keeps exactly the
# benchmark records whose "Best config for" line survived the cut.
# Test bodies are single-quoted and run by eval in lib.sh, as in git's t/:
# their $variables expand then, and variables set here are used there.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

LOG=$CORPUS/h200-run1/log_profile.txt

test_expect_success 'forty cuts of the log, each read correctly' '
	size=$(wc -c <"$LOG") &&
	i=1 &&
	while [ $i -le 40 ]; do
		off=$((size * i / 41 + i * 13)) &&
		head -c $off "$LOG" >cut.log &&
		complete=$(grep -c "Best config for .*#shared-mem [0-9]*$" cut.log) &&
		if tko summarize cut.log --json cut.json >/dev/null 2>err; then
			n=$(json_q cut.json "[.kernels[].tunings[] | select(.method == \"benchmark\" and .complete)] | length") &&
			if [ "$n" -ne "$complete" ]; then
				echo "cut at $off: $n complete benchmarks, grep finds $complete" >&2
				return 1
			fi
		else
			code=$? &&
			if [ $code -ne 1 ] || [ "$complete" -ne 0 ]; then
				echo "cut at $off: exit $code" >&2; cat err >&2
				return 1
			fi
		fi
		i=$((i + 1))
	done
'

test_expect_success 'a cut mid-line is reported as such, not as malformed' '
	for n in 1472 1474; do
		{ head -n $((n - 1)) "$LOG" && sed -n "${n}p" "$LOG" | head -c 150; } >cut.log &&
		tko summarize cut.log --json cut.json >/dev/null &&
		json_q cut.json ".inputs[0].malformed == 0 and .inputs[0].truncated == true" &&
		json_q cut.json ".inputs[0].lines == $n" || return 1
	done
'

test_done
