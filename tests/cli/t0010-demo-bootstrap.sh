#!/bin/sh
# script/demo on a machine without the build's dependencies: it names what
# is missing, runs script/bootstrap --build (whose apt-get, dpkg-query and
# pkg-config are fakes on PATH here: nothing is installed), and builds and
# runs only once the dependencies are there. script/bootstrap --check-build
# finds a missing pkg-config or jansson by looking, not by asking dpkg.
# Test bodies are single-quoted for eval, as lib.sh wants.
# shellcheck disable=SC2016
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup fake Debian tools' '
	mkdir bin &&
	cat >bin/pkg-config <<-EOF &&
	#!/bin/sh
	# jansson is "installed" once the fake apt-get has run and INSTALLS is set
	case "\$*" in
	*--exists*jansson*) [ -n "\${INSTALLS:-}" ] && [ -f "$TRASH/installed" ] ;;
	*) exec /usr/bin/pkg-config "\$@" ;;
	esac
	EOF
	cat >bin/apt-get <<-EOF &&
	#!/bin/sh
	echo "apt-get \$*" >>"$TRASH/apt.log"
	case "\$1" in install) : >"$TRASH/installed" ;; esac
	EOF
	cat >bin/dpkg-query <<-\EOF &&
	#!/bin/sh
	exit 1
	EOF
	printf "#!/bin/sh\nexec \"\$@\"\n" >bin/sudo &&
	chmod +x bin/* &&
	PATH=$TRASH/bin:$PATH test_expect_code 1 "$SRC_ROOT/script/bootstrap" --check-build 2>err &&
	test_grep "^bootstrap: the build needs: jansson$" err
'

test_expect_success 'demo: names what is missing, runs bootstrap, stops when it is still missing' '
	rm -f apt.log installed &&
	PATH=$TRASH/bin:$PATH test_expect_code 1 "$SRC_ROOT/script/demo" >out 2>err &&
	test_grep "^demo: the build needs: jansson: running script/bootstrap --build" err &&
	test_grep "^apt-get update" apt.log &&
	test_grep "^apt-get install -y -qq --no-install-recommends build-essential pkg-config libjansson-dev zlib1g-dev libsqlite3-dev$" apt.log &&
	test_grep "^demo: still missing after script/bootstrap --build: jansson$" err &&
	test_grep -v "building|investigate" err && test ! -s out
'

test_expect_success 'demo: once bootstrap has installed it, builds if needed and runs' '
	if ! (cd "$SRC_ROOT" && make -q build/tko 2>/dev/null); then
		echo "build/tko is not up to date; not building it from a test" && exit 0
	fi
	rm -f apt.log installed &&
	PATH=$TRASH/bin:$PATH INSTALLS=1 DEMO_OUT=$TRASH/demo-out "$SRC_ROOT/script/demo" >out 2>err &&
	test_grep "^demo: the build needs: jansson" err &&
	test_grep "^apt-get install" apt.log &&
	test_grep "^\\\$ tko investigate --out-dir $TRASH/demo-out examples/h200-run$" out &&
	test -s demo-out/report/report.html
'

test_expect_success 'bootstrap --check-build: no pkg-config at all' '
	mkdir min &&
	for t in cc make dirname; do ln -s "$(command -v $t)" "min/$t" || exit 1; done &&
	PATH=$TRASH/min test_expect_code 1 /bin/sh "$SRC_ROOT/script/bootstrap" --check-build 2>err &&
	test_grep "^bootstrap: the build needs: pkg-config jansson zlib sqlite3$" err
'

test_expect_success 'bootstrap --check-build: quiet and 0 when the build has what it needs' '
	if ! pkg-config --exists jansson zlib sqlite3; then echo "no jansson, zlib or sqlite3 here" && exit 0; fi
	"$SRC_ROOT/script/bootstrap" --check-build >out 2>&1 &&
	test ! -s out
'

test_expect_success 'bootstrap: a bad argument is a usage error' '
	test_expect_code 2 "$SRC_ROOT/script/bootstrap" --nope 2>err &&
	test_grep "^usage: script/bootstrap" err
'

test_done
