# Maps the "COUNT MNEMONIC" lines of isa-count.awk to instruction families
# and widths, for tko isa's tests; prints "FAMILY WIDTH COUNT" (WIDTH "-"
# for families without one), summed. Its rules are written from the AMD
# ISA manuals' suffix conventions, independently of tko's tables.
function add(fam, w, n) { out[fam " " w] += n }
function width(s) {
	if (s ~ /(dwordx16|b512)/) return 512
	if (s ~ /(dwordx8|b256)/) return 256
	if (s ~ /(dwordx4|b128|format_xyzw)/) return 128
	if (s ~ /(dwordx3|b96|format_xyz)/) return 96
	if (s ~ /(dwordx2|b64|format_xy)/) return 64
	if (s ~ /(dword|b32|format_x)/) return 32
	if (s ~ /(short|u16|i16|b16)/) return 16
	if (s ~ /(byte|u8|i8|b8)/) return 8
	return "?"
}
{
	n = $1
	m = $2
	lds = ($3 == "lds")
	if (m ~ /^(buffer_(wbl2|inv|wbinvl1|gl[01]_inv)|s_dcache_)/) add("fence", "-", n)
	else if (m ~ /^global_load_lds_/) add("global_to_lds", width(m), n)
	else if (m ~ /^global_load_/) add("global_load", width(m), n)
	else if (m ~ /^global_store_/) add("global_store", width(m), n)
	else if (m ~ /^global_atomic_/) add("global_atomic", (m ~ /(x2|64)/) ? 64 : 32, n)
	else if (m ~ /^buffer_load_/) add(lds ? "global_to_lds" : "buffer_load", width(m), n)
	else if (m ~ /^buffer_store_/) add("buffer_store", width(m), n)
	else if (m ~ /^buffer_atomic_/) add("buffer_atomic", (m ~ /(x2|64)/) ? 64 : 32, n)
	else if (m ~ /^flat_load_/) add("flat_load", width(m), n)
	else if (m ~ /^flat_store_/) add("flat_store", width(m), n)
	else if (m ~ /^scratch_load_/) add("scratch_load", width(m), n)
	else if (m ~ /^scratch_store_/) add("scratch_store", width(m), n)
	else if (m ~ /^s_(buffer_)?load_/) add("scalar_load", width(m), n)
	else if (m ~ /^ds_read_m32x16_b16$/) add("lds_matrix_read", 128, n)
	else if (m ~ /^ds_(read|write)2/) add(m ~ /read/ ? "lds_read" : "lds_write", "2x" width(m), n)
	else if (m ~ /^ds_(read|load)_/) add("lds_read", width(m), n)
	else if (m ~ /^ds_(write|store)_/) add("lds_write", width(m), n)
	else if (m ~ /^ds_(bpermute|permute|swizzle)_/) add("lds_permute", "-", n)
	else if (m ~ /^ds_/) add("lds_atomic", (m ~ /64/) ? 64 : 32, n)
	else if (m ~ /^v_(mfma|smfmac)_/) add("mfma", "-", n)
	else if (m ~ /^v_mmac_/) add("mmac", "-", n)
	else if (m ~ /^v_(wmma|swmmac)_/) add("wmma", "-", n)
	else if (m ~ /^v_accvgpr_/) add("acc_move", "-", n)
	else if (m ~ /^v_cvt_scale/) add("scaled_cvt", "-", n)
	else if (m ~ /^tensor_(load_to|store_from)_lds$/) add("bulk_copy", "-", n)
	else if (m ~ /^s_barrier/) add("barrier", "-", n)
	else if (m ~ /^s_wait/) add("waitcnt", "-", n)
}
END {
	for (k in out)
		print k, out[k]
}
