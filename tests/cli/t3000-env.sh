#!/bin/sh
# tko env: versions, GPUs from rocminfo / hy-smi / nvidia-smi / the Python
# probe, tools, flags; plainly working with no Python, no torch and no GPU.
# Fake tools print the real excerpts of tests/data/env.
# Test bodies are single-quoted for eval, as lib.sh wants; variables set
# here are read inside them.
# shellcheck disable=SC2016,SC2034
. "$(dirname "$0")/lib.sh"

DATA=$SRC_ROOT/tests/data/env
unset CUDA_HOME CUDA_PATH ROCM_PATH DTK_PATH
PATH=$TRASH/bin:/usr/bin:/bin
export PATH DATA

fake_tool() {
	printf '#!/bin/sh\ncase "$*" in\n%s\nesac\n' "$2" >"bin/$1" && chmod +x "bin/$1"
}

test_expect_success 'setup fake tools and a fake python probe' '
	mkdir -p bin &&
	fake_tool rocminfo "*) cat \"\$DATA/rocminfo-dcu.txt\" ;;" &&
	fake_tool hy-smi "--showproductname*) echo \"HCU[0] : Card Series: BW\" ;; *) cat \"\$DATA/hy-smi-hcu.txt\" ;;" &&
	fake_tool nvcc "--version) cat \"\$DATA/nvcc-version.txt\" ;;" &&
	cat >probe-ok <<-\PROBE &&
	#!/bin/sh
	cat <<JSON
	{"schema_version": 1, "python": {"version": "3.12.3", "executable": "/usr/bin/python3"},
	 "torch": {"version": "2.11.0+cu130", "cuda": "13.0", "hip": null, "error": null},
	 "triton": {"version": "3.6.0", "error": null},
	 "devices": [{"index": 0, "name": "NVIDIA H200", "backend": "cuda", "arch": "sm_90"}],
	 "bandwidth": $(case "$*" in *--measure*) echo "{\"copy_gbps\": 4243.0, \"repeats\": 20}" ;; *) echo null ;; esac),
	 "errors": []}
	JSON
	PROBE
	chmod +x probe-ok
'

test_expect_success 'no python: says so, still reports tools, exits 0' '
	TKO_PYTHON=/no/such/python tko env --json out.json >table &&
	json_q out.json ".schema_version == 1 and .tool == \"tko env\"" &&
	json_q out.json ".python == null and .torch == null" &&
	json_q out.json "[.notes[] | select(test(\"no python\"))] | length == 1" &&
	test_grep "note: no python" table
'

test_expect_success 'rocminfo HCU agents become the GPUs, and mark a DCU' '
	TKO_PYTHON=/no/such/python tko env --json out.json >/dev/null &&
	want=$(grep -c "Device Type: *HCU" "$DATA/rocminfo-dcu.txt") &&
	json_q out.json ".gpus | length" >n && echo "$want" >expect && test_cmp expect n &&
	json_q out.json ".gpus[0].arch == \"gfx936\" and .gpus[1].device_type == \"HCU\"" &&
	json_q out.json ".gpus[0].source == \"rocminfo\" and .dcu == true"
'

test_expect_success 'hy-smi cards and tool paths and versions' '
	TKO_PYTHON=/no/such/python tko env --json out.json >/dev/null &&
	rows=$(grep -c "^[0-9]" "$DATA/hy-smi-hcu.txt") &&
	json_q out.json ".gpu_tools[\"hy-smi\"].devices | length" >n &&
	echo "$rows" >expect && test_cmp expect n &&
	json_q out.json ".gpu_tools[\"hy-smi\"].devices[0].name == \"BW\"" &&
	json_q out.json ".tools[] | select(.name == \"rocminfo\") | .path == \"$TRASH/bin/rocminfo\"" &&
	json_q out.json ".tools[] | select(.name == \"nvcc\") | .version == \"13.0\"" &&
	json_q out.json ".tools[] | select(.name == \"ncu\") | .path == null"
'

test_expect_success 'codegen flags are listed, other variables are not' '
	AMDGCN_USE_BUFFER_OPS=1 TRITON_DEBUG=1 TORCHINDUCTOR_MAX_AUTOTUNE=1 HIP_VISIBLE_DEVICES=0 \
		UNRELATED_SECRET=x TKO_PYTHON=/no/such/python tko env --json out.json >/dev/null &&
	json_q out.json ".env.AMDGCN_USE_BUFFER_OPS == \"1\" and .env.TRITON_DEBUG == \"1\"" &&
	json_q out.json ".env.TORCHINDUCTOR_MAX_AUTOTUNE == \"1\" and .env.HIP_VISIBLE_DEVICES == \"0\"" &&
	json_q out.json ".env | has(\"UNRELATED_SECRET\") | not"
'

test_expect_success 'the probe gives versions and torch GPUs first' '
	TKO_PYTHON=$TRASH/probe-ok tko env --json out.json >table &&
	json_q out.json ".torch.version == \"2.11.0+cu130\" and .triton.version == \"3.6.0\"" &&
	json_q out.json ".gpus[0].source == \"torch\" and .gpus[0].arch == \"sm_90\"" &&
	json_q out.json ".gpus[0].device_type == \"HCU\"" &&
	json_q out.json ".bandwidth == null" &&
	test_grep "^torch +2.11.0\+cu130 \(cuda 13.0\)" table
'

test_expect_success '--measure passes the measured copy bandwidth through' '
	TKO_PYTHON=$TRASH/probe-ok tko env --measure --json out.json >table &&
	json_q out.json ".bandwidth.copy_gbps == 4243" &&
	test_grep "4243 GB/s" table
'

# --measure where nothing could be measured: the table and the JSON say why,
# not "(--measure)" as if the option had been left out. The reasons are the
# probe's own words: its torch error, an empty device list, its errors.
test_expect_success '--measure without torch, GPU or a good measurement says why' '
	TKO_PYTHON=$TRASH/probe-ok tko env --json out.json >table &&
	test_grep "^copy bandwidth +not measured \(--measure\)$" table &&
	json_q out.json "has(\"bandwidth_error\") | not" &&
	TKO_PYTHON=/no/such/python tko env --measure --json out.json >table &&
	test_grep "^copy bandwidth +not measured: the Python probe gave no answer" table &&
	json_q out.json ".bandwidth == null and (.bandwidth_error | test(\"Python probe\"))" &&
	sed -e "s/\"devices\": \[.*\],/\"devices\": [],/" \
	    -e "s/\"bandwidth\": .*/\"bandwidth\": null,/" probe-ok >probe-nogpu &&
	chmod +x probe-nogpu &&
	grep -q "\"devices\": \[\]," probe-nogpu &&
	TKO_PYTHON=$TRASH/probe-nogpu tko env --measure --json out.json >table &&
	test_grep "^copy bandwidth +not measured: no GPU \(torch sees none\)$" table &&
	json_q out.json ".bandwidth_error == \"no GPU (torch sees none)\"" &&
	json_q out.json "[.notes[] | select(. == \"copy bandwidth not measured: no GPU (torch sees none)\")] | length == 1" &&
	sed -e "s/\"bandwidth\": .*/\"bandwidth\": null,/" \
	    -e "s/\"errors\": \[\]/\"errors\": [\"bandwidth: RuntimeError: CUDA error: out of memory\\\\nCompile with TORCH_USE_CUDA_DSA\"]/" \
		probe-ok >probe-oom &&
	chmod +x probe-oom &&
	TKO_PYTHON=$TRASH/probe-oom tko env --measure --json out.json >table &&
	test_grep "^copy bandwidth +not measured: RuntimeError: CUDA error: out of memory$" table &&
	json_q out.json ".bandwidth_error == \"RuntimeError: CUDA error: out of memory\""
'

test_expect_success '--measure with the real Python probe and no torch: no torch' '
	test -x "$SRC_ROOT/.venv/bin/python" || { echo "# no .venv: skipped"; exit 0; }
	TKO_PYTHON=$SRC_ROOT/.venv/bin/python tko env --measure --json out.json >table &&
	json_q out.json ".torch == null and .bandwidth_error == \"no torch\"" &&
	test_grep "^copy bandwidth +not measured: no torch$" table
'

# python/tko/gpu.py reports raw facts; tko decides the arch (src/target/target.c).
# The facts below are what torch 2.11 reports on an H200 (gcnArchName is the
# marketing name on CUDA), a ROCm MI300X and DTK on a BW DCU.
test_expect_success 'GPU facts from the probe: tko decides the arch, keys as before' '
	cat >probe-facts <<-\PROBE &&
	#!/bin/sh
	cat <<JSON
	{"schema_version": 1, "python": {"version": "3.12.3", "executable": "/usr/bin/python3"},
	 "torch": {"version": "2.11.0+cu130", "cuda": "13.0", "hip": null, "error": null},
	 "triton": {"version": "3.6.0", "error": null},
	 "devices": [
	  {"index": 0, "name": "NVIDIA H200", "backend": "cuda", "gcn_arch_name": "NVIDIA H200",
	   "capability": [9, 0], "warp_size": 32, "multiprocessor_count": 132,
	   "memory_bytes": 150000000000, "l2_cache_bytes": 62914560},
	  {"index": 1, "name": "AMD Instinct MI300X", "backend": "hip",
	   "gcn_arch_name": "gfx942:sramecc+:xnack-", "capability": [9, 4], "warp_size": 64,
	   "multiprocessor_count": 304, "memory_bytes": 1, "l2_cache_bytes": 2},
	  {"index": 2, "name": "BW", "backend": "hip", "gcn_arch_name": "gfx936:sramecc-",
	   "capability": [9, 3], "warp_size": 64, "multiprocessor_count": 80,
	   "memory_bytes": 1, "l2_cache_bytes": 2}],
	 "bandwidth": null, "errors": []}
	JSON
	PROBE
	chmod +x probe-facts &&
	PATH=/usr/bin:/bin TKO_PYTHON=$TRASH/probe-facts tko env --json out.json >table &&
	json_q out.json "[.gpus[].arch] == [\"sm_90\", \"gfx942\", \"gfx936\"]" &&
	json_q out.json "[.gpus[].arch_full] == [null, \"gfx942:sramecc+:xnack-\", \"gfx936:sramecc-\"]" &&
	json_q out.json ".gpus[0] | keys_unsorted == [\"index\", \"name\", \"backend\", \"arch\",
		\"arch_full\", \"capability\", \"multiprocessor_count\", \"memory_bytes\",
		\"warp_size\", \"l2_cache_bytes\", \"source\"]" &&
	json_q out.json "[.hcu_targets[].arch] == [\"gfx936\"] and .dcu == true" &&
	test_grep "NVIDIA H200, sm_90 \\(torch\\)" table
'

test_expect_success 'a failing probe is a note with its last line' '
	printf "#!/bin/sh\necho Traceback >&2\necho \"ImportError: libcuda.so.1\" >&2\nexit 1\n" >probe-bad &&
	chmod +x probe-bad &&
	TKO_PYTHON=$TRASH/probe-bad tko env --json out.json >/dev/null &&
	json_q out.json "[.notes[] | select(test(\"ImportError: libcuda.so.1\"))] | length == 1"
'

test_expect_success 'the real Python probe without torch says so' '
	test -x "$SRC_ROOT/.venv/bin/python" || { echo "# no .venv: skipped"; exit 0; }
	TKO_PYTHON=$SRC_ROOT/.venv/bin/python tko env --json out.json >/dev/null &&
	json_q out.json ".python.version != null" &&
	json_q out.json "[.notes[] | select(test(\"no torch\"))] | length == 1"
'

test_expect_success 'bad command lines and unwritable output' '
	test_expect_code 2 tko env extra 2>err &&
	test_expect_code 2 tko env --frob 2>err &&
	mkdir adir &&
	TKO_PYTHON=/no/such/python test_expect_code 1 tko env --json adir 2>err >/dev/null &&
	test_one_line_error err && test_grep "adir" err
'

test_expect_success 'tko env --help documents --measure' '
	tko env --help >out && test_grep "measure device copy bandwidth" out
'

test_done
