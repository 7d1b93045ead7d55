/*
 * conv_index.h: the convolution geometry every implicit-GEMM kernel reads (conv/conv_igemm.cl,
 * conv/conv_igemm_mma.cl) and the pixel decode of its GEMM row or reduction index; the tap decode
 * is also conv/conv_direct.cl's (its im2col).
 *
 * Everything about the shape is a kernel argument (CONV_GEOMETRY_ARGS): input and output sizes,
 * filter size, channels per group (Cg input, Kg output), paddings, strides, dilations, flip
 * (1 for CONVOLUTION mode: the activation side reads tap R-1-r, S-1-s), and the element strides
 * of x and y in n, c, h, w order. Divisions by runtime sizes go through the host's magic numbers
 * (CONV_DIVISOR_ARGS, common/fastdiv.h).
 */
#ifndef CLDNN_CONV_INDEX_H
#define CLDNN_CONV_INDEX_H

#include "common/fastdiv.h"

/* KORD: the filter's storage order, and so the order of a tap index (TAP_DECODE): 0 KCRS (c, r, s),
 * 1 KRSC (r, s, c). Every kernel that includes this header takes it as a build option. */
#ifndef KORD
#define KORD 0
#endif

/* A row position that every bounds check fails: far below zero, yet no overflow when a
 * dilated tap offset is added or subtracted. */
#define OUTSIDE (-(1 << 30))

/* The geometry every direction reads, as kernel arguments. */
#define CONV_GEOMETRY_ARGS                                                                          \
    int H, int Wd, int P, int Q, int R, int S, int Cg, int Kg, int pad_h, int pad_w, int su, int sv, \
        int dil_h, int dil_w, int flip, int4 xs, int4 ys
/* Divisors: pixel plane (P*Q or H*W), row (Q or W), tap set (R*S, or C/G or K/G for KORD 1, or
 * the padded channel run of TAPLOOP), S, and the strides u, v. */
#define CONV_DIVISOR_ARGS uint4 dv_plane, uint4 dv_row, uint4 dv_tap, uint4 dv_s, uint4 dv_u, uint4 dv_v

/* Decodes pixel index i over (image, row, column) with the plane and row divisors. */
#define PIXEL_DECODE(i, img, a, b)                                                                  \
    do {                                                                                            \
        img = fdiv((i), dv_plane);                                                                  \
        const int rem_ = (i) - img * (int)dv_plane.x;                                               \
        a = fdiv(rem_, dv_row);                                                                     \
        b = rem_ - a * (int)dv_row.x;                                                               \
    } while (0)

/* Advances pixel index i, decoded as (img, a, b) over planes of `rows` rows of dv_row.x, by
 * d >= 0 without a division. */
#define PIXEL_STEP(i, img, a, b, d, rows)                                                           \
    do {                                                                                            \
        i += (d);                                                                                   \
        b += (d);                                                                                   \
        while (b >= (int)dv_row.x) {                                                                \
            b -= (int)dv_row.x;                                                                     \
            if (++a == (rows)) {                                                                    \
                a = 0;                                                                              \
                ++img;                                                                              \
            }                                                                                       \
        }                                                                                           \
    } while (0)

/* Decodes tap index t into (channel within group, r, s) in the filter's storage order: KORD 0
 * (KCRS) c, r, s with dv_tap = R*S; KORD 1 (KRSC) r, s, c with dv_tap = the channels. */
#define TAP_DECODE(t, ch, r, s)                                                                     \
    do {                                                                                            \
        int rs_;                                                                                    \
        if (KORD == 0) {                                                                            \
            ch = fdiv((t), dv_tap);                                                                 \
            rs_ = (t) - ch * (int)dv_tap.x;                                                         \
        } else {                                                                                    \
            rs_ = fdiv((t), dv_tap);                                                                \
            ch = (t) - rs_ * (int)dv_tap.x;                                                         \
        }                                                                                           \
        r = fdiv(rs_, dv_s);                                                                        \
        s = rs_ - r * S;                                                                            \
    } while (0)

#endif
