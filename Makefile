# tko's build.
#
#   make              build build/tko
#   make check        every test suite: C unit tests, CLI tests, Python tests
#   make asan         the same suites against an ASan+UBSan build (build-asan/)
#   make valgrind     unit tests, fuzz replay and the CLI scripts of tests/cli/valgrind.list
#                     under valgrind (memcheck, leaks are errors); valgrind-all: every script
#   make lint         shellcheck over the shell scripts; no tracked file points outside the repo;
#                     no source folder includes from a folder above it (tests/lint/includes.sh)
#   make rules-doc    docs/rules.md's rule index and limits from the rules table
#   make isa          the ISA scanner case folders of tests/isa against their awk counts
#                     (check and asan run them as tests/cli/t1012-isa-cases.sh)
#   make golden-check the golden suite: every command's output against tests/golden (check
#                     and asan run it as tests/cli/t0100-golden.sh); make golden records it again
#   make fuzz         the libFuzzer targets of tests/fuzz (clang, ASan+UBSan, build-fuzz/)
#   make fuzz-smoke   each fuzz target for a few seconds (bench/fuzz runs them for minutes)
#
# Sources are listed explicitly, one module group per variable, so that a
# new file is a visible edit (git's BUILTIN_OBJS habit).

CC ?= cc
PKG_CONFIG ?= pkg-config
PYTHON ?= .venv/bin/python
CORPUS ?= $(CURDIR)/tests/corpus

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wpointer-arith -Wformat=2 -Wno-format-nonliteral
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -Isrc \
             $(shell $(PKG_CONFIG) --cflags jansson zlib sqlite3)
LIBS = $(shell $(PKG_CONFIG) --libs jansson zlib sqlite3) -lm
TEST_LIBS = $(shell $(PKG_CONFIG) --libs cmocka)

ifeq ($(FUZZ),1)
CC = clang
BUILD ?= build-fuzz
CFLAGS = -O1 -g
ALL_CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
LDFLAGS += -fsanitize=fuzzer,address,undefined
FUZZ_MAIN =
else ifeq ($(SANITIZE),1)
BUILD ?= build-asan
ALL_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
else
BUILD ?= build
endif

UTIL_SRC = \
	src/util/buf.c \
	src/util/cleanup.c \
	src/util/file.c \
	src/util/jcheck.c \
	src/util/lines.c \
	src/util/median.c \
	src/util/mem.c \
	src/util/msg.c \
	src/util/opts.c \
	src/util/outdir.c \
	src/util/plural.c \
	src/util/sha256.c \
	src/util/spawn.c \
	src/util/strmap.c \
	src/util/table.c \
	src/util/textout.c \
	src/util/walk.c

# issue 18, P5: the one JSON writer, reading and typed accessors, struct tables
JSON_SRC = \
	src/json/jsonio.c \
	src/json/jsonw.c \
	src/json/reflect.c

# issue 18, P2: the one target table (arch names, ISA and tune facts, HCU rows)
TARGET_SRC = \
	src/target/target.c

MODEL_SRC = \
	src/model/analysis_desc.c \
	src/model/analysis_store.c \
	src/model/apply_artifact.c \
	src/model/apply_doc.c \
	src/model/apply_events.c \
	src/model/apply_left.c \
	src/model/apply_plan.c \
	src/model/capture.c \
	src/model/capture_events.c \
	src/model/cluster.c \
	src/model/collect.c \
	src/model/diff.c \
	src/model/env.c \
	src/model/errsig.c \
	src/model/manifest.c \
	src/model/names.c \
	src/model/replay.c \
	src/model/step_report.c \
	src/model/traffic.c \
	src/model/tune.c

RUNDIR_SRC = \
	src/rundir/cachematch.c \
	src/rundir/collect.c \
	src/rundir/index.c \
	src/rundir/layout.c

# issue 18, P2: finding Python and the long-lived JSON-lines workers
PY_SRC = \
	src/py/pyenv.c \
	src/py/worker.c

# issue 18, P2/P5: the machine's probe, its tool-output readers, the peak resolver
ENV_SRC = \
	src/env/fields.c \
	src/env/gpu.c \
	src/env/hcu.c \
	src/env/peak.c \
	src/env/probe.c \
	src/env/rocminfo.c \
	src/env/smi.c \
	src/env/toolver.c

# issue 18, P4: the capture library (the RUN's producer)
CAPTURE_SRC = \
	src/capture/childenv.c \
	src/capture/session.c \
	src/capture/summary.c

# issue 18, P5: the replay library (tko run) and its store
RUN_SRC = \
	src/run/replay.c \
	src/run/store.c

ISA_SRC = \
	src/isa/amdgcn.c \
	src/isa/amdgcn_dir.c \
	src/isa/amdgcn_meta.c \
	src/isa/amdgcn_ops.c \
	src/isa/asmcond.c \
	src/isa/detect.c \
	src/isa/facts.c \
	src/isa/family.c \
	src/isa/ptx.c \
	src/isa/result.c \
	src/isa/sass.c \
	src/isa/scan.c \
	src/isa/tok.c \
	src/isa/tools.c

PARSE_SRC = \
	src/parse/autotune.c \
	src/parse/autotune_launch.c \
	src/parse/autotune_twins.c \
	src/parse/best_config.c \
	src/parse/capture_events.c \
	src/parse/config_json.c \
	src/parse/fx_graph.c \
	src/parse/glog.c \
	src/parse/inductor_log.c \
	src/parse/inductor_wrapper.c \
	src/parse/kernel_uses.c \
	src/parse/logscan.c \
	src/parse/max_autotune.c \
	src/parse/meta.c \
	src/parse/output_code.c \
	src/parse/pylex.c \
	src/parse/pylit.c \
	src/parse/pylit_json.c \
	src/parse/pylit_scalar.c \
	src/parse/pysrc.c \
	src/parse/seed_log.c \
	src/parse/summarize.c \
	src/parse/tconfig.c \
	src/parse/tl_addr.c \
	src/parse/tl_uses.c \
	src/parse/triton_meta.c \
	src/parse/triton_print.c \
	src/parse/wrapper_calls.c

PROFILE_SRC = \
	src/profile/attrib.c \
	src/profile/chrome.c \
	src/profile/csv.c \
	src/profile/detect.c \
	src/profile/input.c \
	src/profile/jscan.c \
	src/profile/model.c \
	src/profile/nsys.c \
	src/profile/rocprof.c \
	src/profile/tojson.c

ANALYSE_SRC = \
	src/analyse/analysis.c \
	src/analyse/collect_logs.c \
	src/analyse/evidence.c \
	src/analyse/gather.c \
	src/analyse/isa_view.c \
	src/analyse/join.c \
	src/analyse/measured.c \
	src/analyse/share.c \
	src/analyse/stepprof.c \
	src/analyse/tcache.c

DECIDE_SRC = \
	src/decide/decide.c \
	src/decide/gaps.c \
	src/decide/isa_scope.c \
	src/decide/rules.c \
	src/decide/rules_addr.c \
	src/decide/rules_kernel.c \
	src/decide/rules_measured.c \
	src/decide/rules_value.c \
	src/decide/steprules.c \
	src/decide/tune_pick.c

TUNE_SRC = \
	src/tune/ci.c \
	src/tune/confirm.c \
	src/tune/cost.c \
	src/tune/dispatch.c \
	src/tune/exit.c \
	src/tune/gpus.c \
	src/tune/grid.c \
	src/tune/isasum.c \
	src/tune/kernel.c \
	src/tune/kindplan.c \
	src/tune/output.c \
	src/tune/plan.c \
	src/tune/pool.c \
	src/tune/request.c \
	src/tune/result.c \
	src/tune/rewrite.c \
	src/tune/twopass.c \
	src/tune/space.c \
	src/tune/sweep.c \
	src/tune/tune.c \
	src/tune/variant.c \
	src/tune/winner.c \
	src/tune/workspace.c

APPLY_SRC = \
	src/apply/ab.c \
	src/apply/artifact.c \
	src/apply/drop.c \
	src/apply/keepoff.c \
	src/apply/lookup.c \
	src/apply/loss.c \
	src/apply/plan.c \
	src/apply/kwindow.c \
	src/apply/predict.c \
	src/apply/pyqual.c \
	src/apply/recommend.c \
	src/apply/proof.c \
	src/apply/run.c \
	src/apply/steps.c \
	src/apply/tmplkey.c

CLUSTER_SRC = \
	src/cluster/config.c \
	src/cluster/gather.c \
	src/cluster/kernels.c \
	src/cluster/manifest.c \
	src/cluster/plan.c \
	src/cluster/slurm.c \
	src/cluster/status.c \
	src/cluster/submit.c \
	src/cluster/task.c

REPORT_SRC = \
	src/report/apply_out.c \
	src/report/apply_text.c \
	src/report/autotune_text.c \
	src/report/capture_text.c \
	src/report/cluster_text.c \
	src/report/collect_text.c \
	src/report/diff.c \
	src/report/diff_out.c \
	src/report/env_text.c \
	src/report/html.c \
	src/report/isa_json.c \
	src/report/isa_text.c \
	src/report/json.c \
	src/report/markdown.c \
	src/report/meta_json.c \
	src/report/meta_text.c \
	src/report/profile_text.c \
	src/report/raw_docs.c \
	src/report/render.c \
	src/report/replay_text.c \
	src/report/rtext.c \
	src/report/stepview.c \
	src/report/summarize_json.c \
	src/report/summary.c \
	src/report/svg.c \
	src/report/tune_text.c

CMD_SRC = \
	src/cmd/apply.c \
	src/cmd/capture.c \
	src/cmd/cluster.c \
	src/cmd/cmd.c \
	src/cmd/collect.c \
	src/cmd/diff.c \
	src/cmd/env.c \
	src/cmd/isa.c \
	src/cmd/investigate.c \
	src/cmd/meta.c \
	src/cmd/profile.c \
	src/cmd/report.c \
	src/cmd/run.c \
	src/cmd/summarize.c \
	src/cmd/tune.c

LIB_SRC = $(UTIL_SRC) $(JSON_SRC) $(TARGET_SRC) $(MODEL_SRC) $(RUNDIR_SRC) $(PY_SRC) $(ENV_SRC) \
	$(CAPTURE_SRC) $(RUN_SRC) $(ISA_SRC) $(PARSE_SRC) $(PROFILE_SRC) $(ANALYSE_SRC) $(DECIDE_SRC) \
	$(TUNE_SRC) $(APPLY_SRC) $(CLUSTER_SRC) $(REPORT_SRC) $(CMD_SRC)
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/src/tko.o

# One libFuzzer target per parser; without FUZZ=1 each links driver.c's
# main() instead, which replays seeds and saved crashers in make check.
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_NAMES = $(FUZZ_SRC:tests/fuzz/%.c=%)
FUZZ_BIN = $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/%)
FUZZ_MAIN ?= $(BUILD)/tests/fuzz/driver.o
FUZZ_SUPPORT = $(BUILD)/tests/fuzz/support.o $(BUILD)/tests/fuzz/support-profile.o

UNIT_SRC = $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)

TKO = $(BUILD)/tko

all: $(TKO)

$(TKO): $(MAIN_OBJ) $(BUILD)/libtko.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libtko.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/unit/%: tests/unit/%.c $(BUILD)/libtko.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -MMD -MP $(LDFLAGS) -o $@ $< $(BUILD)/libtko.a $(LIBS) $(TEST_LIBS)

$(BUILD)/tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_SUPPORT) $(FUZZ_MAIN) $(BUILD)/libtko.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(LDFLAGS) -o $@ $< $(FUZZ_SUPPORT) $(FUZZ_MAIN) \
		$(BUILD)/libtko.a $(LIBS)

# Suites run scripts two at a time where they can (prove -j; script/test
# also runs whole suites side by side).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PROVE = prove -j$(JOBS) -e /bin/sh
VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
# tests/cli/valgrind.list says which CLI scripts run under valgrind, and why.
VALGRIND_CLI = $(addprefix tests/cli/,$(shell sed -n 's/^\(t[0-9][^ ]*\.sh\).*/\1/p' tests/cli/valgrind.list))

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do \
		echo "== $$t"; \
		CORPUS=$(CORPUS) TESTDATA=$(CURDIR)/tests/data $$t; \
	done

cli: $(TKO)
	TKO=$(abspath $(TKO)) CORPUS=$(CORPUS) $(PROVE) tests/cli/t*.sh

python: $(TKO)
	@test -x $(PYTHON) || { echo "no $(PYTHON): run script/bootstrap first"; exit 1; }
	TKO=$(abspath $(TKO)) CORPUS=$(CORPUS) \
		$(PYTHON) -m pytest -q tests/python

# tests/golden/README.md. golden rewrites the expected outputs: review
# `git diff tests/golden` like code.
golden: $(TKO)
	TKO=$(abspath $(TKO)) CORPUS=$(CORPUS) tests/golden/run.sh --update

# docs/rules.md's generated blocks (rule index, limits) from src/decide/rules.c;
# tests/unit/test-rules.c fails while they differ.
rules-doc: $(BUILD)/tests/unit/test-rules
	$(BUILD)/tests/unit/test-rules --write-docs docs/rules.md

golden-check: $(TKO)
	TKO=$(abspath $(TKO)) CORPUS=$(CORPUS) tests/golden/run.sh

# tests/isa/README.md: a case folder per scanned file, counts from awk.
isa: $(TKO)
	TKO=$(abspath $(TKO)) CORPUS=$(CORPUS) tests/isa/run.sh

fuzz-replay: $(FUZZ_BIN)
	CORPUS=$(CORPUS) tests/fuzz/replay.sh $(BUILD)/tests/fuzz $(FUZZ_NAMES)

# Everything the suites run, built.
test-bin: $(TKO) $(UNIT_BIN) $(FUZZ_BIN)

check: unit cli fuzz-replay python

asan:
	$(MAKE) SANITIZE=1 unit cli fuzz-replay python

fuzz:
	$(MAKE) FUZZ=1 fuzz-bin

fuzz-bin: $(FUZZ_BIN)

fuzz-smoke: fuzz
	CORPUS=$(CORPUS) bench/fuzz -t 5 -n

# One target at a time: script/test runs it beside other suites.
fuzz-smoke-run:
	CORPUS=$(CORPUS) bench/fuzz -t 3 -j 1 -n

valgrind: valgrind-unit valgrind-cli valgrind-fuzz

valgrind-unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do \
		echo "== valgrind $$t"; \
		CORPUS=$(CORPUS) TESTDATA=$(CURDIR)/tests/data $(VALGRIND) $$t; \
	done

valgrind-cli: $(TKO)
	TKO_VALGRIND=1 TKO=$(abspath $(TKO)) CORPUS=$(CORPUS) $(PROVE) $(VALGRIND_CLI)

# Every CLI script under valgrind (about 18 minutes of CPU, measured 2026-12-05).
valgrind-all: valgrind-unit valgrind-fuzz $(TKO)
	TKO_VALGRIND=1 TKO=$(abspath $(TKO)) CORPUS=$(CORPUS) $(PROVE) tests/cli/t*.sh

valgrind-fuzz: $(FUZZ_BIN)
	FUZZ_VALGRIND=1 CORPUS=$(CORPUS) tests/fuzz/replay.sh \
		$(BUILD)/tests/fuzz $(FUZZ_NAMES)

# script/test runs `make -j3 -O suites` on two cores: the three builds and
# the suites side by side, each suite as soon as its build is done, the
# long ones first, each printing its wall and CPU time (tests/timed.sh).
# fuzz-smoke goes first: it is bound by its 3 s a target of wall time, not
# by CPU, hence one job more than cores. The Python
# suite runs once, against the ASan build: it tests the Python package, and
# the tko it calls is checked harder there.
SUITES = fuzz-smoke asan-cli valgrind-cli cli asan-python valgrind-unit valgrind-fuzz \
	asan-unit unit lint
SUITE_build = -s test-bin
SUITE_build-asan = -s SANITIZE=1 test-bin
SUITE_build-fuzz = -s fuzz
SUITE_valgrind-cli = valgrind-cli
SUITE_fuzz-smoke = fuzz-smoke-run
SUITE_asan-cli = SANITIZE=1 cli
SUITE_cli = cli
SUITE_asan-python = SANITIZE=1 python
SUITE_valgrind-unit = valgrind-unit
SUITE_valgrind-fuzz = valgrind-fuzz
SUITE_asan-unit = SANITIZE=1 unit fuzz-replay
SUITE_unit = unit fuzz-replay
SUITE_lint = -s lint

suites: $(SUITES:%=suite-%)

suite-valgrind-cli suite-cli suite-valgrind-unit suite-valgrind-fuzz suite-unit: suite-build
suite-asan-cli suite-asan-python suite-asan-unit: suite-build-asan
suite-fuzz-smoke: suite-build-fuzz

suite-%:
	@tests/timed.sh $* $(MAKE) --no-print-directory $(SUITE_$*)

lint:
	shellcheck -s sh -x -e SC1091 tests/*.sh tests/cli/*.sh tests/slurm/*.sh tests/fuzz/*.sh script/* bench/fuzz bench/valgrind-pick .ci/run \
		tests/isa/*.sh tests/golden/*.sh tests/golden/fixtures/*.sh tests/golden/fixtures/probe-ok tests/golden/*/*/cmd \
		tests/lint/*.sh
	shellcheck -s bash -x tests/gpu/*.sh bench/*.sh
	tests/lint-paths.sh
	tests/lint/test-includes.sh

# A statically linked tko for a machine without jansson, zlib or sqlite3
# headers and libraries (the GPU machines: carry build-static/ there).
static:
	$(MAKE) BUILD=build-static LDFLAGS=-static \
		LIBS="-Wl,-Bstatic -ljansson -lz -lsqlite3 -lm" build-static/tko

clean:
	rm -rf build build-asan build-fuzz build-static

.PHONY: all static unit cli python check asan valgrind lint clean fuzz fuzz-bin fuzz-replay fuzz-smoke golden golden-check isa rules-doc \
	fuzz-smoke-run test-bin valgrind-unit valgrind-cli valgrind-all valgrind-fuzz suites
# (not the suite-% targets: make applies no pattern rule to a phony target)

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_BIN:=.d) $(FUZZ_BIN:=.d) $(FUZZ_SUPPORT:.o=.d)
