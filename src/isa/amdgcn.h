/* The AMDGCN scanner (amdgcn.c): the one thing it exports. */
#ifndef TKO_ISA_AMDGCN_H
#define TKO_ISA_AMDGCN_H

#include "isa/isa.h"

extern const struct isa_scanner isa_amdgcn;

#endif
