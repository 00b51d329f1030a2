#!/bin/sh
# docs/json.md against the documents tko really writes. The expected keys
# come from the doc itself, read here with awk: a section's table lists in
# its first column the keys a document has, and each of them must be in the
# command's real --json output (made below from the shipped example RUN and
# tests/ data), as must the keys a row lists in `{a, b}` for a nested
# object; and every key of the output, nested objects included, must
# be named somewhere in that section (in `code` or in "quotes"), so a key
# added to the code without a word in the doc fails here.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

DOC=$SRC_ROOT/docs/json.md
EX=$SRC_ROOT/examples/h200-run
PROF=$SRC_ROOT/tests/data/profile/kineto-h200-autocast-train.json.gz
export DOC EX PROF

# section NAME: the text of "## NAME" up to the next "## " heading
section() {
	awk -v s="## $1" '$0 == s { on = 1; next } /^## / { on = 0 } on' "$DOC"
}

# table_keys NAME N: the keys named in the first column of the section's
# N-th table (from 0); "`a`, `b`" names two, `kernels[].bytes` none
table_keys() {
	section "$1" | awk -v want="$2" '
		!/^\|/ { intable = 0; next }
		!intable { intable = 1; t++; next }	# the header row
		/^\| *-/ { next }
		t - 1 == want {
			split($0, cell, "|")
			s = cell[2]
			while (match(s, /`[^`]+`/)) {
				k = substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)
				if (k ~ /^[a-z_][a-z0-9_]*$/)
					print k
			}
		}' | sort -u
}

# brace_keys NAME ROW: the keys of the `{a, b (a remark), c: {d}}` list in
# the meaning of the section's table row whose first column is `ROW`: a, b
# and c; what a nested list or a remark in brackets holds is not a key there
brace_keys() {
	section "$1" | awk -v row="\`$2\`" '
		/^\|/ {
			split($0, cell, "|")
			c = cell[2]
			gsub(/^ +| +$/, "", c)
			if (c != row || !(i = index(cell[3], "{")))
				next
			s = cell[3]
			depth = paren = 0
			item = ""
			for (; i <= length(s); i++) {
				ch = substr(s, i, 1)
				if (ch == "{" && ++depth == 1)
					continue
				if (ch == "}" && --depth == 0)
					break
				if (ch == "(")
					paren++
				if (ch == ")") {
					paren -= paren > 0
					continue
				}
				if (depth > 1 || paren > 0)
					continue
				if (ch == ",") {
					print item
					item = ""
				} else {
					item = item ch
				}
			}
			print item
			exit
		}' | sed -n "s/^ *\([a-z_][a-z0-9_]*\).*/\1/p" | sort -u
}

# brace_lists NAME ROW FILE JQ [OPTIONAL...]: doc_lists for a row's {...} list
brace_lists() {
	name=$1 row=$2 && shift 2 &&
	brace_keys "$name" "$row" >want &&
	lacks "\"$name\" \`$row\`" "$@"
}

# child_writes KEY...: each is a key the real replay child writes ("KEY" or
# KEY= in python/tko/replay.py or autotuner_way.py), so a stand-in that
# leaves it out is why the output lacks it, not tko
child_writes() {
	for k; do
		grep -qE "\"$k\"|[(, ]$k=" "$SRC_ROOT/python/tko/replay.py" \
			"$SRC_ROOT/python/tko/autotuner_way.py" ||
			{ echo "$k: the replay child never writes it" && return 1; }
	done
}

# named NAME: every name the section writes in `code` or "quotes"; a
# `*_line` there names every key ending in _line, written here as *_line
named() {
	{
		section "$1" | tr "\n" " " | grep -o -e "\`[^\`]*\`" -e "\"[^\"]*\"" |
			tr -c "a-z0-9_*\n" "\n" | grep -E "^([a-z_][a-z0-9_]*|\*_[a-z0-9_]+)$"
		printf "%s\n" schema_version tool tko_version
	} | sort -u
}

# unnamed KNOWN: the keys on stdin that KNOWN (named's output) does not name
unnamed() {
	awk 'NR == FNR { if ($0 ~ /^\*/) glob[substr($0, 2)] = 1; else known[$0] = 1; next }
		!($0 in known) {
			for (g in glob)
				if (length($0) > length(g) && substr($0, length($0) - length(g) + 1) == g)
					next
			print
		}' "$1" -
}

# json_keys FILE JQ: the keys of the object(s) JQ gives
json_keys() {
	jq -r "$2 | select(type == \"object\") | keys_unsorted[]" "$1" | sort -u
}

# lacks WHAT FILE JQ [OPTIONAL...]: every key in ./want (the doc's list WHAT)
# is in the objects JQ gives, except the OPTIONAL ones; names the others
lacks() {
	what=$1 file=$2 path=$3 && shift 3 &&
	test -s want &&
	json_keys "$file" "$path" >got &&
	printf "%s\n" "$@" | sort -u >optional &&
	comm -23 want got | comm -23 - optional >missing &&
	if test -s missing; then
		echo "docs/json.md $what lists keys $file $path lacks:" && cat missing
		return 1
	fi
}

# doc_lists NAME N FILE JQ [OPTIONAL...]: every key the table lists is in
# the output, except the OPTIONAL ones the doc says may be left out
doc_lists() {
	name=$1 n=$2 && shift 2 &&
	table_keys "$name" "$n" >want &&
	lacks "\"$name\" table $n" "$@"
}

# doc_names NAME FILE JQ...: every key of the objects JQ gives is named in the section
doc_names() {
	name=$1 file=$2 && shift 2 &&
	named "$name" >known &&
	for path in "$@"; do
		json_keys "$file" "$path" >got &&
		test -s got &&
		unnamed known <got >extra &&
		if test -s extra; then
			echo "$file $path has keys docs/json.md \"$name\" never names:" && cat extra
			return 1
		fi
	done
}

# head_is FILE TOOL: docs/json.md's first rule: schema_version first, then tool
head_is() {
	json_q "$1" "keys_unsorted[0:2] == [\"schema_version\", \"tool\"] and .tool == \"$2\""
}

test_expect_success 'the reader finds the tables: tko env lists tool, host, bandwidth' '
	table_keys "tko env" 0 >keys &&
	grep -qx host keys && grep -qx bandwidth keys && grep -qx tko_version keys &&
	! grep -qx meaning keys
'

test_expect_success 'the reader finds a row s {...} list: keys, not remarks or nested lists' '
	brace_keys "tko run" peak >keys && printf "%s\n" copy_gbps source >want && test_cmp want keys &&
	brace_keys "tko run" "kernels[].configs[]" >keys &&
	grep -qx captured keys && grep -qx config keys && grep -qx rate_doubt keys && grep -qx error keys &&
	! grep -qx kwargs keys && ! grep -qx the keys && ! grep -qx model keys &&
	test_must_fail child_writes gbps
'

test_expect_success 'the check can fail: an unnamed key, a listed key missing' '
	echo "{\"host\": {}, \"no_such_key_anywhere\": 1}" >fake.json &&
	test_must_fail doc_names "tko env" fake.json . >out &&
	grep -qx no_such_key_anywhere out &&
	test_must_fail doc_lists "tko env" 0 fake.json . >out &&
	grep -qx bandwidth out &&
	echo "{\"copy_gbps\": 1}" >peak.json &&
	test_must_fail brace_lists "tko run" peak peak.json . >out &&
	grep -qx source out
'

test_expect_success 'tko env --json' '
	tko env --json env.json >/dev/null &&
	head_is env.json "tko env" &&
	doc_lists "tko env" 0 env.json . bandwidth_error &&
	doc_names "tko env" env.json . .host .python .cuda .hip ".tools[]"
'

# bandwidth_error is there only when --measure measured nothing (no Python here).
test_expect_success 'tko env --measure --json, measuring nothing' '
	TKO_PYTHON=/no/such/python tko env --measure --json envm.json >/dev/null &&
	json_q envm.json "has(\"bandwidth_error\")" &&
	doc_lists "tko env" 0 envm.json . &&
	doc_names "tko env" envm.json .
'

test_expect_success 'tko capture: tko-run.json' '
	tko capture --out R --kernels x --profile-steps 3 --profile-seconds 5 -- true >/dev/null 2>&1 &&
	head_is R/tko-run.json "tko capture" &&
	doc_lists "tko capture" 0 R/tko-run.json . &&
	doc_names "tko capture" R/tko-run.json . .capture .versions &&
	section "tko capture" >sec &&
	jq -r ".env_set | keys[]" R/tko-run.json >vars &&
	test -s vars &&
	while read -r v; do
		grep -q "\`$v" sec || { echo "env_set: $v is not in docs/json.md" && return 1; }
	done <vars
'

test_expect_success 'tko collect: collect.json' '
	tko collect "$EX" --kernel triton_poi_fused_zeros_0 --out col >/dev/null &&
	head_is col/collect.json "tko collect" &&
	doc_lists "tko collect" 0 col/collect.json . &&
	doc_names "tko collect" col/collect.json . ".files[]"
'

# The replay child is tests/golden/fixtures/replay's stand-in (t3030's fake
# tko.replay): C writes the peak, the summary, the bytes and the rates, and
# passes on the child's keys; those the stand-in leaves out are the real
# child's, named in the brace_lists calls and checked by child_writes.
test_expect_success_if python3 'tko run --json, the replay child a stand-in' '
	k=triton_-9f1fcf8c &&
	mkdir -p rrun/capture/kernels && cp -R "$EX/capture/kernels/$k" rrun/capture/kernels/ &&
	cp "$EX/env.json" rrun/ &&
	TKO_PYTHON=python3 TKO_PYTHONPATH=$SRC_ROOT/tests/golden/fixtures/replay \
		tko run rrun/capture/kernels/$k --json run.json >/dev/null &&
	head_is run.json "tko run" &&
	doc_lists "tko run" 0 run.json . &&
	brace_lists "tko run" peak run.json .peak &&
	brace_lists "tko run" summary run.json .summary &&
	brace_lists "tko run" replay run.json .replay python torch triton &&
	brace_lists "tko run" kernels run.json ".kernels[]" kind source_hash best_index written_storages &&
	brace_lists "tko run" "kernels[].configs[]" run.json ".kernels[].configs[]" \
		phase reps autotuner_method max_abs_diff mismatched_args &&
	child_writes python torch triton kind source_hash best_index written_storages \
		phase reps autotuner_method max_abs_diff mismatched_args &&
	doc_names "tko run" run.json . .peak .replay .summary ".kernels[]" ".kernels[].configs[]" \
		".kernels[].configs[].config" ".kernels[].configs[].autotuner_method_cpu_copy_args[]?"
'

test_expect_success 'tko meta --json' '
	tko meta --json meta.json "$EX" >/dev/null &&
	head_is meta.json "tko meta" &&
	doc_lists "tko meta" 0 meta.json ".kernels[]" &&
	doc_names "tko meta" meta.json . ".files[]" ".wrapped[]" ".kernels[]" ".kernels[].args[]" \
		".kernels[].aten" ".kernels[].inductor" ".kernels[].uses[]" ".kernels[].device" \
		".kernels[].memory_ops" ".kernels[].decorators[]"
'

test_expect_success 'tko summarize --json' '
	tko summarize --json sum.json "$EX" >/dev/null &&
	head_is sum.json "tko summarize" &&
	doc_lists "tko summarize" 0 sum.json . &&
	doc_lists "tko summarize" 1 sum.json ".kernels[]" &&
	doc_names "tko summarize" sum.json ".inputs[]" .totals .device ".kernels[].tunings[]" \
		".kernels[].tunings[].configs[]" ".kernels[].from"
'

test_expect_success 'tko isa --json, AMDGCN and PTX' '
	tko isa --json isa.json "$SRC_ROOT/examples/isa" "$EX/cache/triton" >/dev/null 2>&1 &&
	head_is isa.json "tko isa" &&
	doc_names "tko isa" isa.json . ".files[]" ".skipped[]" ".kernels[]" ".kernels[].resources" \
		".kernels[].findings[]" ".kernels[].source_lines[]" ".kernels[].families[]" \
		".kernels[].spill_comments" ".kernels[].rules[]"
'

test_expect_success 'tko profile --json' '
	tko profile --json prof.json "$PROF" >/dev/null &&
	head_is prof.json "tko profile" &&
	doc_lists "tko profile" 0 prof.json . &&
	doc_names "tko profile" prof.json . ".groups[]" .steps ".steps.list[]" ".classes[]"
'

test_expect_success 'tko investigate: report.json, with a whole-step profile' '
	tko investigate --out-dir inv --profile "$PROF" "$EX" >/dev/null 2>&1 &&
	r=inv/report/report.json &&
	head_is $r "tko report" && head_is inv/analysis/kernels.json "tko investigate" &&
	doc_lists "tko investigate" 0 $r . &&
	doc_lists "tko investigate" 1 $r ".kernels[]" &&
	doc_names "tko investigate" $r .profile ".profile.class_shares[]" ".step_groups[]" \
		".candidates[]" ".library_calls[]" ".gaps[]" ".kernels[].isa" ".kernels[].isa.resources" \
		".kernels[].isa.families[]" ".kernels[].isa.source_lines[]" ".kernels[].addr" \
		".kernels[].configs[]" ".kernels[].args[]" ".kernels[].rules[]" ".kernels[].origins[]"
'

test_expect_success 'tko diff --json' '
	tko investigate --out-dir inv0 "$EX" >/dev/null 2>&1 &&
	test_expect_code 1 tko diff inv0/report/report.json inv/report/report.json --json d.json >/dev/null &&
	head_is d.json "tko diff" &&
	doc_lists "tko diff" 0 d.json . &&
	doc_names "tko diff" d.json .summary ".run[]" ".kernels[]" ".kernels[].changes[]"
'

test_expect_success 'tko cluster plan and status' '
	mkdir ex && cp -R "$EX/capture" ex/ &&
	tko cluster plan --tasks 2 ex -- --budget 10 >/dev/null &&
	head_is ex/cluster/plan.json "tko cluster" &&
	doc_lists "tko cluster" 0 ex/cluster/plan.json . &&
	doc_names "tko cluster" ex/cluster/plan.json . .slurm ".kernels[]" ".tasks[]" &&
	test_expect_code 1 tko cluster status --json st.json ex/cluster >/dev/null &&
	head_is st.json "tko cluster status" &&
	doc_names "tko cluster" st.json . ".tasks[]"
'

test_expect_success 'tko apply: the plan alone' '
	cp -R "$SRC_ROOT/tests/data/apply/run" arun &&
	tko apply arun >/dev/null 2>&1 &&
	head_is arun/apply/apply.json "tko apply" && head_is arun/apply/plan.json "tko apply" &&
	doc_lists "tko apply" 0 arun/apply/apply.json . &&
	doc_names "tko apply" arun/apply/apply.json . .summary ".kernels[]" .step
'

# the A/B with kernel windows holding library time too (the fake command of
# t6010, tests/cli/apply-fake/cmd.py): arms, step and windows named
test_expect_success_if python3 'tko apply --ab: arms, step and kernel windows' '
	rm -rf arun && cp -R "$SRC_ROOT/tests/data/apply/run" arun &&
	FAKE_STEPS=20 FAKE_MS="default=10;applied=9" FAKE_KERNEL_US="default=20;applied=16" \
		FAKE_OTHER_US="default=40;applied=40" \
		tko apply --ab 2 --warmup 0 arun -- python3 -S "$SRC_ROOT/tests/cli/apply-fake/cmd.py" >/dev/null 2>&1 &&
	json_q arun/apply/apply.json ".ab.step.gpu_busy != null" &&
	doc_names "tko apply" arun/apply/apply.json .ab ".ab.arms[]" ".ab.applied_vs[]" .ab.step \
		".runs[]" ".runs[].kernel_window"
'

test_expect_success_if python3 'tko tune: a sweep on the stand-in GPU' '
	TKO_PYTHON=$SRC_ROOT/.venv/bin/python &&
	test -x "$TKO_PYTHON" || TKO_PYTHON=python3 &&
	mkdir kdir &&
	POI=$CORPUS/h200-run1/cache/inductor/sd/csdvrfujlppaik6bsrjwjsfouquczh47rzawhmr6c3vvw7bdom7q.py &&
	cp "$POI" kdir/kernel.py &&
	name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$POI") &&
	printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\", \"args\": [], \"storages\": []," \
		"\"best_index\": 0, \"configs\": [{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4," \
		"\"num_stages\": 1, \"time_ms\": 1.1}]}" >kdir/capture.json &&
	TKO_PYTHON=$TKO_PYTHON TKO_PYTHON_DIR=$TESTS_DIR/tune-fake TKO_FAKE_LOG=$TRASH/fake.log \
		tko tune --max-variants 4 --out o --json t.json kdir >/dev/null &&
	head_is t.json "tko tune" &&
	doc_lists "tko tune" 0 t.json ".kernels[]" &&
	doc_lists "tko tune" 1 t.json ".kernels[].variants[]" &&
	doc_lists "tko tune" 2 t.json ".kernels[].winner.confirmation" warm &&
	doc_names "tko tune" t.json . ".kernels[].winner" ".kernels[].variants[].config" \
		".kernels[].variants[].checks[]" ".kernels[].space[]"
'

test_done
