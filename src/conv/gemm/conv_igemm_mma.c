/*
** conv_igemm_mma.c: the tensor-core implicit-GEMM solvers (kernels/conv/conv_igemm_mma.cl) of the
** three directions, the GEMM family's tensor-core body with the convolution's index maps as its
** operand loaders, FP32 accumulation: TF32 mma.sync m16n8k8 for FLOAT data, FP16 (BF16) m16n8k16
** for HALF (BFLOAT16) data (x, w and y 16-bit in memory, each output rounded once; backward-filter's
** split partial sums stay float and the reduce rounds them into dw once). BFLOAT16 takes every
** HALF rule below.
**
** Offered only where the GEMM family offers its tensor-core kernel for the data type
** (cldnn_gemm_mma_applicable: TENSOR_OP_MATH, FLOAT, HALF or BFLOAT16 data, NVIDIA compute capability
** >= 8.0), so DEFAULT_MATH and FMA_MATH never reach it, and only when both sides of the product
** are at least 8 wide: forward and backward-data need 8+ channels in the reduction (C/G, K/G: it
** runs tap by tap over the channels rounded up to the k-tile, and narrower layers waste most of
** each tile) and in the GEMM's N (K/G, C/G); backward-filter 8+ output channels per group and
** taps. Narrower layers keep the portable implicit GEMM.
**
** Plan (cldnn_conv_igemm_mma_plan): the GEMM's sizes, the padded channel run, and the copies:
** 16-byte cp.async where a run of 16 bytes (4 floats, 8 halves) is contiguous and 16-byte aligned
** (channels-last activations along their channels, KRSC filters along theirs, with channel
** counts, strides and offsets multiples of the run), single elements otherwise (a 4-byte cp.async
** for a float, a plain 2-byte copy for a half: cp.async copies at least 4 bytes). Parameters: the
** GEMM family's tensor-core defaults for the equivalent GEMM of the data type
** (cldnn_gemm_mma_params_select: FLOAT k-tiles 32, HALF 64), the k-tile halved (down to 16)
** while it pads the channel run by more than a quarter, and
** for HALF forward and backward-data the block tile halved (down to 64 x 64) while the blocks are
** fewer than the compute units (they cannot split their reduction). The tuning db's record for
** the problem under the direction's solver name (conv_<dir>_igemm_mma: cldnn-tune conv -S
** igemm_mma --db, or a TUNE-mode Find, both searching cldnn_conv_igemm_mma_param_space: the
** GEMM's space of the data type, HALF's k-tiles 32 and 64 with copies of 8 halves) replaces the
** defaults in every find mode but HEURISTIC (the engine reads it for the solver that runs);
** CLDNN_SOLVER_PARAMS's set for the solver replaces both. Backward-filter splits its reduction
** over pixels as the portable implicit GEMM does (cldnn_conv_igemm_splits for the block and
** k-tile sizes): the splits' partial sums go to the workspace (exactly splits x K x C/G x R x S
** floats, HALF data included) and gemm_splitk_reduce adds them in a fixed order, rounding each
** sum into dw once. Forward and backward-data need no workspace.
*/
#include "conv/conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MMA_MIN_CHANNELS 8

/* Elements of p's data type in 16 bytes: the run of a 16-byte copy (4 floats, 8 halves). */
static int run16(const cldnn_conv_problem* p) {
    return (int)(16 / cldnn_dtype_size(p->dtype));
}

/* 1 when runs of vw channels of a tensor with element strides st (n, c, h, w) at element offset
** off, ch channels per group, are contiguous and 16-byte aligned (vw elements are 16 bytes). */
static int runs16(int vw, const int64_t* st, int64_t ch, uint64_t off) {
    return st[1] == 1 && ch % vw == 0 && st[0] % vw == 0 && st[2] % vw == 0 && st[3] % vw == 0 &&
           off % (uint64_t)vw == 0;
}

void cldnn_conv_igemm_mma_plan(const cldnn_conv_problem* p, int bk, cldnn_conv_mma_plan* pl) {
    const int vw = run16(p);
    cldnn_conv_gemm_dims(p, &pl->m, &pl->n, &pl->kr);
    if (p->dir == CLDNN_CONV_BWD_FILTER) {
        /* A = dy: along the output channels when NHWC; B = x: along a KRSC tap's channels. */
        pl->ch = p->kg;
        pl->cpad = p->kg;
        pl->a_trans = p->ys[1] != 1;
        pl->avw = runs16(vw, p->ys, p->kg, p->off_y) ? vw : 1;
        pl->b_trans = 1;
        pl->bvw = p->kord == 1 && runs16(vw, p->xs, p->cg, p->off_x) ? vw : 1;
        return;
    }
    const int fwd = p->dir == CLDNN_CONV_FWD;
    pl->ch = fwd ? p->cg : p->kg;
    /* C/G*R*S and K/G*R*S are below 2^31 (cldnn_conv_problem), so kr fits 64 bits; a run past
    ** 2^30 is clipped (kr then refuses the problem). */
    const int64_t cpad = ((int64_t)pl->ch + bk - 1) / bk * bk;
    pl->cpad = cpad < 0x40000000 ? (int)cpad : 0x40000000;
    pl->kr = (int64_t)p->r * p->s * cpad;
    /* The gathered activations: x forward, dy backward-data. */
    const int64_t* st = fwd ? p->xs : p->ys;
    const uint64_t off = fwd ? p->off_x : p->off_y;
    pl->avw = runs16(vw, st, pl->ch, off) ? vw : 1;
    pl->a_trans = pl->avw > 1;
    /* The filter: KRSC is unit-stride along the input channel (k forward, n backward-data). */
    pl->b_trans = !fwd && p->kord == 1;
    pl->bvw = p->kord == 1 && p->cg % vw == 0 && p->off_w % (uint64_t)vw == 0 ? vw : 1;
}

/* The equivalent GEMM problem (what the GEMM family's defaults and applicability read). */
static void conv_mma_gemm(const cldnn_conv_problem* p, const cldnn_conv_mma_plan* pl, cldnn_gemm_problem* g) {
    memset(g, 0, sizeof *g);
    g->m = pl->m;
    g->n = pl->n;
    g->k = pl->kr;
    g->trans_a = pl->a_trans;
    g->trans_b = pl->b_trans;
    g->batch = p->groups;
    g->math = p->math;
    g->dtype = g->dtype_c = p->dtype;
}

int cldnn_conv_igemm_mma_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, 32, &pl);
    cldnn_gemm_problem g;
    conv_mma_gemm(p, &pl, &g);
    return cldnn_gemm_mma_applicable(&g, dev) && pl.ch >= MMA_MIN_CHANNELS && pl.n >= MMA_MIN_CHANNELS &&
           pl.kr < 0x7fffffffLL - 1024;
}

/* Fits a set to p: 16-byte copies (the run lowers them) and p's split count. */
static void mma_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    cldnn_gemm_mma_params* q = (cldnn_gemm_mma_params*)params;
    (void)dev;
    q->vw = run16(p);
    q->splitk = cldnn_conv_igemm_mma_splits(p, q);
}

void cldnn_conv_igemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    cldnn_gemm_mma_params* q = (cldnn_gemm_mma_params*)params;
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, 32, &pl);
    cldnn_gemm_problem g;
    conv_mma_gemm(p, &pl, &g);
    cldnn_gemm_mma_params_select(&g, dev, q);
    /* The k-tile halved, down to 16, while it pads the channel run by more than a quarter (FLOAT's
    ** 32 for 40 channels: 64 -> 48, 16; 48 keeps 32; HALF's 64 for 80 channels: 128 -> 96, 32). */
    while (q->bk > 16) {
        cldnn_conv_mma_plan pk;
        cldnn_conv_igemm_mma_plan(p, q->bk, &pk);
        cldnn_gemm_mma_params r = *q;
        r.bk /= 2;
        if ((pk.cpad - pk.ch) * 4 <= pk.cpad ||
            !cldnn_gemm_mma_params_fit(&r, dev, p->dtype, pl.a_trans, pl.b_trans))
            break;
        *q = r;
    }
    /* HALF forward and backward-data cannot split their reduction: while their blocks are fewer than
    ** the device's compute units, the block tile halves (the longer side first, down to 64 x 64 with
    ** 32 x 32 warp tiles), as the GEMM family's small tiles. ResNet-50's layer3.0 / layer4.0 conv2
    ** forward at batch 32: 98 and 52 blocks of 128 x 128 on the H100's 132 units, then 196 of
    ** 64 x 128 and 200 of 64 x 64. Measured only as part of the HALF runs
    ** (perf/results/conv-fp16-h100.md); FLOAT keeps the tiles its TF32 table was measured with. */
    const uint64_t units = dev->compute_units ? dev->compute_units : 1;
    while (cldnn_mma_16bit(p->dtype) && p->dir != CLDNN_CONV_BWD_FILTER &&
           (q->bm > 64 || q->bn > 64) &&
           (uint64_t)((pl.m + q->bm - 1) / q->bm) * (uint64_t)((pl.n + q->bn - 1) / q->bn) * (uint64_t)p->groups <
               units) {
        cldnn_gemm_mma_params r = *q;
        if (r.bm >= r.bn && r.bm > 64) {
            r.bm /= 2;
            r.wm = r.bm == 64 ? 32 : r.wm;
        } else {
            r.bn /= 2;
            r.wn = r.bn == 64 ? 32 : r.wn;
        }
        if (r.wm > r.bm || r.wn > r.bn || !cldnn_gemm_mma_params_fit(&r, dev, p->dtype, pl.a_trans, pl.b_trans))
            break;
        *q = r;
    }
    mma_finish(p, dev, q);
}

int cldnn_conv_igemm_mma_splits(const cldnn_conv_problem* p, const cldnn_gemm_mma_params* q) {
    cldnn_gemm_params t; /* the block and k-tile sizes the split count reads */
    memset(&t, 0, sizeof t);
    t.mwg = q->bm;
    t.nwg = q->bn;
    t.kwg = q->bk;
    return cldnn_conv_igemm_splits(p, &t);
}

size_t cldnn_conv_igemm_mma_workspace(const void* problem, const void* params) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    if (p->dir != CLDNN_CONV_BWD_FILTER)
        return 0;
    cldnn_gemm_mma_params q;
    if (params != NULL)
        q = *(const cldnn_gemm_mma_params*)params;
    else
        cldnn_conv_igemm_mma_defaults(p, p->dev, &q);
    return cldnn_conv_partials_bytes(p, q.splitk);
}

int cldnn_conv_igemm_mma_params_fit(const cldnn_conv_problem* p, const cldnn_gemm_mma_params* q,
                                    const cldnn_device_profile* dev) {
    if (q->bk <= 0) /* the plan divides by it; the set's check refuses it below anyway */
        return 0;
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, q->bk, &pl);
    /* The set's check with the wider of the two copies (its chunk counts divide the tiles). */
    cldnn_gemm_mma_params r = *q;
    r.vw = pl.avw > pl.bvw ? pl.avw : pl.bvw;
    const int nsplit = p->dir == CLDNN_CONV_BWD_FILTER && q->splitk > 1 ? q->splitk : 1;
    return cldnn_gemm_mma_params_fit(&r, dev, p->dtype, pl.a_trans, pl.b_trans) &&
           pl.kr < 0x7fffffffLL - 1024 && nsplit <= 64;
}

size_t cldnn_conv_igemm_mma_param_space(const cldnn_conv_problem* p, const cldnn_device_profile* dev,
                                        cldnn_gemm_mma_params* out, size_t max) {
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, 32, &pl); /* the transposes do not depend on the k-tile */
    const size_t n = cldnn_gemm_mma_param_space(dev, p->dtype, pl.a_trans, pl.b_trans, NULL, 0);
    cldnn_gemm_mma_params* all = (cldnn_gemm_mma_params*)malloc((n ? n : 1) * sizeof *all);
    if (all == NULL)
        return 0;
    cldnn_gemm_mma_param_space(dev, p->dtype, pl.a_trans, pl.b_trans, all, n);
    size_t kept = 0;
    for (size_t i = 0; i < n; ++i) {
        cldnn_gemm_mma_params q = all[i];
        q.vw = run16(p);
        q.splitk = cldnn_conv_igemm_mma_splits(p, &q);
        if (!cldnn_conv_igemm_mma_params_fit(p, &q, dev))
            continue;
        if (kept < max)
            out[kept] = q;
        ++kept;
    }
    free(all);
    return kept;
}

const char* cldnn_conv_igemm_mma_solver_name(cldnn_conv_dir dir) {
    static const char* const names[3] = {"conv_fwd_igemm_mma", "conv_bwd_data_igemm_mma", "conv_bwd_filter_igemm_mma"};
    return names[dir];
}

static int mma_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    return cldnn_conv_igemm_mma_params_fit((const cldnn_conv_problem*)problem, (const cldnn_gemm_mma_params*)params,
                                           dev);
}

/* cldnn_conv_igemm_mma_param_space's sets whose tiles fit the problem. */
static size_t mma_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const size_t n = cldnn_conv_igemm_mma_param_space(p, dev, NULL, 0);
    cldnn_gemm_mma_params* all = (cldnn_gemm_mma_params*)malloc((n ? n : 1) * sizeof *all);
    if (all == NULL)
        return 0;
    cldnn_conv_igemm_mma_param_space(p, dev, all, n);
    size_t kept = 0;
    for (size_t i = 0; i < n && kept < max; ++i)
        if (cldnn_conv_tile_fits(p, all[i].bm, all[i].bn))
            ((cldnn_gemm_mma_params*)out)[kept++] = all[i];
    free(all);
    return kept;
}

const cldnn_param_space cldnn_conv_igemm_mma_space = {
    .text = CLDNN_GEMM_MMA_PARAMS_TEXT,
    .names = CLDNN_GEMM_MMA_PARAMS_NAMES,
    .valid = mma_valid,
    .finish = mma_finish,
    .enumerate = mma_enumerate,
};

/* Whether the output's unit stride runs along the GEMM's m (the staged epilogue's store order,
** gemm_mma.cl's MMA_EPI_MFAST): forward's y and backward-data's dx when their pixels are unit-stride
** (NCHW); backward-filter's dw (K x C/G*R*S, m = k) never. */
static int conv_mma_store_mfast(const cldnn_conv_problem* p) {
    if (p->dir == CLDNN_CONV_BWD_FILTER)
        return 0;
    const int64_t* st = p->dir == CLDNN_CONV_FWD ? p->ys : p->xs;
    return st[1] != 1;
}

cldnnStatus_t cldnn_conv_igemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    const cldnn_gemm_mma_params q = *(const cldnn_gemm_mma_params*)params;
    if ((p->dtype != CLDNN_DATA_FLOAT && !cldnn_mma_16bit(p->dtype)) || !cldnn_mma_available(&h->prof) ||
        !cldnn_conv_igemm_mma_params_fit(p, &q, &h->prof)) {
        char ps[96];
        cldnn_gemm_mma_params_format(&q, ps, sizeof ps);
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "tensor-core implicit GEMM: %s with parameters %s does not run on %s",
                          p->key, ps, h->prof.name);
    }
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, q.bk, &pl);
    const int nsplit = p->dir == CLDNN_CONV_BWD_FILTER && q.splitk > 1 ? q.splitk : 1;
    char opts[384];
    snprintf(opts, sizeof opts,
             "-DMMA_BM=%d -DMMA_BN=%d -DMMA_BK=%d -DMMA_WM=%d -DMMA_WN=%d -DMMA_STAGES=%d -DA_TRANS=%d -DB_TRANS=%d "
             "-DDIR=%d -DKORD=%d -DCONV_AVW=%d -DCONV_BVW=%d -DMMA_EPI_MFAST=%d%s",
             q.bm, q.bn, q.bk, q.wm, q.wn, q.stages, pl.a_trans, pl.b_trans, (int)p->dir, p->kord, pl.avw, pl.bvw,
             conv_mma_store_mfast(p), cldnn_dtype_build_option(p->dtype));
    cldnn_epilogue_options(p->epi, opts, sizeof opts);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_igemm_mma.cl", opts, "conv_igemm_mma", &k));
    /* Split ranges are whole k-tiles; the partial sums sit at the workspace's start. */
    int64_t ks = (pl.kr + nsplit - 1) / nsplit;
    ks = (ks + q.bk - 1) / q.bk * q.bk;
    cl_mem part = nsplit > 1 ? b->ws : b->y;
    cl_ulong part_off = nsplit > 1 ? b->ws_off / 4 : 0;
    int tap_div = p->dir != CLDNN_CONV_BWD_FILTER ? pl.cpad : p->kord == 0 ? p->r * p->s : p->cg;
    CLDNN_TRY(cldnn_conv_igemm_args(k, p, b, pl.m, pl.n, pl.kr, tap_div, (int)ks, nsplit, part, part_off));
    size_t nt = (size_t)(32 * (q.bm / q.wm) * (q.bn / q.wn));
    uint64_t global[3] = {(uint64_t)((pl.m + q.bm - 1) / q.bm) * (uint64_t)nt, (uint64_t)((pl.n + q.bn - 1) / q.bn),
                          (uint64_t)p->groups * (uint64_t)nsplit};
    size_t local[3] = {nt, 1, 1};
    CLDNN_TRY(cldnn_enqueue_nd(h, k, 3, global, local, "conv_igemm_mma"));
    if (nsplit == 1)
        return CLDNN_STATUS_SUCCESS;
    return cldnn_gemm_reduce_partials(h, part, part_off, nsplit, (int64_t)p->k * p->cg * p->r * p->s, p->alpha,
                                      p->beta, b->w, p->off_w, p->dtype);
}
