/*
 * apply/loss: the loss check of tko apply --ab (docs/apply.md, "The
 * loss check"): is an arm's per-step loss the default arm's?
 *
 * A step's difference is taken relative to the larger of the reference's
 * loss at that step and a floor, APPLY_LOSS_FLOOR of the reference run's
 * largest |loss| (its scale): like torch.allclose's atol + rtol, the atol
 * derived from the run's own loss scale.
 *
 * Why a floor: a training loss in fp32 (a cross-entropy, a mean of terms)
 * is computed from terms of the size of its early values, and its
 * rounding error is of that size times the epsilon, amplified by every
 * step that follows; it does not shrink with the loss. Once the loss has
 * fallen by orders of magnitude that error is a large part of it. On the
 * H200 (tests/corpus/h200-apply-1205/second-*: 250 AdamW steps,
 * the loss from 10.54 to 3.8e-7) any change of config, Inductor's own
 * coordinate descent included, moved a step's loss by at most 5.7e-6 of
 * the scale, yet by 11% of the loss where it was 4e-5. Relative to the
 * loss alone, every such change fails any useful tolerance; relative to
 * the scale alone, a 5% change early in training passes.
 *
 * Why 1%: above it (the first two orders of magnitude of the descent,
 * where a different result shows) the check is plainly relative; below
 * it a step may differ by rtol * 1% of the scale (1e-5 of it at the
 * default 1e-3). The corpus's worst step then reads 2.9e-4 (coordesc) and
 * 1.4e-4 (applied), a third of the default tolerance or less; a floor of
 * 0.1% would read 1.09e-3 on coordesc and fail it; one of 10% would check
 * every loss below a tenth of the scale against 1e-4 of the scale, so a
 * loss at 1% of the scale could be 1% off and pass.
 */
#ifndef TKO_APPLY_LOSS_H
#define TKO_APPLY_LOSS_H

#include <jansson.h>

#define APPLY_LOSS_FLOOR 0.01

/*
 * The scale of the reference losses b: max_i |b_i|; NAN when b is empty
 * or one of its losses is missing (null) or not a finite number.
 */
double apply_loss_scale(const json_t *b);

/*
 * The largest difference of losses a from the reference b, step by step:
 * max_i |a_i - b_i| / max(|b_i|, APPLY_LOSS_FLOOR * scale(b), 1e-12), the
 * last bound only for a reference of zeros. NAN when the lists are empty,
 * differ in length, or a loss of either is missing or not finite: the
 * losses cannot be compared, which is not a verdict either way.
 */
double apply_loss_diff(const json_t *a, const json_t *b);

#endif
