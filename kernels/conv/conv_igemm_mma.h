/*
 * conv_igemm_mma.h: the convolution's operand loaders and output maps for the tensor-core GEMM
 * family (gemm/gemm_mma.cl's hooks MMA_BLOCK_SETUP, MMA_COPY_STAGE, MMA_STORE). Included by
 * conv/conv_igemm_mma.cl before the family's body; written in the subset of C that OpenCL C
 * shares, so a host test can run the same maps on emulated local tiles (tests/test_conv_mma.c).
 *
 * The GEMMs are conv/conv_igemm.cl's, per group g (grid dimension 2 = groups x splits):
 *   DIR 0 forward    M = N*P*Q output pixels, N = K/G, KR = R*S*CP, CP = C/G rounded up to MMA_BK
 *                    A = x gathered, B = w, C -> y
 *   DIR 1 bwd-data   M = N*H*W input pixels,  N = C/G, KR = R*S*CP, CP = K/G rounded up to MMA_BK
 *                    A = dy gathered, B = w, C -> dx
 *   DIR 2 bwd-filter M = K/G output channels, N = C/G*R*S taps (filter order), KR = N*P*Q pixels
 *                    A = dy, B = x gathered (im2col view), C -> dw, or with nsplit > 1 the
 *                    split's partial sums (Part, split-major, K x C/G*R*S each; the host adds
 *                    them, alpha and beta included)
 * Forward and backward-data run the reduction tap by tap (TAPLOOP): k = rs * CP + ch, so a k-tile
 * is one filter tap and MMA_BK consecutive channels (CP is a multiple of MMA_BK). The tap is
 * decoded once per tile; each chunk of the gathered operand is then one bounds check and one
 * multiply-add of address, and the filter tile is a strided matrix at the tap's base.
 * Backward-filter decodes one pixel per operand and tile and steps it from chunk to chunk
 * (PIXEL_STEP: the chunks of a work-item sit a fixed distance apart along k); its taps (the B
 * rows a work-item copies) are decoded once.
 *
 * Chunks: a work-item copies the chunks tid + i * MMA_NT of each tile, a chunk being a run of VW
 * elements along the tile's unit-stride dimension (RUNIT 1: along m or n; 0: along k), copied by
 * one mma_copy_vw (a 16-byte cp.async for a run of 16 bytes; a single float is a 4-byte cp.async,
 * a single half a plain 2-byte copy) whose source size is 0 for padding, for channels past C/G
 * (K/G) and for rows past M (N): the local tile is zero there. Row parts of the gathered operand
 * (image base, first input row and column) are decoded once per work-item.
 *
 * Elements: MMA_ET and MMA_ES (gemm_mma.cl's element type and size) in the tiles and the copies:
 * floats, or with -DDATA_HALF=1 / -DDATA_BF16=1 raw 16-bit patterns (x, w, y half or bfloat16 in
 * memory, FP16 or BF16 mma); the stores (CONV_STORE_AB) read and write the output through
 * common/helpers.h's LOAD and STORE (rounded once), and backward-filter's partial sums (Part) stay
 * float.
 *
 * Options (besides gemm_mma.cl's; the host checks every combination):
 *   DIR        0, 1 or 2 as above
 *   KORD       0: KCRS filter, 1: KRSC
 *   A_TRANS    A's local layout, 1 [m][k] or 0 [k][m]; runs along k or m accordingly. DIR 0/1:
 *              1 for channels-last activations (runs along the channels), 0 for NCHW (single
 *              pixels). DIR 2: 0 for NHWC dy (runs along the output channels), 1 for NCHW
 *   B_TRANS    B's local layout: 0 [n][k], 1 [k][n] (bwd-data's KRSC: unit along c; DIR 2 always
 *              1, runs along the taps: the channels of a KRSC tap in NHWC x)
 *   CONV_AVW   elements per chunk of A: 16 bytes (4 floats, 8 halves) only with runs along the
 *              activations' channels (A_TRANS 1, or DIR 2's A_TRANS 0), channels, strides and
 *              offset multiples of it (16-byte aligned runs); else 1                          [1]
 *   CONV_BVW   elements per chunk of B: 16 bytes only along the filter's unit stride (DIR 2:
 *              a KRSC tap's channels in NHWC x), likewise; else 1                              [1]
 *   MMA_EPI_MFAST  gemm_mma.cl's store order: 1 along m (NCHW y / dx), 0 along n (channels-last,
 *              dw)                                                                  [DIR != 2]
 * DIR 0/1 runs along m are single elements (CONV_AVW 1 with A_TRANS 0). Index arithmetic is
 * 32-bit: the host guarantees every tensor spans fewer than 2^31 elements. The options appear in
 * expressions, never in #if, so the host test can give them as variables.
 */
#ifndef CLDNN_CONV_IGEMM_MMA_H
#define CLDNN_CONV_IGEMM_MMA_H

#include "common/conv_index.h"
#include "common/epilogue.h" /* EPI_SETUP, EPI_APPLY (no-ops unless EPI_ACT is defined) */

#ifndef DIR
#define DIR 0
#endif
#ifndef CONV_AVW
#define CONV_AVW 1
#endif
#ifndef CONV_BVW
#define CONV_BVW 1
#endif
#ifndef MMA_EPI_MFAST /* the staged store's order (gemm_mma.cl): along n for dw, else the host's */
#define MMA_EPI_MFAST (DIR != 2)
#endif
#ifndef MMA_UNROLL
#define MMA_UNROLL _Pragma("unroll")
#endif
/* Loops over a work-item's chunks of a stage: unrolled for 16-bit data, whose single-element copies are
 * a plain load and store (a rolled loop would wait for each load before issuing the next); FLOAT's
 * cp.async copies do not wait, and its loops stay rolled. */
#ifndef CONV_CHUNK_UNROLL
#if DATA_H != 0
#define CONV_CHUNK_UNROLL MMA_UNROLL
#else
#define CONV_CHUNK_UNROLL
#endif
#endif

/* Chunk geometry of an R x MMA_BK tile copied in runs of VW along r (RUNIT) or k. */
#define CONV_ROWCH_OF(R, VW, RUNIT) ((RUNIT) ? (R) / (VW) : MMA_BK / (VW))
#define CONV_CHUNK_R(R, VW, RUNIT, c)                                                               \
    ((RUNIT) ? ((c) % CONV_ROWCH_OF(R, VW, RUNIT)) * (VW) : (c) / CONV_ROWCH_OF(R, VW, RUNIT))
#define CONV_CHUNK_K(R, VW, RUNIT, c)                                                               \
    ((RUNIT) ? (c) / CONV_ROWCH_OF(R, VW, RUNIT) : ((c) % CONV_ROWCH_OF(R, VW, RUNIT)) * (VW))
#define CONV_CHUNKS(R, VW) ((R) * MMA_BK / ((VW) * MMA_NT))
/* When the work-group is a multiple of a tile row's chunks, chunk i + 1 of a work-item sits
 * CONV_KSTEP further along k than chunk i (runs along r; 0 for runs along k). */
#define CONV_KSTEP_OK(R, VW, RUNIT) (MMA_NT % CONV_ROWCH_OF(R, VW, RUNIT) == 0)
#define CONV_KSTEP(R, VW, RUNIT) ((RUNIT) ? MMA_NT / CONV_ROWCH_OF(R, VW, RUNIT) : 0)

#define CONV_A_RUNIT (!A_TRANS)
#define CONV_B_RUNIT (B_TRANS)
#define CONV_A_CHUNKS CONV_CHUNKS(MMA_BM, CONV_AVW)
#define CONV_B_CHUNKS CONV_CHUNKS(MMA_BN, CONV_BVW)
/* With runs along m and the work-group a multiple of a tile row's chunks, every A chunk of a
 * work-item lies on the same row: one row part. */
#define CONV_A_SAME_ROW (CONV_A_RUNIT && (MMA_NT % CONV_ROWCH_OF(MMA_BM, CONV_AVW, CONV_A_RUNIT)) == 0)
#define CONV_A_ROWS (CONV_A_SAME_ROW ? 1 : CONV_A_CHUNKS)
/* Backward-filter's B rows (taps) likewise. */
#define CONV_B_SAME_ROW (CONV_B_RUNIT && (MMA_NT % CONV_ROWCH_OF(MMA_BN, CONV_BVW, CONV_B_RUNIT)) == 0)
#define CONV_B_ROWS (DIR == 2 && !CONV_B_SAME_ROW ? CONV_B_CHUNKS : 1)

/* Per direction: the reduction's channels (a tap's run), the gathered activations, their
 * strides and the group's first channel in them, and the filter's strides along n and k. */
#define CONV_CH (DIR == 0 ? Cg : Kg)
#define CONV_SRC (DIR == 0 ? X : Y)
#define CONV_SRC_S(c) (DIR == 0 ? xs.c : ys.c)
#define CONV_SRC_C0 (DIR == 0 ? grp * Cg : grp * Kg)
#define CONV_B_SN (DIR == 0 ? CgRS : KORD ? 1 : R * S)
#define CONV_B_SK (DIR == 0 ? (KORD ? 1 : R * S) : CgRS)

/* Row part of A row m (pixel img, a, b: output pixel for DIR 0, input pixel for DIR 1): the
 * image's base in the activations and the first row and column the taps offset. */
#define CONV_ROW_H0(m, a) ((m) < M ? (DIR == 0 ? (a) * su - pad_h : (a) + pad_h) : OUTSIDE)
#define CONV_ROW_W0(b) (DIR == 0 ? (b) * sv - pad_w : (b) + pad_w)

#define MMA_BLOCK_SETUP()                                                                           \
    const int grp = (int)(get_group_id(2) % (size_t)groups);                                        \
    const int split = (int)(get_group_id(2) / (size_t)groups);                                      \
    const int m0 = (int)get_group_id(0) * MMA_BM, n0 = (int)get_group_id(1) * MMA_BN;               \
    const int kb = split * ksplit;                                                                  \
    const int ke = kb + min(KR - kb, ksplit);                                                       \
    X += x_off;                                                                                     \
    Wt += w_off;                                                                                    \
    Y += y_off;                                                                                     \
    EPI_SETUP(0);                                                                                   \
    Part += part_off;                                                                               \
    const int CgRS = Cg * R * S;                                                                    \
    __global const MMA_ET* const Bp = Wt + grp * Kg * CgRS;                                         \
    int a_pb[CONV_A_ROWS], a_h0[CONV_A_ROWS], a_w0[CONV_A_ROWS];                                    \
    MMA_UNROLL for (int i_ = 0; i_ < CONV_A_ROWS; ++i_) {                                           \
        const int m_ = m0 + CONV_CHUNK_R(MMA_BM, CONV_AVW, CONV_A_RUNIT, tid + i_ * MMA_NT);        \
        int img_, a_, b_;                                                                           \
        PIXEL_DECODE(m_, img_, a_, b_);                                                             \
        a_pb[i_] = img_ * CONV_SRC_S(s0) + CONV_SRC_C0 * CONV_SRC_S(s1);                            \
        a_h0[i_] = CONV_ROW_H0(m_, a_);                                                             \
        a_w0[i_] = CONV_ROW_W0(b_);                                                                 \
    }                                                                                               \
    int b_tb[CONV_B_ROWS], b_rd[CONV_B_ROWS], b_sd[CONV_B_ROWS];                                    \
    MMA_UNROLL for (int i_ = 0; i_ < CONV_B_ROWS; ++i_) {                                           \
        const int n_ = n0 + CONV_CHUNK_R(MMA_BN, CONV_BVW, CONV_B_RUNIT, tid + i_ * MMA_NT);        \
        int c_, r_, s_;                                                                             \
        TAP_DECODE(n_, c_, r_, s_);                                                                 \
        b_tb[i_] = (grp * Cg + c_) * xs.s1;                                                         \
        b_rd[i_] = n_ < N ? (flip ? R - 1 - r_ : r_) * dil_h : OUTSIDE;                             \
        b_sd[i_] = (flip ? S - 1 - s_ : s_) * dil_w;                                                \
    }

/* Element (row part ri, channel ch) of A at the tap offsets (rd, sd): sets ok and, when ok, off
 * (the element's index in CONV_SRC). dx(ih, iw) of DIR 1 gathers dy(oh, ow) with
 * oh * u = ih + pad_h - rd (and likewise for w). */
#define CONV_A_ELEMENT(ri, ch, rd, sd, ok, off)                                                     \
    do {                                                                                            \
        if (DIR == 0) {                                                                             \
            const int ih_ = a_h0[ri] + (rd), iw_ = a_w0[ri] + (sd);                                 \
            ok = (ch) < Cg && (uint)ih_ < (uint)H && (uint)iw_ < (uint)Wd;                          \
            off = ok ? a_pb[ri] + (ch) * xs.s1 + ih_ * xs.s2 + iw_ * xs.s3 : 0;                     \
        } else {                                                                                    \
            const int th_ = a_h0[ri] - (rd), tw_ = a_w0[ri] - (sd);                                 \
            const int oh_ = fdiv(max(th_, 0), dv_u), ow_ = fdiv(max(tw_, 0), dv_v);                 \
            ok = (ch) < Kg && th_ >= 0 && tw_ >= 0 && oh_ * su == th_ && ow_ * sv == tw_ && oh_ < P && \
                 ow_ < Q;                                                                           \
            off = ok ? a_pb[ri] + (ch) * ys.s1 + oh_ * ys.s2 + ow_ * ys.s3 : 0;                     \
        }                                                                                           \
    } while (0)

/* Chunk i of A's tile at the tap offsets (rd, sd) and first channel c0, row part ri. */
#define CONV_A_CHUNK(as, i, ri, c0, rd, sd)                                                         \
    do {                                                                                            \
        const int c_ = tid + (i) * MMA_NT;                                                          \
        const int ar_ = CONV_CHUNK_R(MMA_BM, CONV_AVW, CONV_A_RUNIT, c_);                           \
        const int ak_ = CONV_CHUNK_K(MMA_BM, CONV_AVW, CONV_A_RUNIT, c_);                           \
        int ok_, off_;                                                                              \
        CONV_A_ELEMENT(ri, (c0) + ak_, rd, sd, ok_, off_);                                          \
        mma_copy_vw((as) + AS(ar_, ak_), ok_ ? CONV_SRC + off_ : CONV_SRC, ok_ ? MMA_ES * CONV_AVW : 0, CONV_AVW); \
    } while (0)

/* The k-tile at k0: tap rs_ and first channel c0_, then A's chunks (gathered) and B's (the
 * filter at the tap: B(ch, n) = Bp[tap + n * CONV_B_SN + ch * CONV_B_SK], inside N x CONV_CH). */
#define MMA_COPY_STAGE(as, bs, k0)                                                                  \
    do {                                                                                            \
        if (DIR == 2)                                                                               \
            CONV_BWF_STAGE(as, bs, k0);                                                             \
        else                                                                                        \
            CONV_TAP_STAGE(as, bs, k0);                                                             \
    } while (0)

/* Forward and backward-data. */
#define CONV_TAP_STAGE(as, bs, k0)                                                                  \
    do {                                                                                            \
        const int rs_ = fdiv((k0), dv_tap), c0_ = (k0) - rs_ * (int)dv_tap.x;                       \
        const int r_ = fdiv(rs_, dv_s), s_ = rs_ - r_ * S;                                          \
        const int rd_ = (flip ? R - 1 - r_ : r_) * dil_h, sd_ = (flip ? S - 1 - s_ : s_) * dil_w;   \
        if (CONV_A_SAME_ROW) {                                                                      \
            CONV_CHUNK_UNROLL for (int i_ = 0; i_ < CONV_A_CHUNKS; ++i_)                            \
                CONV_A_CHUNK(as, i_, 0, c0_, rd_, sd_);                                             \
        } else {                                                                                    \
            MMA_UNROLL for (int i_ = 0; i_ < CONV_A_CHUNKS; ++i_)                                   \
                CONV_A_CHUNK(as, i_, i_, c0_, rd_, sd_);                                            \
        }                                                                                           \
        __global const MMA_ET* const bt_ = Bp + (KORD ? rs_ * Cg : rs_);                            \
        CONV_CHUNK_UNROLL for (int i_ = 0; i_ < CONV_B_CHUNKS; ++i_) {                              \
            const int c_ = tid + i_ * MMA_NT;                                                       \
            const int br_ = CONV_CHUNK_R(MMA_BN, CONV_BVW, CONV_B_RUNIT, c_);                       \
            const int bk_ = CONV_CHUNK_K(MMA_BN, CONV_BVW, CONV_B_RUNIT, c_);                       \
            const int n_ = n0 + br_, ch_ = c0_ + bk_;                                               \
            const int cnt_ = CONV_B_RUNIT ? (ch_ < CONV_CH ? clamp(N - n_, 0, CONV_BVW) : 0)        \
                                          : (n_ < N ? clamp(CONV_CH - ch_, 0, CONV_BVW) : 0);       \
            mma_copy_vw((bs) + BS(br_, bk_), cnt_ > 0 ? bt_ + n_ * CONV_B_SN + ch_ * CONV_B_SK : bt_, \
                        MMA_ES * cnt_, CONV_BVW);                                                   \
        }                                                                                           \
    } while (0)

/* Backward-filter: A(m, kk) = dy(pixel kk, channel m of the group), B(kk, n) = x at pixel kk's
 * window position for tap n (row part bi of this work-item), both zero past the split's end ke. */
#define CONV_BWF_STAGE(as, bs, k0)                                                                  \
    do {                                                                                            \
        if (CONV_KSTEP_OK(MMA_BM, CONV_AVW, CONV_A_RUNIT)) {                                        \
            int kk_ = (k0) + CONV_CHUNK_K(MMA_BM, CONV_AVW, CONV_A_RUNIT, tid), img_, oh_, ow_;     \
            PIXEL_DECODE(kk_, img_, oh_, ow_);                                                      \
            CONV_CHUNK_UNROLL for (int i_ = 0; i_ < CONV_A_CHUNKS; ++i_) {                          \
                CONV_BWF_A_CHUNK(as, i_, kk_, img_, oh_, ow_);                                      \
                PIXEL_STEP(kk_, img_, oh_, ow_, CONV_KSTEP(MMA_BM, CONV_AVW, CONV_A_RUNIT), P);     \
            }                                                                                       \
        } else {                                                                                    \
            CONV_CHUNK_UNROLL for (int i_ = 0; i_ < CONV_A_CHUNKS; ++i_) {                          \
                const int kk_ = (k0) + CONV_CHUNK_K(MMA_BM, CONV_AVW, CONV_A_RUNIT, tid + i_ * MMA_NT); \
                int img_, oh_, ow_;                                                                 \
                PIXEL_DECODE(kk_, img_, oh_, ow_);                                                  \
                CONV_BWF_A_CHUNK(as, i_, kk_, img_, oh_, ow_);                                      \
            }                                                                                       \
        }                                                                                           \
        if (CONV_B_SAME_ROW) { /* B runs along n: then the chunks' k step by CONV_KSTEP */          \
            int kk_ = (k0) + CONV_CHUNK_K(MMA_BN, CONV_BVW, CONV_B_RUNIT, tid), img_, oh_, ow_;     \
            PIXEL_DECODE(kk_, img_, oh_, ow_);                                                      \
            CONV_CHUNK_UNROLL for (int i_ = 0; i_ < CONV_B_CHUNKS; ++i_) {                          \
                CONV_BWF_B_CHUNK(bs, i_, 0, kk_, img_, oh_, ow_);                                   \
                PIXEL_STEP(kk_, img_, oh_, ow_, CONV_KSTEP(MMA_BN, CONV_BVW, CONV_B_RUNIT), P);     \
            }                                                                                       \
        } else {                                                                                    \
            MMA_UNROLL for (int i_ = 0; i_ < CONV_B_CHUNKS; ++i_) {                                 \
                const int kk_ = (k0) + CONV_CHUNK_K(MMA_BN, CONV_BVW, CONV_B_RUNIT, tid + i_ * MMA_NT); \
                int img_, oh_, ow_;                                                                 \
                PIXEL_DECODE(kk_, img_, oh_, ow_);                                                  \
                CONV_BWF_B_CHUNK(bs, i_, i_, kk_, img_, oh_, ow_);                                  \
            }                                                                                       \
        }                                                                                           \
    } while (0)
/* Chunk i of backward-filter's A tile; its pixel kk = (img, oh, ow). */
#define CONV_BWF_A_CHUNK(as, i, kk, img, oh, ow)                                                    \
    do {                                                                                            \
        const int c_ = tid + (i) * MMA_NT;                                                          \
        const int ar_ = CONV_CHUNK_R(MMA_BM, CONV_AVW, CONV_A_RUNIT, c_);                           \
        const int ak_ = CONV_CHUNK_K(MMA_BM, CONV_AVW, CONV_A_RUNIT, c_);                           \
        const int m_ = m0 + ar_;                                                                    \
        const int ok_ = m_ < M && (kk) < ke;                                                        \
        const int off_ = ok_ ? (img) * ys.s0 + (grp * Kg + m_) * ys.s1 + (oh) * ys.s2 + (ow) * ys.s3 : 0; \
        mma_copy_vw((as) + AS(ar_, ak_), ok_ ? Y + off_ : Y, ok_ ? MMA_ES * CONV_AVW : 0, CONV_AVW); \
    } while (0)
/* Chunk i of backward-filter's B tile, tap row part bi; its pixel kk = (img, oh, ow). */
#define CONV_BWF_B_CHUNK(bs, i, bi, kk, img, oh, ow)                                                \
    do {                                                                                            \
        const int c_ = tid + (i) * MMA_NT;                                                          \
        const int br_ = CONV_CHUNK_R(MMA_BN, CONV_BVW, CONV_B_RUNIT, c_);                           \
        const int bk_ = CONV_CHUNK_K(MMA_BN, CONV_BVW, CONV_B_RUNIT, c_);                           \
        const int ih_ = (oh) * su - pad_h + b_rd[bi], iw_ = (ow) * sv - pad_w + b_sd[bi];           \
        const int ok_ = (kk) < ke && (uint)ih_ < (uint)H && (uint)iw_ < (uint)Wd;                   \
        const int off_ = ok_ ? (img) * xs.s0 + b_tb[bi] + ih_ * xs.s2 + iw_ * xs.s3 : 0;            \
        mma_copy_vw((bs) + BS(br_, bk_), ok_ ? X + off_ : X, ok_ ? MMA_ES * CONV_BVW : 0, CONV_BVW); \
    } while (0)

/* C(m, n) = alpha * sum + beta * C(m, n) into y (DIR 0: output pixel m, channel n of the group)
 * or dx (DIR 1: input pixel m, channel n); beta == 0 does not read it. */
#define CONV_OUT (DIR == 0 ? Y : X)
#define CONV_OUT_S(c) (DIR == 0 ? ys.c : xs.c)
#define CONV_OUT_C0 (DIR == 0 ? grp * Kg : grp * Cg)
#define MMA_STORE(sum, m, n)                                                                        \
    do {                                                                                            \
        if (DIR == 2)                                                                               \
            CONV_STORE_DW(sum, m, n);                                                               \
        else                                                                                        \
            CONV_STORE_PIXEL(sum, m, n);                                                            \
    } while (0)
/* out[oi] = alpha * sum + beta * out[oi], not reading out when beta == 0, then (forward, where
 * built in) the fused epilogue of output channel ch (common/epilogue.h; y's element oi is z's);
 * out is a tensor of MMA_ET (raw bits for halves), read and written as its storage type (half:
 * rounded once). */
#define CONV_STORE_AB(out, oi, sum, ch)                                                             \
    do {                                                                                            \
        __global STORAGE_T* const o_ = (__global STORAGE_T*)(out);                                  \
        const int oi_ = (oi);                                                                       \
        float r_ = alpha * (sum);                                                                   \
        if (beta != 0.0f)                                                                           \
            r_ = fma(beta, LOAD(o_, oi_), r_);                                                      \
        if (DIR == 0)                                                                               \
            EPI_APPLY(r_, ch, oi_);                                                                 \
        STORE(o_, oi_, r_);                                                                         \
    } while (0)
/* dw(k = m of the group, tap n), or the split's partial sum. */
#define CONV_STORE_DW(sum, m, n)                                                                    \
    do {                                                                                            \
        if (nsplit > 1) {                                                                           \
            Part[((split * groups + grp) * Kg + (m)) * CgRS + (n)] = (sum);                         \
        } else {                                                                                    \
            CONV_STORE_AB(Wt, (grp * Kg + (m)) * CgRS + (n), sum, 0);                               \
        }                                                                                           \
    } while (0)
#define CONV_STORE_PIXEL(sum, m, n)                                                                 \
    do {                                                                                            \
        int img_, a_, b_;                                                                           \
        PIXEL_DECODE((m), img_, a_, b_);                                                            \
        CONV_STORE_AB(CONV_OUT,                                                                     \
                      img_ * CONV_OUT_S(s0) + (CONV_OUT_C0 + (n)) * CONV_OUT_S(s1) + a_ * CONV_OUT_S(s2) + \
                          b_ * CONV_OUT_S(s3),                                                      \
                      sum, CONV_OUT_C0 + (n));                                                      \
    } while (0)

#endif
