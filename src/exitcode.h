/*
 * tko's exit statuses; docs/exit-codes.md is the user-facing list and must
 * change with this file.
 */
#ifndef TKO_EXITCODE_H
#define TKO_EXITCODE_H

enum tko_exit {
	EXIT_OK = 0,		/* done */
	EXIT_FAIL = 1,		/* bad input or a failed step; one line on stderr says which */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_TOOL = 3,		/* an external tool (cuobjdump, python, ...) is missing */
	EXIT_NOMATCH = 4,	/* --kernel matched no kernel, or several */
	EXIT_CHILD = 5,		/* a child process (the user's command, a replay) failed */
	EXIT_TIMEOUT = 124,	/* a child process ran past its time limit (as timeout(1)) */
};

#endif
