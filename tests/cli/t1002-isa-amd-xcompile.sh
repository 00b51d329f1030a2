#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on every AMDGCN file Triton 3.6 wrote in corpus/amd-xcompile
# (gfx90a, gfx942, gfx950, gfx1100; add_scale and the Inductor kernels):
# resources against the metadata and Kernel info text, findings against
# greps. Their ops, families, widths and source lines are the case folders
# tests/isa/amdgcn/xcompile-* (make isa).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"


test_expect_success 'resources equal the numbers in the text, per arch' '
	for f in "$CORPUS"/amd-xcompile/*.amdgcn; do
		tko -q isa --json out.json "$f" &&
		v=$(awk "/^    \.vgpr_count:/ { print \$2 }" "$f") &&
		s=$(awk "/^    \.sgpr_count:/ { print \$2 }" "$f") &&
		l=$(awk "/^    \.group_segment_fixed_size:/ { print \$2 }" "$f") &&
		o=$(sed -n "s/^; Occupancy: //p" "$f") &&
		a=$(sed -n "s/.*amdgcn_target \"amdgcn-amd-amdhsa--\([a-z0-9]*\).*/\1/p" "$f") &&
		json_q out.json ".kernels[0].arch == \"$a\"" &&
		json_q out.json ".kernels[0].resources.vgprs == $v" &&
		json_q out.json ".kernels[0].resources.sgprs == $s" &&
		json_q out.json ".kernels[0].resources.lds_bytes == $l" &&
		json_q out.json ".kernels[0].resources.occupancy == $o" || { echo "in $f"; return 1; }
	done
'

test_expect_success 'gfx1100 is wave32 and its AGPR lines are absent' '
	f=$CORPUS/amd-xcompile/add_scale.gfx1100.buf0.amdgcn &&
	tko -q isa --json out.json "$f" &&
	grep -q "amdhsa_wavefront_size32 1" "$f" &&
	json_q out.json ".kernels[0].resources.wavefront_size == 32" &&
	json_q out.json ".kernels[0].families.global_load.by_width[\"128\"] == $(grep -c global_load_b128 "$f")"
'

test_expect_success 'the buffer_ops finding says present exactly where grep finds buffer ops' '
	for f in "$CORPUS"/amd-xcompile/*.amdgcn; do
		tko -q isa --json out.json "$f" &&
		n=$(grep -cE "^[[:space:]]+buffer_(load|store|atomic)_" "$f" || :) &&
		if test "$n" -gt 0; then want="buffer ops in use"; else want="no buffer ops"; fi &&
		json_q out.json ".kernels[0].findings[] | select(.id == \"buffer_ops\") | .message | startswith(\"$want\")" &&
		json_q out.json "([.kernels[0].families | (.buffer_load, .buffer_store, .buffer_atomic) | .count // 0] | add) == $n" ||
			{ echo "in $f"; return 1; }
	done
'

test_expect_success 'the MFMA kernels count their matrix instructions' '
	f=$CORPUS/amd-xcompile/inductor.triton_mm.gfx942.amdgcn &&
	tko -q isa --json out.json "$f" &&
	n=$(grep -cE "^[[:space:]]+v_mfma_" "$f") && test "$n" -gt 0 &&
	json_q out.json ".kernels[0].families.mfma.count == $n" &&
	json_q out.json ".kernels[0].resources.agprs == $(awk "/\.agpr_count:/ { print \$NF }" "$f")"
'

test_done
