#!/bin/sh
# tests/gpu/faults.sh without a GPU or root: what its readonly (and full)
# case does to capture/kernels/ is undone however the script ends. A fake
# python stands in for the model (it sleeps in the readonly case when asked,
# so a signal lands there), and fake id/mount/umount/chattr on PATH record
# their calls, so the root branch (a tmpfs mounted on kernels/) runs here
# too; the non-root branch (mode 555) is real.
#   - the case's end: umount right after the readonly run, before full mounts;
#   - SIGTERM (timeout(1)) inside the readonly case: umount, then the pack;
#   - SIGHUP, which the script does not trap: umount all the same (EXIT);
#   - not root: mode 755 again after the signal.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

mkdir -p fakebin &&
cat >fakebin/id <<'EOF' &&
#!/bin/sh
echo "${FAKE_UID:-0}"
EOF
cat >fakebin/mount <<'EOF' &&
#!/bin/sh
echo "mount $*" >>"$CALLS"
EOF
cp fakebin/mount fakebin/umount && sed -i 's/^echo "mount/echo "umount/' fakebin/umount &&
cat >fakebin/chattr <<'EOF' &&
#!/bin/sh
echo "chattr $*" >>"$CALLS"
exit 1
EOF
cat >fakebin/py <<'EOF' &&
#!/bin/sh
# the readonly case's model run: say it started, then run a while
case " $* " in
*/out-readonly\ *)
	if [ -n "${FAKE_SLEEP:-}" ]; then
		: >"$MARK"
		sleep "$FAKE_SLEEP"
	fi ;;
esac
exit 0
EOF
chmod +x fakebin/*

W=$PWD/w
RO=$W/readonly/capture/kernels
FULL=$W/full/capture/kernels

# faults.sh in the background with the fakes; its pid in $pid.
start_faults() {
	rm -rf o w calls mark && mkdir o || return 1
	env PATH="$PWD/fakebin:$PATH" CALLS="$PWD/calls" MARK="$PWD/mark" OUT="$PWD/o" \
		FAULTS_WORK="$W" TKO_PREBUILT="$PWD/none/tko" TKO_PYTHON="$PWD/fakebin/py" "$@" \
		bash "$SRC_ROOT/tests/gpu/faults.sh" >run.txt 2>&1 &
	pid=$!
}

# Waits (up to 20 s) for the readonly case's model run to start.
wait_mark() {
	n=0
	while [ ! -e mark ] && [ $n -lt 100 ]; do
		sleep 0.2
		n=$((n + 1))
	done
	test -e mark
}

# wait_status PID WANT: PID's exit status is WANT.
wait_status() {
	s=0
	wait "$1" || s=$?
	test "$s" = "$2" || { echo "exit status $s, not $2"; return 1; }
}

test_expect_success 'the readonly case ends: its tmpfs is unmounted before the full case mounts' '
	start_faults &&
	wait_status "$pid" 0 &&
	printf "%s\n" "mount -t tmpfs -o ro,size=1m tmpfs $RO" "umount $RO" \
		"mount -t tmpfs -o size=4m tmpfs $FULL" "umount $FULL" >expect &&
	test_cmp expect calls
'

test_expect_success 'SIGTERM inside the readonly case: unmounted, then packed, exit 143' '
	start_faults FAKE_SLEEP=2 &&
	wait_mark && kill -TERM "$pid" &&
	wait_status "$pid" 143 &&
	printf "%s\n" "mount -t tmpfs -o ro,size=1m tmpfs $RO" "umount $RO" >expect &&
	test_cmp expect calls &&
	test_grep "^== stopped by a signal: packing what the runs left" o/faults.log &&
	test -s o/faults-runs.tar.gz
'

test_expect_success 'SIGHUP, not trapped, inside the readonly case: unmounted at exit all the same' '
	start_faults FAKE_SLEEP=1 &&
	wait_mark && kill -HUP "$pid" &&
	wait_status "$pid" 129 &&
	printf "%s\n" "mount -t tmpfs -o ro,size=1m tmpfs $RO" "umount $RO" >expect &&
	test_cmp expect calls
'

test_expect_success 'not root: kernels/ is mode 755 again after SIGTERM in the readonly case' '
	start_faults FAKE_UID=1000 FAKE_SLEEP=2 &&
	wait_mark && test "$(stat -c %a "$RO")" = 555 &&
	kill -TERM "$pid" &&
	wait_status "$pid" 143 &&
	test "$(stat -c %a "$RO")" = 755 &&
	test ! -e calls
'

test_done
