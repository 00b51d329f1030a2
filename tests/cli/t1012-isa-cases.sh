#!/bin/sh
# shellcheck disable=SC2016 # test bodies are single-quoted, eval'd by lib.sh
# The ISA scanner case folders (tests/isa/README.md) as TAP: one test per
# folder, each comparing tko isa's ops, families and source lines with
# the awk counts committed beside its input. Then self-tests: a count
# changed by hand fails its case, an expected file the oracle no longer
# writes is stale, and a folder whose input is gone fails.
. "$(dirname "$0")/lib.sh"

I=$SRC_ROOT/tests/isa

if [ "${TKO_VALGRIND:-0}" = 1 ]; then
	printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "%s" "$@"\n' \
		"$TKO" >"$TRASH/tko-valgrind" && chmod +x "$TRASH/tko-valgrind"
	TKO=$TRASH/tko-valgrind
	export TKO
fi

"$I/run.sh" >"$TRASH/isa.out" 2>&1
while IFS= read -r line; do
	case $line in
	"ok "*)
		test_count=$((test_count + 1))
		echo "ok $test_count - isa case ${line#ok }" ;;
	"FAIL "*)
		test_count=$((test_count + 1))
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - isa case ${line#FAIL }" ;;
	"tests/isa: "*) ;;
	*)
		echo "# $line" ;;
	esac
done <"$TRASH/isa.out"

test_expect_success 'the runner ran every case folder' '
	ls -d "$I"/amdgcn/*/ "$I"/ptx/*/ "$I"/sass/*/ >cases &&
	test "$(grep -c "^\(ok\|FAIL\) " "$TRASH/isa.out")" -eq "$(wc -l <cases)"
'

# A copy of the runner, its library, oracles and one case, to break.
copy_case() {
	mkdir -p copy/tests/isa/amdgcn copy/tests/golden &&
	cp "$I/run.sh" "$I/oracle.sh" "$I/lib.sh" copy/tests/isa/ &&
	cp -R "$I/awk" copy/tests/isa/ &&
	cp "$SRC_ROOT/tests/golden/INPUTS" copy/tests/golden/ &&
	cp -R "$I/amdgcn/example-index-add-gfx942" copy/tests/isa/amdgcn/ &&
	mkdir -p copy/examples/isa &&
	cp "$SRC_ROOT"/examples/isa/triton_poi_fused_index_add_zeros_1.gfx942.* copy/examples/isa/
}

test_expect_success 'self-test: the copy passes, a count changed by hand fails' '
	copy_case &&
	C=copy/tests/isa/amdgcn/example-index-add-gfx942 &&
	copy/tests/isa/run.sh "$C" >out &&
	test_grep "^ok " out &&
	awk "NR == 1 { \$1 = \$1 + 1 } { print }" "$C/expected.ops" >e && mv e "$C/expected.ops" &&
	test_expect_code 1 copy/tests/isa/run.sh "$C" >out &&
	test_grep "^FAIL " out &&
	test_grep "differs from .*expected.ops" out
'

test_expect_success 'self-test: an oracle that changed makes the committed counts stale' '
	rm -rf copy && copy_case &&
	C=copy/tests/isa/amdgcn/example-index-add-gfx942 &&
	printf "{ print }\n" >copy/tests/isa/awk/isa-lines.awk &&
	test_expect_code 1 copy/tests/isa/run.sh "$C" >out &&
	test_grep "expected.lines is stale" out
'

test_expect_success 'self-test: a case whose input is gone fails' '
	rm -rf copy && copy_case &&
	rm copy/examples/isa/triton_poi_fused_index_add_zeros_1.gfx942.amdgcn &&
	test_expect_code 1 copy/tests/isa/run.sh copy/tests/isa/amdgcn/example-index-add-gfx942 >out &&
	test_grep "names nothing that exists" out
'

test_done
