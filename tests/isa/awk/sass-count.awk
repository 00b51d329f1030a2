# An independent count of SASS memory, atomic, matrix and sync
# instructions in cuobjdump -sass or nvdisasm output, for tko isa's tests:
# prints "COUNT MNEMONIC" for instruction lines ("/*0040*/ [@P0] OP ...").
BEGIN {
	n = split("LDG STG LD ST LDL STL LDS STS LDSM STSM LDGSTS ATOMG REDG RED ATOM ATOMS " \
		  "HMMA IMMA DMMA BMMA HGMMA IGMMA QGMMA BGMMA UTCHMMA UTCQMMA UTCIMMA " \
		  "UTMALDG UTMASTG UTMAREDG UBLKCP BAR DEPBAR LDGDEPBAR WARPGROUP ARRIVES SYNCS " \
		  "MEMBAR CCTL ERRBAR", b, " ")
	for (i = 1; i <= n; i++)
		want[b[i]] = 1
}
$1 ~ /^\/\*[0-9a-f]+\*\/$/ {
	w = $2
	if (w ~ /^@/) w = $3
	sub(/;$/, "", w)
	base = w
	sub(/\..*/, "", base)
	if (base in want)
		c[w]++
}
END {
	for (k in c)
		print c[k], k
}
