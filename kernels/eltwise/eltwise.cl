/*
 * eltwise.cl: elementwise primitives over tensors of one logical shape.
 *
 *   out = alpha * f(a, b) + beta * out      (out is not read when beta == 0)
 *
 * serves cldnnActivationForward/Backward, cldnnAddTensor (a broadcast through stride 0),
 * cldnnTransformTensor, cldnnScaleTensor (a = out), cldnnSetTensor, cldnnOpTensor and
 * cldnnDropoutForward/Backward.
 *
 * Build options
 *   -DOP=OP_ACT_FWD   f = act(a)              a = x
 *   -DOP=OP_ACT_BWD   f = act'(a) * b         a = y (SIGMOID, TANH) or x, b = dy
 *   -DOP=OP_AXPBY     f = a                   (default)
 *   -DOP=OP_SET       f = value (arg coef); a and b are not read
 *   -DOP=OP_BINARY    f = binop(coef * a, coef2 * b) with -DBINOP=<cldnnOpTensorOp_t>; b is not
 *                     read by SQRT and NOT; MIN/MAX follow the nanprop argument (1: NaN wins)
 *   -DOP=OP_DROPOUT   f = a * coef where the element is kept, else 0: the mask is the Philox
 *                     stream of common/philox.h at the element's logical index, which is its
 *                     index in operand b (the host gives b packed row-major strides). b is the
 *                     reserve (one byte per element, 1 kept, 0 dropped) or no buffer, per
 *                     -DMASK_MODE=0 (generate), 1 (generate and store into b), 2 (read b)
 *   -DVEC=1|2|4|8|16  elements per work-item in eltwise_contig and eltwise_rows (default 4). The
 *                     host passes offsets (and row strides) that are multiples of VEC, so vector
 *                     accesses are VEC-aligned.
 *   -DACT_MODE=<n>    fold the activation mode (cldnnActivationMode_t) and -DACT_NANPROP=0|1
 *                     into the program instead of reading the mode and nanprop arguments
 *   -DDATA_HALF, -DDATA_BF16, -DIDX_T: see common/helpers.h
 * Kernels
 *   eltwise_contig   every operand packed with the same layout: a flat range of n elements
 *   eltwise_rows     out unit-stride along the innermost dim, each input unit-stride or
 *                    broadcast (stride 0) along it: rows of VEC-wide accesses, any outer strides
 *   eltwise_strided  any strides, up to 8 dims (passed as long8, innermost first, padded)
 *   eltwise_tiled    a transpose (out and a unit-stride along different dims) through local
 *                    memory, for OP_AXPBY and OP_ACT_FWD
 * Offsets are in elements (bytes for a dropout reserve); sizes, strides and offsets are
 * arguments, so a new shape never needs a new build. The trailing arguments gen (seed low/high,
 * offset low/high) and thresh are the dropout generator's; other ops ignore them.
 */
#include "common/helpers.h"
#include "common/activation.h"
#include "common/philox.h"

#define OP_ACT_FWD 0
#define OP_ACT_BWD 1
#define OP_AXPBY 2
#define OP_SET 3
#define OP_BINARY 4
#define OP_DROPOUT 5
#ifndef OP
#define OP OP_AXPBY
#endif
#ifndef VEC
#define VEC 4
#endif

/* cldnnOpTensorOp_t */
#define BINOP_ADD 0
#define BINOP_MUL 1
#define BINOP_MIN 2
#define BINOP_MAX 3
#define BINOP_SQRT 4
#define BINOP_NOT 5
#define BINOP_DIV 100
#ifndef BINOP
#define BINOP BINOP_ADD
#endif
#ifndef MASK_MODE
#define MASK_MODE 0
#endif

#define NEEDS_A (OP != OP_SET)
#define NEEDS_B (OP == OP_ACT_BWD || (OP == OP_BINARY && BINOP != BINOP_SQRT && BINOP != BINOP_NOT))
/* Operand b's element type and whether a kernel writes it (the dropout reserve). */
#if OP == OP_DROPOUT
#define B_T uchar
#if MASK_MODE == 1
#define B_QUAL
#else
#define B_QUAL const
#endif
#else
#define B_T STORAGE_T
#define B_QUAL const
#endif

/* f of OP_BINARY on the scaled operands; the NaN test keeps NOT_PROPAGATE's fmin/fmax result
 * (the number when one side is NaN) and lets PROPAGATE return the NaN. */
inline float elt_binop(float a, float b, int nanprop) {
#if BINOP == BINOP_ADD
    return a + b;
#elif BINOP == BINOP_MUL
    return a * b;
#elif BINOP == BINOP_MIN
    return nanprop && (isnan(a) || isnan(b)) ? a + b : fmin(a, b);
#elif BINOP == BINOP_MAX
    return nanprop && (isnan(a) || isnan(b)) ? a + b : fmax(a, b);
#elif BINOP == BINOP_SQRT
    return sqrt(a);
#elif BINOP == BINOP_NOT
    return 1.0f - a;
#else
    return a / b;
#endif
}

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
#elif OP == OP_BINARY
    return elt_binop(coef * a, coef2 * b, nanprop);
#elif OP == OP_DROPOUT
    return a * (b * coef); /* b: the mask, 0 or 1; a NaN dropped stays NaN, as x * mask * scale */
#else
    return coef;
#endif
}

/* The dropout mask of the element at logical index idx (its index in operand b), read from or
 * stored into the reserve at m[idx] per MASK_MODE; blk and cached carry the Philox block. */
#if OP == OP_DROPOUT
inline float elt_mask(__global B_QUAL uchar* m, IDX_T idx, uint* blk, ulong* cached, const uint* gen, uint thresh) {
#if MASK_MODE == 2
    return m[idx] != 0 ? 1.0f : 0.0f;
#else
    int keep = philox_dropout_keep(blk, cached, gen, thresh, (ulong)idx);
#if MASK_MODE == 1
    m[idx] = (uchar)keep;
#endif
    return keep ? 1.0f : 0.0f;
#endif
}
#define ELT_GEN_STATE                                         \
    uint gen_[4] = {gen.s0, gen.s1, gen.s2, gen.s3}, blk_[4]; \
    ulong cached_ = ~(ulong)0
#define ELT_MASK(m, idx) elt_mask((m), (idx), blk_, &cached_, gen_, thresh)
#else
#define ELT_GEN_STATE (void)gen
#define ELT_MASK(m, idx) 0.0f
#endif

inline float elt_combine(float v, float old, float alpha, float beta) {
    return beta != 0.0f ? alpha * v + beta * old : alpha * v;
}

/* eltwise_contig's full vectors of a generated dropout mask: VEC is a multiple of 4 and so is
 * the first index, so each 4 elements are one Philox block whose words are taken in order. */
#define DROP_BLOCKS (OP == OP_DROPOUT && MASK_MODE != 2 && VEC % 4 == 0)

/* Operand b of element i: the dropout mask, a loaded value, or nothing. */
#if OP == OP_DROPOUT
#define ELT_B(p, i) ELT_MASK((p), (i))
#elif NEEDS_B
#define ELT_B(p, i) LOAD((p), (i))
#else
#define ELT_B(p, i) 0.0f
#endif

/* The elementwise part of a full vector (av, bv, ov of VEC elements, av and bv loaded where the op
 * reads them): ov = alpha * f(av, bv) + beta * ov, bv[k] = bk_expr where b is no loaded operand
 * (a dropout mask, or nothing) unless skip_b (the mask is already there). */
#define ELT_VEC_COMBINE(bk_expr, skip_b)                                                  \
    for (int k = 0; k < VEC; ++k) {                                                       \
        if (!NEEDS_B && !(skip_b))                                                        \
            bv[k] = (bk_expr);                                                            \
        float v = elt_value(NEEDS_A ? av[k] : 0.0f, bv[k], mode, coef, coef2, nanprop);   \
        ov[k] = beta != 0.0f ? alpha * v + beta * ov[k] : alpha * v;                      \
    }

/* Vector loads and stores of VEC elements at vector index i, into and out of private arrays. */
#if VEC == 1
#define VLOAD_ARR(p, i, arr) (arr)[0] = LOAD((p), (i))
#define VSTORE_ARR(p, i, arr) STORE((p), (i), (arr)[0])
#elif DATA_H == 1
#define VLOAD_ARR(p, i, arr) CAT(vstore, VEC)(CAT(vload_half, VEC)((i), (p)), 0, (arr))
#define VSTORE_ARR(p, i, arr) CAT(CAT(vstore_half, VEC), _rte)(CAT(vload, VEC)(0, (arr)), (i), (p))
#elif DATA_H == 2
/* bfloat16: VEC ushorts in one load, widened by a shift; stores round each element */
#define VLOAD_ARR(p, i, arr) \
    CAT(vstore, VEC)(CAT(as_float, VEC)(CAT(convert_uint, VEC)(CAT(vload, VEC)((i), (p))) << 16), 0, (arr))
#define VSTORE_ARR(p, i, arr)                                 \
    do {                                                      \
        ushort t_[VEC];                                       \
        for (int k_ = 0; k_ < VEC; ++k_)                      \
            t_[k_] = cldnn_float_to_bf16((arr)[k_]);          \
        CAT(vstore, VEC)(CAT(vload, VEC)(0, t_), (i), (p));   \
    } while (0)
#else
#define FLOATV CAT(float, VEC)
#define VLOAD_ARR(p, i, arr) CAT(vstore, VEC)(((__global const FLOATV*)(p))[(i)], 0, (arr))
#define VSTORE_ARR(p, i, arr) (((__global FLOATV*)(p))[(i)] = CAT(vload, VEC)(0, (arr)))
#endif

__kernel void eltwise_contig(ulong n, __global STORAGE_T* out, ulong out_off, __global const STORAGE_T* a,
                             ulong a_off, __global B_QUAL B_T* b, ulong b_off, float alpha, float beta, int mode,
                             float coef, float coef2, int nanprop, uint4 gen, uint thresh) {
    const IDX_T vi = (IDX_T)get_global_id(0);
    const IDX_T first = vi * VEC;
    if (first >= n)
        return;
    out += out_off;
    a += a_off;
    b += b_off;
#ifdef CLDNN_TEST_OOB_READ
    /* Defined only by tests/oclgrind/run.sh --plant: work-item 0 reads the element just past a, an
     * out-of-bounds read that the simulator stage must report (the proof that it can fail). */
    if (vi == 0) {
        volatile float past = LOAD(a, n);
        (void)past;
    }
#endif
    ELT_GEN_STATE;
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
#if DROP_BLOCKS
        for (int q = 0; q < VEC / 4; ++q) {
            uint blk[4];
            philox_dropout_block(blk, gen_, (ulong)(first >> 2) + (ulong)q);
            for (int w = 0; w < 4; ++w) {
                const int keep = blk[w] >= thresh;
#if MASK_MODE == 1
                b[first + (IDX_T)(4 * q + w)] = (uchar)keep;
#endif
                bv[4 * q + w] = keep ? 1.0f : 0.0f;
            }
        }
#endif
        ELT_VEC_COMBINE(ELT_B(b, first + (IDX_T)k), DROP_BLOCKS);
        VSTORE_ARR(out, vi, ov);
    } else {
        for (IDX_T i = first; i < n; ++i) {
            float av = NEEDS_A ? LOAD(a, i) : 0.0f;
            float bv = ELT_B(b, i);
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

/* eltwise_rows: rows of `inner` elements, out unit-stride along them and each input unit-stride
 * (a_unit, b_unit = 1) or broadcast (0) along them: one work-item per VEC elements of a row, the
 * row's offsets decoded once (dims and strides of the outer dims, innermost first, ndim of them).
 * n = rows * chunks, chunks = ceil(inner / VEC). Row starts of unit-stride operands are VEC-aligned
 * (the host checks offsets and outer strides). The dropout mask (b) is indexed by the logical
 * index, which is b's row offset plus the position in the row. */
__kernel void eltwise_rows(ulong n, ulong inner, ulong chunks, int ndim, long8 dims, __global STORAGE_T* out,
                           ulong out_off, long8 out_str, __global const STORAGE_T* a, ulong a_off, long8 a_str,
                           int a_unit, __global B_QUAL B_T* b, ulong b_off, long8 b_str, int b_unit, float alpha,
                           float beta, int mode, float coef, float coef2, int nanprop, uint4 gen, uint thresh) {
    const IDX_T gid = (IDX_T)get_global_id(0);
    if (gid >= n)
        return;
    IDX_T rem = gid / (IDX_T)chunks;
    const IDX_T c = gid - rem * (IDX_T)chunks;
    IDX_T io = 0, ia = 0, ib = 0;
    ELT_STEPS()
    out += out_off + io;
    a += a_off + ia;
#if OP == OP_DROPOUT
    b += b_off;
#define ROW_B(j) ELT_MASK(b, ib + (j))
#else
    b += b_off + ib;
#define ROW_B(j) (b_unit ? ELT_B(b, (j)) : b0)
#endif
    ELT_GEN_STATE;
    const IDX_T first = c * VEC, inn = (IDX_T)inner;
    const float a0 = NEEDS_A && !a_unit ? LOAD(a, 0) : 0.0f;
#if NEEDS_B
    const float b0 = b_unit ? 0.0f : LOAD(b, 0);
#else
    const float b0 = 0.0f;
#endif
    (void)b0;
    if (first + VEC <= inn) {
        float av[VEC], bv[VEC], ov[VEC];
/* chunk c of a unit-stride row, or the broadcast value v0 */
#define ROW_VLOAD(p, unit, v0, arr)           \
    do {                                      \
        if (unit) {                           \
            VLOAD_ARR(p, c, arr);             \
        } else {                              \
            for (int k_ = 0; k_ < VEC; ++k_)  \
                (arr)[k_] = (v0);             \
        }                                     \
    } while (0)
#if NEEDS_A
        ROW_VLOAD(a, a_unit, a0, av);
#endif
#if NEEDS_B
        ROW_VLOAD(b, b_unit, b0, bv);
#endif
#undef ROW_VLOAD
        if (beta != 0.0f)
            VLOAD_ARR(out, c, ov);
        ELT_VEC_COMBINE(ROW_B(first + (IDX_T)k), 0);
        VSTORE_ARR(out, c, ov);
    } else {
        for (IDX_T j = first; j < inn; ++j) {
            float av = NEEDS_A ? (a_unit ? LOAD(a, j) : a0) : 0.0f;
            float bv = ROW_B(j);
            float old = beta != 0.0f ? LOAD(out, j) : 0.0f;
            STORE(out, j, elt_combine(elt_value(av, bv, mode, coef, coef2, nanprop), old, alpha, beta));
        }
    }
#undef ROW_B
}

/* dims and strides are packed innermost first (component 0 is the fastest-varying dim). */
__kernel void eltwise_strided(ulong n, int ndim, long8 dims, __global STORAGE_T* out, ulong out_off,
                              long8 out_str, __global const STORAGE_T* a, ulong a_off, long8 a_str,
                              __global B_QUAL B_T* b, ulong b_off, long8 b_str, float alpha, float beta, int mode,
                              float coef, float coef2, int nanprop, uint4 gen, uint thresh) {
    const IDX_T gid = (IDX_T)get_global_id(0);
    if (gid >= n)
        return;
    IDX_T rem = gid, io = 0, ia = 0, ib = 0;
    ELT_STEPS()
    out += out_off;
    a += a_off;
    b += b_off;
    ELT_GEN_STATE;
    float av = NEEDS_A ? LOAD(a, ia) : 0.0f;
    float bv = ELT_B(b, ib);
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
