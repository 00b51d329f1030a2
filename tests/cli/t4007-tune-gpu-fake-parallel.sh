#!/bin/sh
# The GPU path with a stand-in worker that has compile processes: tko sends
# the variants its plan has queued ahead, to be compiled in parallel, before
# each is timed; and a variant whose ISA fingerprint is one already timed
# comes back a duplicate, is never timed, never wins, and says which
# variant it repeats.
# Test bodies are single-quoted on purpose: test_expect_success evals them.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-tune.sh"

use_fake_gpu
TKO_FAKE_JOBS=4
export TKO_FAKE_JOBS
POI="$CORPUS/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py"
export POI

test_expect_success 'setup: a captured kernel directory' '
	mkdir -p kdir/inputs &&
	cp "$POI" kdir/kernel.py &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$POI") &&
	xnumel=$(sed -n "s/^    xnumel = \([0-9]*\)$/\1/p" "$POI") &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\"," \
		"\"args\": [{\"name\": \"xnumel\", \"kind\": \"scalar\", \"value\": $xnumel}]," \
		"\"storages\": [], \"mutated_arg_names\": [], \"best_index\": 0," \
		"\"configs\": [{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4, \"num_stages\": 1}]}" \
		>kdir/capture.json
'

test_expect_success 'a sweep with compile processes' '
	tko tune --out out --json g.json kdir >table &&
	test "$(json_q g.json ".kernels[0].winner.label")" = XBLOCK=2048
'

test_expect_success 'every variant timed was sent ahead to be compiled first' '
	tr " " "\n" <fake.log.pre | sort -u >sent &&
	sed -n "s/^\(v[0-9]*\) .*/\1/p" fake.log | sort -u >timed &&
	test -s timed &&
	comm -23 timed sent >not-sent &&
	test ! -s not-sent &&
	test "$(wc -l <fake.log.pre)" -lt "$(wc -l <timed)"
'

test_expect_success 'source variants of the winning config are duplicates, not timed' '
	json_q g.json ".kernels[0].variants[] | select(.status == \"duplicate\") |
		[.id, .label, .same_as] | @tsv" >dups &&
	test_line_count -ge 1 dups &&
	win=$(json_q g.json ".kernels[0].winner.id") &&
	while IFS="$(printf "\t")" read -r id label same; do
		case $label in "XBLOCK=2048 +"*) ;; *) return 1 ;; esac &&
		test "$same" = "$win" &&
		! grep "^$id " fake.log || return 1
	done <dups &&
	test_grep "^v011 compiled to the same ISA as $win .*: not timed$" table
'

test_done
