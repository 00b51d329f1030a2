/* The PTX scanner (ptx.c): the one thing it exports. */
#ifndef TKO_ISA_PTX_H
#define TKO_ISA_PTX_H

#include "isa/isa.h"

extern const struct isa_scanner isa_ptx;

#endif
