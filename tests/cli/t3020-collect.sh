#!/bin/sh
# tko collect: one kernel's artifacts from the real corpus RUN (cache/inductor,
# cache/triton), ambiguity, capture directories, and never writing outside
# --out (names with "..", absolute paths, symbolic links in the inputs).
# Expected file sets are counted here with grep/find/jq, independently of tko.
# Test bodies are single-quoted for eval, as lib.sh wants; variables set
# here are read inside them.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

RUN1=$CORPUS/h200-run1
K=triton_poi_fused_add_gelu_mul_view_1

# The Triton cache entries whose <K>.json says "name": K.
entries_named() {
	for j in "$1"/cache/triton/*/"$2".json; do
		[ "$(jq -r .name "$j")" = "$2" ] && basename "$(dirname "$j")"
	done | sort
}

test_expect_success 'a unique kernel: its module and every Triton entry, verbatim' '
	tko collect "$RUN1" --kernel $K --out k1 >out &&
	module=$(grep -l "^def $K(" "$RUN1"/cache/inductor/*/*.py | xargs grep -L "async_compile.triton(") &&
	test "$(echo "$module" | wc -l)" = 1 &&
	cmp "$module" "k1/inductor/$(basename "$module")" &&
	entries_named "$RUN1" $K >expect &&
	(cd k1/triton && ls | sort) >got && test_cmp expect got &&
	for e in $(cat expect); do
		(cd "$RUN1/cache/triton/$e" && ls | sort) >want-files &&
		(cd "k1/triton/$e" && ls | sort) >got-files &&
		test_cmp want-files got-files || exit 1
		for f in $(cat want-files); do cmp "$RUN1/cache/triton/$e/$f" "k1/triton/$e/$f" || exit 1; done
	done
'

test_expect_success 'collect.json lists every file with its role and origin' '
	json_q k1/collect.json ".schema_version == 1 and .tool == \"tko collect\"" &&
	find k1 -type f ! -name collect.json | wc -l >want &&
	json_q k1/collect.json ".files | length" >got && test_cmp want got &&
	json_q k1/collect.json "[.files[] | select(.role == \"ptx\")] | length" >got &&
	find k1/triton -name "*.ptx" | wc -l >want && test_cmp want got &&
	json_q k1/collect.json ".files[] | select(.role == \"kernel_module\") | .from | startswith(\"cache/inductor/\")" &&
	json_q k1/collect.json ".kernel == \"$K\" and (.source_hash | length == 64)" &&
	h=$(sha256sum "k1/$(jq -r ".files[] | select(.role == \"kernel_module\") | .path" k1/collect.json)" | cut -c1-64) &&
	json_q k1/collect.json ".source_hash == \"$h\""
'

test_expect_success 'a shared name is ambiguous: exit 4 and every candidate listed' '
	test_expect_code 4 tko collect "$RUN1" --kernel triton_mm --out k2 2>err &&
	n=$(grep -l "^def triton_mm(" "$RUN1"/cache/inductor/*/*.py | xargs grep -L "async_compile.triton(" |
		xargs sha256sum | cut -c1-8 | sort -u | wc -l) &&
	test "$(grep -c "^    triton_mm-[0-9a-f]\{8\} " err)" = "$n" &&
	test ! -e k2
'

test_expect_success 'NAME-hash8 picks one: its module and the entries whose IR names it or its twin' '
	# A source Inductor wrote under two file names: entries naming either belong to it.
	h=$(grep -l "^def triton_mm(" "$RUN1"/cache/inductor/*/*.py | xargs grep -L "async_compile.triton(" |
		xargs sha256sum | cut -c1-8 | sort | uniq -d | head -1) &&
	test -n "$h" &&
	m=$(sha256sum "$RUN1"/cache/inductor/*/*.py | grep "^$h" | head -1 | cut -c67-) &&
	tko collect "$RUN1" --kernel "triton_mm-$h" --out k3 >/dev/null &&
	cmp "$m" "k3/inductor/$(basename "$m")" &&
	for twin in $(sha256sum "$RUN1"/cache/inductor/*/*.py | grep "^$h" | cut -c67-); do
		grep -l "$(basename "$twin")" "$RUN1"/cache/triton/*/triton_mm.ttir
	done | xargs -n1 dirname | xargs -n1 basename | sort -u >expect &&
	(cd k3/triton && ls | sort) >got && test_cmp expect got
'

test_expect_success 'no such kernel: exit 4' '
	test_expect_code 4 tko collect "$RUN1" --kernel triton_nothing_here --out k4 2>err &&
	test_grep "no kernel .triton_nothing_here." err && test ! -e k4
'

test_expect_success 'names with .. or a slash are refused before anything is read' '
	for bad in ../../etc/passwd /etc/passwd "a/b" "k-../../x" "k;rm"; do
		test_expect_code 1 tko collect "$RUN1" --kernel "$bad" --out k5 2>err &&
		test_one_line_error err && test_grep "not a kernel name" err || exit 1
	done &&
	test ! -e k5
'

test_expect_success 'setup a small RUN with a capture dir and symbolic links' '
	mkdir -p run/cache/inductor/ab run/cache/triton run/capture/kernels/mykern-0123abcd/inputs outside &&
	echo secret >outside/secret &&
	printf "import triton\n@triton.jit\ndef mykern(x):\n    pass\n" >run/cache/inductor/ab/cmod.py &&
	e=$(ls "$RUN1/cache/triton" | head -1) &&
	mkdir run/cache/triton/HASH1 run/cache/triton/HASH2 &&
	printf "{\"name\": \"mykern\"}\n" >run/cache/triton/HASH1/mykern.json &&
	printf "ptx\n" >run/cache/triton/HASH1/mykern.ptx &&
	ln -s "$TRASH/outside/secret" run/cache/triton/HASH1/mykern.cubin &&
	printf "{\"name\": \"mykern\"}\n" >run/cache/triton/HASH2/mykern.json &&
	ln -s "$TRASH/outside" run/cache/triton/HASHLINK &&
	printf "{\"schema_version\": 1, \"source_hash\": \"0123abcd%s\", \"configs\": [{\"cache_hash\": \"HASH1\"}]}\n" \
		"$(printf "%056d" 0)" >run/capture/kernels/mykern-0123abcd/capture.json &&
	echo data >run/capture/kernels/mykern-0123abcd/inputs/storage0.bin &&
	ln -s "$TRASH/outside/secret" run/capture/kernels/mykern-0123abcd/inputs/storage1.bin &&
	test -n "$e"
'

test_expect_success 'two candidates (module, capture dir); the capture s entries only' '
	test_expect_code 4 tko collect run --kernel mykern --out k6 2>err &&
	test "$(grep -c "^    mykern-" err)" = 2 &&
	tko collect run --kernel mykern-0123abcd --out k6 >/dev/null &&
	test -f k6/capture/capture.json && test -f k6/capture/inputs/storage0.bin &&
	test "$(ls k6/triton)" = HASH1 &&
	test -f k6/triton/HASH1/mykern.ptx
'

test_expect_success 'symbolic links in the inputs are skipped, never followed or copied' '
	test -z "$(find k6 -type l)" &&
	test ! -e k6/triton/HASH1/mykern.cubin && test ! -e k6/capture/inputs/storage1.bin &&
	! grep -r secret k6 &&
	json_q k6/collect.json "[.skipped[] | select(.why == \"a symbolic link\")] | length == 2"
'

test_expect_success '--out must be new or empty, and not a symbolic link' '
	mkdir full && echo x >full/keep &&
	test_expect_code 1 tko collect "$RUN1" --kernel $K --out full 2>err &&
	test_one_line_error err && test_grep "not empty" err && test "$(ls full)" = keep &&
	mkdir empty && ln -s "$TRASH/empty" linkout &&
	test_expect_code 1 tko collect "$RUN1" --kernel $K --out linkout 2>err &&
	test_one_line_error err && test_grep "symbolic link" err &&
	test -z "$(ls empty)" &&
	tko collect "$RUN1" --kernel $K --out empty >/dev/null && test -f empty/collect.json
'

test_expect_success 'bad RUN and bad command lines' '
	test_expect_code 1 tko collect no-such-run --kernel $K --out k7 2>err &&
	test_one_line_error err && test ! -e k7 &&
	test_expect_code 2 tko collect "$RUN1" --kernel $K 2>err &&
	test_expect_code 2 tko collect --kernel $K --out k7 2>err &&
	tko collect "$RUN1" --kernel $K --out k8 --json - >out &&
	json_q out ".kernel == \"$K\""
'

test_done
