/*
** pool.c: the pooling descriptor, cldnnPoolingForward and cldnnPoolingBackward (cuDNN semantics).
**
** Target shapes: ResNet-50's 3x3 s2 p1 max (32x64x112x112) and global 7x7 average (32x2048x7x7),
** VGG-16's 2x2 s2 max; any window, stride and padding, NCHW, NHWC and arbitrary strides, float, half
** and bfloat16 storage. Memory-bound: every solver reads each input element once from DRAM (window
** overlaps hit the cache) and writes each output once.
**
** A call is described by a pool_problem in logical (n, c, h, w) order; the kernels
** (kernels/pool/pool.cl) walk the output tensor (forward y, backward dx) in "slots" ordered by
** stride, fastest first, so adjacent work-items touch adjacent addresses in any layout.
** Solvers, first applicable wins:
**   pool_fwd_lanes  forward with big windows (global pooling) over rows (NCHW) or channels (NHWC)
**                   contiguous in x: T lanes of a work-group per output, a local-memory tree per
**                   output
**   pool_fwd        forward, one work-item per output
**   pool_bwd_tile   backward over exact tilings (stride == window, no padding, windows covering
**                   x: VGG's 2x2 s2, global pooling on CPUs): one work-item per output finds its
**                   window's first maximum once and writes the whole window
**   pool_bwd_local  backward on GPUs with overlapping windows, rows (NCHW) or channels (NHWC)
**                   contiguous in x and dx: a work-group per dx tile passes each covering
**                   output's first-maximum tap (or dy / count) through local memory, then
**                   gathers per element; x, y and dy are read about once
**   pool_bwd        backward, one work-item per dx element gathering over the covering windows
**                   (deterministic; the max modes re-find each window's first maximum from x
**                   and y, the average modes read neither x nor y)
** Parameter sets (CLDNN_SOLVER_PARAMS=<solver>:<set>, for tests and measurements; nothing is
** tuned): every solver takes the index width, i32 (where every view ends below 2^31 elements) or
** i64; pool_fwd and pool_bwd also the run along slot 0, r<n> (r0: the CPU rule), as in "i32-r2".
** Semantics (include/cldnn.h): max modes skip padding; NaN rules and the tie rule are in the
** header of pool.cl. Backward expects y = the forward's output with alpha 1, beta 0.
**
** Invariants: a set descriptor has windows >= 1, 0 <= pad < window, strides >= 1, so every
** window of a valid output holds a tap inside the input. Every size the kernels index with fits
** an int; element offsets fit IDX_T (uint, with magic-number division, when every view ends
** below 2^31 elements; ulong otherwise).
*/
#include "tensor/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cldnnPoolingStruct {
    int is_set;
    cldnnPoolingMode_t mode;
    cldnnNanPropagation_t nan;
    int wh, ww, ph, pw, sh, sw;
};

/* Kernel op codes (pool.cl). */
enum { POOL_MAX_SKIP = 0, POOL_MAX_PROP = 1, POOL_AVG_INCL = 2, POOL_AVG_EXCL = 3 };

typedef struct {
    int dir;  /* 0 forward, 1 backward */
    int op;
    cldnnDataType_t dtype;
    int n, c, h, w, oh, ow;
    int wh, ww, ph, pw, sh, sw;
    int64_t xs[4], ys[4], dys[4], dxs[4]; /* element strides, logical (n, c, h, w) */
    uint64_t off_x, off_y, off_dy, off_dx; /* elements */
    uint64_t span_max;                     /* largest offset + span of any view */
    float alpha, beta;
} pool_problem;

typedef struct {
    cl_mem x, y, dy, dx;
} pool_buffers;

/* Ints, as the engine's parameter text requires. The leading fields are the solvers' parameter
** set (CLDNN_SOLVER_PARAMS): "i%d-r%d" for pool_fwd and pool_bwd, "i%d" for the others, whose
** run is fixed; the rest follow from the problem and the device (the spaces' finish functions). */
typedef struct {
    int idx;        /* index width: 32 (uint and magic-number division; only when fits32), 64 (ulong) */
    int run;        /* pool_fwd, pool_bwd: consecutive slot-0 indices per work-item; 0: auto */
    int wg;
    int lanes;      /* pool_fwd_lanes: work-items per output (a power of two, <= wg) */
    int lane_major; /* pool_fwd_lanes: the arrangement (pool.cl) */
} pool_params;

/* The longest run a parameter set may ask for: far beyond any row that pays (the tests use 1000
** for "a whole row"), and small enough that pool_kernel's int sums of a dim and a run cannot
** overflow. */
#define POOL_RUN_MAX 65536

/* --------------------------------------------------------------------------- solvers */

static size_t pool_wg(const cldnn_device_profile* dev) {
    size_t wg = dev->is_cpu ? 64 : 256;
    while (wg > dev->max_wg_size)
        wg /= 2;
    return wg;
}

/* Every index below 2^31: 32-bit index math and magic-number division (fastdiv.h) can serve. The
** defaults take it wherever it does; a parameter set "i64" forces the 64-bit variant (the tests'
** way to run it on small tensors). */
static int fits32(const pool_problem* p) { return p->span_max < (1ull << 31) - 64; }

/* Lanes per output. Output-major: about 16 taps per lane (49 taps -> 4 lanes), within [2, wg]
** (H100, 32x2048x7x7 global average: 10.5 us with 4 lanes, 11.8 with 2, 17.7 with 16, 44 with 64).
** Lane-major: about 16 taps per lane within [2, 8], so a work-group spans wg / T >= 32 adjacent
** channels (49 taps -> 4 lanes of 64 channels: 256 contiguous bytes per tap and warp pair). */
static int lanes_for(const pool_problem* p, size_t wg, int lane_major) {
    int taps = p->wh * p->ww, t = 2;
    if (lane_major) {
        while (t * 16 < taps && t < 8)
            t *= 2;
        return (size_t)t * 32 <= wg ? t : 2;
    }
    while (t * 16 < taps && (size_t)t * 2 <= wg)
        t *= 2;
    return t;
}

/* Whether the lanes of an output should be lane-major: channels contiguous in x and rows not. */
static int lanes_major(const pool_problem* p) { return p->xs[3] != 1 && p->xs[1] == 1; }

/* Windows of 32 taps and more whose rows (NCHW) or channels (NHWC) are contiguous in x. On a GPU
** one work-item per output would read a strided stream (NCHW: adjacent outputs sit a window apart)
** or leave few, long work-items (NHWC global pooling: 64 Ki outputs of 49 taps fill 256
** work-groups). CPUs prefer one work-item per output (PoCL, 32x2048x7x7 global average: 2.8 ms
** against 30 NCHW, 9 against 19 NHWC) unless the outputs would not give every compute unit a
** work-group. */
static int lanes_applicable(const void* problem, const cldnn_device_profile* dev) {
    const pool_problem* p = (const pool_problem*)problem;
    uint64_t outputs = (uint64_t)p->n * (uint64_t)p->c * (uint64_t)p->oh * (uint64_t)p->ow;
    if (dev->is_cpu && outputs >= (uint64_t)pool_wg(dev) * dev->compute_units)
        return 0;
    return p->dir == 0 && dev->max_wg_size >= 64 && p->wh * p->ww >= 32 &&
           ((p->xs[3] == 1 && p->ww >= 4) || lanes_major(p));
}

/* pool_fwd and pool_bwd (finish of "i%d-r%d"): one work-item per output walking a run of them. */
static void plain_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    (void)problem;
    pool_params* q = (pool_params*)params;
    q->wg = (int)pool_wg(dev);
    q->lanes = 1;
    q->lane_major = 0;
}

/* The solvers whose run is fixed at one (finish of "i%d"): pool_bwd_tile's work-item writes a
** whole window, pool_fwd_lanes' lanes share an output, pool_bwd_local has tiles of its own. */
static void single_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    plain_finish(problem, dev, params);
    ((pool_params*)params)->run = 1;
}

static void lanes_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    const pool_problem* p = (const pool_problem*)problem;
    pool_params* q = (pool_params*)params;
    single_finish(problem, dev, params);
    q->lane_major = lanes_major(p);
    q->lanes = lanes_for(p, (size_t)q->wg, q->lane_major);
}

/* Every solver's default index width: 32 bits wherever they serve. */
static void index_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    ((pool_params*)params)->idx = fits32((const pool_problem*)problem) ? 32 : 64;
    (void)dev;
}

static void lanes_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    index_defaults(problem, dev, params);
    lanes_finish(problem, dev, params);
}

static int fwd_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return ((const pool_problem*)problem)->dir == 0;
}

static int bwd_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return ((const pool_problem*)problem)->dir == 1;
}

/* Exact tilings: stride == window (any stride where there is one window along that dim), no
** padding, the windows cover x exactly (VGG's 2x2 s2 and global pooling). GPUs take windows of
** up to 16 taps (a work-item per output writing a large window would write uncoalesced); CPUs
** any, where a work-item writing a contiguous window is what they prefer (PoCL, 2x64x224x224
** 2x2 s2 max: 150 ms against 540 ms for pool_bwd; 32x2048x7x7 global average: 9 against 224). */
static int tile_applicable(const void* problem, const cldnn_device_profile* dev) {
    const pool_problem* p = (const pool_problem*)problem;
    return p->dir == 1 && p->ph == 0 && p->pw == 0 && (p->sh == p->wh || p->oh == 1) &&
           (p->sw == p->ww || p->ow == 1) && p->h == p->oh * p->wh && p->w == p->ow * p->ww &&
           (dev->is_cpu || p->wh * p->ww <= 16);
}

static void plain_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    pool_params* q = (pool_params*)params;
    index_defaults(problem, dev, params);
    plain_finish(problem, dev, params);
    /* CPUs: runs along the row (up to all of it, while 4 work-groups per compute unit remain)
    ** amortize the index decoding (PoCL, 4x64x112x112 3x3 s2 p1 max, interleaved runs: forward
    ** 6-12 ms against 29-37, backward 86-132 against 136-292 a work-item per element); GPUs: two
    ** forward outputs per work-item (H100, 32x64x112x112 3x3 s2 max: NHWC 73 us against 94 for
    ** one, NCHW 66 against 70; 32x128x112x112 2x2 s2: 98 against 112; runs of 4 and 8 lose), one
    ** backward element. A parameter set "i32-r<n>" overrides it (r0: the CPU rule), for the tests. */
    q->run = dev->is_cpu ? 0 : ((const pool_problem*)problem)->dir == 0 ? 2 : 1;
}

static void single_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    index_defaults(problem, dev, params);
    single_finish(problem, dev, params);
}

/* "i%d": 64, or 32 where every index fits. */
static int index_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    const int idx = ((const pool_params*)params)->idx;
    (void)dev;
    return idx == 64 || (idx == 32 && fits32((const pool_problem*)problem));
}

/* "i%d-r%d": the index width as above, runs from 0 (auto) to POOL_RUN_MAX. */
static int run_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    const int run = ((const pool_params*)params)->run;
    return index_valid(problem, dev, params) && run >= 0 && run <= POOL_RUN_MAX;
}

/* Parameter sets for tests and measurements (CLDNN_SOLVER_PARAMS); nothing to tune: no enumerate,
** and the plain run reads no tuning db. */
static const cldnn_param_space run_space = {
    .text = "i%d-r%d", .names = "idx run", .valid = run_valid, .finish = plain_finish};
static const cldnn_param_space index_space = {
    .text = "i%d", .names = "idx", .valid = index_valid, .finish = single_finish};
static const cldnn_param_space lanes_space = {
    .text = "i%d", .names = "idx", .valid = index_valid, .finish = lanes_finish};

/* The slot order of a walked tensor with logical dims d and strides s: by stride ascending,
** ties broken toward the later logical dim (w before h before c before n), size-1 dims last. */
static void slot_order(const int* d, const int64_t* s, int perm[4]) {
    for (int i = 0; i < 4; ++i)
        perm[i] = 3 - i;
    for (int i = 1; i < 4; ++i)
        for (int j = i; j > 0; --j) {
            int a = perm[j - 1], b = perm[j];
            int64_t ka = d[a] == 1 ? INT64_MAX : s[a], kb = d[b] == 1 ? INT64_MAX : s[b];
            if (kb < ka || (kb == ka && b > a)) {
                perm[j - 1] = b;
                perm[j] = a;
            }
        }
}

/* Per-slot strides of s in slot order; the spatial slots get 0 when window (the operand is read
** through windows and gets its spatial strides separately). */
static cl_long4 slot_strides(const int64_t* s, const int perm[4], int window) {
    cl_long4 v;
    for (int k = 0; k < 4; ++k)
        v.s[k] = window && perm[k] >= 2 ? 0 : s[perm[k]];
    return v;
}

static int slot_of(const int perm[4], int logical) {
    for (int k = 0; k < 4; ++k)
        if (perm[k] == logical)
            return k;
    return 0;
}

/* Sets POOL_COMMON_ARGS, the arguments every kernel but pool_bwd_local shares (0..13: op,
** geometry, slots of the walked tensor with dims d and strides s, magic divisors of the slot dims
** and strides, the run along slot 0) and gets kernel `name`; *total is the number of work-items. */
static cldnnStatus_t pool_kernel(cldnnHandle_t h, const pool_problem* p, const pool_params* q, const char* name,
                                 const int* d, const int64_t* s, int perm[4], cl_kernel* k, uint64_t* total) {
    char opts[96];
    snprintf(opts, sizeof opts, "-DIDX_T=%s%s", q->idx == 32 ? "uint -DPOOL_FASTDIV=1" : "ulong",
             cldnn_dtype_build_option(p->dtype));
    CLDNN_TRY(cldnn_kernel_get(h, "pool/pool.cl", opts, name, k));
    slot_order(d, s, perm);
    cl_int8 g = {{p->h, p->w, p->oh, p->ow, p->wh, p->ww, p->ph, p->pw}};
    cl_int2 st = {{p->sh, p->sw}};
    /* run 0: as long as the work still leaves 4 work-groups per compute unit, within the row */
    uint64_t elems = (uint64_t)d[0] * (uint64_t)d[1] * (uint64_t)d[2] * (uint64_t)d[3];
    uint64_t per = elems / ((uint64_t)q->wg * h->prof.compute_units * 4u);
    uint64_t row = (uint64_t)d[perm[0]];
    cl_int R = q->run > 0 ? q->run : (cl_int)(per < 1 ? 1 : per > row ? row : per);
    cl_ulong n0 = (cl_ulong)d[perm[0]];
    cl_long4 od;
    *total = 1;
    for (int i = 0; i < 4; ++i) {
        od.s[i] = i == 0 ? (d[perm[0]] + R - 1) / R : d[perm[i]];
        *total *= (uint64_t)od.s[i];
    }
    cl_ulong tot = *total;
    cl_int op = p->op, hs = slot_of(perm, 2), ws = slot_of(perm, 3);
    cl_uint4 fd[5] = {cldnn_fastdiv((uint32_t)od.s[0]), cldnn_fastdiv((uint32_t)od.s[1]),
                      cldnn_fastdiv((uint32_t)od.s[2]), cldnn_fastdiv((uint32_t)p->sh), cldnn_fastdiv((uint32_t)p->sw)};
    /* POOL_COMMON_ARGS (kernels/pool/pool.cl), in its order. */
    return CLDNN_KERNEL_ARGS(*k, 0, CLDNN_ARG(op), CLDNN_ARG(g), CLDNN_ARG(st), CLDNN_ARG(od), CLDNN_ARG(tot),
                             CLDNN_ARG(hs), CLDNN_ARG(ws), CLDNN_ARG(fd[0]), CLDNN_ARG(fd[1]), CLDNN_ARG(fd[2]),
                             CLDNN_ARG(fd[3]), CLDNN_ARG(fd[4]), CLDNN_ARG(R), CLDNN_ARG(n0));
}

/* An operand read through windows, as the kernels take it ("x, xoff, xs, xh, xw"): buffer,
** offset, (n, c) slot strides, then the h and w strides. */
typedef struct {
    cl_mem m;
    cl_ulong off;
    cl_long4 s;
    cl_long h, w;
} pool_window;

static pool_window window_operand(cl_mem m, uint64_t off, const int64_t* s, const int perm[4]) {
    pool_window v = {m, off, slot_strides(s, perm, 1), s[2], s[3]};
    return v;
}

/* An operand walked with the output ("y, yoff, ys"): buffer, offset, full slot strides. */
typedef struct {
    cl_mem m;
    cl_ulong off;
    cl_long4 s;
} pool_walked;

static pool_walked walked_operand(cl_mem m, uint64_t off, const int64_t* s, const int perm[4]) {
    pool_walked v = {m, off, slot_strides(s, perm, 0)};
    return v;
}

static cldnnStatus_t fwd_launch(cldnnHandle_t h, const pool_problem* p, const pool_params* q,
                                const pool_buffers* b, const char* name) {
    int d[4] = {p->n, p->c, p->oh, p->ow}, perm[4];
    cl_kernel k;
    uint64_t total;
    CLDNN_TRY(pool_kernel(h, p, q, name, d, p->ys, perm, &k, &total));
    pool_window x = window_operand(b->x, p->off_x, p->xs, perm);
    pool_walked y = walked_operand(b->y, p->off_y, p->ys, perm);
    /* POOL_FWD_ARGS (kernels/pool/pool.cl) after its POOL_COMMON_ARGS (pool_kernel), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 14, CLDNN_ARG(x.m), CLDNN_ARG(x.off), CLDNN_ARG(x.s), CLDNN_ARG(x.h),
                                CLDNN_ARG(x.w), CLDNN_ARG(y.m), CLDNN_ARG(y.off), CLDNN_ARG(y.s), CLDNN_ARG(p->alpha),
                                CLDNN_ARG(p->beta)));
    if (q->lanes <= 1)
        return cldnn_enqueue_1d(h, k, total, (size_t)q->wg, name);
    cl_int T = q->lanes;
    cl_int major = q->lane_major;
    /* pool_fwd_lanes' list after POOL_FWD_ARGS, in its order (its local tile follows). */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 24, CLDNN_ARG(T), CLDNN_ARG(major)));
    cl_int e = clSetKernelArg(k, 26, (size_t)q->wg * sizeof(float), NULL);
    if (e != CL_SUCCESS)
        return CLDNN_CL_FAIL(e, "clSetKernelArg");
    uint64_t per = (uint64_t)(q->wg / q->lanes), groups = (total + per - 1) / per;
    return cldnn_enqueue_1d(h, k, groups * (uint64_t)q->wg, (size_t)q->wg, name);
}

static cldnnStatus_t fwd_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return fwd_launch(h, (const pool_problem*)problem, (const pool_params*)params, (const pool_buffers*)buffers,
                      "pool_fwd");
}

static cldnnStatus_t lanes_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return fwd_launch(h, (const pool_problem*)problem, (const pool_params*)params, (const pool_buffers*)buffers,
                      "pool_fwd_lanes");
}

static cldnnStatus_t bwd_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const pool_problem* p = (const pool_problem*)problem;
    const pool_params* q = (const pool_params*)params;
    const pool_buffers* b = (const pool_buffers*)buffers;
    int d[4] = {p->n, p->c, p->h, p->w}, perm[4];
    cl_kernel k;
    uint64_t total;
    CLDNN_TRY(pool_kernel(h, p, q, "pool_bwd", d, p->dxs, perm, &k, &total));
    pool_window x = window_operand(b->x, p->off_x, p->xs, perm), y = window_operand(b->y, p->off_y, p->ys, perm),
                dy = window_operand(b->dy, p->off_dy, p->dys, perm);
    pool_walked dx = walked_operand(b->dx, p->off_dx, p->dxs, perm);
    /* pool_bwd's list (kernels/pool/pool.cl) after its POOL_COMMON_ARGS (pool_kernel), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 14, CLDNN_ARG(x.m), CLDNN_ARG(x.off), CLDNN_ARG(x.s), CLDNN_ARG(x.h),
                                CLDNN_ARG(x.w), CLDNN_ARG(y.m), CLDNN_ARG(y.off), CLDNN_ARG(y.s), CLDNN_ARG(y.h),
                                CLDNN_ARG(y.w), CLDNN_ARG(dy.m), CLDNN_ARG(dy.off), CLDNN_ARG(dy.s), CLDNN_ARG(dy.h),
                                CLDNN_ARG(dy.w), CLDNN_ARG(dx.m), CLDNN_ARG(dx.off), CLDNN_ARG(dx.s),
                                CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta)));
    return cldnn_enqueue_1d(h, k, total, (size_t)q->wg, "pool_bwd");
}

/* Bound on the outputs whose windows touch `len` consecutive input positions (window k, stride s). */
static int local_span(int len, int k, int s) { return (len + k - 2) / s + 2; }

/* pool_bwd_local's arrangement: 1 (channels across the work-group) when channels are contiguous
** in x and dx, 0 (rows across it) when rows are, -1 when neither. */
static int local_nhwc(const pool_problem* p) {
    if (p->xs[3] == 1 && p->dxs[3] == 1)
        return 0;
    return p->xs[1] == 1 && p->dxs[1] == 1 ? 1 : -1;
}

/* pool_bwd_local's tile: TW x TH work-items, each with rw columns and rh rows of dx. Rows across
** the work-group: TW covers the row (a power of two from 8 to 32), TH the rest of a work-group of
** up to 256. Channels across it: TW lanes of channels (8 to 32), TH along the row. rw 2 when rows
** are long enough to fill it; rh up to 8 rows while the covering outputs fit 16 KiB of local
** memory. Many elements per work-item keep loads in flight: with rh 2 the H100 spent its time
** waiting on each work-group's first dy loads (3x3 s2 backward at 0.2 of copy bandwidth). */
static void local_tile(const pool_problem* p, const cldnn_device_profile* dev, int* tw, int* th, int* rw, int* rh) {
    size_t wg = dev->max_wg_size >= 256 ? 256 : dev->max_wg_size;
    int nhwc = local_nhwc(p) == 1, t = 8;
    while (t < 32 && t < (nhwc ? p->c : p->w))
        t *= 2;
    *tw = t;
    *th = (int)(wg / (size_t)t) > 0 ? (int)(wg / (size_t)t) : 1;
    int across = nhwc ? *th : t; /* work-items along a row */
    *rw = p->w > 2 * across ? 2 : 1;
    int r = 8;
    while (r > 1 && (r / 2) * (nhwc ? 1 : *th) >= p->h)
        r /= 2;
    while (r > 1 && (size_t)local_span(nhwc ? r : *th * r, p->wh, p->sh) *
                            (size_t)local_span(across * *rw, p->ww, p->sw) * (size_t)(nhwc ? t : 1) *
                            (sizeof(cl_int) + sizeof(cl_float)) > 16384)
        r /= 2;
    *rh = r;
}

/* Bytes of local memory pool_bwd_local needs for the tile of local_tile. */
static size_t local_bytes(const pool_problem* p, const cldnn_device_profile* dev) {
    int tw, th, rw, rh, nhwc = local_nhwc(p) == 1;
    local_tile(p, dev, &tw, &th, &rw, &rh);
    size_t n = (size_t)local_span(nhwc ? rh : th * rh, p->wh, p->sh) *
               (size_t)local_span((nhwc ? th : tw) * rw, p->ww, p->sw) * (size_t)(nhwc ? tw : 1);
    return n * (sizeof(cl_int) + sizeof(cl_float));
}

/* Rows (NCHW) or channels (NHWC) contiguous in x and dx (the tile's work-items read and write
** along them), and
** the tile's covering outputs within 16 KiB of local memory (local_tile shrinks rh to fit);
** windows of up to 64 taps (the kernel holds one in registers; window, stride and block are
** build options, a program per combination a network uses). */
static int local_applicable(const void* problem, const cldnn_device_profile* dev) {
    const pool_problem* p = (const pool_problem*)problem;
    if (p->dir != 1 || dev->max_wg_size < 64)
        return 0;
    size_t bytes = local_bytes(p, dev);
    return bytes <= 16384 && bytes <= dev->local_mem / 2 && p->wh * p->ww <= 64;
}

/* Overlapping windows, several per plane, on GPUs, rows or channels contiguous: where windows do
** not overlap a dx element has one covering output and pool_bwd gathers it cheaply (global
** pooling: 30 us against 232 on the H100 at 32x2048x7x7). */
static int local_preferred(const void* problem, const cldnn_device_profile* dev) {
    const pool_problem* p = (const pool_problem*)problem;
    return !dev->is_cpu && ((p->sh < p->wh && p->oh > 1) || (p->sw < p->ww && p->ow > 1)) && local_nhwc(p) >= 0;
}

static cldnnStatus_t local_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const pool_problem* p = (const pool_problem*)problem;
    const pool_params* q = (const pool_params*)params;
    const pool_buffers* b = (const pool_buffers*)buffers;
    int tw, th, rw, rh;
    local_tile(p, &h->prof, &tw, &th, &rw, &rh);
    char opts[192];
    int nhwc = local_nhwc(p) == 1;
    snprintf(opts, sizeof opts,
             "-DIDX_T=%s%s -DLB_WH=%d -DLB_WW=%d -DLB_SH=%d -DLB_SW=%d -DLB_RH=%d -DLB_RW=%d -DLB_NHWC=%d",
             q->idx == 32 ? "uint" : "ulong", cldnn_dtype_build_option(p->dtype), p->wh, p->ww, p->sh,
             p->sw, rh, rw, nhwc);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "pool/pool.cl", opts, "pool_bwd_local", &k));
    cl_int8 g = {{p->h, p->w, p->oh, p->ow, p->wh, p->ww, p->ph, p->pw}};
    cl_int op = p->op, C = p->c;
    cl_ulong off[4] = {p->off_x, p->off_y, p->off_dy, p->off_dx};
    const int64_t* strides[4] = {p->xs, p->ys, p->dys, p->dxs};
    cl_long4 s[4];
    for (int o = 0; o < 4; ++o)
        s[o] = (cl_long4){{strides[o][0], strides[o][1], strides[o][2], strides[o][3]}};
    /* pool_bwd_local's list (kernels/pool/pool.cl), in its order, up to its local arrays am and gv
    ** (17 and 18). */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(op), CLDNN_ARG(g), CLDNN_ARG(C), CLDNN_ARG(b->x), CLDNN_ARG(off[0]),
                                CLDNN_ARG(s[0]), CLDNN_ARG(b->y), CLDNN_ARG(off[1]), CLDNN_ARG(s[1]),
                                CLDNN_ARG(b->dy), CLDNN_ARG(off[2]), CLDNN_ARG(s[2]), CLDNN_ARG(b->dx),
                                CLDNN_ARG(off[3]), CLDNN_ARG(s[3]), CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta)));
    size_t entries = local_bytes(p, &h->prof) / (sizeof(cl_int) + sizeof(cl_float));
    cl_int e = clSetKernelArg(k, 17, entries * sizeof(cl_int), NULL);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k, 18, entries * sizeof(cl_float), NULL);
    if (e != CL_SUCCESS)
        return CLDNN_CL_FAIL(e, "clSetKernelArg");
    uint64_t bw = (uint64_t)((nhwc ? th : tw) * rw), bh = (uint64_t)(nhwc ? rh : th * rh);
    uint64_t tiles_w = ((uint64_t)p->w + bw - 1) / bw, tiles_h = ((uint64_t)p->h + bh - 1) / bh;
    uint64_t planes = nhwc ? (uint64_t)p->n * (((uint64_t)p->c + (uint64_t)tw - 1) / (uint64_t)tw)
                           : (uint64_t)p->n * (uint64_t)p->c;
    uint64_t global[3] = {tiles_w * (uint64_t)tw, tiles_h * (uint64_t)th, planes};
    size_t local[3] = {(size_t)tw, (size_t)th, 1};
    return cldnn_enqueue_nd(h, k, 3, global, local, "pool_bwd_local");
}

static cldnnStatus_t tile_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const pool_problem* p = (const pool_problem*)problem;
    const pool_params* q = (const pool_params*)params;
    const pool_buffers* b = (const pool_buffers*)buffers;
    int d[4] = {p->n, p->c, p->oh, p->ow}, perm[4];
    cl_kernel k;
    uint64_t total;
    CLDNN_TRY(pool_kernel(h, p, q, "pool_bwd_tile", d, p->dxs, perm, &k, &total));
    pool_window x = window_operand(b->x, p->off_x, p->xs, perm), dx = window_operand(b->dx, p->off_dx, p->dxs, perm);
    pool_walked y = walked_operand(b->y, p->off_y, p->ys, perm), dy = walked_operand(b->dy, p->off_dy, p->dys, perm);
    /* pool_bwd_tile's list (kernels/pool/pool.cl) after its POOL_COMMON_ARGS (pool_kernel), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 14, CLDNN_ARG(x.m), CLDNN_ARG(x.off), CLDNN_ARG(x.s), CLDNN_ARG(x.h),
                                CLDNN_ARG(x.w), CLDNN_ARG(y.m), CLDNN_ARG(y.off), CLDNN_ARG(y.s), CLDNN_ARG(dy.m),
                                CLDNN_ARG(dy.off), CLDNN_ARG(dy.s), CLDNN_ARG(dx.m), CLDNN_ARG(dx.off),
                                CLDNN_ARG(dx.s), CLDNN_ARG(dx.h), CLDNN_ARG(dx.w), CLDNN_ARG(p->alpha),
                                CLDNN_ARG(p->beta)));
    return cldnn_enqueue_1d(h, k, total, (size_t)q->wg, "pool_bwd_tile");
}

/* Backward: the exact tiling where it applies, the local-memory kernel where overlapping windows
** make it preferred, else the gather; CLDNN_SOLVER=pool_bwd_local,pool_bwd (and the forward
** solvers) forces the local kernel where it can run. */
static const cldnn_solver pool_solvers[] = {
    {.name = "pool_fwd_lanes", .algo = -1, .applicable = lanes_applicable, .default_params = lanes_defaults,
     .params_size = sizeof(pool_params), .run = lanes_run, .rank = 10, .space = &lanes_space},
    {.name = "pool_fwd", .algo = -1, .applicable = fwd_applicable, .default_params = plain_defaults,
     .params_size = sizeof(pool_params), .run = fwd_run, .rank = 20, .space = &run_space},
    {.name = "pool_bwd_tile", .algo = -1, .applicable = tile_applicable, .default_params = single_defaults,
     .params_size = sizeof(pool_params), .run = tile_run, .rank = 10, .space = &index_space},
    {.name = "pool_bwd_local", .algo = -1, .applicable = local_applicable, .default_params = single_defaults,
     .params_size = sizeof(pool_params), .run = local_run, .rank = 40, .promote = {{local_preferred, 20, NULL}},
     .space = &index_space},
    {.name = "pool_bwd", .algo = -1, .applicable = bwd_applicable, .default_params = plain_defaults,
     .params_size = sizeof(pool_params), .run = bwd_run, .rank = 30, .space = &run_space},
};

/* ------------------------------------------------------------------------ descriptor */

cldnnStatus_t cldnnCreatePoolingDescriptor(cldnnPoolingDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "pooling");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyPoolingDescriptor(cldnnPoolingDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

static const char* mode_name(cldnnPoolingMode_t m) {
    switch (m) {
    case CLDNN_POOLING_MAX: return "max";
    case CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING: return "avg";
    case CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING: return "avg_exclude";
    case CLDNN_POOLING_MAX_DETERMINISTIC: return "max_det";
    }
    return NULL;
}

cldnnStatus_t cldnnSetPooling2dDescriptor(cldnnPoolingDescriptor_t desc, cldnnPoolingMode_t mode,
                                          cldnnNanPropagation_t nanOpt, int windowH, int windowW, int padH, int padW,
                                          int strideH, int strideW) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (mode_name(mode) == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnPoolingMode_t value", (int)mode);
    if (nanOpt != CLDNN_NOT_PROPAGATE_NAN && nanOpt != CLDNN_PROPAGATE_NAN)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nanOpt %d is not a cldnnNanPropagation_t value",
                          (int)nanOpt);
    if (windowH < 1 || windowW < 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "window %dx%d: both sizes must be >= 1", windowH, windowW);
    if (strideH < 1 || strideW < 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "stride %dx%d: both strides must be >= 1", strideH, strideW);
    if (padH < 0 || padW < 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "padding %dx%d: must be >= 0", padH, padW);
    if (padH >= windowH || padW >= windowW)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM,
                          "padding %dx%d must be smaller than the window %dx%d (a window of padding only)", padH,
                          padW, windowH, windowW);
    desc->mode = mode;
    desc->nan = nanOpt;
    desc->wh = windowH;
    desc->ww = windowW;
    desc->ph = padH;
    desc->pw = padW;
    desc->sh = strideH;
    desc->sw = strideW;
    desc->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_desc(const struct cldnnPoolingStruct* d) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "poolingDesc is NULL");
    if (!d->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "poolingDesc was created but never set");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetPooling2dDescriptor(const cldnnPoolingDescriptor_t desc, cldnnPoolingMode_t* mode,
                                          cldnnNanPropagation_t* nanOpt, int* windowH, int* windowW, int* padH,
                                          int* padW, int* strideH, int* strideW) {
    cldnn_error_clear();
    CLDNN_TRY(check_desc(desc));
    if (!mode || !nanOpt || !windowH || !windowW || !padH || !padW || !strideH || !strideW)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "an output pointer is NULL");
    *mode = desc->mode;
    *nanOpt = desc->nan;
    *windowH = desc->wh;
    *windowW = desc->ww;
    *padH = desc->ph;
    *padW = desc->pw;
    *strideH = desc->sh;
    *strideW = desc->sw;
    return CLDNN_STATUS_SUCCESS;
}

/* x (or dx) must be a 4-d tensor whose sizes fit an int and whose padded extent holds a window;
** writes the output dims (n, c, oh, ow). */
static cldnnStatus_t output_dims(const struct cldnnPoolingStruct* d, const struct cldnnTensorStruct* x,
                                 const char* what, int64_t out[4]) {
    if (x->nd > 4)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "%s has %d dims: only 2-d pooling of 4-d tensors is supported", what, x->nd);
    if (x->nd < 4)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s has %d dims: 2-d pooling needs a 4-d tensor", what, x->nd);
    for (int i = 0; i < 4; ++i)
        if (x->dims[i] > INT32_MAX / 2)
            return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "%s dim %d (%lld) is too large", what, i,
                              (long long)x->dims[i]);
    if ((int64_t)d->wh * d->ww > INT32_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "window %dx%d has more than 2^31 taps", d->wh, d->ww);
    int64_t hp = x->dims[2] + 2 * (int64_t)d->ph, wp = x->dims[3] + 2 * (int64_t)d->pw;
    if (hp < d->wh || wp < d->ww)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "window %dx%d is larger than %s's padded extent %lldx%lld", d->wh,
                          d->ww, what, (long long)hp, (long long)wp);
    out[0] = x->dims[0];
    out[1] = x->dims[1];
    out[2] = 1 + (hp - d->wh) / d->sh;
    out[3] = 1 + (wp - d->ww) / d->sw;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetPooling2dForwardOutputDim(const cldnnPoolingDescriptor_t desc,
                                                const cldnnTensorDescriptor_t xDesc, int* n, int* c, int* h,
                                                int* w) {
    cldnn_error_clear();
    CLDNN_TRY(check_desc(desc));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    if (!n || !c || !h || !w)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "an output pointer is NULL");
    int64_t o[4] = {0, 0, 0, 0};
    CLDNN_TRY(output_dims(desc, xDesc, "xDesc", o));
    *n = (int)o[0];
    *c = (int)o[1];
    *h = (int)o[2];
    *w = (int)o[3];
    return CLDNN_STATUS_SUCCESS;
}

/* ----------------------------------------------------------------------------- calls */

/* The output descriptor y (or dy) must have the dims the descriptor gives for x (or dx). */
static cldnnStatus_t check_out_dims(const int64_t want[4], const struct cldnnTensorStruct* y, const char* yn,
                                    const char* xn) {
    int same = y->nd == 4;
    for (int i = 0; same && i < 4; ++i)
        same = y->dims[i] == want[i];
    if (!same) {
        char got[160], exp[160];
        cldnn_format_dims(got, sizeof got, y->nd, y->dims);
        cldnn_format_dims(exp, sizeof exp, 4, want);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                          "%s is %s but pooling %s gives %s (cldnnGetPooling2dForwardOutputDim)", yn, got, xn, exp);
    }
    return CLDNN_STATUS_SUCCESS;
}

static int kernel_op(const struct cldnnPoolingStruct* d) {
    if (d->mode == CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING)
        return POOL_AVG_INCL;
    if (d->mode == CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING)
        return POOL_AVG_EXCL;
    return d->nan == CLDNN_PROPAGATE_NAN ? POOL_MAX_PROP : POOL_MAX_SKIP;
}

static void problem_init(pool_problem* p, int dir, const struct cldnnPoolingStruct* d,
                         const struct cldnnTensorStruct* x, const int64_t out[4], const void* alpha,
                         const void* beta) {
    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->op = kernel_op(d);
    p->dtype = x->dtype;
    p->n = (int)out[0];
    p->c = (int)out[1];
    p->h = (int)x->dims[2];
    p->w = (int)x->dims[3];
    p->oh = (int)out[2];
    p->ow = (int)out[3];
    p->wh = d->wh;
    p->ww = d->ww;
    p->ph = d->ph;
    p->pw = d->pw;
    p->sh = d->sh;
    p->sw = d->sw;
    p->alpha = cldnn_scalar_as_float(alpha, x->dtype);
    p->beta = cldnn_scalar_as_float(beta, x->dtype);
}

/* Records operand t (strides into s, byte offset into *off) and grows span_max. */
static void add_operand(pool_problem* p, const struct cldnnTensorStruct* t, size_t byte_off, int64_t* s,
                        uint64_t* off) {
    for (int i = 0; i < 4; ++i)
        s[i] = t->strides[i];
    *off = byte_off / cldnn_dtype_size(t->dtype);
    uint64_t end = *off + (uint64_t)t->span;
    if (end > p->span_max)
        p->span_max = end;
}

static const char* pool_key(char* buf, size_t size, const char* dir, const struct cldnnPoolingStruct* d,
                            const struct cldnnTensorStruct* x) {
    if (cldnn_log_level() == 0)
        return "pooling";
    char dims[200];
    cldnn_format_dims(dims, sizeof dims, x->nd, x->dims);
    const char* layout = cldnn_tensor_layout(x);
    snprintf(buf, size, "pool-%s:%s-n%d-w%dx%d-p%dx%d-s%dx%d-d%s-%s-%s", dir, mode_name(d->mode), (int)d->nan, d->wh,
             d->ww, d->ph, d->pw, d->sh, d->sw, dims, layout ? layout : "strided", cldnn_dtype_name(x->dtype));
    return buf;
}

static void pool_log_cmd(int dir, const struct cldnnPoolingStruct* d, const struct cldnnTensorStruct* x,
                         const void* alpha, const void* beta) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400];
    cldnn_bench_shape_flags(shape, sizeof shape, x);
    cldnn_log_cmd("pool -F %d -m %s -N %d -y %d -x %d -p %d -q %d -u %d -v %d -A %g -B %g %s", dir,
                  mode_name(d->mode), (int)d->nan, d->wh, d->ww, d->ph, d->pw, d->sh, d->sw,
                  (double)cldnn_scalar_as_float(alpha, x->dtype), (double)cldnn_scalar_as_float(beta, x->dtype),
                  shape);
}

static cldnnStatus_t check_common(cldnnHandle_t h, const struct cldnnPoolingStruct* d, const void* alpha,
                                  const void* beta) {
    CLDNN_TRY(cldnn_check_handle(h));
    CLDNN_TRY(check_desc(d));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t same_dtype(const struct cldnnTensorStruct* a, const char* an, const struct cldnnTensorStruct* b,
                                const char* bn) {
    if (a->dtype != b->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s holds %s but %s holds %s", an, cldnn_dtype_name(a->dtype), bn,
                          cldnn_dtype_name(b->dtype));
    return CLDNN_STATUS_SUCCESS;
}

/* The checks between the input-side tensor in (x or dx) and the output-side out (y or dy): the
** output dims the descriptor gives for in, one data type, one the calls compute. */
static cldnnStatus_t check_geometry(const struct cldnnPoolingStruct* d, const struct cldnnTensorStruct* in,
                                    const char* in_name, const struct cldnnTensorStruct* out, const char* out_name,
                                    int64_t dims[4]) {
    CLDNN_TRY(output_dims(d, in, in_name, dims));
    CLDNN_TRY(check_out_dims(dims, out, out_name, in_name));
    CLDNN_TRY(same_dtype(in, in_name, out, out_name));
    return cldnn_check_compute_dtype(in->dtype, in_name);
}

/* Runs p through the solver table; x names the input-side tensor in the problem key. */
static cldnnStatus_t pool_run(cldnnHandle_t h, const pool_problem* p, const pool_buffers* b,
                              const struct cldnnPoolingStruct* d, const struct cldnnTensorStruct* x) {
    char key[400];
    return cldnn_solver_run_default(h, pool_solvers, sizeof pool_solvers / sizeof pool_solvers[0], p, b,
                                    pool_key(key, sizeof key, p->dir ? "bwd" : "fwd", d, x));
}

cldnnStatus_t cldnnPoolingForward(cldnnHandle_t handle, const cldnnPoolingDescriptor_t desc, const void* alpha,
                                  const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const void* beta,
                                  const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_common(handle, desc, alpha, beta));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    int64_t out[4];
    CLDNN_TRY(check_geometry(desc, xDesc, "xDesc", yDesc, "yDesc", out));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    pool_log_cmd(1, desc, xDesc, alpha, beta);

    pool_problem p;
    problem_init(&p, 0, desc, xDesc, out, alpha, beta);
    add_operand(&p, xDesc, xOffset, p.xs, &p.off_x);
    add_operand(&p, yDesc, yOffset, p.ys, &p.off_y);
    pool_buffers b = {x, y, NULL, NULL};
    return pool_run(handle, &p, &b, desc, xDesc);
}

cldnnStatus_t cldnnPoolingBackward(cldnnHandle_t handle, const cldnnPoolingDescriptor_t desc, const void* alpha,
                                   const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                                   const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                   const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const void* beta,
                                   const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_common(handle, desc, alpha, beta));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_tensor(dyDesc, "dyDesc"));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(xDesc, "xDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(yDesc, "yDesc", dyDesc, "dyDesc"));
    int64_t out[4];
    CLDNN_TRY(check_geometry(desc, dxDesc, "dxDesc", dyDesc, "dyDesc", out));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dyDesc, dy, dyOffset, "dy"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dxDesc, dx, dxOffset, "dx"));
    pool_log_cmd(2, desc, dxDesc, alpha, beta);

    pool_problem p;
    problem_init(&p, 1, desc, dxDesc, out, alpha, beta);
    add_operand(&p, xDesc, xOffset, p.xs, &p.off_x);
    add_operand(&p, yDesc, yOffset, p.ys, &p.off_y);
    add_operand(&p, dyDesc, dyOffset, p.dys, &p.off_dy);
    add_operand(&p, dxDesc, dxOffset, p.dxs, &p.off_dx);
    pool_buffers b = {x, y, dy, dx};
    return pool_run(handle, &p, &b, desc, dxDesc);
}
