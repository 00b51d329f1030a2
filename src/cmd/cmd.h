/*
 * The commands of tko. Each lives in src/cmd/<name>.c and only parses its
 * options and wires modules together; logic that grows there moves into a
 * module under src/isa, src/parse, src/analyse or src/report, with a unit
 * test.
 *
 * To add a command "foo":
 *  1. write `int cmd_foo(int argc, const char **argv)` in src/cmd/foo.c;
 *     argv[0] is "foo". Parse options with opts_parse() (util/opts.h), so
 *     "--help" works; return an exit code from cmd/exitcode.h; print
 *     errors with msg_error() (util/msg.h), one line each.
 *  2. declare it below;
 *  3. add a row to the `commands` table in src/tko.c (name, function, one
 *     line of help), in pipeline order;
 *  4. add src/cmd/foo.c to CMD_SRC in the Makefile;
 *  5. add tests/cli/tNNNN-foo.sh and document the command in README.md and
 *     its JSON in docs/json.md.
 */
#ifndef TKO_CMD_H
#define TKO_CMD_H

int cmd_env(int argc, const char **argv);
int cmd_capture(int argc, const char **argv);
int cmd_summarize(int argc, const char **argv);
int cmd_meta(int argc, const char **argv);
int cmd_isa(int argc, const char **argv);
int cmd_collect(int argc, const char **argv);
int cmd_run(int argc, const char **argv);
int cmd_tune(int argc, const char **argv);
int cmd_apply(int argc, const char **argv);
int cmd_profile(int argc, const char **argv);
int cmd_investigate(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);

#endif
