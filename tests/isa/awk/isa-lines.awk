# An independent source-line attribution of LLVM-printed AMDGCN or PTX,
# for tko isa's tests: follows ".loc FILE LINE COL" and prints
# "LINE MNEMONIC COUNT" for each memory, atomic and matrix instruction
# (not waits or barriers) after the first .loc. PTX predicates ("@%p1")
# are skipped and PTX cache hints (".L1::...", ".L2::...") dropped.
$1 == ".loc" { line = $3; seen = 1; next }
{
	w = $1
	if (w ~ /^@/) w = $2
	sub(/;$/, "", w)
	if (!seen)
		next
	if (w ~ /^(global_|buffer_|flat_|scratch_|s_load_|s_buffer_load_|ds_|v_mfma|v_mmac|v_wmma|v_smfmac|v_accvgpr)/ ||
	    w ~ /^(ld|st|ldu|atom|red)\.(global|shared|local)/ || w ~ /^(ld|st)\.[bsuf][0-9]/ ||
	    w ~ /^cp\.async\.(ca|cg)\./ || w ~ /^(ldmatrix|stmatrix|mma|wgmma\.mma_async)/) {
		gsub(/\.L[12]::[a-z_0-9]+/, "", w)
		c[line " " w]++
	}
}
END {
	for (k in c)
		print k, c[k]
}
