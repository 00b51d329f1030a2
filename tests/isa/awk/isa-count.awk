# An independent count of AMDGCN instruction mnemonics, for tko isa's tests.
#
# Prints "COUNT MNEMONIC" for every first word of a statement that starts
# with one of the prefixes tko counts, after removing // ; and /* */
# comments and the false branches of ".if SYMBOL" where SYMBOL was set
# with ".set SYMBOL, N" (the Tensile-style debug_buffer switch). A
# buffer_load with an "lds" operand is printed as "MNEMONIC lds". It is
# deliberately simple: it handles the corpus files, not all of gas.
#
#   awk -f isa-count.awk FILE | sort
function counted(m) {
	if (m ~ /^(ds_scale_copy|s_waitcnt_vbcnt)/)	# Hygon-only, in no family
		return 0
	return m ~ /^(global_|buffer_|flat_|scratch_|s_load_|s_buffer_load_|s_store_|ds_|matrix_|v_mfma|v_smfmac|v_mmac|v_wmma|v_swmmac|v_accvgpr|v_cvt_scale|tensor_(load_to|store_from)_lds|s_waitcnt|s_wait_|s_barrier|s_dcache_)/
}
{
	line = $0
	out = ""
	while (line != "") {
		if (inblock) {
			i = index(line, "*/")
			if (!i) { line = ""; break }
			line = substr(line, i + 2)
			inblock = 0
			out = out " "
			continue
		}
		i = index(line, "/*")
		if (!i) { out = out line; break }
		out = out substr(line, 1, i - 1)
		line = substr(line, i + 2)
		inblock = 1
	}
	sub(/\/\/.*/, "", out)
	sub(/;.*/, "", out)
	n = split(out, w, /[ \t]+/)
	first = w[1] == "" ? w[2] : w[1]
	if (first == ".set") {
		name = w[1] == "" ? w[3] : w[2]
		val = w[1] == "" ? w[4] : w[3]
		sub(/,$/, "", name)
		if (val ~ /^[0-9]+$/)
			sym[name] = val + 0
		next
	}
	if (first == ".if") {
		c = w[1] == "" ? w[3] : w[2]
		depth++
		truth[depth] = (c in sym) ? (sym[c] != 0) : 1
		next
	}
	if (first == ".else") { truth[depth] = !truth[depth]; next }
	if (first == ".endif") { depth--; next }
	for (d = 1; d <= depth; d++)
		if (!truth[d])
			next
	if (!counted(first) || first ~ /:$/)
		next
	if (first ~ /^buffer_load/ && out ~ /[ \t,]lds([ \t]|$)/)
		first = first " lds"
	count[first]++
}
END {
	for (m in count)
		print count[m], m
}
