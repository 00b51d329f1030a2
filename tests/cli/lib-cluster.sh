# Helpers for tko cluster's and tko tune --gpus's tests (sourced after
# lib.sh and lib-tune.sh).

# make_run RUN K...: a RUN whose capture/kernels/ holds one captured kernel
# directory per K, the corpus H200 pointwise kernel in
# $CORPUS/h200-run1/cache/inductor/K/ (tests/corpus/SOURCES.md), with a
# capture.json as in t4004 whose autotuned config took K's position in the
# list times 0.1 ms (so the kernels' predicted costs differ and their order
# is known: the last one given is the costliest).
make_run() {
	make_run_from "$CORPUS/h200-run1/cache/inductor" "$@"
}

# make_run_from DIR RUN K...: make_run with the kernels read from DIR/K/
# instead of the corpus (the golden cluster cases, whose copy of the corpus
# folder is in/inductor).
make_run_from() {
	from=$1
	run=$2
	shift 2
	i=0
	for k in "$@"; do
		i=$((i + 1))
		src=$(ls "$from/$k/"*.py) || return 1
		name=$(sed -n "s/^def \(triton_[a-z0-9_]*\)(.*/\1/p" "$src")
		xnumel=$(sed -n "s/^    xnumel = \([0-9]*\)$/\1/p" "$src")
		d="$run/capture/kernels/$name-$k"
		mkdir -p "$d/inputs" || return 1
		cp "$src" "$d/kernel.py" || return 1
		printf "%s\n" "{\"schema_version\": 1, \"kernel\": \"$name\"," \
			"\"args\": [{\"name\": \"xnumel\", \"kind\": \"scalar\", \"value\": $xnumel}]," \
			"\"storages\": [], \"mutated_arg_names\": [], \"best_index\": 0," \
			"\"configs\": [{\"kwargs\": {\"XBLOCK\": 1024}, \"num_warps\": 4, \"num_stages\": 1, \"time_ms\": $i.0e-1}]}" \
			>"$d/capture.json" || return 1
	done
}

# same_tune A B: the two tune.json documents are equal but for the one field
# that changes from run to run with the fake worker: each kernel's wall_s
# (seconds of the sweep) and its confirmation's (seconds of the re-timing).
# On a GPU every variant's compile_ms changes too; the fake answers 1.0 for it.
same_tune() {
	for f in "$1" "$2"; do
		jq -S 'del(.kernels[].wall_s) | del(.kernels[].winner.confirmation.wall_s?)' "$f" >"$f.cmp" || return 1
	done
	test_cmp "$1.cmp" "$2.cmp"
}
