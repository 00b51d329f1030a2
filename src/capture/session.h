/*
 * capture/session: `tko capture` as a library, the RUN's producer. It makes
 * the RUN skeleton, writes env.json, runs the user's unchanged command
 * (from argv, never through a shell) with the environment of
 * capture/childenv.h, shows its stdout and stderr as they come while
 * writing them to log/model.log, keeps a progress line of the kernels
 * captured, holds Ctrl-C and a closed terminal for the command (tko waits
 * and still writes the manifest), and writes tko-run.json
 * (model/manifest.h) after it.
 *
 * It reports on stderr under its own name ("tko capture: ..."), whichever
 * command called it (util/msg.h's msg_*_as); the closing table is the
 * caller's to print (report/capture_text.h), unless --quiet.
 *
 *	struct capture_opts o = CAPTURE_OPTS_INIT;
 *	struct capture_session s;
 *	o.out = "run";
 *	capture_session_init(&s);
 *	status = capture_session_run(&s, &o, argv, argc);
 *	if (s.ran && !msg_settings.quiet)
 *		capture_print_summary(stderr, &s.m);
 *	capture_session_release(&s);
 */
#ifndef TKO_CAPTURE_SESSION_H
#define TKO_CAPTURE_SESSION_H

#include "capture/childenv.h"
#include "model/env.h"
#include "model/manifest.h"

struct capture_opts {
	const char *out;	/* the RUN to create; NULL: tko-run-<time> in the current folder */
	const char *kernels;	/* save the inputs only of kernels matching this regex, or NULL */
	int measure;		/* measure the device copy bandwidth into env.json */
	const char *json;	/* also write tko-run.json to this file ("-": stdout), or NULL */
	struct capture_profile profile;
};
#define CAPTURE_OPTS_INIT { NULL, NULL, 0, NULL, { 0, 0, 0 } }

struct capture_session {
	char *run;		/* the RUN's real path, once made */
	char *pkg;		/* tko's Python package folder */
	struct env_doc env;	/* env.json's document (model/env.h) */
	struct capture_env ce;	/* the command's environment */
	struct run_manifest m;	/* tko-run.json, once the command has ended */
	int ran;		/* m is filled: the command was started (or not found) */
};

void capture_session_init(struct capture_session *s);
/*
 * Everything before the command: the RUN, the Python package, env.json,
 * the command's environment. Returns EXIT_OK, or the status of
 * docs/exit-codes.md after an error line (EXIT_FAIL: no RUN; EXIT_TOOL:
 * no Python package).
 */
int capture_prepare(struct capture_session *s, const struct capture_opts *o);
/*
 * Runs cmd[0..ncmd) (ncmd >= 1) and writes tko-run.json (and
 * o->json). 0 with s->m filled, even when the command failed or was not
 * found (said on stderr); -1 after an error line when it could not be
 * run at all (its log cannot be made).
 */
int capture_run(struct capture_session *s, const struct capture_opts *o,
		const char *const *cmd, int ncmd);
/*
 * Both: the command's exit status (128+N after signal N, 127 when it
 * could not be started), or capture_prepare()'s status, or EXIT_FAIL when
 * capture_run() failed.
 */
int capture_session_run(struct capture_session *s, const struct capture_opts *o,
			const char *const *cmd, int ncmd);
void capture_session_release(struct capture_session *s);

#endif
