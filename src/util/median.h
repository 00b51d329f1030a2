/*
 * The median of a list of doubles, for the A/B's ratios (apply/ab.h,
 * apply/kwindow.h) and tune's disturbed rounds (tune/ci.h): one sort, one
 * definition of the even case (the mean of the middle two).
 *
 *	double m = median_in_place(v, n);	// v is sorted afterwards
 */
#ifndef TKO_UTIL_MEDIAN_H
#define TKO_UTIL_MEDIAN_H

#include <stddef.h>

/* The median of v[0..n), sorting v in place; NAN when n is 0. */
double median_in_place(double *v, size_t n);

#endif
