/*
 * Reading the GPU management tools' text: hy-smi (Hygon DCU; its default
 * table in the new "HCU" and the old "DCU" layouts, plus per-card
 * "HCU[0] : key: value" lines and "Driver Version: ..." lines) and
 * nvidia-smi's --query-gpu CSV (asked for with SMI_NVIDIA_QUERY's fields,
 * "--format=csv,noheader,nounits").
 *
 * Input: the tool's stdout; output: one struct smi_device per card.
 * Numbers that a text does not give are NAN / -1, strings NULL.
 */
#ifndef TKO_ENV_SMI_H
#define TKO_ENV_SMI_H

#include <stddef.h>

#include "util/buf.h"

/* The --query-gpu fields nvsmi_parse_csv expects, in this order. */
#define SMI_NVIDIA_QUERY "index,name,compute_cap,driver_version,memory.total"

struct smi_device {
	long index;		/* the card's number */
	char *name;		/* "NVIDIA H200"; hy-smi's "Card Series" */
	char *arch;		/* "sm_90" (from compute_cap), or NULL */
	char *driver;		/* driver version, or NULL */
	char *perf;		/* hy-smi performance level ("high", "auto") */
	char *mode;		/* hy-smi mode ("Normal") */
	double temp_c;		/* temperature, degrees C */
	double power_w;		/* average power, W */
	double power_cap_w;	/* power cap, W */
	double vram_pct;	/* memory in use, % */
	double util_pct;	/* HCU/DCU busy, % */
	long long memory_bytes;	/* total device memory, or -1 */
};

struct smi {
	struct smi_device *dev;
	size_t nr, alloc;
	char *driver;		/* a driver version not tied to one card, or NULL */
};
#define SMI_INIT { NULL, 0, 0, NULL }

/* Returns 0, or -1 with a line in err when the text holds no card at all. */
int hysmi_parse(const char *p, size_t n, struct smi *s, struct buf *err);
int nvsmi_parse_csv(const char *p, size_t n, struct smi *s, struct buf *err);
void smi_release(struct smi *s);

#endif
