	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
	.globl	tdm_copy
	.type	tdm_copy,@function
tdm_copy:
	tensor_load_to_lds s[0:3], s[4:11]
	tensor_load_to_lds s[0:3], s[4:11], s[12:15], s[16:19] th:TH_LOAD_NT_HT scope:SCOPE_DEV
	v_cvt_scale_pk8_f16_fp8 v[10:13], v[20:21], v8
	tensor_store_from_lds s[0:3], s[4:11]
	s_endpgm
.Lfunc_end0:
	.size	tdm_copy, .Lfunc_end0-tdm_copy
