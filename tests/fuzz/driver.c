/*
 * The fuzz targets' plain main(), for `make check`: replays inputs through
 * LLVMFuzzerTestOneInput without a fuzzing engine (the pattern of zstd's
 * tests/fuzz/regression_driver.c).
 *
 *	fuzz-X [-t SECONDS] PATH...
 *
 * A PATH is a file, a directory (every file under it, sorted) or "-" (a
 * list of paths on standard input, one a line, as tests/fuzz/seeds.sh
 * prints). Each input is copied into a buffer of exactly its size, so an
 * over-read is caught by ASan or valgrind rather than hidden by mapped
 * page slack. An input that runs past -t seconds (default 20) is a hang:
 * the driver names it and exits 124. A crash names the input on stderr
 * before the signal ends the process.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/mem.h"
#include "util/opts.h"
#include "util/walk.h"
#include "banned.h"

/* The input being run, for the hang and crash messages. */
static const char *current;

/* Names the input on stderr with async-signal-safe calls only. */
static void say_input(const char *what)
{
	if (write(2, what, strlen(what)) < 0 || write(2, current, strlen(current)) < 0 ||
	    write(2, "\n", 1) < 0)
		_exit(1);
}

static void on_alarm(int sig)
{
	(void)sig;
	say_input("fuzz driver: hang on input ");
	_exit(124);
}

/* A crash: name the input, then die of the same signal. */
static void on_fatal(int sig)
{
	say_input("fuzz driver: crash on input ");
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Catches the fatal signals nobody else handles: under ASan, SIGSEGV is
 * its own (it prints the report), and its abort_on_error ends in SIGABRT.
 */
static void catch_fatal(void)
{
	static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			signal(sigs[i], on_fatal);
	}
}

static int run_one(const char *path, unsigned timeout)
{
	struct buf data = BUF_INIT, err = BUF_INIT;
	uint8_t *copy;
	size_t len;

	if (file_read(path, 0, &data, &err) < 0) {
		fprintf(stderr, "fuzz driver: %s\n", err.buf);
		buf_release(&data);
		buf_release(&err);
		return -1;
	}
	len = data.len;	/* buf_release() zeroes data.len */
	copy = xmalloc(len ? len : 1);
	memcpy(copy, data.buf, len);
	buf_release(&data);
	current = path;
	alarm(timeout);
	LLVMFuzzerTestOneInput(copy, len);
	alarm(0);
	free(copy);
	buf_release(&err);
	return 0;
}

static int run_path(const char *path, unsigned timeout, size_t *count)
{
	struct strlist files = STRLIST_INIT;
	struct buf err = BUF_INIT;
	size_t i;
	int ret = 0;

	if (!is_dir(path)) {
		*count += 1;
		return run_one(path, timeout);
	}
	if (walk_files(path, &files, &err) < 0) {
		fprintf(stderr, "fuzz driver: %s\n", err.buf);
		ret = -1;
	}
	for (i = 0; !ret && i < files.nr; i++, *count += 1)
		ret = run_one(files.v[i], timeout);
	walk_release(&files);
	buf_release(&err);
	return ret;
}

static int run_stdin(unsigned timeout, size_t *count)
{
	struct buf line = BUF_INIT;
	int c, ret = 0;

	while (!ret && (c = getchar()) != EOF) {
		if (c != '\n') {
			buf_addch(&line, (char)c);
			continue;
		}
		if (line.len)
			ret = run_path(line.buf, timeout, count);
		buf_reset(&line);
	}
	if (!ret && line.len)
		ret = run_path(line.buf, timeout, count);
	buf_release(&line);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned timeout = 20;
	size_t count = 0;
	int i = 1, ret = 0;

	if (argc > 2 && !strcmp(argv[1], "-t")) {
		timeout = (unsigned)strtoul(argv[2], NULL, 10);
		i = 3;
	}
	signal(SIGALRM, on_alarm);
	catch_fatal();
	for (; !ret && i < argc; i++)
		ret = !strcmp(argv[i], "-") ? run_stdin(timeout, &count) :
		      run_path(argv[i], timeout, &count);
	if (ret)
		return 1;
	fprintf(stderr, "fuzz driver: %zu inputs replayed\n", count);
	return 0;
}
