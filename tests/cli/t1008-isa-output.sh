#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa's outputs: the JSON document (schema_version, the fields
# docs/json.md promises, read back with jq), Markdown, where the terminal
# view goes, and atomic writes.
. "$(dirname "$0")/lib.sh"

F=$CORPUS/amd-xcompile/inductor.triton_poi_fused_index_add_zeros_1.gfx942.amdgcn
X=$CORPUS/amd-xcompile

test_expect_success 'the JSON document has the documented shape' '
	tko isa --json out.json "$F" >text &&
	json_q out.json ".schema_version == 1 and .tool == \"tko isa\"" &&
	json_q out.json "keys_unsorted[0:2] == [\"schema_version\", \"tool\"]" &&
	json_q out.json ".files[0] | has(\"path\") and has(\"isa\") and has(\"format\") and has(\"via\") and has(\"source_files\") and has(\"notes\") and has(\"warnings\")" &&
	json_q out.json ".kernels[0] | has(\"name\") and has(\"kind\") and has(\"arch\") and has(\"families\") and has(\"ops\") and has(\"resources\") and has(\"resource_sources\") and has(\"source_lines\") and has(\"findings\") and has(\"unattributed\") and has(\"spill_comments\")" &&
	json_q out.json ".kernels[0].resources | has(\"registers\") and .registers == null" &&
	json_q out.json "[.kernels[0].findings[] | has(\"id\") and has(\"severity\") and has(\"message\") and has(\"evidence\")] | all" &&
	test_grep "^Instruction families" text
'

test_expect_success '--json - writes JSON alone on stdout' '
	tko isa --json - "$F" >out.json &&
	json_q out.json ".schema_version == 1"
'

test_expect_success 'Markdown has a section per kernel with tables' '
	tko isa --md out.md "$X" >/dev/null 2>&1 &&
	test_grep "^# tko isa" out.md &&
	test_grep "^\| symbol \| kind \| isa \|" out.md &&
	test "$(grep -c "^## " out.md)" -eq "$(ls "$X"/*.amdgcn | wc -l)" &&
	test_grep "^### Instruction families" out.md &&
	test_grep "^- line [0-9]+: " out.md
'

test_expect_success 'several kernels give a summary table; --details adds every kernel' '
	tko isa "$X" >out 2>/dev/null &&
	test_grep "^symbol +kind +isa +arch +instr" out &&
	test_grep -v "^Instruction families" out &&
	tko isa --details "$X" >out 2>/dev/null &&
	test "$(grep -c "^Instruction families" out)" -eq "$(ls "$X"/*.amdgcn | wc -l)"
'

test_expect_success 'outputs replace the old file whole and leave no temporary' '
	echo old >out.json &&
	tko isa --json out.json "$F" >/dev/null &&
	json_q out.json ".schema_version == 1" &&
	test "$(ls | grep -c "\.tmp\.")" -eq 0
'

test_expect_success 'JSON numbers are JSON numbers; unknown ones are null' '
	tko isa --json out.json "$CORPUS/dcu/gfx942_triton_sglang_fused_moe_fp8_spill.amdgcn" >/dev/null &&
	json_q out.json ".kernels[0].resources.occupancy | type == \"number\"" &&
	json_q out.json ".kernels[0].resource_sources.occupancy == \"computed\"" &&
	json_q out.json ".kernels[0].resources.code_bytes == null"
'

test_done
