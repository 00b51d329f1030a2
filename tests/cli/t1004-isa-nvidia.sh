#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on corpus/h200-run1's Triton cache: every PTX file against an
# awk count, the Triton JSON beside it, and every cubin through nvdisasm
# and cuobjdump (Triton's own copies, when no CUDA toolkit is on PATH)
# against a grep of the same tools' output and -res-usage.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"

T=$CORPUS/h200-run1/cache/triton
# Three cubins whose SASS together has every mnemonic base of the cache
# (HGMMA/LDGSTS/LDSM/WARPGROUP, HMMA/STSM, REDG), and one more.
CUBINS="$T/RNSF2UMRW6VV6KG3G2BQOUHHWCIUQWQTWQD6A5H6EV5NO7AWRO5A/triton_mm.cubin
$T/EA4MSSQDQFL2H2DEZH2XGDDFXFPSWRLHM36HVO7PSDQ23N63MDNA/triton_mm.cubin
$T/CIQD67PLQOSAV3EHPTCUZ7U2CV32YNGKRIOI55SER653524VFUQQ/triton_poi_fused_index_add_zeros_1.cubin
$T/X5DJTZDJBQATKUMJJL3WEWP4UDPAKGXWTALM2S7GGSOHGNWMTCYA/triton_red_fused__softmax_exp_sub_sum_view_3.cubin"
IA=$T/VZOCIUMWPAPLYL7CE4G34I2D74EVAPJFGGB527M4SJMNTX35IMPQ/triton_poi_fused_index_add_zeros_1

# Every PTX file's ops are a case folder, tests/isa/ptx/* (make isa), and
# the SASS text of the four cubins below tests/isa/sass/*.

test_expect_success 'PTX widths: vectors times element types, cp.async by its cp-size' '
	tko -q isa --json out.json "$IA.ptx" &&
	v4=$(grep -cE "ld\.global(\.L[12]::[a-z_]+)*\.v4\.b32" "$IA.ptx") &&
	b64=$(grep -cE "ld\.global(\.L[12]::[a-z_]+)*\.b64" "$IA.ptx") &&
	json_q out.json ".kernels[0].families.global_load.by_width == {\"64\": $b64, \"128\": $v4}" &&
	a=$(grep -c "atom.global.gpu.relaxed.add.v4.f32" "$IA.ptx") &&
	json_q out.json ".kernels[0].families.global_atomic == {\"group\": \"atomic\", \"count\": $a, \"returning\": $a, \"by_width\": {\"128\": $a}}" &&
	f=$(grep -l "cp.async.ca.shared.global" "$T"/*/*.ptx | head -1) &&
	tko -q isa --json out.json "$f" &&
	c8=$(grep -c "cp.async.ca.shared.global.*, 0x8," "$f") &&
	c16=$(grep -c "cp.async.cg.shared.global.*, 0x10," "$f") &&
	json_q out.json ".kernels[0].families.global_to_lds.by_width == {\"64\": $c8, \"128\": $c16}"
'

test_expect_success 'PTX source lines follow .loc' '
	tko -q isa --json out.json "$IA.ptx" &&
	awk -f "$AWK/isa-lines.awk" "$IA.ptx" | sort >expect &&
	lines_of out.json >actual &&
	test_cmp expect actual
'

test_expect_success 'num_warps and shared memory come from the Triton JSON' '
	tko -q isa --json out.json "$IA.ptx" &&
	json_q out.json ".kernels[0].resources.num_warps == $(jq .num_warps "$IA.json")" &&
	json_q out.json ".kernels[0].resources.shared_bytes == $(jq .shared "$IA.json")" &&
	json_q out.json ".kernels[0].resource_sources.num_warps == \"triton_json\"" &&
	json_q out.json ".kernels[0].arch == \"sm_90a\""
'

test_expect_success_if nvdisasm 'cubins: SASS ops equal a grep of nvdisasm' '
	for f in $CUBINS; do
		tko -q isa --json out.json "$f" &&
		nvdisasm -g -c "$f" 2>/dev/null | awk -f "$AWK/sass-count.awk" | sort -k2 >expect &&
		ops_of out.json >actual &&
		test_cmp expect actual &&
		json_q out.json ".files[0].via == \"nvdisasm -g -c\"" || { echo "in $f"; return 1; }
	done
'

test_expect_success_if cuobjdump 'cubin registers and local memory are cuobjdump -res-usage' '
	tko -q isa --json out.json "$IA.cubin" &&
	cuobjdump -res-usage "$IA.cubin" >res &&
	r=$(sed -n "s/.*REG:\([0-9]*\).*/\1/p" res) &&
	l=$(sed -n "s/.*LOCAL:\([0-9]*\).*/\1/p" res) &&
	json_q out.json ".kernels[0].resources.registers == $r" &&
	json_q out.json ".kernels[0].resources.local_bytes == $l" &&
	json_q out.json ".kernels[0].arch == \"sm_90\"" &&
	tko -q isa --json out.json "$IA.ptx" &&
	json_q out.json ".kernels[0].resources.registers == $r"
'

test_expect_success_if nvdisasm 'SASS source lines are nvdisasm -g line info' '
	tko -q isa --json out.json "$IA.cubin" &&
	nvdisasm -g -c "$IA.cubin" 2>/dev/null |
		awk "/^\t\/\/## File/ { l = \$NF } \$2 ~ /^(LDG|REDG)/ || \$3 ~ /^(LDG|REDG)/ { n[l]++ } END { for (k in n) print k, n[k] }" |
		sort >expect &&
	jq -r ".kernels[0].source_lines[] | select(.ops | keys | map(test(\"^(LDG|REDG)\")) | any) | \"\(.line) \(.count)\"" out.json |
		sort >actual &&
	test_cmp expect actual
'

test_expect_success_if nvdisasm 'REDG (no return) vs PTX atom (returns) for the same kernel' '
	tko -q isa --json out.json "$IA.cubin" &&
	n=$(nvdisasm -g -c "$IA.cubin" 2>/dev/null | grep -c "REDG.E.ADD.F32x4") &&
	json_q out.json ".kernels[0].families.global_atomic == {\"group\": \"atomic\", \"count\": $n, \"returning\": 0, \"by_width\": {\"128\": $n}}"
'

test_done
