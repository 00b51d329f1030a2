/* The SASS scanner (sass.c): the one thing it exports. */
#ifndef TKO_ISA_SASS_H
#define TKO_ISA_SASS_H

#include "isa/isa.h"

extern const struct isa_scanner isa_sass;

#endif
