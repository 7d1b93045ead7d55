/*
** conv_igemm_mma.c: the tensor-core implicit-GEMM solvers (kernels/conv/conv_igemm_mma.cl) of
** forward and backward-data: TF32 mma.sync with FP32 accumulation, the GEMM family's tensor-core
** body with the convolution's index maps as its operand loaders.
**
** Offered only where the GEMM family offers its tensor-core kernel (cldnn_gemm_mma_applicable:
** TENSOR_OP_MATH, FLOAT data, NVIDIA compute capability >= 8.0), so DEFAULT_MATH and FMA_MATH
** never reach it, and only when the reduction's channels (C/G forward, K/G backward-data) and the
** GEMM's N (K/G, C/G) are at least 8: the reduction runs tap by tap over the channels rounded up
** to the k-tile (16 or 32), and narrower layers waste most of each tile (they keep the portable
** implicit GEMM). Backward-filter is not covered (its reduction over pixels has no tap loop).
**
** Plan (cldnn_conv_igemm_mma_plan): the GEMM's sizes, the padded channel run, and the copies: 16-byte
** cp.async along the channels where the activations are channels-last with channel counts,
** strides and offset multiples of 4 floats (A_TRANS 1, CONV_AVW 4), else single floats along the
** pixels (A_TRANS 0); the filter's copies are 16 bytes along a KRSC filter's channels under the
** same conditions, single floats otherwise. Parameters: the GEMM family's tensor-core defaults
** for the equivalent GEMM (cldnn_gemm_mma_params_select, CLDNN_GEMM_MMA_PARAMS included), with a
** k-tile of 16 when 32 would pad the channel run by more than a quarter. No workspace.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define MMA_MIN_CHANNELS 8

static int mul4(int64_t v) {
    return v % 4 == 0;
}

void cldnn_conv_igemm_mma_plan(const cldnn_conv_problem* p, int bk, cldnn_conv_mma_plan* pl) {
    cldnn_conv_gemm_dims(p, &pl->m, &pl->n, &pl->kr);
    const int fwd = p->dir == CLDNN_CONV_FWD;
    pl->ch = fwd ? p->cg : p->kg;
    pl->cpad = (pl->ch + bk - 1) / bk * bk;
    pl->kr = (int64_t)p->r * p->s * pl->cpad;
    /* The gathered activations: x forward, dy backward-data. */
    const int64_t* st = fwd ? p->xs : p->ys;
    const uint64_t off = fwd ? p->off_x : p->off_y;
    pl->avw = st[1] == 1 && mul4(pl->ch) && mul4(st[0]) && mul4(st[2]) && mul4(st[3]) && off % 4 == 0 ? 4 : 1;
    pl->a_trans = pl->avw == 4;
    /* The filter: KRSC is unit-stride along the input channel (k forward, n backward-data). */
    pl->b_trans = !fwd && p->kord == 1;
    pl->bvw = p->kord == 1 && mul4(p->cg) && p->off_w % 4 == 0 ? 4 : 1;
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
    if (p->dir == CLDNN_CONV_BWD_FILTER)
        return 0;
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, 32, &pl);
    cldnn_gemm_problem g;
    conv_mma_gemm(p, &pl, &g);
    return cldnn_gemm_mma_applicable(&g, dev) && pl.ch >= MMA_MIN_CHANNELS && pl.n >= MMA_MIN_CHANNELS &&
           pl.kr < 0x7fffffffLL - 1024;
}

void cldnn_conv_igemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    cldnn_gemm_mma_params* q = (cldnn_gemm_mma_params*)params;
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, 32, &pl);
    cldnn_gemm_problem g;
    conv_mma_gemm(p, &pl, &g);
    cldnn_gemm_mma_params_select(&g, dev, q);
    /* A k-tile of 16 where 32 pads the channel run by more than a quarter (48 channels: 64 -> 48). */
    if (q->bk == 32 && (pl.cpad - pl.ch) * 4 > pl.cpad) {
        cldnn_gemm_mma_params r = *q;
        r.bk = 16;
        if (cldnn_gemm_mma_params_fit(&r, dev, pl.a_trans, pl.b_trans))
            *q = r;
    }
    q->vw = 4;
    q->splitk = 1;
}

cldnnStatus_t cldnn_conv_igemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    cldnn_gemm_mma_params q = *(const cldnn_gemm_mma_params*)params;
    cldnn_conv_mma_plan pl;
    cldnn_conv_igemm_mma_plan(p, q.bk, &pl);
    /* The parameter check with the wider of the two copies (its chunk counts divide the tiles). */
    q.vw = pl.avw > pl.bvw ? pl.avw : pl.bvw;
    q.splitk = 1;
    if (p->dir == CLDNN_CONV_BWD_FILTER || p->dtype != CLDNN_DATA_FLOAT || !cldnn_mma_tf32_available(&h->prof) ||
        !cldnn_gemm_mma_params_fit(&q, &h->prof, pl.a_trans, pl.b_trans) || pl.kr >= 0x7fffffffLL - 1024) {
        char ps[96];
        cldnn_gemm_mma_params_format(&q, ps, sizeof ps);
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "tensor-core implicit GEMM: %s with parameters %s does not run on %s",
                          p->key, ps, h->prof.name);
    }
    char opts[320];
    snprintf(opts, sizeof opts,
             "-DMMA_BM=%d -DMMA_BN=%d -DMMA_BK=%d -DMMA_WM=%d -DMMA_WN=%d -DMMA_STAGES=%d -DA_TRANS=%d -DB_TRANS=%d "
             "-DDIR=%d -DKORD=%d -DCONV_AVW=%d -DCONV_BVW=%d",
             q.bm, q.bn, q.bk, q.wm, q.wn, q.stages, pl.a_trans, pl.b_trans, (int)p->dir, p->kord, pl.avw, pl.bvw);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_igemm_mma.cl", opts, "conv_igemm_mma", &k));
    CLDNN_TRY(cldnn_conv_igemm_args(k, p, b, pl.m, pl.n, pl.kr, pl.cpad, (int)pl.kr, 1, b->y, 0));
    size_t nt = (size_t)(32 * (q.bm / q.wm) * (q.bn / q.wn));
    uint64_t global[3] = {(uint64_t)((pl.m + q.bm - 1) / q.bm) * (uint64_t)nt, (uint64_t)((pl.n + q.bn - 1) / q.bn),
                          (uint64_t)p->groups};
    size_t local[3] = {nt, 1, 1};
    return cldnn_enqueue_nd(h, k, 3, global, local, "conv_igemm_mma");
}
