# An independent count of the PTX instructions tko isa classifies, for its
# tests: prints "COUNT MNEMONIC" with cache-hint parts (.L1::..., .L2::...)
# dropped, skipping predicates, .param/.const loads and comments.
{
	sub(/\/\/.*/, "")
	w = $1
	if (w ~ /^@/) w = $2
	sub(/;$/, "", w)
	if (w ~ /\.(param|const)(\.|$)/)
		next
	if (w ~ /^(ld|ldu|st|atom|red)\./ || w ~ /^cp\.(async|reduce)/ || w ~ /^(mma|wgmma|tcgen05\.mma|ldmatrix|stmatrix|mbarrier)\./ ||
	    w ~ /^(bar|barrier|fence|membar)\./) {
		gsub(/\.L[12]::[a-z_0-9]+/, "", w)
		c[w]++
	}
}
END {
	for (k in c)
		print c[k], k
}
