/*
 * epilogue.h: the fused epilogue of the kernels that write a convolution's y (the implicit
 * GEMMs, the GEMM and its split-k reduction for the 1x1 and im2col paths, Winograd's output
 * passes, the depthwise direct kernels): cldnnConvolutionBiasActivationForward's
 *     y = act(alpha1 * conv(x, w) + alpha2 * z + bias[k])
 * applied to each output in registers just before its store, so the fused call costs the plain
 * convolution's pass plus the reads of z and of the bias.
 *
 * Build options (absent: no epilogue, and the kernels are exactly the plain ones)
 *   EPI_ACT   the activation (a cldnnActivationMode_t number; common/activation.h's math, its
 *             switch folded at compile time); defining it turns the epilogue on
 *   EPI_Z     1: add alpha2 * z (z has y's strides; the host passes 0 when alpha2 == 0, and z is
 *             then never read)
 *   EPI_H     storage flag of bias and z (common/helpers.h; default DATA_H: y's)
 * The epilogue's arguments, appended LAST to the kernel's list (EPI_PARAMS; the host sets them
 * from the kernel's argument count): bias and its offset, z and its offset (elements), alpha2,
 * the activation's coef, swish beta and NaN propagation.
 *
 * A kernel declares EPI_PARAMS after its own arguments, runs EPI_SETUP(shift) once (z advanced by
 * shift, the elements the kernel's y pointer moved past y's offset), then EPI_APPLY(v, ch, zi) on
 * each finished value v of output channel ch at element zi of the moved y pointer. z may be y
 * itself: each output reads its own z element before the same work-item stores it.
 */
#ifndef CLDNN_EPILOGUE_H
#define CLDNN_EPILOGUE_H

#ifdef EPI_ACT
#include "common/activation.h"

#ifndef EPI_Z
#define EPI_Z 0
#endif
#ifndef EPI_H
#define EPI_H DATA_H
#endif

#define EPI_PARAMS                                                                                    \
    , __global const STORAGE_OF(EPI_H)* epi_bias, ulong epi_bias_off, __global const STORAGE_OF(EPI_H)* epi_z, \
        ulong epi_z_off, float epi_alpha2, float epi_coef, float epi_swish, int epi_nanprop
#define EPI_SETUP(shift)                                                                              \
    do {                                                                                              \
        epi_bias += epi_bias_off;                                                                     \
        epi_z += epi_z_off + (shift);                                                                 \
    } while (0)
#define EPI_APPLY(v, ch, zi)                                                                          \
    ((v) = epi_apply((v), (ch), (zi), epi_bias, epi_z, epi_alpha2, epi_coef, epi_swish, epi_nanprop))

inline float epi_apply(float v, int ch, long zi, __global const STORAGE_OF(EPI_H)* bias,
                       __global const STORAGE_OF(EPI_H)* z, float alpha2, float coef, float swish, int nanprop) {
#if EPI_Z
    v = fma(alpha2, LOAD_OF(EPI_H, z, zi), v);
#else
    (void)z, (void)zi, (void)alpha2;
#endif
    return act_forward(EPI_ACT, v + LOAD_OF(EPI_H, bias, ch), coef, swish, nanprop);
}
#else
#define EPI_PARAMS
#define EPI_SETUP(shift) ((void)0)
#define EPI_APPLY(v, ch, zi) ((void)0)
#endif

#endif
