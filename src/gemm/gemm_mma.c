/*
** gemm_mma.c: the tensor-core GEMM solver (kernels/gemm/gemm_mma.cl): TF32 mma.sync with FP32
** accumulation on NVIDIA devices of compute capability 8.0 or higher, offered only under
** TENSOR_OP_MATH (cldnnSetGemmMathType) for FLOAT data (HALF storage runs gemm_tiled).
**
** Parameters are data (cldnn_gemm_mma_params): the default set comes from the problem's shape
** (block tiles shrink for thin products, split-k fills the device when blocks are few), and
** CLDNN_GEMM_MMA_PARAMS ("128x128x32-64x64-s3-v4-k0") overrides it for experiments and the
** tuner. The copy width is lowered to single floats when leading dimensions, offsets or batch
** strides are not multiples of 4 floats (16-byte cp.async needs aligned sources).
*/
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cldnn_mma_tf32_available(const cldnn_device_profile* dev) {
    return dev->is_nvidia && !dev->is_cpu && dev->nv_cc_major >= 8 && cldnn_env_int("CLDNN_TENSOR_CORES", 1) != 0;
}

/* Static local memory one work-group may use: the per-block shared memory of the compute
** capability (the driver accepts static arrays up to it although CL_DEVICE_LOCAL_MEM_SIZE says
** 48 KiB), less 1 KiB the driver reserves. */
static size_t mma_local_limit(const cldnn_device_profile* dev) {
    size_t kib = dev->nv_cc_major == 9 ? 227 : (dev->nv_cc_major == 8 && (dev->nv_cc_minor == 0 || dev->nv_cc_minor == 7))
                                                   ? 163
                                                   : 99;
    return (kib - 1) * 1024;
}

/* Floats of one pipeline stage (kernels/gemm/gemm_mma.cl's local tiles): an operand stored
** m- (n-) contiguous takes bk rows of bm + 4 (bn + 4), a k-contiguous one bm (bn) rows of bk + 8.
** trans_a / trans_b < 0: the larger of the two layouts (a set valid for every transpose). */
static size_t mma_stage_floats(const cldnn_gemm_mma_params* p, int trans_a, int trans_b) {
    size_t a1 = (size_t)p->bk * (size_t)(p->bm + 4), a2 = (size_t)p->bm * (size_t)(p->bk + 8);
    size_t b1 = (size_t)p->bk * (size_t)(p->bn + 4), b2 = (size_t)p->bn * (size_t)(p->bk + 8);
    size_t a = trans_a < 0 ? (a1 > a2 ? a1 : a2) : trans_a ? a2 : a1;
    size_t b = trans_b < 0 ? (b1 > b2 ? b1 : b2) : trans_b ? b1 : b2;
    return a + b;
}

/* The set's constraints apart from local memory. */
static int mma_shape_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev);

int cldnn_gemm_mma_params_fit(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev, int trans_a,
                              int trans_b) {
    return mma_shape_valid(p, dev) &&
           (size_t)p->stages * mma_stage_floats(p, trans_a, trans_b) * 4u <= mma_local_limit(dev);
}

static int pow2_in(int v, int lo, int hi) {
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

int cldnn_gemm_mma_params_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev) {
    return cldnn_gemm_mma_params_fit(p, dev, -1, -1);
}

static int mma_shape_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev) {
    if (!pow2_in(p->bm, 32, 256) || !pow2_in(p->bn, 32, 256) || (p->bk != 16 && p->bk != 32))
        return 0;
    if (!pow2_in(p->wm, 32, 128) || !pow2_in(p->wn, 32, 128) || p->bm % p->wm || p->bn % p->wn)
        return 0;
    if (p->wm * p->wn > 4096) /* at most 128 accumulators per lane */
        return 0;
    if (p->stages < 2 || p->stages > 8 || (p->vw != 1 && p->vw != 4) || p->splitk < 0)
        return 0;
    int nt = 32 * (p->bm / p->wm) * (p->bn / p->wn);
    if (nt > 1024 || (size_t)nt > dev->max_wg_size)
        return 0;
    return (p->bm * p->bk) % (p->vw * nt) == 0 && (p->bn * p->bk) % (p->vw * nt) == 0;
}

void cldnn_gemm_mma_params_format(const cldnn_gemm_mma_params* p, char* buf, size_t size) {
    snprintf(buf, size, "%dx%dx%d-%dx%d-s%d-v%d-k%d", p->bm, p->bn, p->bk, p->wm, p->wn, p->stages, p->vw, p->splitk);
}

int cldnn_gemm_mma_params_parse(const char* s, cldnn_gemm_mma_params* p) {
    cldnn_gemm_mma_params q;
    int used = 0;
    if (s == NULL || sscanf(s, "%dx%dx%d-%dx%d-s%d-v%d-k%d%n", &q.bm, &q.bn, &q.bk, &q.wm, &q.wn, &q.stages, &q.vw,
                            &q.splitk, &used) != 8 ||
        s[used] != '\0')
        return 0;
    *p = q;
    return 1;
}

void cldnn_gemm_mma_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                                  cldnn_gemm_mma_params* out) {
    cldnn_gemm_mma_params p = {128, 128, 32, 64, 64, 3, 4, 0};
    /* Large products: 256 x 128 blocks of 8 warps, one per compute unit (180 KiB of local memory),
    ** carry the least traffic per product and measured best on the H100 in every transpose
    ** (perf/results/gemm-tf32-h100.md) once there are two waves of them: 2048^3 (128 blocks, one
    ** wave at 0.9 of the compute units) ran at 72 TFLOP/s against 87 with 128 x 128 blocks. */
    uint64_t big_blocks = (uint64_t)((pr->m + 255) / 256) * (uint64_t)((pr->n + 127) / 128) * (uint64_t)pr->batch;
    if (pr->m >= 1024 && pr->n >= 512 && big_blocks >= 2u * (uint64_t)(dev->compute_units ? dev->compute_units : 1))
        p.bm = 256;
    if (pr->m <= 64) {
        p.bm = 64;
        p.wm = 32;
    }
    if (pr->n <= 64) {
        p.bn = 64;
        p.wn = 32;
    }
    /* Devices with less local memory per block (cc 8.6, 8.9: 99 KiB) get a shallower k step,
    ** then fewer stages, then small tiles. */
    if (!cldnn_gemm_mma_params_fit(&p, dev, pr->trans_a, pr->trans_b))
        p.bk = 16;
    if (!cldnn_gemm_mma_params_fit(&p, dev, pr->trans_a, pr->trans_b))
        p.stages = 2;
    if (!cldnn_gemm_mma_params_fit(&p, dev, pr->trans_a, pr->trans_b)) {
        cldnn_gemm_mma_params small = {64, 64, 16, 32, 32, 3, 4, 0};
        p = small;
    }
    const char* env = getenv("CLDNN_GEMM_MMA_PARAMS");
    cldnn_gemm_mma_params q;
    if (env && env[0]) {
        if (cldnn_gemm_mma_params_parse(env, &q) && cldnn_gemm_mma_params_fit(&q, dev, pr->trans_a, pr->trans_b))
            p = q;
        else
            cldnn_log(CLDNN_LOG_ERROR, "CLDNN_GEMM_MMA_PARAMS=\"%s\" is not a valid parameter set here; ignored", env);
    }
    *out = p;
}

static int mma_aligned(int64_t ld, uint64_t off, int64_t stride) {
    return ld % 4 == 0 && off % 4 == 0 && stride % 4 == 0;
}

cldnnStatus_t cldnn_gemm_mma_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr,
                                        const cldnn_gemm_mma_params* params, const cldnn_gemm_buffers* b) {
    cldnn_gemm_mma_params q = *params;
    if (!mma_aligned(pr->lda, pr->off_a, pr->stride_a) || !mma_aligned(pr->ldb, pr->off_b, pr->stride_b))
        q.vw = 1;
    if (!cldnn_mma_tf32_available(&h->prof) || !cldnn_gemm_mma_params_fit(&q, &h->prof, pr->trans_a, pr->trans_b)) {
        char ps[96];
        cldnn_gemm_mma_params_format(params, ps, sizeof ps);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "tensor-core GEMM parameters %s are not valid on %s", ps,
                          h->prof.name);
    }
    char opts[256];
    snprintf(opts, sizeof opts,
             "-DMMA_BM=%d -DMMA_BN=%d -DMMA_BK=%d -DMMA_WM=%d -DMMA_WN=%d -DMMA_STAGES=%d -DMMA_VW=%d -DA_TRANS=%d "
             "-DB_TRANS=%d",
             q.bm, q.bn, q.bk, q.wm, q.wn, q.stages, q.vw, pr->trans_a, pr->trans_b);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm_mma.cl", opts, "gemm_mma", &k));
    size_t nt = (size_t)(32 * (q.bm / q.wm) * (q.bn / q.wn));
    cldnn_gemm_launch L = {k, "gemm_mma", q.bm, q.bn, q.bk, q.splitk, {nt, 1, 1}, ""};
    return cldnn_gemm_launch_run(h, pr, b, &L);
}

int cldnn_gemm_mma_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_gemm_problem* p = (const cldnn_gemm_problem*)problem;
    return p->math == CLDNN_TENSOR_OP_MATH && p->dtype == CLDNN_DATA_FLOAT && p->dtype_c == CLDNN_DATA_FLOAT &&
           cldnn_mma_tf32_available(dev);
}

void cldnn_gemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    cldnn_gemm_mma_params_select((const cldnn_gemm_problem*)problem, dev, (cldnn_gemm_mma_params*)params);
}

cldnnStatus_t cldnn_gemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return cldnn_gemm_mma_run_params(h, (const cldnn_gemm_problem*)problem, (const cldnn_gemm_mma_params*)params,
                                     (const cldnn_gemm_buffers*)buffers);
}
