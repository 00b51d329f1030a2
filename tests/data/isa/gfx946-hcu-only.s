	.amdgcn_target "amdgcn-amd-amdhsa--gfx946"
	.text
	.globl	hcu_only
	.type	hcu_only,@function
hcu_only:
	s_abarrier_try_wait s0, 3, s1
	s_waitcnt_vbcnt 4
	s_waitcnt_vbcnt 0
	ds_scale_copy_ds2buf v1, v2
	ds_scale_copy_buf2ds v1, v2
	ds_add_u32 v2, v3
	s_waitcnt lgkmcnt(0)
	s_set_vgpr_size 40
	s_endpgm
.Lfunc_end0:
	.size	hcu_only, .Lfunc_end0-hcu_only
