/*
 * attn_common.h: what the attention kernels (attn.cl, the portable ones, and attn_mma.cl, the
 * tensor-core ones) share: one argument list, so that the host binds either through one launcher,
 * tensor addressing, the causal mask and the dropout's factor (cldnnDropout's mask).
 */
#ifndef CLDNN_ATTN_COMMON_H
#define CLDNN_ATTN_COMMON_H
#include "common/philox.h"

#define ATTN_ARGS                                                                                              \
    const int B, const int H, const int HKV, const int SQ, const int SK, const int causal, const float scale,   \
        const float sc2, const int has_stats, __global STORAGE_T* q, const ulong q_off, const long4 q_st,        \
        __global STORAGE_T* k, const ulong k_off, const long4 k_st, __global STORAGE_T* v, const ulong v_off,   \
        const long4 v_st, __global STORAGE_T* o, const ulong o_off, const long4 o_st, __global STORAGE_T* dout, \
        const ulong do_off, const long4 do_st, __global float* st, const ulong st_off, const long4 st_st,        \
        __global STORAGE_T* dq, const ulong dq_off, const long4 dq_st, __global STORAGE_T* dk,                  \
        const ulong dk_off, const long4 dk_st, __global STORAGE_T* dv, const ulong dv_off, const long4 dv_st,   \
        __global float* ws, const ulong ws_off, const uint4 gen, const uint thresh, const float rscale

/* Element (b, h, s, x) of a 4-d tensor with strides st from base offset off. */
#define AT(off, st, b, h, s, x) \
    ((long)(off) + (long)(b) * (st).s0 + (long)(h) * (st).s1 + (long)(s) * (st).s2 + (long)(x) * (st).s3)

/* Whether key j is visible from query i (bottom-right aligned causal mask). */
#define VISIBLE(i, j) ((i) < SQ && (j) < SK && (!causal || (j) <= (i) + (SK - SQ)))

#if DROPOUT
/* Z of element (bh, i, j): 1/(1-p) when kept, 0 when dropped (cldnnDropout's mask). */
inline float drop_z(uint4 gen, uint thresh, float rscale, ulong bh, int SQ, int SK, int i, int j) {
    uint g4[4] = {gen.s0, gen.s1, gen.s2, gen.s3}, blk[4];
    ulong cached = ~(ulong)0, idx = (bh * (ulong)SQ + (ulong)i) * (ulong)SK + (ulong)j;
    return philox_dropout_keep(blk, &cached, g4, thresh, idx) ? rscale : 0.0f;
}
#define DROP_Z(bh, i, j) drop_z(gen, thresh, rscale, (bh), SQ, SK, (i), (j))
#else
#define DROP_Z(bh, i, j) 1.0f
#endif

/* Keys a query block [i0, i0 + br) sees: [0, kend). */
inline int keys_end(int causal, int SQ, int SK, int i0, int br) {
    if (!causal)
        return SK;
    int e = i0 + br + (SK - SQ);
    return e < 0 ? 0 : e < SK ? e : SK;
}

/* attn_mma.cl's dQ sums under DQ_ATOMIC: FP32 rows of the head dims padded to 16, in the workspace
 * after Di (whose B*H*Sq floats round up to 4). */
#define DQ_PITCH ((HEAD_D + 15) / 16 * 16)
#define DQ_BASE(B, H, SQ) (((ulong)(B) * (ulong)(H) * (ulong)(SQ) + 3) & ~(ulong)3)

/* Di = sum over dv of dO * O, one lane per row (b, h, i) in row-major order, any work-group size:
 * the backward's first kernel in both programs (attn_mma.cl's where O's rows are not 16-byte
 * aligned); under DQ_ATOMIC it zeroes the dQ sums too, a lane every rows-th float. */
__kernel void attn_bwd_dot(ATTN_ARGS) {
    (void)q, (void)q_off, (void)q_st, (void)k, (void)k_off, (void)k_st, (void)v, (void)v_off, (void)v_st;
    (void)st, (void)st_off, (void)st_st, (void)dq, (void)dq_off, (void)dq_st, (void)dk, (void)dk_off;
    (void)dk_st, (void)dv, (void)dv_off, (void)dv_st, (void)HKV, (void)SK, (void)causal, (void)scale, (void)sc2;
    (void)has_stats, (void)gen, (void)thresh, (void)rscale;
    const ulong row = get_global_id(0);
    if (row >= (ulong)B * (ulong)H * (ulong)SQ)
        return;
    const int i = (int)(row % (ulong)SQ), bh = (int)(row / (ulong)SQ), h = bh % H, b = bh / H;
    const long ob = AT(o_off, o_st, b, h, i, 0), db = AT(do_off, do_st, b, h, i, 0);
    float sum = 0.0f;
    for (int x = 0; x < HEAD_DV; ++x)
        sum = fma(LOAD(dout, db + x * do_st.s3), LOAD(o, ob + x * o_st.s3), sum);
    ws[ws_off + row] = sum;
#if DQ_ATOMIC
    /* the sums are rows x DQ_PITCH floats: lane r zeroes r, r + rows, ..., so that a warp's stores
     * are consecutive (a row per lane would scatter them) */
    const ulong rows = (ulong)B * (ulong)H * (ulong)SQ;
    __global float* z = ws + ws_off + DQ_BASE(B, H, SQ) + row;
    for (int x = 0; x < DQ_PITCH; ++x)
        z[x * rows] = 0.0f;
#endif
}

#endif
