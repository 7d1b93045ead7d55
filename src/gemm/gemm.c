/*
** gemm.c: cldnnGemm and cldnnGemmStridedBatched.
**
** A call is validated (enums, sizes, leading dimensions, strides, buffer extents with 64-bit
** overflow checks), turned into the canonical column-major problem (a row-major product is the
** column-major product of the transposes with A and B swapped), and run by the GEMM family's
** solver table: gemm_mma_tf32 and gemm_mma_f16 (TF32 and FP16 tensor cores, under TENSOR_OP_MATH
** for FLOAT and HALF data where the device has them; gemm_mma.c), then gemm_tiled
** (kernels/gemm/gemm.cl), through the selection engine (handle/engine.h). The solver that runs
** takes CLDNN_SOLVER_PARAMS's set for it, else the tuning db's record for the problem's key and
** the solver (cldnn-tune gemm --db writes them; never in the HEURISTIC find mode), else its
** defaults (gemm_tiled: the device table in gemm_params.c; the mma solvers: the problem's shape).
** A set that does not parse or is not valid on the device is ignored with a log line. The global
** load (copy) widths are lowered at run time to what the leading dimensions, offsets and batch
** strides allow.
**
** Data: FLOAT, or HALF or BFLOAT16 as storage (A, B and C 16-bit, byte offsets multiples of 2,
** alpha and beta float host values, products summed in float, C rounded once when stored;
** cldnn_dtype_build_option). Tensor-core kernels take FLOAT and HALF only.
** Internal callers may keep C in float (dtype_c) for workspaces of partial sums.
*/
#include "gemm/gemm.h"
#include "handle/engine.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEMM_INT_MAX 0x7fffffffLL

/* Elements a stored rows x cols column-major matrix with leading dimension ld spans over batch
** products stride apart; -1 on overflow. */
static int64_t matrix_span(int64_t rows, int64_t cols, int64_t ld, int64_t stride, int64_t batch) {
    int64_t s, t;
    if (__builtin_mul_overflow(cols - 1, ld, &s) || __builtin_add_overflow(s, rows, &s))
        return -1;
    if (__builtin_mul_overflow(batch - 1, stride, &t) || __builtin_add_overflow(s, t, &s))
        return -1;
    return s;
}

static cldnnStatus_t check_operand(cldnnHandle_t h, const char* name, cl_mem m, size_t off, size_t es, int64_t rows,
                                   int64_t cols, int64_t ld, int64_t stride, int64_t batch) {
    const char* ldname = name[0] == 'A' ? "lda" : name[0] == 'B' ? "ldb" : "ldc";
    if (ld < (rows > 1 ? rows : 1))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "%s = %lld is below the %lld rows %s holds as stored",
                          ldname, (long long)ld, (long long)rows, name);
    if (ld > GEMM_INT_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "%s = %lld exceeds 2^31 - 1", ldname, (long long)ld);
    if (stride < 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "the batch stride of %s is negative", name);
    int64_t span = matrix_span(rows, cols, ld, stride, batch);
    if (span < 0 || span > INT64_MAX / 4)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "the extent of %s overflows 63 bits", name);
    return cldnn_check_buffer(h, m, off, es, (uint64_t)span * es, name);
}

void cldnn_gemm_problem_key(const cldnn_gemm_problem* p, char* buf, size_t size) {
    snprintf(buf, size, "gemm:m%lld-n%lld-k%lld-%c%c-lda%lld-ldb%lld-ldc%lld-b%lld-%s%s%s%s", (long long)p->m,
             (long long)p->n, (long long)p->k, p->trans_a ? 'T' : 'N', p->trans_b ? 'T' : 'N', (long long)p->lda,
             (long long)p->ldb, (long long)p->ldc, (long long)p->batch, cldnn_dtype_key(p->dtype),
             p->dtype_c != p->dtype ? "-c" : "", p->dtype_c != p->dtype ? cldnn_dtype_key(p->dtype_c) : "",
             p->math != CLDNN_TENSOR_OP_MATH ? ""
             : p->dtype == CLDNN_DATA_FLOAT  ? "-tf32ok"
                                             : "-tcok");
}

/* Largest load width <= want that divides the leading dimension, the offset and the stride. */
static int load_width(int want, int64_t ld, uint64_t off, int64_t stride) {
    int w = want;
    while (w > 1 && (ld % w || off % (uint64_t)w || stride % w))
        w /= 2;
    return w;
}


cldnnStatus_t cldnn_gemm_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_params* params,
                                    const cldnn_gemm_buffers* b) {
    cldnn_gemm_params q = *params;
    q.vwa = load_width(q.vwa, pr->lda, pr->off_a, pr->stride_a);
    q.vwb = load_width(q.vwb, pr->ldb, pr->off_b, pr->stride_b);
    while (q.vwa > 1 && !cldnn_gemm_params_valid(&q, &h->prof))
        q.vwa /= 2;
    while (q.vwb > 1 && !cldnn_gemm_params_valid(&q, &h->prof))
        q.vwb /= 2;
    if (!cldnn_gemm_params_valid(&q, &h->prof)) {
        char ps[96];
        cldnn_gemm_params_format(params, ps, sizeof ps);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "GEMM parameters %s are not valid on %s", ps, h->prof.name);
    }
    char opts[360];
    snprintf(opts, sizeof opts,
             "-DMWG=%d -DNWG=%d -DKWG=%d -DMDIMC=%d -DNDIMC=%d -DVWM=%d -DVWN=%d -DVWA=%d -DVWB=%d -DPADA=%d "
             "-DPADB=%d -DA_TRANS=%d -DB_TRANS=%d%s%s",
             q.mwg, q.nwg, q.kwg, q.mdimc, q.ndimc, q.vwm, q.vwn, q.vwa, q.vwb, q.pada, q.padb, pr->trans_a,
             pr->trans_b, cldnn_dtype_build_option(pr->dtype),
             pr->dtype != CLDNN_DATA_FLOAT && pr->dtype_c == CLDNN_DATA_FLOAT ? " -DC_HALF=0" : "");
    cldnn_epilogue_options(pr->epi, opts, sizeof opts);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "gemm/gemm.cl", opts, "gemm_tiled", &k));
    cldnn_gemm_launch L = {k, "gemm_tiled", q.mwg, q.nwg, q.kwg, q.splitk, {(size_t)q.mdimc, (size_t)q.ndimc, 1},
                           opts, 0};
    return cldnn_gemm_launch_run(h, pr, b, &L);
}

/* ---- the solver table */

static int tiled_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    (void)dev;
    return 1;
}

static void tiled_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    cldnn_gemm_params_select((const cldnn_gemm_problem*)problem, dev, (cldnn_gemm_params*)params);
}

static cldnnStatus_t tiled_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return cldnn_gemm_run_params(h, (const cldnn_gemm_problem*)problem, (const cldnn_gemm_params*)params,
                                 (const cldnn_gemm_buffers*)buffers);
}

static int tiled_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    (void)problem;
    return cldnn_gemm_params_valid((const cldnn_gemm_params*)params, dev);
}

/* 1 when a block tile of bm x bn is at most twice the problem's m and n rounded up to powers of
** two: larger tiles only compute padding, so the tuners skip them. */
static int tile_fits(const cldnn_gemm_problem* p, int bm, int bn) {
    int64_t mcap = 16, ncap = 16;
    while (mcap < p->m)
        mcap *= 2;
    while (ncap < p->n)
        ncap *= 2;
    return bm <= 2 * mcap && bn <= 2 * ncap;
}

/* The declared space's sets whose tiles fit the problem. */
static size_t tiled_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    const cldnn_gemm_problem* p = (const cldnn_gemm_problem*)problem;
    cldnn_gemm_params* q = (cldnn_gemm_params*)out;
    size_t n = cldnn_gemm_param_space(dev, q, max), kept = 0;
    for (size_t i = 0; i < n && i < max; ++i)
        if (tile_fits(p, q[i].mwg, q[i].nwg))
            q[kept++] = q[i];
    return kept;
}

static int mma_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    const cldnn_gemm_problem* p = (const cldnn_gemm_problem*)problem;
    return cldnn_gemm_mma_params_fit((const cldnn_gemm_mma_params*)params, dev, p->dtype, p->trans_a, p->trans_b);
}

static size_t mma_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    const cldnn_gemm_problem* p = (const cldnn_gemm_problem*)problem;
    cldnn_gemm_mma_params* q = (cldnn_gemm_mma_params*)out;
    size_t n = cldnn_gemm_mma_param_space(dev, p->dtype, p->trans_a, p->trans_b, q, max), kept = 0;
    for (size_t i = 0; i < n && i < max; ++i)
        if (tile_fits(p, q[i].bm, q[i].bn))
            q[kept++] = q[i];
    return kept;
}

static const cldnn_param_space tiled_space = {
    .text = CLDNN_GEMM_PARAMS_TEXT,
    .names = CLDNN_GEMM_PARAMS_NAMES,
    .origin = "table",
    .valid = tiled_valid,
    .enumerate = tiled_enumerate,
};

static const cldnn_param_space mma_space = {
    .text = CLDNN_GEMM_MMA_PARAMS_TEXT,
    .names = CLDNN_GEMM_MMA_PARAMS_NAMES,
    .valid = mma_valid,
    .enumerate = mma_enumerate,
};

static const cldnn_param_space cpu_space = {
    .text = CLDNN_GEMM_CPU_PARAMS_TEXT,
    .names = CLDNN_GEMM_CPU_PARAMS_NAMES,
    .origin = "table",
    .valid = cldnn_gemm_cpu_valid,
    .enumerate = cldnn_gemm_cpu_enumerate,
};

static const cldnn_solver gemm_solvers[] = {
    {.name = CLDNN_GEMM_MMA_TF32_NAME, .algo = -1, .applicable = cldnn_gemm_mma_tf32_applicable,
     .default_params = cldnn_gemm_mma_defaults, .params_size = sizeof(cldnn_gemm_mma_params),
     .run = cldnn_gemm_mma_run, .flags = CLDNN_SOLVER_DETERMINISTIC | CLDNN_SOLVER_TENSOR_OPS, .rank = 10,
     .space = &mma_space},
    {.name = CLDNN_GEMM_MMA_F16_NAME, .algo = -1, .applicable = cldnn_gemm_mma_f16_applicable,
     .default_params = cldnn_gemm_mma_defaults, .params_size = sizeof(cldnn_gemm_mma_params),
     .run = cldnn_gemm_mma_run, .flags = CLDNN_SOLVER_DETERMINISTIC | CLDNN_SOLVER_TENSOR_OPS, .rank = 10,
     .space = &mma_space},
    /* CPU devices: before gemm_tiled, whose local-memory tiles a CPU runs as loops. */
    {.name = CLDNN_GEMM_CPU_NAME, .algo = -1, .applicable = cldnn_gemm_cpu_applicable,
     .default_params = cldnn_gemm_cpu_defaults, .params_size = sizeof(cldnn_gemm_cpu_params),
     .run = cldnn_gemm_cpu_run, .flags = CLDNN_SOLVER_DETERMINISTIC, .rank = 15, .space = &cpu_space},
    {.name = CLDNN_GEMM_SOLVER_NAME, .algo = -1, .applicable = tiled_applicable, .default_params = tiled_defaults,
     .params_size = sizeof(cldnn_gemm_params), .run = tiled_run, .flags = CLDNN_SOLVER_DETERMINISTIC, .rank = 20,
     .space = &tiled_space},
};

/* The output a tuner compares: C, of type dtype_c. */
static cl_mem gemm_out(const void* problem, const void* buffers, cldnnDataType_t* dtype) {
    *dtype = ((const cldnn_gemm_problem*)problem)->dtype_c;
    return ((const cldnn_gemm_buffers*)buffers)->c;
}

/* A tuner's tolerance: 1e-5 * sqrt(k) of C's range, as convolution's over its reduction, plus
** one ulp of C's storage type for a HALF or BFLOAT16 C (one rounding of C, which sums differing
** in their last bits may take to neighbouring values). */
static double gemm_tolerance(const void* problem) {
    const cldnn_gemm_problem* p = (const cldnn_gemm_problem*)problem;
    return 1e-5 * sqrt((double)p->k) + cldnn_dtype_storage_ulp(p->dtype_c);
}

static const cldnn_family gemm_family = {
    .name = "gemm",
    .solvers = gemm_solvers,
    .count = sizeof gemm_solvers / sizeof gemm_solvers[0],
    .output = gemm_out,
    .tolerance = gemm_tolerance,
    .tune_algo = -1,
};

const cldnn_family* cldnn_gemm_family(void) {
    return &gemm_family;
}

/* An internal product (convolution's GEMM-based and Winograd solvers): the family's solver table
** with its default parameters (the tensor-core kernel when g->math and the device allow it, else
** gemm_tiled with its table's parameters); no tuning-db lookup, no problem key formatted. */
cldnnStatus_t cldnn_gemm_run_any(cldnnHandle_t h, const cldnn_gemm_problem* g, const cldnn_gemm_buffers* b) {
    return cldnn_engine_run(h, &gemm_family, g, b, NULL, "internal GEMM");
}

/* ---- public entry points */

static cldnnStatus_t gemm_common(cldnnHandle_t h, cldnnLayout_t layout, cldnnOperation_t ta, cldnnOperation_t tb,
                                 int64_t m, int64_t n, int64_t k, const void* alpha, cl_mem A, size_t aOff,
                                 int64_t lda, int64_t sA, cl_mem B, size_t bOff, int64_t ldb, int64_t sB,
                                 const void* beta, cl_mem C, size_t cOff, int64_t ldc, int64_t sC, int64_t batch,
                                 cldnnDataType_t dt) {
    CLDNN_TRY(cldnn_check_handle(h));
    if (layout != CLDNN_ROW_MAJOR && layout != CLDNN_COL_MAJOR)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "layout %d is not a cldnnLayout_t value", (int)layout);
    if ((ta != CLDNN_OP_N && ta != CLDNN_OP_T) || (tb != CLDNN_OP_N && tb != CLDNN_OP_T))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "%s %d is not a cldnnOperation_t value",
                          (ta != CLDNN_OP_N && ta != CLDNN_OP_T) ? "transA" : "transB",
                          (ta != CLDNN_OP_N && ta != CLDNN_OP_T) ? (int)ta : (int)tb);
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    if (m < 1 || n < 1 || k < 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "m = %lld, n = %lld, k = %lld must all be >= 1",
                          (long long)m, (long long)n, (long long)k);
    if (batch < 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "batchCount = %lld must be >= 1", (long long)batch);
    if (cldnn_dtype_size(dt) == 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dataType %d is not a cldnnDataType_t value", (int)dt);
    if (dt != CLDNN_DATA_FLOAT && dt != CLDNN_DATA_HALF && dt != CLDNN_DATA_BFLOAT16)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, "GEMM takes float, half or bfloat16 data; got %s",
                          cldnn_dtype_name(dt));
    if (m > GEMM_INT_MAX || n > GEMM_INT_MAX || k > GEMM_INT_MAX || batch > GEMM_INT_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "m, n, k and batchCount must be below 2^31");

    /* Canonical column-major problem. */
    cldnn_gemm_problem p;
    memset(&p, 0, sizeof p);
    int row = layout == CLDNN_ROW_MAJOR;
    p.m = row ? n : m;
    p.n = row ? m : n;
    p.k = k;
    p.trans_a = (row ? tb : ta) == CLDNN_OP_T;
    p.trans_b = (row ? ta : tb) == CLDNN_OP_T;
    p.lda = row ? ldb : lda;
    p.ldb = row ? lda : ldb;
    p.ldc = ldc;
    p.stride_a = row ? sB : sA;
    p.stride_b = row ? sA : sB;
    p.stride_c = sC;
    p.batch = batch;
    cl_mem ma = row ? B : A, mb = row ? A : B;
    size_t oa = row ? bOff : aOff, ob = row ? aOff : bOff;
    p.alpha = *(const float*)alpha; /* float host scalars for every data type */
    p.beta = *(const float*)beta;
    p.math = h->gemm_math;
    p.dtype = p.dtype_c = dt;
    const size_t es = cldnn_dtype_size(dt);

    /* Stored shapes: A' is m x k (k x m when transposed), B' k x n (n x k), C m x n. The caller's
    ** names are kept in messages. */
    const char* an = row ? "B" : "A";
    const char* bn = row ? "A" : "B";
    CLDNN_TRY(check_operand(h, an, ma, oa, es, p.trans_a ? p.k : p.m, p.trans_a ? p.m : p.k, p.lda, p.stride_a, batch));
    CLDNN_TRY(check_operand(h, bn, mb, ob, es, p.trans_b ? p.n : p.k, p.trans_b ? p.k : p.n, p.ldb, p.stride_b, batch));
    CLDNN_TRY(check_operand(h, "C", C, cOff, es, p.m, p.n, p.ldc, p.stride_c, batch));
    if (batch > 1 && p.stride_c < p.ldc * (p.n - 1) + p.m)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                          "strideC = %lld makes the %lld products of C overlap", (long long)sC, (long long)batch);
    p.off_a = oa / es;
    p.off_b = ob / es;
    p.off_c = cOff / es;

    if (cldnn_log_cmd_enabled())
        cldnn_log_cmd("gemm -m %lld -n %lld -k %lld --transA %d --transB %d --layout %s --lda %lld --ldb %lld "
                      "--ldc %lld -A %g -B %g%s%lld%s%s",
                      (long long)m, (long long)n, (long long)k, (int)ta, (int)tb, row ? "row" : "col",
                      (long long)lda, (long long)ldb, (long long)ldc, (double)p.alpha, (double)p.beta,
                      " --batch ", (long long)batch, dt == CLDNN_DATA_FLOAT ? "" : " -d ",
                      dt == CLDNN_DATA_FLOAT ? "" : cldnn_dtype_name(dt));
    char key[256];
    cldnn_gemm_problem_key(&p, key, sizeof key);
    cldnn_gemm_buffers bufs = {ma, mb, C};
    return cldnn_engine_run(h, &gemm_family, &p, &bufs, key, key);
}

cldnnStatus_t cldnnGemm(cldnnHandle_t handle, cldnnLayout_t layout, cldnnOperation_t transA, cldnnOperation_t transB,
                        int64_t m, int64_t n, int64_t k, const void* alpha, cl_mem A, size_t aOffset, int64_t lda,
                        cl_mem B, size_t bOffset, int64_t ldb, const void* beta, cl_mem C, size_t cOffset,
                        int64_t ldc, cldnnDataType_t dataType) {
    cldnn_error_clear();
    return gemm_common(handle, layout, transA, transB, m, n, k, alpha, A, aOffset, lda, 0, B, bOffset, ldb, 0, beta, C,
                       cOffset, ldc, 0, 1, dataType);
}

cldnnStatus_t cldnnGemmStridedBatched(cldnnHandle_t handle, cldnnLayout_t layout, cldnnOperation_t transA,
                                      cldnnOperation_t transB, int64_t m, int64_t n, int64_t k, const void* alpha,
                                      cl_mem A, size_t aOffset, int64_t lda, int64_t strideA, cl_mem B,
                                      size_t bOffset, int64_t ldb, int64_t strideB, const void* beta, cl_mem C,
                                      size_t cOffset, int64_t ldc, int64_t strideC, int64_t batchCount,
                                      cldnnDataType_t dataType) {
    cldnn_error_clear();
    return gemm_common(handle, layout, transA, transB, m, n, k, alpha, A, aOffset, lda, strideA, B, bOffset, ldb,
                       strideB, beta, C, cOffset, ldc, strideC, batchCount, dataType);
}

cldnnStatus_t cldnnSetGemmMathType(cldnnHandle_t handle, cldnnMathType_t mathType) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (mathType != CLDNN_DEFAULT_MATH && mathType != CLDNN_TENSOR_OP_MATH && mathType != CLDNN_FMA_MATH)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mathType %d is not a cldnnMathType_t value",
                          (int)mathType);
    handle->gemm_math = mathType;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetGemmMathType(cldnnHandle_t handle, cldnnMathType_t* mathType) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (mathType == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "mathType (output pointer) is NULL");
    *mathType = handle->gemm_math;
    return CLDNN_STATUS_SUCCESS;
}
