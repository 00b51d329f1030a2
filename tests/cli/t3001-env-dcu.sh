#!/bin/sh
# tko env on a DCU: every Hygon HCU name is a DCU with what tko has and has
# not verified for it, the brief's warnings, and the DTK tools it names
# probed with their versions. rocminfo prints tests/data/env/rocminfo-dcu.txt
# (gfx936), or the same with the arch renamed; the DTK tools are fakes
# whose output is described in tests/data/env/SOURCES.md.
# Test bodies are single-quoted for eval, as lib.sh wants; variables set
# here are read inside them.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

DATA=$SRC_ROOT/tests/data/env
unset CUDA_HOME CUDA_PATH ROCM_PATH DTK_PATH AMDGCN_USE_BUFFER_OPS
PATH=$TRASH/bin:/usr/bin:/bin
TKO_PYTHON=/no/such/python
export PATH DATA TKO_PYTHON

fake_tool() {
	printf '#!/bin/sh\ncase "$*" in\n%s\nesac\n' "$2" >"bin/$1" && chmod +x "bin/$1"
}

test_expect_success 'setup: rocminfo with two gfx936 HCUs, DTK tools' '
	mkdir -p bin &&
	fake_tool rocminfo "*) cat \"\$DATA/rocminfo-dcu.txt\" ;;" &&
	fake_tool dcc "--version) echo \"dcc version: 25.10.0-0\" ;; *) exit 1 ;;" &&
	fake_tool hipprof "-h) echo \"hipprof 2.0.1 usage: hipprof [options] <app>\" ;; *) echo unknown option >&2; exit 1 ;;" &&
	fake_tool xprof "--help) echo \"usage: xprof [-h] ...\" ;; *) exit 1 ;;"
'

test_expect_success 'gfx936: a DCU, with what tko verified and what it did not' '
	tko env --json out.json >table &&
	json_q out.json ".dcu == true and (.hcu_targets | length) == 1" &&
	json_q out.json ".hcu_targets[0] | .arch == \"gfx936\" and .triton_das == true and .das_vgprs == 768" &&
	json_q out.json ".hcu_targets[0].verified | test(\"ISA scan\")" &&
	json_q out.json ".hcu_targets[0].not_verified | test(\"DTK and triton-das\")" &&
	json_q out.json ".warnings == []" &&
	test_grep "^gfx936, Hygon .*Bowen a0" table &&
	test_grep "^    not verified: " table
'

test_expect_success 'the DTK tools the brief names, with their versions' '
	json_q out.json ".tools[] | select(.name == \"dcc\") | .version == \"25.10.0-0\" and .path == \"$TRASH/bin/dcc\"" &&
	json_q out.json ".tools[] | select(.name == \"hipprof\") | .version == \"2.0.1\"" &&
	json_q out.json ".tools[] | select(.name == \"xprof\") | .version == null and .version_line == \"usage: xprof [-h] ...\"" &&
	json_q out.json "[.tools[] | select(.name == \"aicc\" or .name == \"xcompute\") | .path] == [null, null]"
'

test_expect_success 'every Hygon name is a DCU by its name alone; gfx948 warns that triton-das does not list it' '
	for a in gfx926 gfx928 gfx92a gfx936 gfx938 gfx946 gfx948; do
		sed "s/gfx936/$a/; s/Device Type:             HCU/Device Type:             GPU/" \
			"$DATA/rocminfo-dcu.txt" >rocminfo.txt &&
		fake_tool rocminfo "*) cat \"$TRASH/rocminfo.txt\" ;;" &&
		tko env --json $a.json >/dev/null &&
		json_q $a.json ".dcu == true and .hcu_targets[0].arch == \"$a\"" || return 1
	done &&
	json_q gfx948.json ".hcu_targets[0].triton_das == false and .hcu_targets[0].verified == null" &&
	json_q gfx948.json ".warnings | length == 1 and (.[0] | test(\"gfx948 is a Hygon HCU name\"))" &&
	json_q gfx938.json ".warnings == [] and .hcu_targets[0].verified == null"
'

test_expect_success 'an arch outside the known set is named' '
	sed "s/gfx936/gfx1035/; s/Device Type:             HCU/Device Type:             GPU/" \
		"$DATA/rocminfo-dcu.txt" >rocminfo.txt &&
	tko env --json other.json >table &&
	json_q other.json ".dcu == false and .hcu_targets == []" &&
	json_q other.json ".warnings[0] | test(\"gfx1035 is outside the architectures tko knows\")" &&
	test_grep "^warning: gfx1035 is outside" table
'

test_expect_success 'buffer ops switched off, and forced on a DCU' '
	fake_tool rocminfo "*) cat \"\$DATA/rocminfo-dcu.txt\" ;;" &&
	AMDGCN_USE_BUFFER_OPS=0 tko env --json off.json >/dev/null &&
	json_q off.json ".warnings | length == 1 and (.[0] | test(\"AMDGCN_USE_BUFFER_OPS=0 switches\"))" &&
	AMDGCN_USE_BUFFER_OPS=1 tko env --json on.json >/dev/null &&
	json_q on.json ".warnings | length == 1 and (.[0] | test(\"compile-probe first\"))"
'

test_done
