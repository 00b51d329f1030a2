/* tko's version; bumped by hand at releases. */
#ifndef TKO_VERSION_H
#define TKO_VERSION_H
#define TKO_VERSION "0.1.0"
#endif
