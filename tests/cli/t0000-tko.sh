#!/bin/sh
# The dispatcher: help, version, unknown commands and global options.
. "$(dirname "$0")/lib.sh"

test_expect_success 'tko --version prints the version' '
	tko --version >out &&
	test_grep "^tko [0-9]+\.[0-9]+\.[0-9]+$" out
'

test_expect_success 'tko --help lists the commands' '
	tko --help >out &&
	test_grep "^usage: tko" out &&
	test_grep "^commands:" out
'

test_expect_success 'tko with no command shows usage and fails with 2' '
	test_expect_code 2 tko 2>err &&
	test_grep "^usage: tko" err
'

test_expect_success 'an unknown command is a usage error naming it' '
	test_expect_code 2 tko frobnicate 2>err &&
	test_grep "^tko: .frobnicate. is not a tko command" err
'

test_expect_success 'an unknown global option is a usage error' '
	test_expect_code 2 tko --frob 2>err &&
	test_one_line_error err || test_grep "unknown option" err
'

test_expect_success 'tko help for an unknown command fails' '
	test_expect_code 2 tko help frobnicate 2>err &&
	test_grep "is not a tko command" err
'

test_done
