#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa on the instruction families the brief's newer scanner knows:
# those upstream LLVM assembles for a real target (gfx950 v_cvt_scalef32_*,
# gfx1250 tensor_load_to_lds / tensor_store_from_lds / v_cvt_scale_*) are
# counted; Hygon-only ones are neither counted nor mistaken for others
# (ds_scale_copy_* is no LDS atomic, s_waitcnt_vbcnt no s_waitcnt).
# tests/data/isa/README.md says where each line comes from; the counts
# below are read off those files by hand; the case folders
# tests/isa/amdgcn/newer-* (make isa) cross-check every family against
# the awk rules of isa-families.awk.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib-isa.sh"

D=$SRC_ROOT/tests/data/isa

test_expect_success 'gfx950: two block-scaled conversions, ordinary loads around them' '
	tko -q isa --json out.json "$D/gfx950-scaled-cvt.s" &&
	json_q out.json ".kernels[0].arch == \"gfx950\"" &&
	json_q out.json ".kernels[0].families.scaled_cvt | .count == 2 and .group == \"matrix\"" &&
	json_q out.json ".kernels[0].ops | .v_cvt_scalef32_f16_fp8 == 1 and .v_cvt_scalef32_pk_bf16_fp8 == 1" &&
	json_q out.json ".kernels[0].ops.v_cvt_f32_f16 == null"
'

test_expect_success 'gfx1250: three tensor copies and one scaled conversion' '
	tko -q isa --json out.json "$D/gfx1250-tensor.s" &&
	json_q out.json ".kernels[0].families.bulk_copy.count == 3" &&
	json_q out.json ".kernels[0].ops | .tensor_load_to_lds == 2 and .tensor_store_from_lds == 1" &&
	json_q out.json ".kernels[0].families.scaled_cvt.count == 1"
'

test_expect_success 'gfx946: only the real LDS atomic and the real s_waitcnt count' '
	tko -q isa --json out.json "$D/gfx946-hcu-only.s" &&
	json_q out.json ".kernels[0].families | keys == [\"lds_atomic\", \"waitcnt\"]" &&
	json_q out.json ".kernels[0].families.lds_atomic.count == 1" &&
	json_q out.json ".kernels[0].families.waitcnt | .count == 1 and .by_counter == {lgkmcnt: 1}" &&
	json_q out.json ".kernels[0].ops | has(\"ds_scale_copy_ds2buf\") or has(\"s_waitcnt_vbcnt\") | not"
'

test_done
