#!/bin/sh
# shellcheck disable=SC2016,SC2034 # test bodies are single-quoted, eval'd by lib.sh
# tko report: the report rendered again from a RUN's analysis, each format
# to a file or stdout; a missing or broken analysis is one line naming it.
. "$(dirname "$0")/lib.sh"

EXAMPLE=$SRC_ROOT/examples/h200-run

test_expect_success 'setup: investigate a copy of the example RUN' '
	cp -R "$EXAMPLE" run &&
	tko -q investigate run >/dev/null
'

test_expect_success '--help' '
	tko report --help >out &&
	test_grep "^usage: tko report RUN\|ANALYSIS.json" out
'

test_expect_success 'one format to stdout, the others to files' '
	tko report run --md - >md &&
	test_grep "^# tko report: run$" md &&
	tko report run --json j.json --html h.html >out &&
	json_q j.json ".tool == \"tko report\" and (.kernels | length) == 7" &&
	test_grep "^<!DOCTYPE html>" h.html &&
	test_grep "^7 kernels the model ran" out
'

test_expect_success 'a loose analysis file needs a format option' '
	tko report run/analysis/kernels.json --md m.md &&
	test_grep "^## " m.md &&
	test_expect_code 1 tko report run/analysis/kernels.json 2>err && test_one_line_error err
'

test_expect_success 'a RUN without analysis, and broken analysis files' '
	mkdir norun &&
	test_expect_code 1 tko report norun 2>err && test_one_line_error err &&
	test_grep "run .tko investigate norun. first" err &&
	: >empty.json &&
	test_expect_code 1 tko report empty.json --md x 2>err && test_one_line_error err &&
	test_grep "empty.json. is empty" err &&
	head -c 500 run/analysis/kernels.json >cut.json &&
	test_expect_code 1 tko report cut.json --md x 2>err && test_one_line_error err &&
	test_grep "cannot parse .cut.json." err &&
	jq ".schema_version = 7" run/analysis/kernels.json >v7.json &&
	test_expect_code 1 tko report v7.json --md x 2>err && test_one_line_error err &&
	test_grep "schema_version 7" err &&
	test_grep -v "writes it anew" err &&
	jq ".schema_version = 1" run/analysis/kernels.json >v1.json &&
	test_expect_code 1 tko report v1.json --md x 2>err && test_one_line_error err &&
	test_grep "schema_version 1; this tko reads 2 \(tko investigate on the RUN writes it anew\)" err &&
	jq ".kernels[2].launches = \"many\"" run/analysis/kernels.json >type.json &&
	test_expect_code 1 tko report type.json --md x 2>err && test_one_line_error err &&
	test_grep "kernels\[2\]\.launches: not a count" err &&
	printf "\000\001\002" >bin.json &&
	test_expect_code 1 tko report bin.json --md x 2>err && test_one_line_error err &&
	test ! -e x
'

test_expect_success 'an unwritable output leaves nothing behind' '
	test_expect_code 1 tko report run --md no/such/dir/r.md 2>err && test_one_line_error err
'

test_done
