/*
 * eltwise.cl: elementwise primitives over tensors of one logical shape.
 *
 *   out = alpha * f(a, b) + beta * out      (out is not read when beta == 0)
 *
 * serves cldnnActivationForward/Backward, cldnnAddTensor (a broadcast through stride 0),
 * cldnnTransformTensor, cldnnScaleTensor (a = out) and cldnnSetTensor.
 *
 * Build options
 *   -DOP=OP_ACT_FWD   f = act(a)              a = x
 *   -DOP=OP_ACT_BWD   f = act'(a) * b         a = y (SIGMOID, TANH) or x, b = dy
 *   -DOP=OP_AXPBY     f = a                   (default)
 *   -DOP=OP_SET       f = value (arg coef); a and b are not read
 *   -DVEC=1|2|4|8|16  elements per work-item in eltwise_contig (default 4). The host passes
 *                     offsets that are multiples of VEC, so vector accesses are VEC-aligned.
 *   -DACT_MODE=<n>    fold the activation mode (cldnnActivationMode_t) and -DACT_NANPROP=0|1
 *                     into the program instead of reading the mode and nanprop arguments
 *   -DDATA_HALF, -DIDX_T: see common/helpers.h
 * Kernels
 *   eltwise_contig   every operand packed with the same layout: a flat range of n elements
 *   eltwise_strided  any strides, up to 8 dims (passed as long8, innermost first, padded)
 *   eltwise_tiled    a transpose (out and a unit-stride along different dims) through local
 *                    memory, for OP_AXPBY and OP_ACT_FWD
 * Offsets are in elements; sizes, strides and offsets are arguments, so a new shape never
 * needs a new build.
 */
#include "common/helpers.h"
#include "common/activation.h"

#define OP_ACT_FWD 0
#define OP_ACT_BWD 1
#define OP_AXPBY 2
#define OP_SET 3
#ifndef OP
#define OP OP_AXPBY
#endif
#ifndef VEC
#define VEC 4
#endif

#define NEEDS_A (OP != OP_SET)
#define NEEDS_B (OP == OP_ACT_BWD)

inline float elt_value(float a, float b, int mode, float coef, float coef2, int nanprop) {
#ifdef ACT_MODE
    mode = ACT_MODE;
    nanprop = ACT_NANPROP;
#endif
#if OP == OP_ACT_FWD
    return act_forward(mode, a, coef, coef2, nanprop);
#elif OP == OP_ACT_BWD
    return act_derivative(mode, a, coef, coef2) * b;
#elif OP == OP_AXPBY
    return a;
#else
    return coef;
#endif
}

inline float elt_combine(float v, float old, float alpha, float beta) {
    return beta != 0.0f ? alpha * v + beta * old : alpha * v;
}

/* Vector loads and stores of VEC elements at vector index i, into and out of private arrays. */
#if VEC == 1
#define VLOAD_ARR(p, i, arr) (arr)[0] = LOAD((p), (i))
#define VSTORE_ARR(p, i, arr) STORE((p), (i), (arr)[0])
#elif defined(DATA_HALF) && DATA_HALF
#define VLOAD_ARR(p, i, arr) CAT(vstore, VEC)(CAT(vload_half, VEC)((i), (p)), 0, (arr))
#define VSTORE_ARR(p, i, arr) CAT(CAT(vstore_half, VEC), _rte)(CAT(vload, VEC)(0, (arr)), (i), (p))
#else
#define FLOATV CAT(float, VEC)
#define VLOAD_ARR(p, i, arr) CAT(vstore, VEC)(((__global const FLOATV*)(p))[(i)], 0, (arr))
#define VSTORE_ARR(p, i, arr) (((__global FLOATV*)(p))[(i)] = CAT(vload, VEC)(0, (arr)))
#endif

__kernel void eltwise_contig(ulong n, __global STORAGE_T* out, ulong out_off, __global const STORAGE_T* a,
                             ulong a_off, __global const STORAGE_T* b, ulong b_off, float alpha, float beta, int mode,
                             float coef, float coef2, int nanprop) {
    const IDX_T vi = (IDX_T)get_global_id(0);
    const IDX_T first = vi * VEC;
    if (first >= n)
        return;
    out += out_off;
    a += a_off;
    b += b_off;
    if (first + VEC <= n) {
        float av[VEC], bv[VEC], ov[VEC];
#if NEEDS_A
        VLOAD_ARR(a, vi, av);
#endif
#if NEEDS_B
        VLOAD_ARR(b, vi, bv);
#endif
        if (beta != 0.0f)
            VLOAD_ARR(out, vi, ov);
        for (int k = 0; k < VEC; ++k) {
#if !NEEDS_A
            av[k] = 0.0f;
#endif
#if !NEEDS_B
            bv[k] = 0.0f;
#endif
            float v = elt_value(av[k], bv[k], mode, coef, coef2, nanprop);
            ov[k] = beta != 0.0f ? alpha * v + beta * ov[k] : alpha * v;
        }
        VSTORE_ARR(out, vi, ov);
    } else {
        for (IDX_T i = first; i < n; ++i) {
            float av = NEEDS_A ? LOAD(a, i) : 0.0f;
            float bv = NEEDS_B ? LOAD(b, i) : 0.0f;
            float old = beta != 0.0f ? LOAD(out, i) : 0.0f;
            STORE(out, i, elt_combine(elt_value(av, bv, mode, coef, coef2, nanprop), old, alpha, beta));
        }
    }
}

/* One step of turning a linear index into per-operand offsets: dim K of the packed vectors,
 * innermost first. Constant component indices keep everything in registers. */
#define ELT_STEP(K)                                      \
    if ((K) < ndim) {                                    \
        IDX_T dk_ = (IDX_T)dims.s##K;                    \
        IDX_T q_ = rem / dk_;                            \
        IDX_T r_ = rem - q_ * dk_;                       \
        rem = q_;                                        \
        io += r_ * (IDX_T)out_str.s##K;                  \
        ia += r_ * (IDX_T)a_str.s##K;                    \
        ib += r_ * (IDX_T)b_str.s##K;                    \
    }
#define ELT_STEPS() ELT_STEP(0) ELT_STEP(1) ELT_STEP(2) ELT_STEP(3) ELT_STEP(4) ELT_STEP(5) ELT_STEP(6) ELT_STEP(7)

/* dims and strides are packed innermost first (component 0 is the fastest-varying dim). */
__kernel void eltwise_strided(ulong n, int ndim, long8 dims, __global STORAGE_T* out, ulong out_off,
                              long8 out_str, __global const STORAGE_T* a, ulong a_off, long8 a_str,
                              __global const STORAGE_T* b, ulong b_off, long8 b_str, float alpha, float beta,
                              int mode, float coef, float coef2, int nanprop) {
    const IDX_T gid = (IDX_T)get_global_id(0);
    if (gid >= n)
        return;
    IDX_T rem = gid, io = 0, ia = 0, ib = 0;
    ELT_STEPS()
    out += out_off;
    a += a_off;
    b += b_off;
    float av = NEEDS_A ? LOAD(a, ia) : 0.0f;
    float bv = NEEDS_B ? LOAD(b, ib) : 0.0f;
    float old = beta != 0.0f ? LOAD(out, io) : 0.0f;
    STORE(out, io, elt_combine(elt_value(av, bv, mode, coef, coef2, nanprop), old, alpha, beta));
}

/* eltwise_tiled: out = alpha * f(a) + beta * out where out is unit-stride along dim I and a is
 * unit-stride along another dim J (a transpose, e.g. NCHW <-> NHWC). A TILE x TILE block goes
 * through local memory so both the reads of a (along J) and the writes of out (along I) are
 * coalesced. Work-group TILE x TILE_ROWS; each work-item moves TILE / TILE_ROWS elements.
 * Global size: (tiles along I * TILE, tiles along J * TILE_ROWS, product of the other dims).
 * The other dims (up to 6) are packed innermost first in rdims/ro_str/ra_str.
 *   -DTILE=32 (default), -DTILE_ROWS=8 (default) */
#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif
#if OP == OP_AXPBY || OP == OP_ACT_FWD
#define ELT_REST_STEP(K)                                 \
    if ((K) < nrest) {                                   \
        IDX_T dk_ = (IDX_T)rdims.s##K;                   \
        IDX_T q_ = rem / dk_;                            \
        IDX_T r_ = rem - q_ * dk_;                       \
        rem = q_;                                        \
        io += r_ * (IDX_T)ro_str.s##K;                   \
        ia += r_ * (IDX_T)ra_str.s##K;                   \
    }

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void eltwise_tiled(ulong ni, ulong nj, __global STORAGE_T* out, ulong out_off, long so_j,
                   __global const STORAGE_T* a, ulong a_off, long sa_i, int nrest, long8 rdims, long8 ro_str,
                   long8 ra_str, float alpha, float beta, int mode, float coef, float coef2, int nanprop) {
    __local float tile[TILE][TILE + 1];
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const IDX_T i0 = (IDX_T)get_group_id(0) * TILE, j0 = (IDX_T)get_group_id(1) * TILE;
    IDX_T rem = (IDX_T)get_global_id(2), io = 0, ia = 0;
    ELT_REST_STEP(0) ELT_REST_STEP(1) ELT_REST_STEP(2) ELT_REST_STEP(3) ELT_REST_STEP(4) ELT_REST_STEP(5)
    out += out_off + io;
    a += a_off + ia;
    /* read a: consecutive work-items walk J (a's unit stride) */
    for (int r = ty; r < TILE; r += TILE_ROWS) {
        IDX_T i = i0 + (IDX_T)r, j = j0 + (IDX_T)tx;
        if (i < ni && j < nj)
            tile[r][tx] = elt_value(LOAD(a, i * (IDX_T)sa_i + j), 0.0f, mode, coef, coef2, nanprop);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* write out: consecutive work-items walk I (out's unit stride) */
    for (int r = ty; r < TILE; r += TILE_ROWS) {
        IDX_T j = j0 + (IDX_T)r, i = i0 + (IDX_T)tx;
        if (i < ni && j < nj) {
            IDX_T o = j * (IDX_T)so_j + i;
            float old = beta != 0.0f ? LOAD(out, o) : 0.0f;
            STORE(out, o, elt_combine(tile[tx][r], old, alpha, beta));
        }
    }
}
#endif
