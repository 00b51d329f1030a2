#!/bin/sh
# bench/apply-models.sh and tests/gpu/apply-ab.sh without a GPU: a fake tko
# and a fake Python log what they are given, and the commands the scripts
# build for each benchmark model are compared with the ones written here by
# hand from the models (neither has a torch.optim optimizer: --step; STEPS).
# The fake tko's capture makes three kernel directories: an Inductor kernel,
# a max-autotune benchmark choice (not tuned) and a hand-written kernel.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

mkdir -p fake &&
cat >fake/tko <<'FAKE'
#!/bin/sh
echo "tko $* STEPS=${STEPS-unset}" >>"$FAKE_LOG"
case $1 in
capture)
	for k in triton_poi_fused_x_0:inductor triton_mm_1:inductor add_kernel:user; do
		mkdir -p "$3/capture/kernels/${k%:*}" &&
		printf '{"kernel": "%s", "kind": "%s"}\n' "${k%:*}" "${k#*:}" >"$3/capture/kernels/${k%:*}/capture.json"
	done ;;
apply)
	[ -n "${FAKE_TKO_SLOW:-}" ] && exec sleep "$FAKE_TKO_SLOW"
	while [ $# -gt 0 ]; do [ "$1" = --json ] && j=$2; shift; done
	echo '{"kernels": [], "ab": {}, "runs": []}' >"$j" ;;
esac
FAKE
cat >fake/py <<'FAKE'
#!/bin/sh
case $1 in
-c) echo "torch fake" ;;
*/match.py | */apply_ab_check.py) echo "py ${1##*/}" >>"$FAKE_LOG"; exec python3 "$@" ;;
*) echo "py $*" >>"$FAKE_LOG" ;;
esac
FAKE
chmod +x fake/tko fake/py

run_models() {
	FAKE_LOG=$PWD/log TKO_PREBUILT=$PWD/fake/tko TKO_PYTHON=$PWD/fake/py OUT=$PWD/out \
		APPLY_AB_WORK=$PWD/work "$@" >stdout.txt 2>&1
}

test_expect_success 'both models: capture, tune (no benchmark choice), apply --ab with --step and STEPS' '
	rm -rf log out work &&
	test_expect_code 1 run_models env APPLY_AB_ARMS=default,applied bash "$SRC_ROOT/bench/apply-models.sh" &&
	W=$PWD/work && P=$PWD/fake/py &&
	for m in model:tests/gpu/model.py:__main__:step:500:100 second:bench/models/second.py:__main__:train_step:250:40; do
		n=${m%%:*} r=${m#*:} && f=$SRC_ROOT/${r%%:*} && r=${r#*:} && c=${r##*:} && r=${r%:*} && fn=${r%:*} && s=${r##*:} &&
		echo "tko --version STEPS=unset" &&
		echo "tko capture --out $W/$n/run -- $P $f STEPS=$c" &&
		echo "py match.py" &&
		echo "tko tune $W/$n/run/capture/kernels/add_kernel $W/$n/run/capture/kernels/triton_poi_fused_x_0 --budget 15 --max-variants 30 --timeout 60 --json $PWD/out/$n/tune.json STEPS=unset" &&
		echo "tko apply --ab 3 --warmup 1 --arms default,applied --step $fn --timeout 240 --write-artifact $W/$n/artifact --json $PWD/out/$n/apply.json $W/$n/run -- $P $f STEPS=$s" &&
		echo "py apply_ab_check.py" || return 1
	done >expect &&
	test_cmp expect log &&
	test_grep "^apply-models: model exit 1$" stdout.txt &&
	test_grep "^apply-models: second exit 1$" stdout.txt &&
	test -f out/model/checks.json && test -f out/second/checks.json
'

test_expect_success 'apply-ab.sh alone: apply_model.py by default, no --step; the knobs reach tko' '
	rm -rf log out work &&
	run_models env APPLY_AB_PHASES="capture ab" APPLY_AB_LOSS_RTOL=0.01 APPLY_AB_CAPTURE_STEPS=7 APPLY_AB_STEPS=9 APPLY_AB_TIMEOUT=33 \
		APPLY_AB_ARMS=default,applied bash "$SRC_ROOT/tests/gpu/apply-ab.sh" &&
	f=$SRC_ROOT/tests/gpu/apply_model.py && W=$PWD/work && P=$PWD/fake/py &&
	{
		echo "tko --version STEPS=unset" &&
		echo "tko capture --out $W/run -- $P $f STEPS=7" &&
		echo "tko apply --ab 3 --warmup 1 --arms default,applied --loss-rtol 0.01 --timeout 33 --write-artifact $W/artifact --json $PWD/out/apply.json $W/run -- $P $f STEPS=9"
	} >expect &&
	test_cmp expect log
'

test_expect_success 'run-proofs.sh apply-models: bench/apply-models.sh on the models APPLY_MODELS names' '
	rm -rf log out work && mkdir tmp &&
	run_models env TMPDIR=$PWD/tmp APPLY_MODELS=second APPLY_AB_ARMS=default,applied \
		bash "$SRC_ROOT/tests/gpu/run-proofs.sh" apply-models:60 &&
	test_grep "^apply-models exit 1 [0-9]+ s$" out/summary.txt &&
	test_grep "^tko capture --out $PWD/work/second/run -- $PWD/fake/py $SRC_ROOT/bench/models/second.py STEPS=40$" log &&
	test_grep "^tko apply --ab 3 .* --step __main__:train_step .* $PWD/work/second/run -- " log &&
	test_grep -v "work/model/" log &&
	tar tzf out/apply-models.tar.gz >tar.txt &&
	test_grep "^apply-models/second/checks.json$" tar.txt
'

test_expect_success 'run-proofs.sh apply-models past its time: the model running packs its runs, no other starts' '
	rm -rf log out work tmp && mkdir tmp &&
	run_models env TMPDIR=$PWD/tmp FAKE_TKO_SLOW=30 APPLY_AB_ARMS=default,applied \
		bash "$SRC_ROOT/tests/gpu/run-proofs.sh" apply-models:3 &&
	test_grep "^apply-models exit 124 [0-9]+ s$" out/summary.txt &&
	test_grep "^apply-models: stopped by a signal after model$" stdout.txt &&
	test_grep -v "work/second/" log &&
	tar tzf out/apply-models.tar.gz >tar.txt &&
	test_grep "^apply-models/model/apply-ab.tar.gz$" tar.txt &&
	tar xzOf out/apply-models.tar.gz apply-models/model/apply-ab.tar.gz | tar tzf - >inner.txt &&
	test_grep "^run/capture/kernels/triton_poi_fused_x_0/capture.json$" inner.txt
'

test_expect_success 'apply-models.sh: an unknown model is refused' '
	test_expect_code 2 run_models bash "$SRC_ROOT/bench/apply-models.sh" third &&
	test_grep "unknown model .third." stdout.txt
'

test_done
