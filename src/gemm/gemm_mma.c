/*
** gemm_mma.c: the tensor-core GEMM solvers (kernels/gemm/gemm_mma.cl) on NVIDIA devices of
** compute capability 8.0 or higher, offered only under TENSOR_OP_MATH (cldnnSetGemmMathType,
** the convolution descriptor's math type), as cuDNN v7 does; DEFAULT_MATH and FMA_MATH keep the
** portable kernels:
**   gemm_mma_tf32  FLOAT data: TF32 mma.sync m16n8k8, FP32 accumulation;
**   gemm_mma_f16   the 16-bit types: HALF data (A and B half; C half, or float for internal
**                  callers): FP16 mma.sync m16n8k16; BFLOAT16 data the same with BF16
**                  mma.sync; FP32 accumulation, C rounded once.
** One kernel body, the element type a build option (-DDATA_HALF=1, -DDATA_BF16=1).
**
** Parameters are data (cldnn_gemm_mma_params): the default set comes from the problem's shape
** (block tiles shrink for thin products, split-k fills the device when blocks are few), the
** tuning db's record for the problem and solver replaces it (the engine, handle/engine.c), and
** CLDNN_SOLVER_PARAMS (gemm_mma_tf32:128x128x32-64x64-s3-v4-k0) overrides both. The copy
** width vw counts elements: 4 floats or 8 halves make a 16-byte cp.async; it is lowered when
** leading dimensions, offsets or batch strides do not keep such sources aligned (floats: to 1;
** halves: to 4 or 2, an 8- or 4-byte cp.async, or 1, a plain 2-byte copy). The tuner's search space
** (cldnn_gemm_mma_param_space) is declared below as value lists pruned by the validity check.
*/
#include "gemm/gemm.h"
#include "handle/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cldnn_mma_available(const cldnn_device_profile* dev) {
    return cldnn_mma_shfl(dev) && cldnn_env_int("CLDNN_TENSOR_CORES", 1) != 0;
}

size_t cldnn_mma_local_limit(const cldnn_device_profile* dev) {
    size_t kib = dev->nv_cc_major == 9 ? 227 : (dev->nv_cc_major == 8 && (dev->nv_cc_minor == 0 || dev->nv_cc_minor == 7))
                                                   ? 163
                                                   : 99;
    return (kib - 1) * 1024;
}

/* Bytes of one pipeline stage (kernels/gemm/gemm_mma.cl's local tiles) for elements of es
** bytes: an operand stored m- (n-) contiguous takes bk rows of bm (bn) elements plus 16 bytes, a
** k-contiguous one bm (bn) rows of bk + 8 elements. trans_a / trans_b < 0: the larger of the two
** layouts (a set valid for every transpose). */
static size_t mma_stage_bytes(const cldnn_gemm_mma_params* p, size_t es, int trans_a, int trans_b) {
    const size_t pad = 16 / es;
    size_t a1 = (size_t)p->bk * ((size_t)p->bm + pad), a2 = (size_t)p->bm * (size_t)(p->bk + 8);
    size_t b1 = (size_t)p->bk * ((size_t)p->bn + pad), b2 = (size_t)p->bn * (size_t)(p->bk + 8);
    size_t a = trans_a < 0 ? (a1 > a2 ? a1 : a2) : trans_a ? a2 : a1;
    size_t b = trans_b < 0 ? (b1 > b2 ? b1 : b2) : trans_b ? b1 : b2;
    return (a + b) * es;
}

/* The set's constraints apart from local memory. */
static int mma_shape_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev, cldnnDataType_t dt);

/* Bytes of the staged epilogue (the kernel's end): per warp, MMA_WN columns of 16 AG + 1 floats,
** AG = 4 m-tiles for HALF warps of 64+ rows, else 2. It reuses the pipeline's local memory. */
static size_t mma_epilogue_bytes(const cldnn_gemm_mma_params* p, cldnnDataType_t dt) {
    const size_t ag = cldnn_mma_16bit(dt) && p->wm % 64 == 0 ? 4 : 2;
    const size_t warps = (size_t)(p->bm / p->wm) * (size_t)(p->bn / p->wn);
    return warps * (size_t)p->wn * (16 * ag + 1) * 4;
}

int cldnn_gemm_mma_params_fit(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev, cldnnDataType_t dt,
                              int trans_a, int trans_b) {
    const size_t es = cldnn_mma_16bit(dt) ? 2 : 4;
    if (!(dt == CLDNN_DATA_FLOAT || cldnn_mma_16bit(dt)) || !mma_shape_valid(p, dev, dt))
        return 0;
    const size_t pipe = (size_t)p->stages * mma_stage_bytes(p, es, trans_a, trans_b);
    const size_t epi = mma_epilogue_bytes(p, dt);
    return (pipe > epi ? pipe : epi) <= cldnn_mma_local_limit(dev);
}

static int pow2_in(int v, int lo, int hi) {
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

int cldnn_gemm_mma_params_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev,
                                cldnnDataType_t dt) {
    return cldnn_gemm_mma_params_fit(p, dev, dt, -1, -1);
}

/* FLOAT: k steps 16 or 32 (two or four m16n8k8 steps), copies of 4 floats or 1; HALF: k steps 16,
** 32 or 64 (one to four m16n8k16 steps), copies of 8, 4, 2 or 1 halves. */
static int mma_shape_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev, cldnnDataType_t dt) {
    const int half = cldnn_mma_16bit(dt);
    if (!pow2_in(p->bm, 32, 256) || !pow2_in(p->bn, 32, 256) || !pow2_in(p->bk, 16, half ? 64 : 32))
        return 0;
    if (!pow2_in(p->wm, 32, 128) || !pow2_in(p->wn, 32, 128) || p->bm % p->wm || p->bn % p->wn)
        return 0;
    if (p->wm * p->wn > 4096) /* at most 128 accumulators per lane */
        return 0;
    if (p->stages < 2 || p->stages > 8 || p->splitk < 0)
        return 0;
    if (half ? !pow2_in(p->vw, 1, 8) : (p->vw != 1 && p->vw != 4))
        return 0;
    int nt = 32 * (p->bm / p->wm) * (p->bn / p->wn);
    if (nt > 1024 || (size_t)nt > dev->max_wg_size)
        return 0;
    return (p->bm * p->bk) % (p->vw * nt) == 0 && (p->bn * p->bk) % (p->vw * nt) == 0;
}

void cldnn_gemm_mma_params_format(const cldnn_gemm_mma_params* p, char* buf, size_t size) {
    cldnn_params_format(CLDNN_GEMM_MMA_PARAMS_TEXT, p, buf, size);
}

int cldnn_gemm_mma_params_parse(const char* s, cldnn_gemm_mma_params* p) {
    cldnn_gemm_mma_params q;
    if (!cldnn_params_parse(CLDNN_GEMM_MMA_PARAMS_TEXT, s, &q, sizeof q))
        return 0;
    *p = q;
    return 1;
}

void cldnn_gemm_mma_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                                  cldnn_gemm_mma_params* out) {
    const int half = cldnn_mma_16bit(pr->dtype);
    /* HALF (and BFLOAT16, which shares its kernel but the mma instruction): the same bytes per k-tile as FLOAT (64 halves deep, four m16n8k16 steps) and 16-byte
    ** copies of 8 halves. Not tuned: on the H100 they reach 270-271 TFLOP/s at 4096^3-8192^3
    ** (perf/results/gemm-fp16-h100.md); cldnn-tune gemm --math tensor -d half writes what wins to
    ** the tuning db. */
    cldnn_gemm_mma_params p = {128, 128, half ? 64 : 32, 64, 64, 3, half ? 8 : 4, 0};
    /* Large products: 256 x 128 blocks of 8 warps, one per compute unit (180 KiB of local memory),
    ** carry the least traffic per product and measured best on the H100 in every transpose
    ** (perf/results/gemm-tf32-h100.md) once there are two waves of them: 2048^3 (128 blocks, one
    ** wave at 0.9 of the compute units) ran at 72 TFLOP/s against 87 with 128 x 128 blocks. */
    uint64_t big_blocks = (uint64_t)((pr->m + 255) / 256) * (uint64_t)((pr->n + 127) / 128) * (uint64_t)pr->batch;
    if (pr->m >= 1024 && pr->n >= 512 && big_blocks >= 2u * (uint64_t)(dev->compute_units ? dev->compute_units : 1))
        p.bm = 256;
    /* HALF products of short reductions (1x1 convolutions: k = channels, batched per image) are
    ** bound by their loads and stores: 64 x 64 blocks of 4 warps, two stages (36 KiB, six blocks a
    ** compute unit), once there are four waves of them, ran in 0.77 of the 128 x 128 blocks' time
    ** over ResNet-50's 1x1 layers on the H100 (geometric mean of 10 layer x direction cases,
    ** 0.64 to 1.06; perf/results/gemm-1x1-h100.md). Square products keep the big blocks. */
    const uint64_t small_blocks = (uint64_t)((pr->m + 63) / 64) * (uint64_t)((pr->n + 63) / 64) * (uint64_t)pr->batch;
    if (half && pr->k <= 2048 && (pr->k <= 1024 || pr->batch > 1) &&
        small_blocks >= 4u * (uint64_t)(dev->compute_units ? dev->compute_units : 1)) {
        cldnn_gemm_mma_params s = {64, 64, 64, 32, 32, 2, 8, 0};
        p = s;
    }
    if (pr->m <= 64) {
        p.bm = 64;
        p.wm = 32;
    }
    if (pr->n <= 64) {
        p.bn = 64;
        p.wn = 32;
    }
    /* Devices with less local memory per block (cc 8.6, 8.9: 99 KiB) get shallower k steps, then
    ** fewer stages, then small tiles. */
    while (p.bk > 16 && !cldnn_gemm_mma_params_fit(&p, dev, pr->dtype, pr->trans_a, pr->trans_b))
        p.bk /= 2;
    if (!cldnn_gemm_mma_params_fit(&p, dev, pr->dtype, pr->trans_a, pr->trans_b))
        p.stages = 2;
    if (!cldnn_gemm_mma_params_fit(&p, dev, pr->dtype, pr->trans_a, pr->trans_b)) {
        cldnn_gemm_mma_params small = {64, 64, 16, 32, 32, 3, half ? 8 : 4, 0};
        p = small;
    }
    *out = p;
}

/* Which kernel p's data types take: 1 TF32 (FLOAT A, B and C), 2 FP16 or BF16 (HALF or BFLOAT16
** A and B, C of their type or float), 0 none. */
static int mma_kind(const cldnn_gemm_problem* p) {
    if (p->dtype == CLDNN_DATA_FLOAT)
        return p->dtype_c == CLDNN_DATA_FLOAT ? 1 : 0;
    return cldnn_mma_16bit(p->dtype) && (p->dtype_c == p->dtype || p->dtype_c == CLDNN_DATA_FLOAT) ? 2 : 0;
}

/* The widest copy (elements, at most want) whose sources stay aligned to its size: the leading
** dimension, the offset and the batch stride all multiples of it. Single elements always are. */
static int mma_copy_width(int want, int64_t ld, uint64_t off, int64_t stride) {
    static const int widths[] = {8, 4, 2};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; ++i) {
        const int w = widths[i];
        if (w <= want && ld % w == 0 && off % (uint64_t)w == 0 && stride % w == 0)
            return w;
    }
    return 1;
}

cldnnStatus_t cldnn_gemm_mma_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr,
                                        const cldnn_gemm_mma_params* params, const cldnn_gemm_buffers* b) {
    cldnn_gemm_mma_params q = *params;
    const int wa = mma_copy_width(q.vw, pr->lda, pr->off_a, pr->stride_a);
    const int wb = mma_copy_width(q.vw, pr->ldb, pr->off_b, pr->stride_b);
    q.vw = wa < wb ? wa : wb;
    if (pr->dtype == CLDNN_DATA_FLOAT && q.vw < 4) /* FLOAT copies 16 or 4 bytes */
        q.vw = 1;
    if (!cldnn_mma_available(&h->prof) || mma_kind(pr) == 0 ||
        !cldnn_gemm_mma_params_fit(params, &h->prof, pr->dtype, pr->trans_a, pr->trans_b) ||
        !cldnn_gemm_mma_params_fit(&q, &h->prof, pr->dtype, pr->trans_a, pr->trans_b)) {
        char ps[96];
        cldnn_gemm_mma_params_format(params, ps, sizeof ps);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "tensor-core GEMM parameters %s are not valid for %s data on %s", ps,
                          cldnn_dtype_name(pr->dtype), h->prof.name);
    }
    /* C float beside 16-bit A and B (internal callers' workspaces of partial sums); the split-k
    ** reduction is gemm.cl's, built for the same storage of C. */
    const int c_float = cldnn_mma_16bit(pr->dtype) && pr->dtype_c != pr->dtype;
    char opts[360], reduce_opts[112];
    snprintf(opts, sizeof opts,
             "-DMMA_BM=%d -DMMA_BN=%d -DMMA_BK=%d -DMMA_WM=%d -DMMA_WN=%d -DMMA_STAGES=%d -DMMA_VW=%d -DA_TRANS=%d "
             "-DB_TRANS=%d%s%s",
             q.bm, q.bn, q.bk, q.wm, q.wn, q.stages, q.vw, pr->trans_a, pr->trans_b,
             cldnn_dtype_build_option(pr->dtype), c_float ? " -DC_HALF=0" : "");
    snprintf(reduce_opts, sizeof reduce_opts, "%s%s", cldnn_dtype_build_option(pr->dtype),
             c_float ? " -DC_HALF=0" : "");
    cldnn_epilogue_options(pr->epi, opts, sizeof opts);
    cldnn_epilogue_options(pr->epi, reduce_opts, sizeof reduce_opts);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm_mma.cl", opts, "gemm_mma", &k));
    size_t nt = (size_t)(32 * (q.bm / q.wm) * (q.bn / q.wn));
    cldnn_gemm_launch L = {k, "gemm_mma", q.bm, q.bn, q.bk, q.splitk, {nt, 1, 1}, reduce_opts, 0};
    return cldnn_gemm_launch_run(h, pr, b, &L);
}

int cldnn_gemm_mma_tf32_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_gemm_problem* p = (const cldnn_gemm_problem*)problem;
    return p->math == CLDNN_TENSOR_OP_MATH && mma_kind(p) == 1 && cldnn_mma_available(dev);
}

int cldnn_gemm_mma_f16_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_gemm_problem* p = (const cldnn_gemm_problem*)problem;
    return p->math == CLDNN_TENSOR_OP_MATH && mma_kind(p) == 2 && cldnn_mma_available(dev);
}

int cldnn_gemm_mma_applicable(const void* problem, const cldnn_device_profile* dev) {
    return cldnn_gemm_mma_tf32_applicable(problem, dev) || cldnn_gemm_mma_f16_applicable(problem, dev);
}

/* ---- the tuner's search space */

/* Value lists of each parameter; a combination is a candidate when it has 4 to 8 warps and the
** validity check keeps it for the problem's transposes (local memory depends on them). Split-k
** stays 0 (chosen from the problem at run time) and vw the widest (lowered at run time). */
static const int space_bm[] = {64, 128, 256};
static const int space_bn[] = {64, 128, 256};
static const int space_bk_float[] = {16, 32};
static const int space_bk_half[] = {32, 64};
static const int space_warp[] = {32, 64};
static const int space_stages[] = {2, 3, 4, 5};

size_t cldnn_gemm_mma_param_space(const cldnn_device_profile* dev, cldnnDataType_t dt, int trans_a, int trans_b,
                                  cldnn_gemm_mma_params* out, size_t max) {
    const int half = cldnn_mma_16bit(dt);
    const int* bks = half ? space_bk_half : space_bk_float;
    const size_t nbk = half ? sizeof space_bk_half / sizeof space_bk_half[0]
                            : sizeof space_bk_float / sizeof space_bk_float[0];
    size_t n = 0;
#define SPACE_N(a) (sizeof(a) / sizeof((a)[0]))
    for (size_t i = 0; i < SPACE_N(space_bm); ++i)
        for (size_t j = 0; j < SPACE_N(space_bn); ++j)
            for (size_t k = 0; k < nbk; ++k)
                for (size_t wm = 0; wm < SPACE_N(space_warp); ++wm)
                    for (size_t wn = 0; wn < SPACE_N(space_warp); ++wn)
                        for (size_t s = 0; s < SPACE_N(space_stages); ++s) {
                            cldnn_gemm_mma_params p = {space_bm[i], space_bn[j], bks[k], space_warp[wm],
                                                       space_warp[wn], space_stages[s], half ? 8 : 4, 0};
                            /* at least 4 warps, at most 8 */
                            const int warps = (p.bm / p.wm) * (p.bn / p.wn);
                            if (warps < 4 || warps > 8 || !cldnn_gemm_mma_params_fit(&p, dev, dt, trans_a, trans_b))
                                continue;
                            if (n < max)
                                out[n] = p;
                            ++n;
                        }
#undef SPACE_N
    return n;
}

void cldnn_gemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    cldnn_gemm_mma_params_select((const cldnn_gemm_problem*)problem, dev, (cldnn_gemm_mma_params*)params);
}

cldnnStatus_t cldnn_gemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return cldnn_gemm_mma_run_params(h, (const cldnn_gemm_problem*)problem, (const cldnn_gemm_mma_params*)params,
                                     (const cldnn_gemm_buffers*)buffers);
}
