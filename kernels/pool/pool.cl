/*
 * pool.cl: 2-d pooling forward and backward (cuDNN semantics), any strides, any window.
 *
 * Geometry: x is N x C x H x W, y is N x C x OH x OW with OH = 1 + (H + 2 ph - wh) / sh (OW
 * alike). Output (oh, ow) covers the input rows oh * sh - ph .. + wh - 1 and columns alike;
 * taps outside the input are padding: max modes skip them, AVERAGE_COUNT_INCLUDE_PADDING counts
 * them as zeros (divides by wh * ww), AVERAGE_COUNT_EXCLUDE_PADDING divides by the taps inside.
 * Every window holds at least one tap inside the input (the host checks pad < window).
 *
 * The operation is a kernel argument `op` (uniform, so the branches cost nothing on a GPU), not a
 * build option: one program serves every mode and every shape.
 *   op 0 MAX, NaNs skipped (NOT_PROPAGATE_NAN; a window of NaNs gives -inf)
 *   op 1 MAX, a NaN in the window gives NaN (PROPAGATE_NAN)
 *   op 2 AVERAGE_COUNT_INCLUDE_PADDING
 *   op 3 AVERAGE_COUNT_EXCLUDE_PADDING
 *
 * Work decomposition: the tensor a kernel walks (y forward, dx backward) is 4 "slots" given
 * fastest first (`od`); the host orders them by stride so adjacent work-items touch adjacent
 * addresses (w, h, c, n for NCHW; c, w, h, n for NHWC). hslot / wslot say which slots are the
 * spatial ones. Strides are per slot in elements; for the operands read through windows (x
 * forward; x, y, dy backward) the spatial slots' strides are 0 and the spatial strides come
 * separately (xh, xw, ...), so a slot sum is the (n, c) base.
 *
 * Backward max: the argmax of a window is recomputed from x and y as the first tap, in row-major
 * window order, that matches y, where match(a, b) = a == b || (isnan(a) && isnan(b)). Forward
 * under PROPAGATE_NAN gives NaN exactly when a NaN is in the window, so the gradient goes to the
 * window's first NaN; under NOT_PROPAGATE_NAN y is never NaN, NaN taps never match, and a window
 * of NaNs (y = -inf) passes no gradient. The rule does not depend on nanOpt.
 *
 * out = alpha * result + beta * out; out is not read when beta == 0.
 *
 * Build options
 *   -DDATA_HALF, -DIDX_T: see common/helpers.h
 *   -DPOOL_FASTDIV=0|1    1: index and stride divisions through magic numbers (common/fastdiv.h);
 *                         the host sets it with IDX_T=uint, when every index is below 2^31.
 *                         Default 0.
 * and pool_bwd_local's LB_* (at the kernel). Programs: one per storage type and index width, and
 * for pool_bwd_local one per window, stride, block and arrangement.
 * Kernels
 *   pool_fwd        one work-item per output element, or per run of R along slot 0 (small
 *                   windows)
 *   pool_fwd_lanes  T work-items ("lanes", a power of two) per output element, reduced through
 *                   local memory: big windows (global pooling), output-major over rows
 *                   contiguous in x (NCHW) or lane-major over contiguous channels (NHWC); the
 *                   work-group size, T and the arrangement are launch parameters
 *   pool_bwd        one work-item per dx element (or run of R), gathering over the outputs whose windows cover
 *                   it in a fixed order (deterministic, no atomics); does not read x or y for
 *                   the average modes
 *   pool_bwd_local  a work-group per dx tile: phase 1 leaves each covering output's first-maximum
 *                   tap (or dy / count) in local memory, phase 2 gathers per element from it
 *   pool_bwd_tile   exact tilings (stride == window, no padding, the windows cover x exactly):
 *                   one work-item per output writes its whole window
 */
#include "common/fastdiv.h"
#include "common/helpers.h"

#ifndef POOL_FASTDIV
#define POOL_FASTDIV 0
#endif

#define POOL_MAX_SKIP 0
#define POOL_MAX_PROP 1
#define POOL_AVG_INCL 2
#define POOL_AVG_EXCL 3

/* Geometry vector g: s0 H, s1 W, s2 OH, s3 OW, s4 wh, s5 ww, s6 ph, s7 pw; st: (sh, sw). */

/* Slot indices i0..i3 of linear index idx over slot dims od (fastest first); with POOL_FASTDIV
 * the divisions go through the host's magic numbers fd0..fd2 (common/fastdiv.h). */
#if POOL_FASTDIV
#define POOL_DIV(n, k) ((IDX_T)fdiv((int)(n), fd##k))
#else
#define POOL_DIV(n, k) ((n) / (IDX_T)(od).s##k)
#endif
#define POOL_DECOMP(idx, od, i0, i1, i2, i3)        \
    IDX_T i0, i1, i2, i3;                           \
    {                                               \
        IDX_T r_ = (idx);                           \
        IDX_T q_ = POOL_DIV(r_, 0);                 \
        i0 = r_ - q_ * (IDX_T)(od).s0;              \
        r_ = q_;                                    \
        q_ = POOL_DIV(r_, 1);                       \
        i1 = r_ - q_ * (IDX_T)(od).s1;              \
        r_ = q_;                                    \
        q_ = POOL_DIV(r_, 2);                       \
        i2 = r_ - q_ * (IDX_T)(od).s2;              \
        i3 = q_;                                    \
    }
/* n / stride for 0 <= n (d: h or w). */
#if POOL_FASTDIV
#define POOL_SDIV(n, d) fdiv((n), fd##d)
#else
#define POOL_SDIV(n, d) ((n) / (int)(fd##d).x)
#endif

/* Offset of slot indices over per-slot strides s. */
#define POOL_DOT(s, i0, i1, i2, i3) \
    ((i0) * (IDX_T)(s).s0 + (i1) * (IDX_T)(s).s1 + (i2) * (IDX_T)(s).s2 + (i3) * (IDX_T)(s).s3)
/* The index of slot k among i0..i3. */
#define POOL_PICK(k, i0, i1, i2, i3) ((int)((k) == 0 ? (i0) : (k) == 1 ? (i1) : (k) == 2 ? (i2) : (i3)))

/* One max step: NaN skipped (fmax) or NaN sticky. Symmetric in which side holds the NaN, so it
 * also combines two partial maxima. */
inline float pool_max(float m, float v, int op) {
    return op == POOL_MAX_PROP ? ((isnan(v) || v > m) ? v : m) : fmax(m, v);
}

inline float pool_out(float v, __global const STORAGE_T* out, IDX_T o, float alpha, float beta) {
    return beta != 0.0f ? alpha * v + beta * LOAD(out, o) : alpha * v;
}

/* The divisor of an average window starting at (h0, w0). */
inline float pool_count(int op, int h0, int w0, int8 g) {
    if (op == POOL_AVG_INCL)
        return (float)(g.s4 * g.s5);
    int hn = min(h0 + g.s4, g.s0) - max(h0, 0), wn = min(w0 + g.s5, g.s1) - max(w0, 0);
    return (float)(hn * wn);
}

/* Arguments 0..13 of every kernel. R and n0: pool_fwd and pool_bwd walk runs of R consecutive
 * indices of slot 0 per work-item (od.s0 = the number of runs, n0 = slot 0's extent); the
 * other kernels take R = 1. */
#define POOL_COMMON_ARGS                                                                                   \
    int op, int8 g, int2 st, long4 od, ulong total, int hslot, int wslot, uint4 fd0, uint4 fd1, uint4 fd2, \
        uint4 fdh, uint4 fdw, int R, ulong n0

/* Opens the loop over the work-item's run of slot-0 indices i0 (closed by POOL_RUN_END), after
 * decomposing the work-item's index `w` into the run j0 and slots i1..i3. */
#define POOL_RUN_BEGIN(w)                                                  \
    POOL_DECOMP((w), od, j0, i1, i2, i3);                                  \
    const IDX_T run_end_ = min((j0 + 1) * (IDX_T)R, (IDX_T)n0);            \
    for (IDX_T i0 = j0 * (IDX_T)R; i0 < run_end_; ++i0) {
#define POOL_RUN_END }

#define POOL_FWD_ARGS                                                                                      \
    POOL_COMMON_ARGS, __global const STORAGE_T *x, ulong xoff, long4 xs, long xh, long xw,            \
        __global STORAGE_T *y, ulong yoff, long4 ys, float alpha, float beta

/* The window of the output at slots i0..i3: bases xb, yo and the clipped window [hb, he) x
 * [wb, we). */
#define POOL_FWD_WINDOW                                                         \
    const IDX_T xb = (IDX_T)xoff + POOL_DOT(xs, i0, i1, i2, i3);                \
    const IDX_T yo = (IDX_T)yoff + POOL_DOT(ys, i0, i1, i2, i3);                \
    const int h0 = POOL_PICK(hslot, i0, i1, i2, i3) * st.s0 - g.s6;             \
    const int w0 = POOL_PICK(wslot, i0, i1, i2, i3) * st.s1 - g.s7;             \
    const int hb = max(h0, 0), he = min(h0 + g.s4, g.s0);                       \
    const int wb = max(w0, 0), we = min(w0 + g.s5, g.s1)

__kernel void pool_fwd(POOL_FWD_ARGS) {
    const IDX_T o = (IDX_T)get_global_id(0);
    if (o >= (IDX_T)total)
        return;
    POOL_RUN_BEGIN(o)
    POOL_FWD_WINDOW;
    float r;
    if (op <= POOL_MAX_PROP) {
        r = -INFINITY;
        for (int h = hb; h < he; ++h) {
            const IDX_T row = xb + (IDX_T)h * (IDX_T)xh;
            for (int w = wb; w < we; ++w)
                r = pool_max(r, LOAD(x, row + (IDX_T)w * (IDX_T)xw), op);
        }
    } else {
        float s = 0.0f;
        for (int h = hb; h < he; ++h) {
            const IDX_T row = xb + (IDX_T)h * (IDX_T)xh;
            for (int w = wb; w < we; ++w)
                s += LOAD(x, row + (IDX_T)w * (IDX_T)xw);
        }
        r = s / pool_count(op, h0, w0, g);
    }
    STORE(y, yo, pool_out(r, y, yo, alpha, beta));
    POOL_RUN_END
}

/* T lanes per output; the work-group (local size L, a multiple of T) holds G = L / T outputs.
 * Output-major (lane_major 0, rows contiguous in x: NCHW): work-item lid is lane lid % T of
 * output lid / T, so the lanes of one output read consecutive addresses of a window row.
 * Lane-major (lane_major 1, channels contiguous: NHWC): lid is lane lid / G of output lid % G,
 * so G adjacent work-items read G adjacent channels of one tap. Lane j reads the clipped
 * window's taps j, j + T, ... in row-major order; the partials combine in a tree of fixed shape
 * (deterministic). t: L floats. */
__kernel void pool_fwd_lanes(POOL_FWD_ARGS, int T, int lane_major, __local float* t) {
    const int lid = (int)get_local_id(0), G = (int)get_local_size(0) / T;
    const int lane = lane_major ? lid / G : lid & (T - 1);
    const int step = lane_major ? G : 1; /* between the partials of lanes j and j + 1 */
    const IDX_T o = (IDX_T)get_group_id(0) * (IDX_T)G + (IDX_T)(lane_major ? lid % G : lid / T);
    const int valid = o < (IDX_T)total;
    POOL_DECOMP(valid ? o : 0, od, i0, i1, i2, i3);
    POOL_FWD_WINDOW;
    const int cw = we - wb, n = (he - hb) * cw;
    const int is_max = op <= POOL_MAX_PROP;
    float r = is_max ? -INFINITY : 0.0f;
    for (int k = lane; valid && k < n; k += T) {
        const int kh = k / cw;
        const float v = LOAD(x, xb + (IDX_T)(hb + kh) * (IDX_T)xh + (IDX_T)(wb + k - kh * cw) * (IDX_T)xw);
        r = is_max ? pool_max(r, v, op) : r + v;
    }
    t[lid] = r;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = T / 2; s > 0; s >>= 1) {
        if (lane < s)
            t[lid] = is_max ? pool_max(t[lid], t[lid + s * step], op) : t[lid] + t[lid + s * step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (valid && lane == 0) {
        r = is_max ? t[lid] : t[lid] / pool_count(op, h0, w0, g);
        STORE(y, yo, pool_out(r, y, yo, alpha, beta));
    }
}

inline int pool_match(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* Backward: one work-item per dx element (ih, iw), slots over dx's dims. For each output (oh, ow)
 * whose window covers it, in row-major output order: average modes add dy / count; max modes add
 * dy when x(ih, iw) matches y(oh, ow) and no earlier tap of that window does. */
__kernel void pool_bwd(POOL_COMMON_ARGS, __global const STORAGE_T* x, ulong xoff, long4 xs, long xh, long xw,
                       __global const STORAGE_T* y, ulong yoff, long4 ys, long yh, long yw,
                       __global const STORAGE_T* dy, ulong dyoff, long4 dys, long dyh, long dyw,
                       __global STORAGE_T* dx, ulong dxoff, long4 dxs, float alpha, float beta) {
    const IDX_T e = (IDX_T)get_global_id(0);
    if (e >= (IDX_T)total)
        return;
    POOL_RUN_BEGIN(e)
    const IDX_T xb = (IDX_T)xoff + POOL_DOT(xs, i0, i1, i2, i3);
    const IDX_T yb = (IDX_T)yoff + POOL_DOT(ys, i0, i1, i2, i3);
    const IDX_T db = (IDX_T)dyoff + POOL_DOT(dys, i0, i1, i2, i3);
    const IDX_T xo = (IDX_T)dxoff + POOL_DOT(dxs, i0, i1, i2, i3);
    const int ih = POOL_PICK(hslot, i0, i1, i2, i3), iw = POOL_PICK(wslot, i0, i1, i2, i3);
    const int hp = ih + g.s6, wp = iw + g.s7;
    const int ohlo = hp < g.s4 ? 0 : POOL_SDIV(hp - g.s4, h) + 1, ohhi = min(POOL_SDIV(hp, h), g.s2 - 1);
    const int owlo = wp < g.s5 ? 0 : POOL_SDIV(wp - g.s5, w) + 1, owhi = min(POOL_SDIV(wp, w), g.s3 - 1);
    const int is_max = op <= POOL_MAX_PROP;
    const float xv = is_max ? LOAD(x, xb + (IDX_T)ih * (IDX_T)xh + (IDX_T)iw * (IDX_T)xw) : 0.0f;
    float acc = 0.0f;
    for (int oh = ohlo; oh <= ohhi; ++oh) {
        const int h0 = oh * st.s0 - g.s6;
        for (int ow = owlo; ow <= owhi; ++ow) {
            const int w0 = ow * st.s1 - g.s7;
            if (!is_max) {
                acc += LOAD(dy, db + (IDX_T)oh * (IDX_T)dyh + (IDX_T)ow * (IDX_T)dyw) / pool_count(op, h0, w0, g);
                continue;
            }
            const float yv = LOAD(y, yb + (IDX_T)oh * (IDX_T)yh + (IDX_T)ow * (IDX_T)yw);
            if (!pool_match(xv, yv))
                continue;
            /* the first match? scan the window's earlier taps inside the input (all of them: the
             * loads do not wait on the comparisons) */
            int first = 1;
            const int wb = max(w0, 0), we = min(w0 + g.s5, g.s1);
            for (int h = max(h0, 0); h <= ih; ++h) {
                const int wend = h < ih ? we : iw;
                const IDX_T row = xb + (IDX_T)h * (IDX_T)xh;
                for (int w = wb; w < wend; ++w)
                    first &= !pool_match(LOAD(x, row + (IDX_T)w * (IDX_T)xw), yv);
            }
            if (first)
                acc += LOAD(dy, db + (IDX_T)oh * (IDX_T)dyh + (IDX_T)ow * (IDX_T)dyw);
        }
    }
    STORE(dx, xo, pool_out(acc, dx, xo, alpha, beta));
    POOL_RUN_END
}

/* Backward over exact tilings (stride == window, no padding, H = OH * wh, W = OW * ww: VGG's 2x2
 * s2, global pooling): one work-item per output, slots over (n, c, oh, ow) ordered by dx's
 * strides. It finds its window's first match once and writes every tap of its window (each dx
 * element belongs to exactly one window): fewer loads and less index math per dx element than
 * pool_bwd. y and dy take full slot strides; x and dx are read / written through windows. */
__kernel void pool_bwd_tile(POOL_COMMON_ARGS, __global const STORAGE_T* x, ulong xoff, long4 xs, long xh, long xw,
                            __global const STORAGE_T* y, ulong yoff, long4 ys, __global const STORAGE_T* dy,
                            ulong dyoff, long4 dys, __global STORAGE_T* dx, ulong dxoff, long4 dxs, long dxh,
                            long dxw, float alpha, float beta) {
    const IDX_T o = (IDX_T)get_global_id(0);
    if (o >= (IDX_T)total)
        return;
    POOL_DECOMP(o, od, i0, i1, i2, i3);
    const IDX_T xb = (IDX_T)xoff + POOL_DOT(xs, i0, i1, i2, i3);
    const IDX_T db = (IDX_T)dxoff + POOL_DOT(dxs, i0, i1, i2, i3);
    const int h0 = POOL_PICK(hslot, i0, i1, i2, i3) * g.s4, w0 = POOL_PICK(wslot, i0, i1, i2, i3) * g.s5;
    const float gv = LOAD(dy, (IDX_T)dyoff + POOL_DOT(dys, i0, i1, i2, i3));
    int first = -1; /* the argmax tap, h * ww + w; -1: none (average modes, or no match) */
    if (op <= POOL_MAX_PROP) {
        const float yv = LOAD(y, (IDX_T)yoff + POOL_DOT(ys, i0, i1, i2, i3));
        for (int t = 0; first < 0 && t < g.s4 * g.s5; ++t) {
            const int kh = t / g.s5;
            if (pool_match(LOAD(x, xb + (IDX_T)(h0 + kh) * (IDX_T)xh + (IDX_T)(w0 + t - kh * g.s5) * (IDX_T)xw), yv))
                first = t;
        }
    }
    const float avg = gv / (float)(g.s4 * g.s5);
    for (int kh = 0; kh < g.s4; ++kh) {
        const IDX_T row = db + (IDX_T)(h0 + kh) * (IDX_T)dxh;
        for (int kw = 0; kw < g.s5; ++kw) {
            const IDX_T e = row + (IDX_T)(w0 + kw) * (IDX_T)dxw;
            const float v = op <= POOL_MAX_PROP ? (kh * g.s5 + kw == first ? gv : 0.0f) : avg;
            STORE(dx, e, pool_out(v, dx, e, alpha, beta));
        }
    }
}

/* Backward through local memory: a work-group of TW x TH work-items (local size, w fastest)
 * owns a dx tile of (TH * LB_RH) rows x (TW * LB_RW) columns of one (n, c) plane. Phase 1: the
 * work-group visits every output whose window touches the tile (outputs on the tile's border are
 * also visited by the neighbouring tiles) and leaves in local memory what it passes down: the
 * window-relative tap of its first maximum (am, -1: none) and dy, or dy / count for the average
 * modes. Phase 2: each work-item sums, for its LB_RW x LB_RH dx elements, the covering outputs in
 * row-major output order, as pool_bwd does (the same sums in the same order: bitwise equal).
 * Window, stride and block are build options (below) so that every loop over taps, candidate
 * outputs and block elements unrolls: all of a window's loads are in flight at once and the
 * divisions by the stride are by constants. Two arrangements (LB_NHWC):
 *   0 rows contiguous (NCHW): local dim 0 runs along w; a work-group owns one (n, c) plane's tile
 *     of (TH * LB_RH) x (TW * LB_RW); grid (tiles_w * TW, tiles_h * TH, N * C).
 *   1 channels contiguous (NHWC): local dim 0 runs over TW channels, dim 1 along w; a work-group
 *     owns a tile of LB_RH x (TH * LB_RW) positions of TW channels; grid (tiles_w * TW,
 *     tiles_h * TH, N * ceil(C / TW)); am and gv hold TW channels per output.
 * am, gv: the host's bound on a tile's covering outputs (times TW for LB_NHWC) entries each;
 * g.s4, g.s5 and st must equal the build options. */
#ifndef LB_WH
#define LB_WH 3 /* window height (g.s4) */
#endif
#ifndef LB_WW
#define LB_WW 3 /* window width (g.s5) */
#endif
#ifndef LB_SH
#define LB_SH 2 /* vertical stride (st.s0) */
#endif
#ifndef LB_SW
#define LB_SW 2 /* horizontal stride (st.s1) */
#endif
#ifndef LB_RH
#define LB_RH 8 /* dx rows per work-item, TH apart */
#endif
#ifndef LB_RW
#define LB_RW 2 /* dx columns per work-item, TW apart (LB_NHWC: TH apart) */
#endif
#ifndef LB_NHWC
#define LB_NHWC 0 /* the arrangement, above */
#endif
/* Outputs whose windows can cover one input position, per dim. */
#define LB_CH ((LB_WH + LB_SH - 1) / LB_SH)
#define LB_CW ((LB_WW + LB_SW - 1) / LB_SW)

__kernel void pool_bwd_local(int op, int8 g, int C, __global const STORAGE_T* x, ulong xoff, long4 xs,
                             __global const STORAGE_T* y, ulong yoff, long4 ys, __global const STORAGE_T* dy,
                             ulong dyoff, long4 dys, __global STORAGE_T* dx, ulong dxoff, long4 dxs, float alpha,
                             float beta, __local int* am, __local float* gv) {
    const int TW = (int)get_local_size(0), TH = (int)get_local_size(1);
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
#if LB_NHWC
    const int CB = (C + TW - 1) / TW, n = (int)get_group_id(2) / CB;
    const int c = ((int)get_group_id(2) - n * CB) * TW + tx, live = c < C;
    const int BH = LB_RH, BW = TH * LB_RW; /* the tile */
    const int lane = tx, lanes = TW;      /* local entries per output, this work-item's */
    const int o0 = ty, ostep = TH;        /* phase 1's outputs */
#define LB_ROW(j) (ih0 + (j))
#define LB_COL(i) (iw0 + ty + TH * (i))
#else
    /* live is always 1 here; a comparison rather than the constant keeps clang's constant-operand warning quiet */
    const int plane = (int)get_group_id(2), n = plane / C, c = plane - n * C, live = c < C;
    const int BH = TH * LB_RH, BW = TW * LB_RW;
    const int lane = 0, lanes = 1;
    const int o0 = ty * TW + tx, ostep = TW * TH;
#define LB_ROW(j) (ih0 + ty + TH * (j))
#define LB_COL(i) (iw0 + tx + TW * (i))
#endif
    const int ih0 = (int)get_group_id(1) * BH, iw0 = (int)get_group_id(0) * BW;
    const int ih1 = min(ih0 + BH, g.s0), iw1 = min(iw0 + BW, g.s1); /* exclusive */
    /* the outputs covering rows [ih0, ih1) and columns [iw0, iw1) */
    const int ohlo = ih0 + g.s6 < LB_WH ? 0 : (ih0 + g.s6 - LB_WH) / LB_SH + 1;
    const int ohhi = min((ih1 - 1 + g.s6) / LB_SH, g.s2 - 1);
    const int owlo = iw0 + g.s7 < LB_WW ? 0 : (iw0 + g.s7 - LB_WW) / LB_SW + 1;
    const int owhi = min((iw1 - 1 + g.s7) / LB_SW, g.s3 - 1);
    const int nh = max(ohhi - ohlo + 1, 0), nw = max(owhi - owlo + 1, 0);
    const IDX_T xb = (IDX_T)xoff + (IDX_T)n * (IDX_T)xs.s0 + (IDX_T)c * (IDX_T)xs.s1;
    const IDX_T yb = (IDX_T)yoff + (IDX_T)n * (IDX_T)ys.s0 + (IDX_T)c * (IDX_T)ys.s1;
    const IDX_T db = (IDX_T)dyoff + (IDX_T)n * (IDX_T)dys.s0 + (IDX_T)c * (IDX_T)dys.s1;
    const IDX_T ob = (IDX_T)dxoff + (IDX_T)n * (IDX_T)dxs.s0 + (IDX_T)c * (IDX_T)dxs.s1;
    const int is_max = op <= POOL_MAX_PROP;

    for (int t = o0; t < nh * nw; t += ostep) {
        const int kh = t / nw, oh = ohlo + kh, ow = owlo + (t - kh * nw);
        const int h0 = oh * LB_SH - g.s6, w0 = ow * LB_SW - g.s7;
        const int at = t * lanes + lane;
        if (!live)
            continue;
        const float gval = LOAD(dy, db + (IDX_T)oh * (IDX_T)dys.s2 + (IDX_T)ow * (IDX_T)dys.s3);
        if (is_max) {
            const float yv = LOAD(y, yb + (IDX_T)oh * (IDX_T)ys.s2 + (IDX_T)ow * (IDX_T)ys.s3);
            float v[LB_WH * LB_WW];
            for (int a = 0; a < LB_WH; ++a)
                for (int b = 0; b < LB_WW; ++b) {
                    const int hh = h0 + a, ww = w0 + b;
                    v[a * LB_WW + b] = (uint)hh < (uint)g.s0 && (uint)ww < (uint)g.s1
                                           ? LOAD(x, xb + (IDX_T)hh * (IDX_T)xs.s2 + (IDX_T)ww * (IDX_T)xs.s3)
                                           : NAN;
                }
            int first = -1;
            for (int k = LB_WH * LB_WW - 1; k >= 0; --k) {
                const int hh = h0 + k / LB_WW, ww = w0 + k % LB_WW;
                if ((uint)hh < (uint)g.s0 && (uint)ww < (uint)g.s1 && pool_match(v[k], yv))
                    first = k;
            }
            am[at] = first;
            gv[at] = gval;
        } else {
            gv[at] = gval / pool_count(op, h0, w0, g);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int j = 0; j < LB_RH; ++j) {
        const int ih = LB_ROW(j), hp = ih + g.s6;
        const int hq = hp / LB_SH; /* the last output row whose window starts at or above hp */
        for (int i = 0; i < LB_RW; ++i) {
            const int iw = LB_COL(i), wp = iw + g.s7;
            const int wq = wp / LB_SW;
            if (ih >= ih1 || iw >= iw1 || !live)
                continue; /* outside the tile: its outputs are not in am, gv */
            float acc = 0.0f;
            for (int a = LB_CH - 1; a >= 0; --a) {
                const int oh = hq - a, kh = hp - oh * LB_SH; /* kh: the tap row in that window */
                if (oh < 0 || oh >= g.s2 || kh >= LB_WH)
                    continue;
                for (int b = LB_CW - 1; b >= 0; --b) {
                    const int ow = wq - b, kw = wp - ow * LB_SW;
                    if (ow < 0 || ow >= g.s3 || kw >= LB_WW)
                        continue;
                    const int t = ((oh - ohlo) * nw + (ow - owlo)) * lanes + lane;
                    if (!is_max || am[t] == kh * LB_WW + kw)
                        acc += gv[t];
                }
            }
            const IDX_T e = ob + (IDX_T)ih * (IDX_T)dxs.s2 + (IDX_T)iw * (IDX_T)dxs.s3;
            STORE(dx, e, pool_out(acc, dx, e, alpha, beta));
        }
    }
#undef LB_ROW
#undef LB_COL
}
