/*
** norm.c: layer, group and RMS normalization (cldnnNormalizationForward / Backward), their
** descriptor and cldnnDeriveNormTensorDescriptors.
**
** A call is a set of rows, each normalized over its elements: LAYER and RMS one row per index of
** the leading nd - param dims (elements: the trailing param dims), GROUP one row per (n, group)
** (elements: C / groups channels and every spatial dim). The channel dim of GROUP is split into
** (group, channel in group) virtual dims, so every operand (x, y, dy, dx, the statistics and the
** parameters) is a strided view over one list of dims, and the dims of each side (row / element,
** and for the parameter gradients parameter / the rest) are sorted by x's strides and collapsed
** where every operand is contiguous. NCHW, NHWC, padded and up to 8-d tensors take one path to
** kernels/norm/norm.cl (its header describes the work split).
**
** Solvers (first applicable wins; CLDNN_SOLVER=norm_split forces the split anywhere):
**   norm_fused  enough rows to fill the device: one work-group per row (or per TK adjacent rows
**               when rows are adjacent in memory: instance norm on NHWC; a CPU's forward, one
**               work-item per row); a lane keeps its share of the row in registers when it fits
**               (NK values, rows up to 8192 elements at 256 lanes), so the forward reads x once
**               and the backward x and dy once
**   norm_split  few rows (GROUP at small batch): G work-groups per row write partials into the
**               handle's scratch, a second kernel merges them in order and applies
** The backward's dScale / dBias, in fixed-order partial sums (no atomics), come from
**   - norm_bwd itself (NM_PFUSE) for LAYER and RMS rows in registers: its groups (about two per
**     compute unit, TR rows at a time on GPUs) loop over rows and keep per-column sums, which
**     norm_par_sum adds up: x and dy are read once for all three gradients;
**   - norm_bwd itself (NM_GPAR) for GROUP rows in registers: (sample, channel) partials, which
**     norm_par_sum adds up (flag 64): x and dy read once;
**   - norm_bwd_reduce (flag 64) for GROUP rows too long for registers: a chunk per channel, so its
**     (sample, channel) partials serve dx and the parameters (norm_par_sum): two reads of x, dy;
**   - otherwise the parameter kernels (norm_par, or norm_par_reduce + norm_par_final), ahead of
**     the row kernels: adjacent work-items on adjacent parameters where x's innermost dim is a
**     parameter dim (GROUP on NHWC), else along the elements.
** Passes over memory: forward 1 read of x (2 when rows do not fit in registers or split) and 1
** write of y; backward 1 read of x and dy (2 for streamed rows, 1 more for the parameter kernels)
** and 1 write of dx.
**
** Contract choices: x, y, dy, dx and the parameters of one data type (FLOAT, HALF or BFLOAT16;
** float math, one rounding per output); statistics FLOAT; rows and elements per row below 2^31;
** after collapsing, at most 4 dims per side (else NOT_SUPPORTED; packed tensors always fit). An
** output may be its input exactly (same buffer, offset and strides); other overlaps of x are
** NOT_SUPPORTED.
*/
#include "gemm/gemm.h"
#include "tensor/tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cldnnNormStruct {
    int is_set;
    cldnnNormMode_t mode;
    int param;
    double eps;
};

enum { NM_X = 0, NM_Y = 1, NM_DX = 2, NM_S = 3, NM_P = 4, NM_OPS = 5 }; /* NM_Y is dy backward */
enum { NM_FLAG_AFFINE = 1, NM_FLAG_STATS = 2, NM_FLAG_RMS = 4, NM_FLAG_DSCALE = 8, NM_FLAG_DBIAS = 16, NM_FLAG_GCHUNK = 64 };
#define NM_SIDE 4    /* dims per side after collapsing */
#define NM_WG_MAX 256 /* kernels/norm/norm.cl's WGMAX by default */

/* One side split of the problem: O outers of I inner elements (kernel header). */
typedef struct {
    int O, I, no, ni;
    int odims[NM_SIDE], idims[NM_SIDE];
    int64_t os[NM_OPS][NM_SIDE], is[NM_OPS][NM_SIDE];
    int vec, pvec;   /* data elements per index; parameters vary along a vector */
    int stat_inner;  /* x's smallest stride is an outer dim: adjacent outers share work-groups */
} nm_view;

typedef struct {
    int dir;                   /* 0 forward, 1 backward */
    cldnnNormMode_t mode;
    cldnnDataType_t dtype;
    nm_view row, par;          /* par: the parameter gradients (backward with dScale or dBias) */
    uint64_t off[9];           /* elements: x, y|dy, dx, mean, invStd, scale, bias, dScale, dBias */
    int idx32;
    int contig; /* the row view: one outer dim, one inner dim of unit stride in the data and the parameters */
    int pflat;  /* GROUP, rows flattened (nm_flatten): the elements of a channel's plane (PD); 0 otherwise */
    float alpha, beta, alpha2, beta2, eps;
    int flags;
} nm_problem;

typedef struct {
    cl_mem m[9]; /* the order of nm_problem.off */
} nm_buffers;

/* Work split of one view (kernel header): work-group size, outers per team, teams per group,
** chunks per outer, and the groups launched along the outers (ng; 0: one per TR x TK outers). */
typedef struct {
    int wg, tk, tr, groups, chunk, ng;
} nm_split;

/* nk: the row kernels' register slots (-DNK); pfuse: norm_bwd leaves dScale / dBias partials
** (NM_PFUSE: 1 rows in registers, 2 streamed) over row.ng groups, summed by norm_par_sum split as psum; gchunk: GROUP's backward
** leaves (sample, channel) partials for norm_par_sum (flag 64), 2 from norm_bwd's registers, 1
** from norm_bwd_reduce's chunks, a chunk per channel (nm_group_chunks); async:
** norm_bwd's cp.async stages under NM_PFUSE 1 (NM_ASYNC, 0 none). */
typedef struct {
    nm_split row, par, psum;
    int nk, pfuse, gchunk, async;
} nm_params;

static uint32_t pow2_at_least(uint64_t v) {
    uint32_t p = 1;
    while (p < v && p < (1u << 30))
        p <<= 1;
    return p;
}

static uint32_t nm_max_wg(const cldnn_device_profile* dev) {
    uint32_t maxwg = NM_WG_MAX;
    while (maxwg > dev->max_wg_size && maxwg > 1)
        maxwg /= 2;
    return maxwg;
}

/* Work-group size, TK, TR and the chunks for view v; force_split: at least 2 chunks where the
** rows have room (the split solver on problems the fused one could take). */
/* Lanes for n indices of an outer with tk outers per group: about 4 indices each on a GPU (the
** row in registers, enough loads in flight); on a CPU, whose work-items cost more, as many as a
** lane keeps (NK, 32 / VEC). GPUs take at least two warps per group. */
static uint32_t nm_lanes(uint64_t n, int vec, uint32_t tk, const cldnn_device_profile* dev) {
    uint32_t maxwg = nm_max_wg(dev), per = dev->is_cpu ? 32u / (uint32_t)vec : 4u;
    uint32_t tm = pow2_at_least((n + per - 1) / per);
    if (tm > maxwg / tk)
        tm = maxwg / tk;
    if (!dev->is_cpu && tk * tm < 64 && maxwg >= 64)
        tm = 64 / tk;
    return tm;
}

static void nm_split_params(const nm_view* v, const cldnn_device_profile* dev, int force_split, int is_par,
                            nm_split* q) {
    uint32_t maxwg = nm_max_wg(dev), tk = 1;
    if (v->stat_inner) {
        tk = pow2_at_least((uint64_t)v->O);
        tk = tk < 32 ? tk : 32;
        tk = tk < maxwg ? tk : maxwg;
    }
    uint32_t tm = nm_lanes((uint64_t)v->I, v->vec, tk, dev), wg = tk * tm;
    q->wg = (int)wg;
    q->tk = (int)tk;
    q->tr = 1;
    q->ng = 0;
    uint64_t tiles = ((uint64_t)v->O + tk - 1) / tk, cu = dev->compute_units ? dev->compute_units : 1;
    /* the parameter gradients split whenever the device has room (their chunks are plain sums);
    ** the rows only when they are too few to fill it (a split row reads x twice); forced (the
    ** split solver): at least 2 chunks where the rows have an element per lane for each */
    uint64_t fill = (dev->is_cpu ? 1u : 2u) * cu, want = 1, most;
    if (is_par) {
        fill = (dev->is_cpu ? 2u : 8u) * cu;
        want = (fill + tiles - 1) / tiles;
    } else if (tiles < fill) {
        want = (4u * cu + tiles - 1) / tiles;
    }
    if (force_split && want < 2)
        want = 2;
    most = (uint64_t)v->I / ((uint64_t)tm * (force_split ? 1u : 16u));
    uint64_t g = want < most ? want : most;
    if (g < 1)
        g = 1;
    if (g > 4096)
        g = 4096;
    if (g > 1 && (uint64_t)v->O * g * 4u * sizeof(float) > CLDNN_SCRATCH_MAX)
        g = CLDNN_SCRATCH_MAX / ((uint64_t)v->O * 4u * sizeof(float));
    if (g < 1)
        g = 1;
    uint64_t chunk = ((uint64_t)v->I + g - 1) / g;
    q->chunk = (int)chunk;
    q->groups = (int)(((uint64_t)v->I + chunk - 1) / chunk);
}

/* The row kernels' register slots: the most a lane's share of a row takes, at most 32 / VEC. */
static int nm_nk(const nm_view* v, const nm_split* q) {
    int most = 32 / v->vec, tm = q->wg / (q->tk * q->tr);
    int need = (int)(((int64_t)q->chunk + tm - 1) / tm);
    return need < 1 ? 1 : need < most ? need : most;
}

/* norm_par_sum's split: TK adjacent parameters per group (coalesced partial reads), the rest of
** the group's lanes over the `sets` partial sets. */
static void nm_psum_split(const nm_problem* p, const cldnn_device_profile* dev, int sets, nm_split* s) {
    uint32_t maxwg = nm_max_wg(dev), tk = 32;
    while (tk > 1 && tk > maxwg)
        tk /= 2;
    s->tk = (int)tk;
    s->tr = 1;
    s->wg = (int)(maxwg < 256 ? maxwg : 256);
    s->groups = sets;
    s->chunk = 1;
    s->ng = (int)((p->par.O + (int)tk - 1) / (int)tk);
}

/* norm_bwd takes the parameter gradients along (NM_PFUSE) when they vary along the row's elements
** only (LAYER, RMS), the row is contiguous along its elements (TK 1), in one chunk and in the
** lanes' registers. Its groups then loop over rows: ng about 2 per compute unit. The column
** partials (2 ng floats per parameter, written and read) add 4 ng / 3 O to the data's traffic:
** 4 % for 8192 rows on 132 compute units, and at most 4 / 3 (ng <= rows). */
static void nm_fuse_par(const nm_problem* p, const cldnn_device_profile* dev, nm_params* q) {
    const nm_view* v = &p->row;
    const nm_split* r = &q->row;
    q->pfuse = 0;
    int streamed = (int64_t)v->I > (int64_t)q->nk * (r->wg / r->tr);
    if (!p->dir || !(p->flags & (NM_FLAG_DSCALE | NM_FLAG_DBIAS)) || p->mode == CLDNN_NORM_GROUP || r->tk != 1 ||
        r->groups != 1 || (streamed && (!dev->is_cpu || r->tr != 1)) || v->O >= (1 << 30))
        return; /* (the row loop's last pass indexes past O: rows below 2^30 keep it in int) */
    for (int i = 0; i < NM_SIDE; ++i)
        if (v->os[NM_P][i] != 0)
            return;
    /* GPUs: TR rows per group where a row takes fewer lanes than a group holds, so the few
    ** groups still fill the device (1024-wide rows, H200: TR 1 136.9 us, TR 4 56.6) */
    int lanes = r->wg / r->tr, tr = r->tr;
    if (!dev->is_cpu && tr == 1 && lanes < (int)nm_max_wg(dev))
        tr = (int)nm_max_wg(dev) / lanes;
    uint64_t tiles = ((uint64_t)v->O + (uint64_t)tr - 1) / (uint64_t)tr;
    uint64_t cu = dev->compute_units ? dev->compute_units : 1, ng = 2u * cu;
    uint64_t cols = (uint64_t)v->I * (uint64_t)v->vec;
    int ng_hook = cldnn_env_int("CLDNN_NORM_NG", 0); /* test hook: the row loop on few rows (as tr_hook) */
    if (ng_hook > 0)
        ng = (uint64_t)ng_hook;
    if (ng > tiles)
        ng = tiles;
    if (ng * 2u * cols * sizeof(float) > CLDNN_SCRATCH_MAX)
        ng = CLDNN_SCRATCH_MAX / (2u * cols * sizeof(float));
    if (ng < 1)
        return;
    q->pfuse = streamed ? 2 : 1;
    q->row.tr = tr;
    q->row.wg = lanes * tr;
    q->row.ng = (int)ng;
    nm_psum_split(p, dev, (int)ng, &q->psum);
}

/* GROUP's channels per row (its partials per row under gchunk): the flat row over its plane size,
** or the second inner dim; 0 where neither view holds. */
static int nm_group_channels(const nm_problem* p) {
    const nm_view* v = &p->row;
    if (p->pflat > 0)
        return (int)((int64_t)v->I * v->vec / p->pflat);
    if (v->ni == 2 && v->is[NM_P][0] == 0 && v->is[NM_P][1] != 0)
        return v->idims[1];
    return 0;
}

/* NM_GPAR's partials per element (-DNM_GPARE): flat rows in vectors over planes not a multiple of 4. */
static int nm_gpar_elems(const nm_problem* p) {
    return p->pflat > 0 && p->row.vec == 4 && p->pflat % 4 != 0;
}

/* GROUP's backward with dScale or dBias takes them from per-(sample, channel) partials that
** norm_par_sum adds up (flag 64): row o = n G' + group and parameter o = group C / G' + channel,
** so that partial o C / G' + c is (n, parameter); rows (group, n) or merged, parameters (channel,
** group) or merged.
**   gchunk 2: rows in the lanes' registers: norm_bwd leaves the partials itself (-DNM_GPAR, the
**             row's products through local memory, a lane per channel summing them in order), so
**             x and dy are read once, not again by the parameter kernels;
**   gchunk 1: longer rows: one chunk per channel of the group (elements: spatial, then the
**             group's channels), so norm_bwd_reduce's partials give dScale / dBias as well: x and
**             dy read twice in all (the reduce, the apply), not three times (the streamed row
**             twice, the parameter kernel once). */
static void nm_group_chunks(const nm_problem* p, const cldnn_device_profile* dev, nm_params* q) {
    const nm_view* v = &p->row;
    const nm_split* r = &q->row;
    const nm_view* pv = &p->par;
    if (!p->dir || p->mode != CLDNN_NORM_GROUP || !(p->flags & (NM_FLAG_DSCALE | NM_FLAG_DBIAS)) || r->tk != 1)
        return;
    const int cpg = nm_group_channels(p);
    if (cpg == 0)
        return;
    if (!(v->no == 1 || (v->no == 2 && v->os[NM_P][0] != 0 && v->os[NM_P][1] == 0)) ||
        !(pv->no == 1 || (pv->no == 2 && pv->odims[0] == cpg)))
        return;
    int64_t sets = (int64_t)v->O * cpg;
    if (sets % p->par.O != 0 || (uint64_t)sets * 4u * sizeof(float) > CLDNN_SCRATCH_MAX)
        return;
    int cached = (int64_t)v->I <= (int64_t)q->nk * (r->wg / r->tr);
    if (cached) {
        /* a value per index, or per element where flat vectors span two channels */
        uint64_t per = (uint64_t)(nm_gpar_elems(p) ? v->vec : 1);
        uint64_t local = 2u * sizeof(float) * per * (uint64_t)q->nk * (uint64_t)r->wg + NM_WG_MAX * 16u;
        if (r->tr != 1 || r->groups != 1 || local > dev->local_mem)
            return;
        q->gchunk = 2;
    } else if (p->pflat > 0) {
        return;
    } else {
        /* and enough (row, channel) groups to fill the device: fewer rows take the split */
        uint64_t cu = dev->compute_units ? dev->compute_units : 1;
        if (v->idims[0] < 128 || (uint64_t)sets < 2u * cu)
            return;
        q->gchunk = 1;
        q->row.wg = (int)nm_lanes((uint64_t)v->idims[0], v->vec, 1, dev);
        q->row.tr = 1;
        q->row.ng = 0;
        q->row.groups = v->idims[1];
        q->row.chunk = v->idims[0];
        q->nk = nm_nk(v, &q->row);
    }
    nm_psum_split(p, dev, (int)(sets / p->par.O), &q->psum);
}

/* NVIDIA, NM_PFUSE 1's backward: its groups (two per SM: its registers) stage x and dy of the
** next row pass by cp.async (norm.cl's NM_ASYNC), so their loads go on while they sum and store,
** where the stages fit a group's and the SM's shared memory (cldnn_mma_local_limit). 2 stages:
** 3 ran slower (H200, LAYER 8192 x 4096: 175 us without, 146 with 2, 183 with 3). */
static void nm_async_rows(const nm_problem* p, const cldnn_device_profile* dev, nm_params* q) {
    const nm_split* r = &q->row;
    int stages = cldnn_env_int("CLDNN_NORM_ASYNC", 2); /* bench and test hook: 0 off, 2..4 stages */
    q->async = 0;
    if (stages < 2 || stages > 4 || !p->dir || q->pfuse != 1 || !cldnn_mma_shfl(dev) || p->row.vec != 4)
        return;
    uint64_t cu = dev->compute_units ? dev->compute_units : 1, vb = 4u * cldnn_dtype_size(p->dtype);
    uint64_t stage = 2u * (uint64_t)stages * (uint64_t)q->nk * (uint64_t)r->wg * vb + NM_WG_MAX * 16u;
    uint64_t smem = cldnn_mma_local_limit(dev); /* a group's most, about an SM's */
    if (stage <= smem && ((uint64_t)r->ng + cu - 1) / cu * stage <= smem)
        q->async = stages;
}

static void nm_defaults_force(const nm_problem* p, const cldnn_device_profile* dev, int force, nm_params* q) {
    memset(q, 0, sizeof *q);
    nm_split_params(&p->row, dev, force, 0, &q->row);
    /* CPUs: a work-item per row, whose loops walk it with vector loads (lanes across a row cost
    ** a CPU runtime a private array per lane and a barrier tree per sum), in the forward and in
    ** LAYER / RMS's backward, which then adds dScale / dBias into its group's partials row by
    ** row (PoCL 3.1, two cores: LAYER 512x768 forward 970 -> 243 us, backward 969 -> 465).
    ** GROUP's backward keeps the lanes: its rows of few samples ran slower this way (2x512x14x14
    ** 1450 -> 2272 us) */
    if (dev->is_cpu && (!p->dir || p->mode != CLDNN_NORM_GROUP) && !force && q->row.tk == 1 && q->row.groups == 1) {
        q->row.wg = 1;
        q->row.tr = 1;
    }
    /* test hook (tests/test_norm.c, tests/oclgrind): TR teams on any device (CPUs take one),
    ** where a group may hold them */
    int tr_hook = cldnn_env_int("CLDNN_NORM_TR", 0);
    if (tr_hook > 0 && q->row.tk == 1 && q->row.groups == 1 &&
        (uint64_t)(q->row.wg / q->row.tr) * (uint64_t)tr_hook <= nm_max_wg(dev)) {
        q->row.wg = q->row.wg / q->row.tr * tr_hook;
        q->row.tr = tr_hook;
    }
    /* NVIDIA, GROUP's forward: a row of more than 64 KiB in vectors (FLOAT, 56 x 56 planes) takes
    ** 1024 lanes where they keep it in registers, read once instead of twice. H200, same call,
    ** streamed / 1024 lanes: FLOAT 32x256x56x56 95.2 / 77.8 us; rows of 50 KB ran slower in
    ** registers (BFLOAT16 32x256x56x56 63.9 / 90.9 at 1024 lanes, FLOAT 32x512x28x28 42.0 / 47.9
    ** at 512): the second read of a shorter row comes from L2 */
    uint64_t row_bytes = (uint64_t)p->row.I * (uint64_t)p->row.vec * cldnn_dtype_size(p->dtype);
    if (cldnn_mma_shfl(dev) && !p->dir && p->mode == CLDNN_NORM_GROUP && p->row.vec == 4 && !force &&
        q->row.tk == 1 && q->row.tr == 1 && q->row.groups == 1 && row_bytes > 65536u && dev->max_wg_size >= 1024 &&
        1024u * (32u / (uint64_t)p->row.vec) >= (uint64_t)p->row.I)
        q->row.wg = 1024;
    q->nk = nm_nk(&p->row, &q->row);
    if (p->flags & (NM_FLAG_DSCALE | NM_FLAG_DBIAS)) {
        nm_split_params(&p->par, dev, force, 1, &q->par);
        if (!force)
            nm_fuse_par(p, dev, q);
        nm_group_chunks(p, dev, q);
    }
    if (!force)
        nm_async_rows(p, dev, q);
}

static void fused_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    nm_defaults_force((const nm_problem*)problem, dev, 0, (nm_params*)params);
}

static void split_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    nm_defaults_force((const nm_problem*)problem, dev, 1, (nm_params*)params);
}

static int fused_applicable(const void* problem, const cldnn_device_profile* dev) {
    nm_split q;
    nm_split_params(&((const nm_problem*)problem)->row, dev, 0, 0, &q);
    return q.groups == 1;
}

static int split_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    (void)dev;
    return 1;
}

static void set_long4(cl_long4* d, const int64_t* s) {
    for (int i = 0; i < 4; ++i)
        d->s[i] = s[i];
}

/* Sets NORM_ARGS (kernels/norm/norm.cl, in its order) for view v split by s and enqueues kernel
** `name` over s's groups (norm_par_final: one work-item per parameter instead). */
static cldnnStatus_t nm_launch(cldnnHandle_t h, const nm_problem* p, const nm_params* q, const nm_view* v,
                               const nm_split* s, const nm_buffers* b, cl_mem part, const char* name) {
    char opts[256];
    const cldnn_device_profile* dev = &h->prof;
    int shfl = cldnn_mma_shfl(dev);
    /* NVIDIA, backward programs: norm_bwd keeps x, dy and its column sums in registers; at 4
    ** slots the compiler takes 132 and only one 256-lane group then fits an SM (1024-wide rows:
    ** 80.6 us against 54.2 capped, H200). The forward's take no cap: it slowed GROUP's forward
    ** (32x512x28x28: 65.3 us capped, 55.4 not) */
    /* what the options are made of (the device's part is the handle's), and the kernel's name;
    ** the call's kernels share one program (NM_WG: the row kernel's group size) */
    const int async = q->async, gpar = q->gchunk == 2, swg = async || gpar ? q->row.wg : 0;
    const int wgmax = q->row.wg > NM_WG_MAX ? q->row.wg : NM_WG_MAX;
    const int64_t memo[] = {(int64_t)(intptr_t)name, p->row.vec, q->nk, p->contig, q->pfuse, p->dir, p->idx32,
                          p->dtype, async, swg, p->pflat > 0, wgmax, gpar, nm_gpar_elems(p)};
    cl_kernel k;
    if (!cldnn_kernel_memo_get(h, memo, sizeof memo, &k)) {
        char wg[48] = "";
        if (async)
            snprintf(wg, sizeof wg, " -DNM_ASYNC=%d -DNM_WG=%d", async, swg);
        else if (wgmax > NM_WG_MAX) /* 1024 lanes launch only at 64 registers or fewer */
            snprintf(wg, sizeof wg, " -DWGMAX=%d -cl-nv-maxrregcount=64", wgmax);
        else if (gpar)
            snprintf(wg, sizeof wg, " -DNM_GPAR=1 -DNM_WG=%d%s", swg, nm_gpar_elems(p) ? " -DNM_GPARE=1" : "");
        snprintf(opts, sizeof opts,
                 "-DVEC=%d -DNK=%d -DNM_SHFL=%d -DNM_CONTIG=%d -DNM_PFLAT=%d -DNM_PFUSE=%d -DNM_SUNROLL=%d -DUNROLL=%d -DIDX_T=%s%s%s%s",
                 p->row.vec, q->nk, shfl, p->contig, p->pflat > 0, q->pfuse, p->dir ? 1 : 4, dev->is_cpu ? 0 : 1,
                 p->idx32 ? "uint" : "ulong", cldnn_dtype_build_option(p->dtype),
                 shfl && p->dir ? " -cl-nv-maxrregcount=128" : "", wg);
        CLDNN_TRY(cldnn_kernel_get(h, "norm/norm.cl", opts, name, &k));
        cldnn_kernel_memo_put(h, memo, sizeof memo, k);
    }
    /* NM_PFLAT's channel divisor (any valid one elsewhere: the kernels do not read it) */
    const cl_uint4 pdiv = cldnn_fastdiv((uint32_t)(p->pflat > 0 ? p->pflat : 1));
    cl_int4 od, id;
    for (int i = 0; i < 4; ++i) {
        od.s[i] = v->odims[i];
        id.s[i] = v->idims[i];
    }
    cl_uint4 div[3];
    for (int i = 0; i < 3; ++i)
        div[i] = cldnn_fastdiv((uint32_t)v->idims[i]);
    cl_long4 os[NM_OPS], is[NM_OPS];
    for (int o = 0; o < NM_OPS; ++o) {
        set_long4(&os[o], v->os[o]);
        set_long4(&is[o], v->is[o]);
    }
    /* offsets in the view's units: data in vectors, parameters too where they vary along one */
    cl_ulong off[9];
    for (int i = 0; i < 9; ++i) {
        int data = i <= 2, param = i >= 5;
        off[i] = p->off[i] / (uint64_t)((data || (param && v->pvec)) ? v->vec : 1);
    }
    cl_int O = v->O, I = v->I, ni = v->ni, tk = s->tk, tr = s->tr, G = s->groups, chunk = s->chunk, pvec = v->pvec;
    cl_int flags = p->flags | (q->gchunk ? NM_FLAG_GCHUNK : 0);
    CLDNN_TRY(CLDNN_KERNEL_ARGS(
        k, 0, CLDNN_ARG(O), CLDNN_ARG(I), CLDNN_ARG(od), CLDNN_ARG(ni), CLDNN_ARG(id), CLDNN_ARG(div[0]),
        CLDNN_ARG(div[1]), CLDNN_ARG(div[2]), CLDNN_ARG(tk), CLDNN_ARG(tr), CLDNN_ARG(G), CLDNN_ARG(chunk),
        CLDNN_ARG(b->m[0]), CLDNN_ARG(off[0]), CLDNN_ARG(os[NM_X]), CLDNN_ARG(is[NM_X]), CLDNN_ARG(b->m[1]),
        CLDNN_ARG(off[1]), CLDNN_ARG(os[NM_Y]), CLDNN_ARG(is[NM_Y]), CLDNN_ARG(b->m[2]), CLDNN_ARG(off[2]),
        CLDNN_ARG(os[NM_DX]), CLDNN_ARG(is[NM_DX]), CLDNN_ARG(os[NM_S]), CLDNN_ARG(is[NM_S]), CLDNN_ARG(b->m[3]),
        CLDNN_ARG(off[3]), CLDNN_ARG(b->m[4]), CLDNN_ARG(off[4]), CLDNN_ARG(os[NM_P]), CLDNN_ARG(is[NM_P]),
        CLDNN_ARG(pvec), CLDNN_ARG(pdiv), CLDNN_ARG(b->m[5]), CLDNN_ARG(off[5]), CLDNN_ARG(b->m[6]), CLDNN_ARG(off[6]),
        CLDNN_ARG(b->m[7]), CLDNN_ARG(off[7]), CLDNN_ARG(b->m[8]), CLDNN_ARG(off[8]), CLDNN_ARG(p->alpha),
        CLDNN_ARG(p->beta), CLDNN_ARG(p->alpha2), CLDNN_ARG(p->beta2), CLDNN_ARG(p->eps), CLDNN_ARG(flags),
        CLDNN_ARG(part)));
    if (strcmp(name, "norm_par_final") == 0)
        return cldnn_enqueue_1d(h, k, (uint64_t)v->O, 64, name);
    uint64_t ng = s->ng ? (uint64_t)s->ng
                        : ((uint64_t)v->O + (uint64_t)(s->tk * s->tr) - 1) / (uint64_t)(s->tk * s->tr);
    uint64_t per = strcmp(name, "norm_par_sum") == 0 ? 1u : (uint64_t)s->groups;
    return cldnn_enqueue_1d(h, k, ng * per * (uint64_t)s->wg, (size_t)s->wg, name);
}

/* The handle's scratch for the partials the run's split kernels write (the row kernels and then
** the parameter kernels, one after the other on the in-order queue). */
static cldnnStatus_t nm_scratch(cldnnHandle_t h, const nm_problem* p, const nm_params* q, cl_mem* part) {
    uint64_t n = q->row.groups > 1 ? (uint64_t)p->row.O * (uint64_t)q->row.groups : 1u;
    if ((p->flags & (NM_FLAG_DSCALE | NM_FLAG_DBIAS)) && q->par.groups > 1 &&
        (uint64_t)p->par.O * (uint64_t)q->par.groups > n)
        n = (uint64_t)p->par.O * (uint64_t)q->par.groups;
    if (q->pfuse) /* float4 units: 2 ng columns per parameter */
        n = ((uint64_t)q->row.ng * 2u * (uint64_t)p->par.O + 3u) / 4u;
    /* (gchunk 1: the row split's O G float4, counted above; gchunk 2: O C / G' of them) */
    if (q->gchunk == 2) /* O x the group's channels */
        n = (uint64_t)p->row.O * (uint64_t)nm_group_channels(p);
    if (n <= 1 && !q->pfuse && !q->gchunk) {
        *part = NULL;
        return CLDNN_STATUS_SUCCESS;
    }
    return cldnn_scratch_get(h, (size_t)(n * 4u * sizeof(float)), part);
}

/* dScale / dBias, before the data gradient: dx may be x or dy (in place), which the parameter
** kernels read. The scratch is free again when they are done (the in-order queue). */
static cldnnStatus_t nm_run_par(cldnnHandle_t h, const nm_problem* p, const nm_params* q, const nm_buffers* b,
                                cl_mem part) {
    if (!(p->flags & (NM_FLAG_DSCALE | NM_FLAG_DBIAS)) || q->pfuse || q->gchunk)
        return CLDNN_STATUS_SUCCESS;
    const nm_split* s = &q->par;
    if (s->groups == 1)
        return nm_launch(h, p, q, &p->par, s, b, part, "norm_par");
    CLDNN_TRY(nm_launch(h, p, q, &p->par, s, b, part, "norm_par_reduce"));
    return nm_launch(h, p, q, &p->par, s, b, part, "norm_par_final");
}

/* Both solvers: one pass per row (G == 1) or the split (reduce, apply), the parameter kernels
** ahead of them, or norm_par_sum after them where a row kernel left the partials. */
static cldnnStatus_t nm_run_params(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const nm_problem* p = (const nm_problem*)problem;
    const nm_params* q = (const nm_params*)params;
    const nm_buffers* b = (const nm_buffers*)buffers;
    cl_mem part;
    CLDNN_TRY(nm_scratch(h, p, q, &part));
    CLDNN_TRY(nm_run_par(h, p, q, b, part));
    if (q->row.groups == 1) {
        CLDNN_TRY(nm_launch(h, p, q, &p->row, &q->row, b, part, p->dir ? "norm_bwd" : "norm_fwd"));
    } else {
        CLDNN_TRY(nm_launch(h, p, q, &p->row, &q->row, b, part, p->dir ? "norm_bwd_reduce" : "norm_fwd_reduce"));
        CLDNN_TRY(nm_launch(h, p, q, &p->row, &q->row, b, part, p->dir ? "norm_bwd_apply" : "norm_fwd_apply"));
    }
    if (q->pfuse || q->gchunk)
        return nm_launch(h, p, q, &p->par, &q->psum, b, part, "norm_par_sum");
    return CLDNN_STATUS_SUCCESS;
}

static const cldnn_solver nm_solvers[] = {
    {.name = "norm_fused", .algo = -1, .applicable = fused_applicable, .default_params = fused_defaults,
     .params_size = sizeof(nm_params), .run = nm_run_params, .flags = CLDNN_SOLVER_DETERMINISTIC},
    {.name = "norm_split", .algo = -1, .applicable = split_applicable, .default_params = split_defaults,
     .params_size = sizeof(nm_params), .run = nm_run_params, .flags = CLDNN_SOLVER_DETERMINISTIC},
};

/* ---------------------------------------------------------------------------- problem */

/* The virtual dims of a call (GROUP's channel split in two), each with its size, every
** operand's stride, and its side in the row split (outer: a row dim) and in the parameter split
** (outer: a parameter dim). */
typedef struct {
    int n;
    int64_t size[CLDNN_DIM_MAX + 1];
    int64_t st[NM_OPS][CLDNN_DIM_MAX + 1];
    int row[CLDNN_DIM_MAX + 1], par[CLDNN_DIM_MAX + 1];
} nm_dims;

/* Collapses the dims of d with side[i] == want into (dims, strides) groups of v: sorted by x's
** stride, innermost first, neighbours merged where every operand is contiguous, size-1 dims
** dropped. Returns the count, or -1 when more than NM_SIDE groups remain. */
static int nm_collapse(const nm_dims* d, const int* side, int want, int* gd, int64_t (*gs)[NM_SIDE]) {
    int order[CLDNN_DIM_MAX + 1], n = 0;
    for (int i = d->n - 1; i >= 0; --i) {
        if (side[i] != want || d->size[i] == 1)
            continue;
        int j = n++;
        while (j > 0 && d->st[NM_X][order[j - 1]] > d->st[NM_X][i]) {
            order[j] = order[j - 1];
            --j;
        }
        order[j] = i;
    }
    int ng = 0;
    for (int k = 0; k < n; ++k) {
        int i = order[k], merge = ng > 0;
        for (int o = 0; merge && o < NM_OPS; ++o)
            merge = d->st[o][i] == gs[o][ng - 1] * gd[ng - 1];
        if (merge) {
            gd[ng - 1] *= (int)d->size[i];
            continue;
        }
        if (ng == NM_SIDE)
            return -1;
        gd[ng] = (int)d->size[i];
        for (int o = 0; o < NM_OPS; ++o)
            gs[o][ng] = d->st[o][i];
        ng++;
    }
    int used = ng;
    for (int i = ng; i < NM_SIDE; ++i) {
        gd[i] = 1;
        for (int o = 0; o < NM_OPS; ++o)
            gs[o][i] = 0;
    }
    return used > 0 ? used : 1;
}

/* Fills view v from d: outer dims those with side[i] == 1. Returns 0, or -1 when a side keeps
** more than NM_SIDE dims. */
static int nm_make_view(const nm_dims* d, const int* side, nm_view* v) {
    memset(v, 0, sizeof *v);
    v->no = nm_collapse(d, side, 1, v->odims, v->os);
    v->ni = nm_collapse(d, side, 0, v->idims, v->is);
    if (v->no < 0 || v->ni < 0)
        return -1;
    int64_t O = 1, I = 1;
    for (int i = 0; i < NM_SIDE; ++i) {
        O *= v->odims[i];
        I *= v->idims[i];
    }
    v->O = (int)O;
    v->I = (int)I;
    v->vec = 1;
    v->stat_inner = v->O > 1 && (v->I == 1 || v->os[NM_X][0] < v->is[NM_X][0]);
    return 0;
}

/* GROUP on rows contiguous over their (channel in group, spatial) dims, as NCHW has them: the
** data's two inner dims become one (the parameters varying along the outer one kept them apart),
** so rows load as vectors along their whole length (7 x 7 planes included), and the kernel takes
** a parameter's channel as element / PD (NM_PFLAT). The backward only on rows that 256 lanes keep
** in registers (8192 elements), whose dScale / dBias partials norm_bwd leaves per channel
** (gchunk 2); longer ones keep the two dims for the split a chunk per channel (gchunk 1). */
#define NM_FLAT_BWD_MAX 8192
static void nm_flatten(nm_problem* p) {
    nm_view* v = &p->row;
    if (p->mode != CLDNN_NORM_GROUP || v->ni != 2 ||
        (p->dir && (int64_t)v->idims[0] * v->idims[1] > NM_FLAT_BWD_MAX))
        return;
    for (int o = NM_X; o <= NM_DX; ++o)
        if (v->is[o][0] != 1 || v->is[o][1] != v->idims[0])
            return;
    /* the parameters (their strides exist without a descriptor too: packed) vary along the second
    ** dim only, so that the first is the plane: one group on NHWC has (channel, plane) instead */
    if (v->is[NM_P][0] != 0 || v->is[NM_P][1] != 1)
        return;
    p->pflat = v->idims[0];
    v->idims[0] *= v->idims[1];
    v->idims[1] = 1;
    v->ni = 1;
    for (int o = 0; o < NM_OPS; ++o)
        v->is[o][1] = 0;
    v->is[NM_P][0] = 0;
}

/* VEC = 4 for the row view when the innermost element dim has unit stride in every data operand
** and its size, the data's other strides and offsets divide by 4, and the parameters either do
** not vary along it or do with unit stride (then their strides and offsets divide too). */
static void nm_vectorize(nm_problem* p, int nparam_offs) {
    nm_view* v = &p->row;
    if (v->idims[0] % 4 != 0)
        return;
    for (int o = NM_X; o <= NM_DX; ++o) {
        if (v->is[o][0] != 1 || p->off[o] % 4 != 0)
            return;
        for (int i = 0; i < NM_SIDE; ++i)
            if (v->os[o][i] % 4 != 0 || (i > 0 && v->is[o][i] % 4 != 0))
                return;
    }
    int pv = v->is[NM_P][0] == 1;
    if (v->is[NM_P][0] > 1)
        return;
    if (pv) {
        for (int i = 0; i < nparam_offs; ++i)
            if (p->off[5 + i] % 4 != 0)
                return;
        for (int i = 0; i < NM_SIDE; ++i)
            if (v->os[NM_P][i] % 4 != 0 || (i > 0 && v->is[NM_P][i] % 4 != 0))
                return;
    }
    v->vec = 4;
    v->pvec = pv;
    v->idims[0] /= 4;
    v->I /= 4;
    for (int i = 0; i < NM_SIDE; ++i) {
        for (int o = NM_X; o <= NM_DX; ++o) {
            v->os[o][i] /= 4;
            if (i > 0)
                v->is[o][i] /= 4;
        }
        if (pv) {
            v->os[NM_P][i] /= 4;
            if (i > 0)
                v->is[NM_P][i] /= 4;
        }
    }
}

static const char* mode_name(cldnnNormMode_t m) {
    return m == CLDNN_NORM_LAYER ? "layer" : m == CLDNN_NORM_GROUP ? "group" : "rms";
}

/* Dims of the parameters (*pn of them) and statistics (x's count) of x under desc. */
static void nm_derived_dims(const struct cldnnNormStruct* nd, const struct cldnnTensorStruct* x, int* pn,
                            int64_t* pdims, int64_t* sdims) {
    if (nd->mode == CLDNN_NORM_GROUP) {
        *pn = x->nd;
        for (int d = 0; d < x->nd; ++d) {
            pdims[d] = d == 1 ? x->dims[1] : 1;
            sdims[d] = d == 0 ? x->dims[0] : d == 1 ? nd->param : 1;
        }
        return;
    }
    int lead = x->nd - nd->param;
    *pn = nd->param;
    for (int d = 0; d < x->nd; ++d) {
        if (d >= lead)
            pdims[d - lead] = x->dims[d];
        sdims[d] = d < lead ? x->dims[d] : 1;
    }
}

/* The virtual dims of a call: x, y|dy, dx strides from t[0..2] (NULL: x's), the statistics' and
** the parameters' from their descriptors (NULL: packed). */
static void nm_dims_init(nm_dims* v, const struct cldnnNormStruct* nd, const struct cldnnTensorStruct* const* t,
                         const struct cldnnTensorStruct* st, const struct cldnnTensorStruct* pt) {
    const struct cldnnTensorStruct* x = t[0];
    int pn;
    int64_t pdims[CLDNN_DIM_MAX], sdims[CLDNN_DIM_MAX], ps[CLDNN_DIM_MAX], ss[CLDNN_DIM_MAX];
    nm_derived_dims(nd, x, &pn, pdims, sdims);
    int64_t s = 1;
    for (int d = pn - 1; d >= 0; --d) {
        ps[d] = pt ? pt->strides[d] : s;
        s *= pdims[d];
    }
    s = 1;
    for (int d = x->nd - 1; d >= 0; --d) {
        ss[d] = st ? st->strides[d] : s;
        s *= sdims[d];
    }
    int lead = x->nd - nd->param, n = 0;
    for (int d = 0; d < x->nd; ++d) {
        int64_t xs[3];
        for (int o = 0; o < 3; ++o)
            xs[o] = (t[o] ? t[o] : x)->strides[d];
        if (nd->mode == CLDNN_NORM_GROUP && d == 1) {
            int64_t cg = x->dims[1] / nd->param;
            /* the group: a row dim, a parameter dim; then the channel in the group */
            v->size[n] = nd->param;
            for (int o = 0; o < 3; ++o)
                v->st[o][n] = xs[o] * cg;
            v->st[NM_S][n] = ss[1];
            v->st[NM_P][n] = ps[1] * cg;
            v->row[n] = 1;
            v->par[n++] = 1;
            v->size[n] = cg;
            for (int o = 0; o < 3; ++o)
                v->st[o][n] = xs[o];
            v->st[NM_S][n] = 0;
            v->st[NM_P][n] = ps[1];
            v->row[n] = 0;
            v->par[n++] = 1;
            continue;
        }
        int row = nd->mode == CLDNN_NORM_GROUP ? d == 0 : d < lead;
        v->size[n] = x->dims[d];
        for (int o = 0; o < 3; ++o)
            v->st[o][n] = xs[o];
        v->st[NM_S][n] = row ? ss[d] : 0;
        v->st[NM_P][n] = nd->mode == CLDNN_NORM_GROUP ? 0 : row ? 0 : ps[d - lead];
        v->row[n] = row;
        v->par[n++] = nd->mode == CLDNN_NORM_GROUP ? 0 : !row;
    }
    v->n = n;
}

/* ---------------------------------------------------------------------------- checks */

static cldnnStatus_t check_norm_desc(const struct cldnnNormStruct* d) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "normDesc is NULL");
    if (!d->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "normDesc was never set (cldnnSetNormDescriptor)");
    return CLDNN_STATUS_SUCCESS;
}

/* x against the descriptor: rank for param, channels for groups. */
static cldnnStatus_t check_x_for(const struct cldnnNormStruct* nd, const struct cldnnTensorStruct* x) {
    if (nd->mode == CLDNN_NORM_GROUP) {
        if (x->nd < 2)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "group normalization needs x of 2 or more dims (N, C, ...); x has %d",
                              x->nd);
        if (x->dims[1] % nd->param != 0)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "x has %lld channels, not a multiple of the %d groups",
                              (long long)x->dims[1], nd->param);
    } else if (nd->param > x->nd) {
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s normalization over the last %d dims of x, which has %d",
                          mode_name(nd->mode), nd->param, x->nd);
    }
    return CLDNN_STATUS_SUCCESS;
}

/* A data tensor beside x: dims, type, buffer. */
static cldnnStatus_t check_data(cldnnHandle_t h, const struct cldnnTensorStruct* x, const struct cldnnTensorStruct* t,
                                const char* tn, cl_mem m, size_t off, const char* mn) {
    CLDNN_TRY(cldnn_check_tensor(t, tn));
    CLDNN_TRY(cldnn_check_same_dims(x, "xDesc", t, tn));
    if (t->dtype != x->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s holds %s, xDesc %s: one data type per call", tn,
                          cldnn_dtype_name(t->dtype), cldnn_dtype_name(x->dtype));
    return cldnn_check_tensor_buffer(h, t, m, off, mn);
}

/* An output that shares x's (or dy's) buffer must be it exactly. */
static cldnnStatus_t check_alias(const struct cldnnTensorStruct* a, cl_mem am, size_t ao,
                                 const struct cldnnTensorStruct* t, cl_mem m, size_t off, const char* what) {
    if (m != am)
        return CLDNN_STATUS_SUCCESS;
    int same = off == ao;
    for (int d = 0; same && d < a->nd; ++d)
        same = a->strides[d] == t->strides[d] || a->dims[d] == 1;
    if (!same)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED,
                          "%s shares an input's buffer with another offset or strides: only exact in-place is computed",
                          what);
    return CLDNN_STATUS_SUCCESS;
}

/* The parameter (stats 0) or statistics (stats 1) descriptor against what Derive gives. */
static cldnnStatus_t check_aux_desc(const struct cldnnNormStruct* nd, const struct cldnnTensorStruct* x,
                                    const struct cldnnTensorStruct* t, const char* what, int stats) {
    CLDNN_TRY(cldnn_check_tensor(t, what));
    int pn;
    int64_t pdims[CLDNN_DIM_MAX], sdims[CLDNN_DIM_MAX];
    nm_derived_dims(nd, x, &pn, pdims, sdims);
    int n = stats ? x->nd : pn;
    const int64_t* want = stats ? sdims : pdims;
    int same = t->nd == n;
    for (int d = 0; same && d < n; ++d)
        same = t->dims[d] == want[d];
    if (!same) {
        char got[160], exp[160];
        cldnn_format_dims(got, sizeof got, t->nd, t->dims);
        cldnn_format_dims(exp, sizeof exp, n, want);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                          "%s is %s; the %s of this x are %s (cldnnDeriveNormTensorDescriptors)", what, got,
                          stats ? "statistics" : "parameters", exp);
    }
    cldnnDataType_t dt = stats ? CLDNN_DATA_FLOAT : x->dtype;
    if (t->dtype != dt)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s holds %s; it must hold %s", what, cldnn_dtype_name(t->dtype),
                          cldnn_dtype_name(dt));
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_scalars(const void* const* s, const char* const* names, int n) {
    for (int i = 0; i < n; ++i)
        if (s[i] == NULL)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", names[i]);
    return CLDNN_STATUS_SUCCESS;
}

/* Handle, descriptor, x. */
static cldnnStatus_t check_head(cldnnHandle_t h, const struct cldnnNormStruct* nd, const struct cldnnTensorStruct* x,
                                cl_mem xm, size_t xo) {
    CLDNN_TRY(cldnn_check_handle(h));
    CLDNN_TRY(check_norm_desc(nd));
    CLDNN_TRY(cldnn_check_tensor(x, "xDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(x->dtype, "xDesc"));
    CLDNN_TRY(check_x_for(nd, x));
    return cldnn_check_tensor_buffer(h, x, xm, xo, "x");
}

/* The optional statistics: invStd (and mean, LAYER / GROUP) against statsDesc. need: backward. */
static cldnnStatus_t check_stats(cldnnHandle_t h, const struct cldnnNormStruct* nd, const struct cldnnTensorStruct* x,
                                 const struct cldnnTensorStruct* sd, cl_mem mean, size_t mo, cl_mem istd, size_t io,
                                 int need, int* saved) {
    int rms = nd->mode == CLDNN_NORM_RMS;
    if (rms && mean != NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "mean must be NULL for RMS normalization (it has no mean)");
    if (need && istd == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "invStd is NULL: the backward needs the saved statistics");
    if (need && !rms && mean == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "mean is NULL: the backward needs the saved statistics");
    if (!rms && (mean == NULL) != (istd == NULL))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "mean and invStd must be both NULL or both set (%s is NULL)",
                          mean == NULL ? "mean" : "invStd");
    *saved = istd != NULL;
    if (!*saved)
        return CLDNN_STATUS_SUCCESS;
    CLDNN_TRY(check_aux_desc(nd, x, sd, "statsDesc", 1));
    if (mean != NULL)
        CLDNN_TRY(cldnn_check_tensor_buffer(h, sd, mean, mo, "mean"));
    return cldnn_check_tensor_buffer(h, sd, istd, io, "invStd");
}

/* Row and elements-per-row counts (and every view's span) within what the kernels index. */
static cldnnStatus_t check_sizes(const nm_problem* p) {
    if ((uint64_t)p->row.O * (uint64_t)p->row.I * (uint64_t)p->row.vec >= (1ull << 62))
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "tensor too large");
    return CLDNN_STATUS_SUCCESS;
}

/* ----------------------------------------------------------------------------- problem */

/* Builds p's views from the call's descriptors (t: x, y|dy, dx or NULL) and offsets (bytes). */
static cldnnStatus_t nm_problem_init(nm_problem* p, int dir, const struct cldnnNormStruct* nd,
                                     const struct cldnnTensorStruct* const* t, const size_t* boff,
                                     const struct cldnnTensorStruct* sd, const struct cldnnTensorStruct* pd,
                                     int affine) {
    memset(p, 0, sizeof *p);
    const struct cldnnTensorStruct* x = t[0];
    p->dir = dir;
    p->mode = nd->mode;
    p->dtype = x->dtype;
    p->eps = (float)nd->eps;
    size_t es = cldnn_dtype_size(x->dtype);
    for (int i = 0; i < 9; ++i)
        p->off[i] = boff[i] / (i == 3 || i == 4 ? sizeof(float) : es);
    nm_dims v;
    nm_dims_init(&v, nd, t, sd, pd);
    uint64_t rows = 1, len = 1;
    for (int i = 0; i < v.n; ++i)
        *(v.row[i] ? &rows : &len) *= (uint64_t)v.size[i];
    if (rows >= (1ull << 31) || len >= (1ull << 31))
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "%llu rows of %llu elements: both must stay below 2^31",
                          (unsigned long long)rows, (unsigned long long)len);
    if (nm_make_view(&v, v.row, &p->row) || nm_make_view(&v, v.par, &p->par))
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED,
                          "the strides leave more than %d separate dims on one side after collapsing", NM_SIDE);
    nm_flatten(p);
    nm_vectorize(p, affine ? 2 : 0);
    const nm_view* r = &p->row;
    p->contig = r->ni == 1 && r->no == 1 && r->is[NM_X][0] == 1 && r->is[NM_Y][0] == 1 && r->is[NM_DX][0] == 1 &&
                (!affine || r->is[NM_P][0] == 1);
    /* element indices in uint when every view, offset included, spans less than 2^32 */
    uint64_t span_max = 0;
    for (int o = 0; o < 3; ++o) {
        const struct cldnnTensorStruct* s = t[o] ? t[o] : x;
        uint64_t span = (uint64_t)s->span + p->off[o];
        span_max = span > span_max ? span : span_max;
    }
    if (sd)
        for (int i = 3; i <= 4; ++i)
            span_max = span_max > (uint64_t)sd->span + p->off[i] ? span_max : (uint64_t)sd->span + p->off[i];
    if (pd)
        for (int i = 5; i <= 8; ++i)
            span_max = span_max > (uint64_t)pd->span + p->off[i] ? span_max : (uint64_t)pd->span + p->off[i];
    p->idx32 = span_max < (1ull << 32) - 64;
    return check_sizes(p);
}

static cldnnStatus_t nm_run(cldnnHandle_t h, const nm_problem* p, const nm_buffers* b,
                            const struct cldnnTensorStruct* x) {
    if (cldnn_log_level() == 0)
        return cldnn_solver_run_default(h, nm_solvers, sizeof nm_solvers / sizeof nm_solvers[0], p, b, "normalization");
    char key[300], dims[200];
    cldnn_format_dims(dims, sizeof dims, x->nd, x->dims);
    snprintf(key, sizeof key, "norm-%s:%s-k%d-d%s-%s", p->dir ? "bwd" : "fwd", mode_name(p->mode),
             p->flags, dims, cldnn_dtype_key(x->dtype));
    return cldnn_solver_run_default(h, nm_solvers, sizeof nm_solvers / sizeof nm_solvers[0], p, b, key);
}

static void nm_log_cmd(const struct cldnnNormStruct* nd, int dir, int affine, int save,
                       const struct cldnnTensorStruct* x, float a, float b, float a2, float b2) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400], extra[96] = "";
    cldnn_bench_shape_flags(shape, sizeof shape, x);
    if (dir)
        snprintf(extra, sizeof extra, " -a %g -b %g", (double)a2, (double)b2);
    cldnn_log_cmd("norm --mode %s --param %d --dir %s --affine %d --save %d -e %g -A %g -B %g%s %s",
                  mode_name(nd->mode), nd->param, dir ? "bwd" : "fwd", affine, save, nd->eps, (double)a, (double)b,
                  extra, shape);
}

/* ----------------------------------------------------------------------------- public */

cldnnStatus_t cldnnCreateNormDescriptor(cldnnNormDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "normalization");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyNormDescriptor(cldnnNormDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetNormDescriptor(cldnnNormDescriptor_t desc, cldnnNormMode_t mode, int param, double epsilon) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (mode != CLDNN_NORM_LAYER && mode != CLDNN_NORM_GROUP && mode != CLDNN_NORM_RMS)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnNormMode_t", (int)mode);
    if (param < 1 || (mode != CLDNN_NORM_GROUP && param > CLDNN_DIM_MAX))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "param %d is outside [1, %d]", param,
                          mode == CLDNN_NORM_GROUP ? INT32_MAX : CLDNN_DIM_MAX);
    if (!(epsilon > 0.0) || !isfinite(epsilon))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "epsilon %g is not positive and finite", epsilon);
    desc->mode = mode;
    desc->param = param;
    desc->eps = epsilon;
    desc->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetNormDescriptor(const cldnnNormDescriptor_t desc, cldnnNormMode_t* mode, int* param,
                                     double* epsilon) {
    cldnn_error_clear();
    CLDNN_TRY(check_norm_desc(desc));
    if (mode)
        *mode = desc->mode;
    if (param)
        *param = desc->param;
    if (epsilon)
        *epsilon = desc->eps;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDeriveNormTensorDescriptors(const cldnnNormDescriptor_t desc, const cldnnTensorDescriptor_t xDesc,
                                               cldnnTensorDescriptor_t scaleBiasDesc,
                                               cldnnTensorDescriptor_t statsDesc) {
    cldnn_error_clear();
    CLDNN_TRY(check_norm_desc(desc));
    if (xDesc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "xDesc is NULL");
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(check_x_for(desc, xDesc));
    int pn;
    int64_t pdims[CLDNN_DIM_MAX], sdims[CLDNN_DIM_MAX], st[CLDNN_DIM_MAX];
    nm_derived_dims(desc, xDesc, &pn, pdims, sdims);
    if (scaleBiasDesc) {
        int64_t s = 1;
        for (int d = pn - 1; d >= 0; --d) {
            st[d] = s;
            s *= pdims[d];
        }
        CLDNN_TRY(cldnnSetTensorNdDescriptor(scaleBiasDesc, xDesc->dtype, pn, pdims, st));
    }
    if (statsDesc) {
        int64_t s = 1;
        for (int d = xDesc->nd - 1; d >= 0; --d) {
            st[d] = s;
            s *= sdims[d];
        }
        CLDNN_TRY(cldnnSetTensorNdDescriptor(statsDesc, CLDNN_DATA_FLOAT, xDesc->nd, sdims, st));
    }
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnNormalizationForward(cldnnHandle_t handle, const cldnnNormDescriptor_t normDesc,
                                        const void* alpha, const void* beta, const cldnnTensorDescriptor_t xDesc,
                                        cl_mem x, size_t xOffset, const cldnnTensorDescriptor_t scaleBiasDesc,
                                        cl_mem scale, size_t scaleOffset, cl_mem bias, size_t biasOffset,
                                        const cldnnTensorDescriptor_t statsDesc, cl_mem mean, size_t meanOffset,
                                        cl_mem invStd, size_t invStdOffset, const cldnnTensorDescriptor_t yDesc,
                                        cl_mem y, size_t yOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_head(handle, normDesc, xDesc, x, xOffset));
    const void* sc[2] = {alpha, beta};
    const char* scn[2] = {"alpha", "beta"};
    CLDNN_TRY(check_scalars(sc, scn, 2));
    CLDNN_TRY(check_data(handle, xDesc, yDesc, "yDesc", y, yOffset, "y"));
    CLDNN_TRY(check_alias(xDesc, x, xOffset, yDesc, y, yOffset, "y"));
    if ((scale == NULL) != (bias == NULL))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "scale and bias must be both NULL or both set (%s is NULL)",
                          scale == NULL ? "scale" : "bias");
    int affine = scale != NULL, saved = 0;
    if (affine) {
        CLDNN_TRY(check_aux_desc(normDesc, xDesc, scaleBiasDesc, "scaleBiasDesc", 0));
        CLDNN_TRY(cldnn_check_tensor_buffer(handle, scaleBiasDesc, scale, scaleOffset, "scale"));
        CLDNN_TRY(cldnn_check_tensor_buffer(handle, scaleBiasDesc, bias, biasOffset, "bias"));
    }
    CLDNN_TRY(check_stats(handle, normDesc, xDesc, statsDesc, mean, meanOffset, invStd, invStdOffset, 0, &saved));
    float a = cldnn_scalar_as_float(alpha, xDesc->dtype), b = cldnn_scalar_as_float(beta, xDesc->dtype);
    nm_log_cmd(normDesc, 0, affine, saved, xDesc, a, b, 1.0f, 0.0f);

    nm_problem p;
    const struct cldnnTensorStruct* t[3] = {xDesc, yDesc, NULL};
    const size_t boff[9] = {xOffset, yOffset, 0, meanOffset, invStdOffset, scaleOffset, biasOffset, 0, 0};
    CLDNN_TRY(nm_problem_init(&p, 0, normDesc, t, boff, saved ? statsDesc : NULL, affine ? scaleBiasDesc : NULL,
                              affine));
    p.alpha = a;
    p.beta = b;
    p.flags = (affine ? NM_FLAG_AFFINE : 0) | (saved ? NM_FLAG_STATS : 0) |
              (normDesc->mode == CLDNN_NORM_RMS ? NM_FLAG_RMS : 0);
    nm_buffers bufs = {{x, y, NULL, mean, invStd, scale, bias, NULL, NULL}};
    return nm_run(handle, &p, &bufs, xDesc);
}

cldnnStatus_t cldnnNormalizationBackward(
    cldnnHandle_t handle, const cldnnNormDescriptor_t normDesc, const void* alphaDataDiff, const void* betaDataDiff,
    const void* alphaParamDiff, const void* betaParamDiff, const cldnnTensorDescriptor_t xDesc, cl_mem x,
    size_t xOffset, const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
    const cldnnTensorDescriptor_t scaleBiasDesc, cl_mem scale, size_t scaleOffset, cl_mem dScale, size_t dScaleOffset,
    cl_mem dBias, size_t dBiasOffset, const cldnnTensorDescriptor_t statsDesc, cl_mem mean, size_t meanOffset,
    cl_mem invStd, size_t invStdOffset, const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_head(handle, normDesc, xDesc, x, xOffset));
    const void* sc[4] = {alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff};
    const char* scn[4] = {"alphaDataDiff", "betaDataDiff", "alphaParamDiff", "betaParamDiff"};
    CLDNN_TRY(check_scalars(sc, scn, 4));
    CLDNN_TRY(check_data(handle, xDesc, dyDesc, "dyDesc", dy, dyOffset, "dy"));
    CLDNN_TRY(check_data(handle, xDesc, dxDesc, "dxDesc", dx, dxOffset, "dx"));
    CLDNN_TRY(check_alias(xDesc, x, xOffset, dxDesc, dx, dxOffset, "dx"));
    CLDNN_TRY(check_alias(dyDesc, dy, dyOffset, dxDesc, dx, dxOffset, "dx"));
    int affine = scale != NULL, saved = 0;
    if (affine || dScale || dBias) {
        CLDNN_TRY(check_aux_desc(normDesc, xDesc, scaleBiasDesc, "scaleBiasDesc", 0));
        if (affine)
            CLDNN_TRY(cldnn_check_tensor_buffer(handle, scaleBiasDesc, scale, scaleOffset, "scale"));
        if (dScale)
            CLDNN_TRY(cldnn_check_tensor_buffer(handle, scaleBiasDesc, dScale, dScaleOffset, "dScale"));
        if (dBias)
            CLDNN_TRY(cldnn_check_tensor_buffer(handle, scaleBiasDesc, dBias, dBiasOffset, "dBias"));
    }
    CLDNN_TRY(check_stats(handle, normDesc, xDesc, statsDesc, mean, meanOffset, invStd, invStdOffset, 1, &saved));
    float a = cldnn_scalar_as_float(alphaDataDiff, xDesc->dtype), b = cldnn_scalar_as_float(betaDataDiff, xDesc->dtype);
    float a2 = cldnn_scalar_as_float(alphaParamDiff, xDesc->dtype);
    float b2 = cldnn_scalar_as_float(betaParamDiff, xDesc->dtype);
    nm_log_cmd(normDesc, 1, affine, 1, xDesc, a, b, a2, b2);

    nm_problem p;
    const struct cldnnTensorStruct* t[3] = {xDesc, dyDesc, dxDesc};
    const size_t boff[9] = {xOffset, dyOffset, dxOffset, meanOffset, invStdOffset, scaleOffset, 0, dScaleOffset,
                            dBiasOffset};
    int anyp = affine || dScale || dBias;
    CLDNN_TRY(nm_problem_init(&p, 1, normDesc, t, boff, statsDesc, anyp ? scaleBiasDesc : NULL, affine));
    p.alpha = a;
    p.beta = b;
    p.alpha2 = a2;
    p.beta2 = b2;
    p.flags = (affine ? NM_FLAG_AFFINE : 0) | NM_FLAG_STATS | (normDesc->mode == CLDNN_NORM_RMS ? NM_FLAG_RMS : 0) |
              (dScale ? NM_FLAG_DSCALE : 0) | (dBias ? NM_FLAG_DBIAS : 0);
    nm_buffers bufs = {{x, dy, dx, mean, invStd, scale, NULL, dScale, dBias}};
    return nm_run(handle, &p, &bufs, xDesc);
}
