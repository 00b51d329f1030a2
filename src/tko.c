/*
 * tko: the command table and nothing else. Global options, "help",
 * "--version" and "did you mean" are handled here once, so no command
 * repeats them (the shape of git.c). See src/cmd/cmd.h for how to add a
 * command.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "exitcode.h"
#include "util/cleanup.h"
#include "util/file.h"
#include "util/msg.h"
#include "util/textout.h"
#include "version.h"
#include "banned.h"

/* In pipeline order: probe, capture, parse, inspect, replay, decide, report. */
static const struct command commands[] = {
	{ "env", cmd_env, 0, NULL,
	  "versions, GPUs, tools and codegen flags of this machine" },
	{ "capture", cmd_capture, CMD_MAKES_RUN, NULL,
	  "run a command with kernel capture on; fill a RUN directory" },
	{ "summarize", cmd_summarize, CMD_RUN_OR_FILES, &rd_need_summarize,
	  "autotune evidence from logs, capture and caches, per kernel" },
	{ "meta", cmd_meta, 0, NULL,
	  "what Triton kernel sources say: signature, hints, device, Inductor metadata" },
	{ "isa", cmd_isa, 0, NULL,
	  "scan AMDGCN / PTX / SASS: instruction families, resources, source lines" },
	{ "collect", cmd_collect, CMD_RUN, &rd_need_any_dir,
	  "gather one kernel's module, IR, ISA, binary and capture" },
	{ "run", cmd_run, CMD_KERNEL_DIRS, NULL,
	  "replay captured kernels: time every config, check outputs" },
	{ "tune", cmd_tune, CMD_KERNEL_DIRS, NULL,
	  "sweep a kernel's configs and source variants, checked; emit the winner" },
	{ "cluster", cmd_cluster, CMD_RUN_OR_FILES, &rd_need_cluster,
	  "tune a RUN across a Slurm cluster: plan, submit, status, gather" },
	{ "apply", cmd_apply, CMD_RUN, &rd_need_any_dir,
	  "run a command with a RUN's tune winners installed; prove they ran; A/B the step" },
	{ "profile", cmd_profile, 0, NULL,
	  "where a profiled step's GPU time went: torch.profiler, rocprof, nsys" },
	{ "report", cmd_report, CMD_RUN_OR_FILES, &rd_need_any_dir,
	  "render the report again from a RUN's analysis: Markdown, JSON, HTML" },
	{ "investigate", cmd_investigate, CMD_RUN_OR_CMD, &rd_need_analyse,
	  "the main job: analyse a RUN (or capture CMD), rank kernels, decide" },
	{ "diff", cmd_diff, CMD_RUN_OR_FILES, &rd_need_diff,
	  "compare two RUNs, kernel directories or ISA/JSON results per kernel" },
	{ NULL, NULL, 0, NULL, NULL },
};

static void list_commands(FILE *fp)
{
	const struct command *c;

	fputs("usage: tko [-q | -v] <command> [<args>]\n"
	      "       tko help <command> | tko <command> --help\n"
	      "       tko --version\n\n"
	      "tko captures, inspects, replays and tunes the Triton kernels of a\n"
	      "torch.compile model on Hygon DCU, AMD ROCm and NVIDIA GPUs.\n\n"
	      "commands:\n", fp);
	for (c = commands; c->name; c++)
		fprintf(fp, "    %-12s %s\n", c->name, c->help);
	fputs("\n    -q, --quiet    no progress lines or notes\n"
	      "    -v, --verbose  show the Inductor/Triton logging tko switches on (capture)\n", fp);
}

static const struct command *find_command(const char *name)
{
	const struct command *c;

	for (c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* Edit distance, for "did you mean"; names are short, so O(n*m) is fine. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (lb >= sizeof(row) / sizeof(row[0]) || la >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

static int unknown_command(const char *name)
{
	const struct command *c;

	msg_error("'%s' is not a tko command (see 'tko --help')", name);
	for (c = commands; c->name; c++)
		if (distance(name, c->name) <= 2 ||
		    !strncmp(name, c->name, strlen(name)))
			fprintf(stderr, "did you mean 'tko %s'?\n", c->name);
	return EXIT_USAGE;
}

static int run_command(const struct command *c, int argc, const char **argv)
{
	msg_setup(c->name);
	cmd_current = c;
	return c->fn(argc, argv);
}

/*
 * Standard output goes through a stream that escapes control characters
 * (util/textout.h), whatever the command prints.
 */
static FILE *plain_stdout;

static void setup_stdout(void)
{
	FILE *fp = text_fdopen(1);

	plain_stdout = stdout;
	if (fp)
		stdout = fp;
}

/*
 * A write to standard output that failed (a full disk, a closed pipe when
 * SIGPIPE is ignored) fails the command, as git does after every command:
 * output is buffered, so most failures only show here.
 */
static int finish_stdout(int ret)
{
	int failed = fflush(stdout) != 0 || ferror(stdout), e = errno;

	if (stdout != plain_stdout) {
		if (fclose(stdout) != 0 && !failed) {
			failed = 1;
			e = errno;
		}
		stdout = plain_stdout;
	}
	/* A command that failed has said why in its one line already. */
	if (!failed || ret)
		return ret;
	msg_error("cannot write to standard output: %s", strerror(e ? e : EIO));
	return EXIT_FAIL;
}

static int tko_main(int argc, const char **argv)
{
	const struct command *c;
	int i = 1;

	msg_setup("tko");
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			msg_settings.quiet = 1;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			msg_settings.verbose = 1;
		} else if (!strcmp(argv[i], "--version")) {
			printf("tko %s\n", TKO_VERSION);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			list_commands(stdout);
			return EXIT_OK;
		} else {
			msg_error("unknown option '%s' (see 'tko --help')", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		list_commands(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[i], "version")) {
		printf("tko %s\n", TKO_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[i], "help")) {
		const char *help_argv[] = { NULL, "--help", NULL };

		if (i + 1 >= argc) {
			list_commands(stdout);
			return EXIT_OK;
		}
		c = find_command(argv[i + 1]);
		if (!c)
			return unknown_command(argv[i + 1]);
		help_argv[0] = c->name;
		return run_command(c, 2, help_argv);
	}
	c = find_command(argv[i]);
	if (!c)
		return unknown_command(argv[i]);
	return run_command(c, argc - i, argv + i);
}

int main(int argc, const char **argv)
{
	setup_stdout();
	cleanup_install();
	file_track_inputs(1);
	return finish_stdout(tko_main(argc, argv));
}
