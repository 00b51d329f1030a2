#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko isa: help, usage errors and the command table row.
. "$(dirname "$0")/lib.sh"

test_expect_success 'tko --help lists isa' '
	tko --help >out &&
	test_grep "^    isa " out
'

test_expect_success 'tko isa --help shows the usage and every option' '
	tko isa --help >out &&
	test_grep "^usage: tko isa" out &&
	for o in --kernel --arch --json --md --details; do
		test_grep " $o( |$)" out || return 1
	done
'

test_expect_success 'tko isa --help says the rules it runs and where they are' '
	tko isa --help >out &&
	test_grep "decision rules" out &&
	test_grep "docs/rules.md, \"The ISA rules of" out &&
	test_grep "^## The ISA rules of \`tko isa\`" "$SRC_ROOT/docs/rules.md"
'

test_expect_success 'tko help isa is tko isa --help' '
	tko help isa >out &&
	test_grep "^usage: tko isa" out
'

test_expect_success 'no PATH is a usage error (exit 2)' '
	test_expect_code 2 tko isa 2>err &&
	test_one_line_error err &&
	test_grep "no PATH given" err
'

test_expect_success 'an unknown option is a usage error (exit 2)' '
	test_expect_code 2 tko isa --frob x.s 2>err &&
	test_grep "frob" err
'

test_done
