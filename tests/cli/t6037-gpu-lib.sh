#!/bin/sh
# tests/gpu/lib.sh, the prologue every GPU script sources, without a GPU:
#   - the tko it picks: $TKO_PREBUILT, else build/tko, else build-static/tko
#     (a fresh device machine: no build/, the static binary carried in),
#     always as an absolute path; none at all is said, not run;
#   - tests/gpu/apply-ab.sh, copied into a tree that has only build-static/,
#     runs that binary;
#   - the log gpu_log tees keeps the lines printed after timeout(1)'s SIGTERM
#     (which reaches the whole process group, the tee too): the pack hook's
#     last line is in the file and on stdout (bash's own "Terminated" for
#     the killed sleep left aside);
#   - gpu_on_exit's hook runs however the script ends (its end, exit N,
#     set -u, after the signal hook), its lines in the log, the status kept;
#   - a step under timeout --foreground is stopped by the signal around the
#     script, so the pack hook runs at once; every inner timeout is such;
#   - no GPU script keeps a copy of the prologue.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

# tree/: a repository root with lib.sh and a script that prints what it set
mkdir -p tree/tests/gpu &&
cp "$SRC_ROOT/tests/gpu/lib.sh" "$SRC_ROOT/tests/gpu/apply-ab.sh" tree/tests/gpu/ &&
cat >tree/tests/gpu/show.sh <<'EOF' &&
. "$(dirname "$0")/lib.sh"
echo "ROOT=$ROOT"
echo "TKO=$TKO"
echo "TKO_PYTHON=$TKO_PYTHON"
gpu_tko_version
EOF
mkdir -p fake &&
cat >fake/tko <<'EOF' &&
#!/bin/sh
echo "tko fake ${0%/tko}"
EOF
chmod +x fake/tko

# fake_tko DIR: a tko in DIR that names its folder
fake_tko() {
	mkdir -p "$1" && cp fake/tko "$1/tko"
}

show() {
	(cd tree && env -u TKO_PREBUILT -u TKO_PYTHON OUT=out "$@" bash tests/gpu/show.sh) >out.txt 2>&1
}

test_expect_success 'no build/: build-static/tko, the static binary a fresh machine carries' '
	T=$PWD/tree && fake_tko tree/build-static &&
	show &&
	printf "%s\n" "ROOT=$T" "TKO=$T/build-static/tko" "TKO_PYTHON=python3" "tko fake $T/build-static" >expect &&
	test_cmp expect out.txt
'

test_expect_success 'build/tko comes before build-static/tko' '
	T=$PWD/tree && fake_tko tree/build &&
	show TKO_PYTHON=/opt/py &&
	printf "%s\n" "ROOT=$T" "TKO=$T/build/tko" "TKO_PYTHON=/opt/py" "tko fake $T/build" >expect &&
	test_cmp expect out.txt
'

test_expect_success 'TKO_PREBUILT, relative to the caller, before both, made absolute' '
	T=$PWD/tree && fake_tko tree/carried &&
	show TKO_PREBUILT=carried/tko &&
	printf "%s\n" "ROOT=$T" "TKO=$T/carried/tko" "TKO_PYTHON=python3" "tko fake $T/carried" >expect &&
	test_cmp expect out.txt
'

test_expect_success 'no tko anywhere: empty, and gpu_tko_version says what to do' '
	rm -rf tree/build tree/build-static tree/carried &&
	test_expect_code 1 show &&
	test_grep "^TKO=$" out.txt &&
	test_grep "^no tko: set TKO_PREBUILT, or build it \(make\), or carry build-static/" out.txt
'

test_expect_success 'apply-ab.sh in a tree with only build-static/ runs build-static/tko' '
	T=$PWD/tree && fake_tko tree/build-static &&
	printf "#!/bin/sh\necho \"python fake \$*\"\n" >fake/py && chmod +x fake/py &&
	(cd tree && env -u TKO_PREBUILT OUT=$PWD/../ab TKO_PYTHON=$PWD/../fake/py APPLY_AB_PHASES=none \
		bash tests/gpu/apply-ab.sh) >ab.txt 2>&1 &&
	test_grep "^tko fake $T/build-static$" ab/apply-ab.log &&
	test_grep "^python fake -c import torch" ab/apply-ab.log
'

cat >tree/tests/gpu/slow.sh <<'EOF'
. "$(dirname "$0")/lib.sh"
pack() { sleep 0.2; echo "packed what the runs left"; }
gpu_log "$OUT/slow.log"
[ -n "${HOOK:-}" ] && gpu_on_signal pack
echo "started"
sleep 30
echo "not reached"
EOF

test_expect_success 'SIGTERM (timeout): the hook runs, its last line is in the log and on stdout' '
	rm -rf o && mkdir o &&
	test_expect_code 124 env OUT=$PWD/o HOOK=1 timeout 1 bash tree/tests/gpu/slow.sh >stdout.txt 2>&1 &&
	printf "%s\n" started "" >expect &&
	echo "== stopped by a signal: packing what the runs left" >>expect &&
	echo "packed what the runs left" >>expect &&
	sed -e "/Terminated/d" -e "s/ (t=[0-9]*s)$//" o/slow.log >actual && test_cmp expect actual &&
	sed -e "/Terminated/d" -e "s/ (t=[0-9]*s)$//" stdout.txt >actual && test_cmp expect actual
'

test_expect_success 'SIGTERM without a hook: the log still ends with why the script stopped' '
	rm -rf o && mkdir o &&
	test_expect_code 124 env OUT=$PWD/o timeout 1 bash tree/tests/gpu/slow.sh >stdout.txt 2>&1 &&
	tail -1 o/slow.log >actual &&
	test_grep "^== stopped by a signal \(t=[0-9]+s\)$" actual &&
	test_grep -v "not reached" o/slow.log
'

cat >tree/tests/gpu/ends.sh <<'EOF'
. "$(dirname "$0")/lib.sh"
undo() { echo "undone"; }
gpu_log "$OUT/ends.log"
gpu_on_exit undo
echo "started"
case $HOW in
exit) exit 3 ;;
unset) set -u; echo "$NOT_SET" ;;
term) gpu_on_signal undo; kill -TERM $$; sleep 5 ;;
esac
echo "ended"
EOF

# ends HOW: tree/tests/gpu/ends.sh ended that way; its log, with its exit
# status when not 0 and without the t= stamps, in actual
ends() {
	rm -rf o && mkdir o || return 1
	(env OUT="$PWD/o" HOW="$1" bash tree/tests/gpu/ends.sh >stdout.txt 2>&1) ||
		echo "status $?" >>o/ends.log
	sed -e "s/ (t=[0-9]*s)$//" -e "/NOT_SET: unbound variable/d" o/ends.log >actual
}

test_expect_success 'gpu_on_exit: the hook runs at the end, at exit N and at set -u; the status stays' '
	ends end && printf "%s\n" started ended undone >expect && test_cmp expect actual &&
	ends exit && printf "%s\n" started undone "status 3" >expect && test_cmp expect actual &&
	ends unset && test_grep -v ended actual && test_grep "^undone$" actual &&
	test_grep -v "^status 0$" actual && test_grep "^status [1-9]" actual
'

test_expect_success 'gpu_on_exit after a signal: the signal hook, then the exit hook, in the log' '
	ends term &&
	printf "%s\n" started "" "== stopped by a signal: packing what the runs left" undone undone \
		"status 143" >expect &&
	test_cmp expect actual
'

# A script that has ended waits up to 2 s for its tee (a leftover child may
# hold the log's pipe). A SIGTERM then, from a cap that came just after the
# end, ran the signal hook: a second pack, and status 143 for a script that
# had ended with its own.
test_expect_success 'a signal while the script exits: no second pack, the status its own' '
	cat >tree/tests/gpu/late.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	gpu_log "$OUT/late.log"
	pack() { echo packed; }
	gpu_on_signal pack
	sleep 3 &
	pack
	echo "ended"
	exit 3
	EOF
	rm -rf o && mkdir o &&
	{ env OUT="$PWD/o" bash tree/tests/gpu/late.sh >/dev/null 2>&1 & } &&
	pid=$! n=0 &&
	until grep -q "^ended$" o/late.log 2>/dev/null; do
		n=$((n + 1)) && test $n -lt 100 && sleep 0.1 || return 1
	done &&
	sleep 0.3 && kill -TERM $pid &&
	{ wait $pid; echo "status $?" >status; } &&
	echo "status 3" >expect && test_cmp expect status &&
	printf "%s\n" packed ended >expect && test_cmp expect o/late.log
'

# A step wrapped in timeout --foreground stays in the script's process group:
# timeout(1)'s SIGTERM around the script reaches it, it ends, and the pack
# hook runs at once. (A plain inner timeout moves its step into a group of
# its own, which that signal misses; bash then runs the hook only when the
# step ends, up to its own limit, past the device call's.)
test_expect_success 'a step under timeout --foreground: the signal stops it, the hook packs at once' '
	cat >tree/tests/gpu/step.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	gpu_log "$OUT/step.log"
	pack() { echo packed; }
	gpu_on_signal pack
	echo started
	timeout --foreground 60 sleep 60
	echo "not reached"
	EOF
	mkdir -p o && start=$(date +%s) &&
	(env OUT="$PWD/o" timeout 1 bash tree/tests/gpu/step.sh >/dev/null 2>&1; echo "status $?" >>o/step.log) &&
	test $(( $(date +%s) - start )) -lt 20 &&
	test_grep "^packed$" o/step.log && test_grep "^status 124$" o/step.log &&
	test_grep -v "not reached" o/step.log
'

# The device machine may have no ps (procps): gpu_stop_step then finds the
# step's tree in /proc. 20 children deaf to SIGTERM (workers that linger):
# killed 2 s on, each named in the log, the hook run at once. (Read with
# $(cat) a /proc file, the tree's scan took 16-20 s here, and the log
# named none: ps named them.)
test_expect_success 'no ps: the step tree from /proc, killed 2 s on and named; the hook runs' '
	mkdir -p nops &&
	for d in $(echo "$PATH" | tr : " "); do
		for f in "$d"/*; do
			n=${f##*/} &&
			case $n in ps) continue ;; esac &&
			{ test -e "nops/$n" || ln -s "$f" "nops/$n"; } || return 1
		done
	done &&
	! PATH=$PWD/nops command -v ps &&
	cat >tree/tests/gpu/deaf.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	gpu_log "$OUT/deaf.log"
	pack() { echo packed; }
	gpu_on_signal pack
	gpu_run bash -c '"'"'for i in $(seq 20); do (trap "" TERM; exec sleep 60) & echo $! >>"$OUT/pids"; done; echo started; wait'"'"'
	echo "not reached"
	EOF
	rm -rf o && mkdir o &&
	{ env PATH="$PWD/nops" OUT="$PWD/o" bash tree/tests/gpu/deaf.sh >/dev/null 2>&1 & } &&
	pid=$! n=0 &&
	until grep -q "^started$" o/deaf.log 2>/dev/null; do
		n=$((n + 1)) && test $n -lt 100 && sleep 0.1 || return 1
	done &&
	start=$(date +%s) && kill -TERM $pid &&
	{ wait $pid; echo "status $?" >status; } &&
	test $(( $(date +%s) - start )) -le 8 &&
	echo "status 143" >expect && test_cmp expect status &&
	test_grep "^packed$" o/deaf.log && test_grep -v "not reached" o/deaf.log &&
	grep "^gpu: still running 2 s after SIGTERM, killed: " o/deaf.log >killed &&
	sleep 0.5 &&
	for p in $(cat o/pids); do
		grep -q " $p sleep\b" killed || { echo "$p not named"; return 1; }
		case $(ps -o stat= -p "$p") in "" | Z*) ;; *) echo "$p still runs"; return 1 ;; esac
	done
'

# gpu_pack's bounds, with a member too big to pack in time: a sparse file
# of 100 GiB (no disk used, but tar and gzip read every byte of it). As a
# required member it is packed only under a GPU_PACK_FILE_MAX_KB above it
# ($nocap), else left out before tar (see below).
nocap=GPU_PACK_FILE_MAX_KB=$((200 * 1024 * 1024))
cat >tree/tests/gpu/packs.sh <<'EOF'
. "$(dirname "$0")/lib.sh"
gpu_pack "$OUT/a.tar.gz" "$PWD/d" "$@"
echo "status $?"
EOF

# packs [VAR=VALUE...] MEMBER...: gpu_pack o/a.tar.gz d MEMBER..., its output in out.txt
packs() {
	rm -rf o && mkdir o &&
	(
		export OUT="$PWD/o"
		while case $1 in *=*) true ;; *) false ;; esac do
			export "${1?}"
			shift
		done
		bash tree/tests/gpu/packs.sh "$@"
	) >out.txt 2>&1
}

test_expect_success 'gpu_pack: an optional member not packed in time is left out, the rest packed' '
	mkdir -p d && echo small >d/small.txt && truncate -s 100G d/huge &&
	start=$(date +%s) &&
	packs GPU_PACK_TIMEOUT_S=6 small.txt ?huge &&
	test $(( $(date +%s) - start )) -le 10 &&
	test_grep "^pack: a.tar.gz: not done in [0-9] s; the required members alone$" out.txt &&
	test_grep "^status 0$" out.txt &&
	tar tzf o/a.tar.gz >list && echo small.txt >expect && test_cmp expect list
'

test_expect_success 'gpu_pack: a required member not packed in time: no archive, no part of one; an earlier one stays' '
	start=$(date +%s) &&
	packs $nocap GPU_PACK_TIMEOUT_S=2 small.txt huge &&
	test $(( $(date +%s) - start )) -le 10 &&
	test_grep "^pack: a.tar.gz: not written: tar ran past 2 s" out.txt &&
	test_grep "^status 1$" out.txt &&
	test -z "$(ls -A o)" &&
	echo earlier >o/a.tar.gz && (env OUT=$PWD/o $nocap GPU_PACK_TIMEOUT_S=1 bash tree/tests/gpu/packs.sh huge) >out.txt 2>&1 &&
	echo earlier >expect && test_cmp expect o/a.tar.gz && ls -A o >list && echo a.tar.gz >expect && test_cmp expect list &&
	rm d/huge
'

# A tar stopped by a signal (not gpu_pack's own timeout) leaves a gzip
# stream that ends well around a cut tar: gzip -t passes, tar t says
# "Unexpected EOF". gpu_pack moved it into place and said status 0.
test_expect_success 'gpu_pack: a tar stopped by a signal: no archive, not a cut one' '
	truncate -s 100G d/huge && rm -rf o && mkdir o &&
	{ env OUT="$PWD/o" $nocap bash tree/tests/gpu/packs.sh small.txt huge >out.txt 2>&1 & } &&
	pid=$! n=0 t= &&
	while [ -z "$t" ]; do
		n=$((n + 1)) && test $n -lt 100 && sleep 0.1 || return 1
		t=$(pgrep -x tar -P "$(pgrep -x timeout -P $pid)")
	done &&
	sleep 0.5 && kill -TERM $t && wait $pid &&
	rm d/huge &&
	test_grep "^pack: a.tar.gz: not written: tar stopped by a signal$" out.txt &&
	test_grep "^status 1$" out.txt &&
	test -z "$(ls -A o)"
'

test_expect_success 'gpu_pack: over the limit with nothing optional: kept, and said' '
	head -c 40960 /dev/urandom >d/random &&
	packs GPU_PACK_LIMIT_KB=20 small.txt random &&
	test_grep "^pack: a.tar.gz: 4[0-9] KiB, over the limit of 20 KiB" out.txt &&
	test_grep "^pack: a.tar.gz: no optional member left to leave out: it is kept, over the limit$" out.txt &&
	tar tzf o/a.tar.gz >list && printf "%s\n" small.txt random >expect && test_cmp expect list
'

# A SIGTERM to the script alone (kill PID, not timeout(1)'s to the group)
# while it packs at its end: bash would run the hook only when the tar it
# waits for ends (up to 60 s of the pack's 90); gpu_pack's tar is a step
# (gpu_run), stopped at once, and the hook packs anew within its budget.
# That budget is 9 s: 6 for the round with the optional member, 3 for the
# required one alone. With 3 s (1 for the required round) the test failed
# once in a fresh-clone CI, under the ASan suite's load (2026-12-05).
test_expect_success 'gpu_pack stopped by a signal: the hook packs at once' '
	cat >tree/tests/gpu/lastpack.sh <<-\EOF &&
	. "$(dirname "$0")/lib.sh"
	gpu_log "$OUT/lastpack.log"
	pack() { gpu_pack "$OUT/a.tar.gz" "$PWD/d" small.txt ?huge; }
	gpu_on_signal pack
	echo started
	GPU_PACK_TIMEOUT_S=90 pack
	echo "not reached"
	EOF
	truncate -s 100G d/huge && rm -rf o && mkdir o && start=$(date +%s) &&
	{ env OUT="$PWD/o" GPU_PACK_SIGNAL_S=9 bash tree/tests/gpu/lastpack.sh >started.out 2>&1 & } &&
	pid=$! &&
	# the hook is set before "started": a fixed sleep lost that race on a loaded machine
	n=0 && until grep -q started started.out || test $n -ge 100; do sleep 0.2; n=$((n + 1)); done &&
	sleep 1 && start=$(date +%s) && kill -TERM $pid &&
	{ wait $pid; echo "status $?" >>o/lastpack.log; } &&
	test $(( $(date +%s) - start )) -le 25 &&
	rm d/huge &&
	test_grep "^== stopped by a signal: packing what the runs left" o/lastpack.log &&
	test_grep "^pack: a.tar.gz: not done in [0-9] s; the required members alone$" o/lastpack.log &&
	test_grep "^status 143$" o/lastpack.log && test_grep -v "not reached" o/lastpack.log &&
	tar tzf o/a.tar.gz >list && echo small.txt >expect && test_cmp expect list
'

# 30 KiB required and 25 + 15 + 5 KiB optional, all incompressible, at a
# limit of 55 KiB: 20 KiB too many; the 25 KiB file alone makes that up.
test_expect_success 'gpu_pack: the biggest optional file goes, the others stay' '
	head -c 30720 /dev/urandom >d/random &&
	mkdir -p d/opt && head -c 25600 /dev/urandom >d/opt/r25 && head -c 15360 /dev/urandom >d/opt/r15 &&
	head -c 5120 /dev/urandom >d/opt/r5 &&
	packs GPU_PACK_LIMIT_KB=55 small.txt random ?opt &&
	test "$(stat -c %s o/a.tar.gz)" -le $((55 * 1024)) &&
	tar tzf o/a.tar.gz >list &&
	printf "%s\n" small.txt random opt/ opt/r15 opt/r5 | sort >expect && sort list >actual && test_cmp expect actual &&
	grep "left out" out.txt >actual &&
	echo "pack: a.tar.gz: left out opt/r25 (25 KiB)" >expect && test_cmp expect actual
'

# A required file over GPU_PACK_FILE_MAX_KB (1 here): 1024 bytes stay, 1025
# go, so does a sparse 100 GiB one, without tar reading it (GPU_PACK_TIMEOUT_S
# would stop it: no archive); a file an --exclude names is not said to be left
# out; an optional member's file is not judged by its size (the rounds do).
test_expect_success 'gpu_pack: a required file over GPU_PACK_FILE_MAX_KB is left out before tar, named' '
	rm -rf d/req d/opt && mkdir -p d/req d/opt &&
	head -c 1024 /dev/urandom >d/req/at && head -c 1025 /dev/urandom >d/req/over &&
	head -c 2048 /dev/urandom >"d/req/with space" && truncate -s 100G d/req/huge &&
	truncate -s 100G d/req/skip.pt && head -c 2048 /dev/urandom >d/opt/r2 &&
	start=$(date +%s) &&
	packs GPU_PACK_FILE_MAX_KB=1 GPU_PACK_TIMEOUT_S=6 small.txt req ?opt "--exclude=*.pt" &&
	test $(( $(date +%s) - start )) -le 5 &&
	rm d/req/huge d/req/skip.pt &&
	test_grep "^status 0$" out.txt &&
	grep "left out" out.txt | sort >actual &&
	for f in "huge (104857600" "over (1" "with space (2"; do
		echo "pack: a.tar.gz: left out req/$f KiB): a required file over GPU_PACK_FILE_MAX_KB"
	done >expect &&
	test_cmp expect actual &&
	tar tzf o/a.tar.gz | sort >actual &&
	printf "%s\n" small.txt req/ req/at opt/ opt/r2 | sort >expect && test_cmp expect actual
'

# Only gpu_pack makes an archive: a script's own tar would bypass the size
# guard and the time bound.
test_expect_success 'no GPU script runs tar -c but lib.sh' '
	! grep -En "^[^#]*\btar\b[^|]*( -?c[a-zA-Z]*f\b| --create)" "$SRC_ROOT"/tests/gpu/*.sh "$SRC_ROOT"/bench/*.sh |
		grep -v "/tests/gpu/lib.sh:"
'

# Every inner timeout of a GPU script uses --foreground, but run-proofs.sh's:
# it is the outermost, and there a group of its own lets a proof's timeout
# stop everything that proof started.
test_expect_success 'inner timeouts of the GPU scripts are --foreground' '
	! grep -En "^[^#]*[^-]\btimeout [0-9\"\$]" "$SRC_ROOT"/tests/gpu/*.sh "$SRC_ROOT"/bench/*.sh |
		grep -v "/tests/gpu/run-proofs.sh:"
'

# The scripts that take TKO_PREBUILT and run "$TKO": every one sources lib.sh
# and none finds tko, or tees its log, by itself.
source_re='^\. "\$\(dirname "\$0"\)/(\.\./tests/gpu/)?lib\.sh"$'
copy_re='^[^#]*(TKO=\$\{TKO_PREBUILT|build-static/tko|exec > >\(|tee_pid=|PY=\$\{)'
runs_tko='"$TKO"'
test_expect_success 'every GPU script uses lib.sh, none keeps a copy of it' '
	n=0 &&
	for f in "$SRC_ROOT"/tests/gpu/*.sh "$SRC_ROOT"/bench/*.sh; do
		case $f in */tests/gpu/lib.sh) continue ;; esac
		grep -q TKO_PREBUILT "$f" && grep -qF "$runs_tko" "$f" || continue
		n=$((n + 1)) &&
		grep -Eq "$source_re" "$f" || { echo "$f does not source lib.sh"; return 1; }
		if grep -En "$copy_re" "$f"; then
			echo "$f keeps its own copy of the lines above"
			return 1
		fi
	done &&
	test "$n" -ge 8
'

test_done
