	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
	.globl	scaled_cvt
	.type	scaled_cvt,@function
scaled_cvt:
	global_load_dword v2, v[0:1], off
	s_waitcnt vmcnt(0)
	v_cvt_scalef32_f16_fp8 v1, v2, v3
	v_cvt_scalef32_pk_bf16_fp8 v0, v0, 1.0
	v_cvt_f32_f16 v4, v1
	global_store_dword v[0:1], v4, off
	s_endpgm
.Lfunc_end0:
	.size	scaled_cvt, .Lfunc_end0-scaled_cvt
