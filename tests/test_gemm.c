/*
** test_gemm.c: cldnnGemm, cldnnGemmStridedBatched and the GEMM kernel's parameter sets against
** the double-precision reference ref_gemm, computed from the same float inputs.
**
** White-box (includes internal.h): besides the public calls it runs every parameter set of the
** shipped device tables, and hand-made ones, through cldnn_gemm_run_params on the canonical
** column-major problem (the table sets also past their tile with k = 4500, where a driver that
** cuts long loops short shows), and checks that an invalid set is refused.
**
** Every case runs on whole buffers with host mirrors: A and B (padding and the bytes before the
** offset included) hold random non-zero values and must come back unchanged; C holds NaN when
** beta == 0 (it must not be read: any NaN in the result fails) and random values otherwise,
** and every element of C outside the m x n blocks (ld padding, gaps between batch products,
** the bytes before the offset, a tail) must come back bit for bit.
**
** Tolerance, per element of C: |got - want| <= 4 u sqrt(k) (|alpha| S + |beta| |c|) + tiny,
** u = 2^-24, S = sum_p |a_ip| |b_pj| (ref_gemm_abs): the probabilistic rounding bound of a float
** dot product of length k, scaled by the magnitudes that are actually summed (a result that
** cancels to near zero is judged by the size of its terms, not by its own size). Split-k adds
** one rounded sum per split, well inside it. Measured errors stay below 0.6 of it.
**
** Cost: every kernel variant (parameter set, transposes, global load widths) is one program
** build of 1.5 to 2 s on PoCL, cached by PoCL (POCL_CACHE_DIR; cldnn's disk cache on other devices). The shape tests
** therefore run in two alignment classes, and the table sets are split over four tests so that
** their builds run in parallel.
**
** HALF (gemm_half): the same harness with A, B and C stored as halves (host mirrors hold the
** half-rounded values the reference reads; NaN halves poison C when beta == 0) over the unit,
** long-k (split-k), random (16 problems), offset and batch-count tests (the last two in
** column-major only, fewer PoCL builds); the tolerance adds C's one rounding to
** half, 2^-11 (|want| + tol) + 2^-25.
**
** CPU solver (gemm_cpu): every register block of its table and hand-made sets covering each
** parameter value, run through cldnn_gemm_cpu_run_params on problems past two register blocks and
** the bands (both edges of every block), with offsets and padded leading dimensions, batched ones,
** HALF and BFLOAT16, panels cut into pieces under a lowered scratch cap
** (with the fused epilogue), and invalid sets refused. On CPU devices the public calls above run
** it too (it ranks first there).
**
** Bad inputs: each must return its status and leave a non-empty last-error string, and none
** may touch C. Failures print the seed (CLDNN_TEST_SEED=<seed> ./test_gemm --filter ...).
*/
#include "fixture.h"
#include "internal.h"
#include "gemm/gemm.h"
#include "whitebox.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(gemm, .fini = fx_fini);
TestSuite(gemm_batched, .fini = fx_fini);
TestSuite(gemm_params, .fini = fx_fini);
TestSuite(gemm_errors, .fini = fx_fini);
TestSuite(gemm_math, .fini = fx_fini);
TestSuite(gemm_half, .fini = fx_fini);
TestSuite(gemm_bf16, .fini = fx_fini);
TestSuite(gemm_cpu, .fini = fx_fini);

#define UNIT_ROUNDOFF (1.0 / 16777216.0) /* 2^-24 */
#define TOL_TINY 1e-30
#define TAIL 3     /* floats after each buffer's last element */
#define BCAST (-1) /* a stride gap meaning "stride 0": one matrix for every product */
#define HALF_REL (1.0 / 2048.0)     /* a half output's rounding: 0.5 ulp, relative (2^-11) */
#define HALF_ABS (1.0 / 33554432.0) /* ... and absolute near 0 (half the subnormal spacing, 2^-25) */
#define BF16_REL (1.0 / 256.0)      /* a bfloat16 output's rounding: 0.5 ulp, relative (2^-8) */

/* The data type of this process's cases: FLOAT, or HALF (BFLOAT16) for the gemm_half (gemm_bf16)
** suite, whose tests set it first (Criterion runs every test in its own process). Host mirrors
** stay float and hold values the type represents exactly; a case's offsets (bytes of floats) and
** strides count the same elements in every type, so a 4-byte float offset is a 2-byte one. */
static cldnnDataType_t g_dt = CLDNN_DATA_FLOAT;

static size_t elem_size(void) { return fx_dtype_size(g_dt); }

/* g_dt's 16-bit encoding of f (rounded to nearest even) and the value of such bits. */
static uint16_t to16(float f) { return g_dt == CLDNN_DATA_HALF ? fx_float_to_half(f) : fx_float_to_bf16(f); }
static float from16(uint16_t b) { return g_dt == CLDNN_DATA_HALF ? fx_half_to_float(b) : fx_bf16_to_float(b); }

/* One GEMM call. Leading dimensions are given as padding above the minimum, batch strides as
** gaps above one matrix's span, so a case stays valid for every layout and transpose. */
typedef struct {
    int row;    /* 1: CLDNN_ROW_MAJOR, 0: CLDNN_COL_MAJOR */
    int ta, tb; /* 1: CLDNN_OP_T */
    int64_t m, n, k;
    int64_t pa, pb, pc; /* ld = minimum + p */
    int ld4;            /* 1: round every ld and stride up to a multiple of 4 (vector loads) */
    size_t oa, ob, oc;  /* byte offsets (multiples of 4) */
    float alpha, beta;
    int64_t batch;                   /* 0: cldnnGemm; >= 1: cldnnGemmStridedBatched */
    int64_t ga, gb, gc;              /* stride = span + g (elements); BCAST: stride 0 (A and B only) */
    const cldnn_gemm_params* params; /* non-NULL: cldnn_gemm_run_params (row must be 0) */
    const cldnn_gemm_cpu_params* cpu; /* non-NULL: cldnn_gemm_cpu_run_params (row must be 0) */
} gcase;

/* How one operand is stored: rows x cols in the case's layout with leading dimension ld. */
typedef struct {
    int64_t rows, cols, ld, span, stride, nbuf; /* span, stride, nbuf in elements */
    size_t off;                                 /* elements */
} operand;

static int64_t round4(int64_t x) { return (x + 3) / 4 * 4; }

/* Fills o for a stored rows x cols matrix with ld padding p (rounded up to a multiple of 4
** with ld4), byte offset off_bytes, batch products (>= 1) and stride gap g. */
static void operand_init(operand* o, int row, int64_t rows, int64_t cols, int64_t p, int ld4, size_t off_bytes,
                         int64_t batch, int64_t g) {
    o->rows = rows;
    o->cols = cols;
    o->ld = (row ? cols : rows) + p;
    if (ld4)
        o->ld = round4(o->ld);
    o->span = row ? (rows - 1) * o->ld + cols : (cols - 1) * o->ld + rows;
    o->stride = batch <= 1 ? 0 : (g == BCAST ? 0 : o->span + g);
    if (ld4)
        o->stride = round4(o->stride);
    o->off = off_bytes / 4;
    o->nbuf = (int64_t)o->off + o->span + (batch - 1) * o->stride + TAIL;
}

/* A one-line description of c for failure messages. */
static void describe(const gcase* c, const operand* A, const operand* B, const operand* C, char* buf, size_t size) {
    char ps[96] = "";
    if (c->params != NULL) {
        ps[0] = ' ';
        cldnn_gemm_params_format(c->params, ps + 1, sizeof ps - 1);
    } else if (c->cpu != NULL) {
        ps[0] = ' ';
        cldnn_gemm_cpu_params_format(c->cpu, ps + 1, sizeof ps - 1);
    }
    snprintf(buf, size,
             "%s %s %c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld offsets(bytes) A=%zu B=%zu C=%zu "
             "alpha=%g beta=%g batch=%lld strides=%lld/%lld/%lld%s%s",
             c->params  ? "run_params"
             : c->cpu   ? "cpu_run_params"
             : c->batch ? "GemmStridedBatched"
                        : "Gemm",
             c->row ? "row-major" : "col-major", c->ta ? 'T' : 'N', c->tb ? 'T' : 'N', (long long)c->m, (long long)c->n,
             (long long)c->k, (long long)A->ld, (long long)B->ld, (long long)C->ld, c->oa, c->ob, c->oc,
             (double)c->alpha, (double)c->beta, (long long)(c->batch ? c->batch : 1), (long long)A->stride,
             (long long)B->stride, (long long)C->stride, ps, g_dt == CLDNN_DATA_HALF ? " HALF (offsets / 2)" : g_dt == CLDNN_DATA_BFLOAT16 ? " BFLOAT16 (offsets / 2)" : "");
}

/* Host floats for a whole buffer: random non-zero in [-1, 1) (rounded to half for HALF), or
** NaN when nan != 0. */
static float* host_buffer(int64_t n, int nan) {
    float* p = malloc((size_t)n * sizeof(float));
    FX_ASSERT(p != NULL, "out of host memory (%lld floats)", (long long)n);
    if (nan)
        ref_fill_nan(p, (size_t)n);
    else
        ref_fill_uniform(fx_rng(), p, (size_t)n, -1.0, 1.0);
    for (int64_t i = 0; g_dt != CLDNN_DATA_FLOAT && !nan && i < n; i++)
        p[i] = from16(to16(p[i]));
    return p;
}

/* A device buffer holding the n values of host in g_dt. */
static cl_mem device_copy(const float* host, int64_t n) {
    cl_mem m = fx_buffer((size_t)n * elem_size());
    if (g_dt == CLDNN_DATA_FLOAT) {
        fx_write_floats(m, 0, host, (size_t)n);
        return m;
    }
    uint16_t* h = malloc((size_t)n * sizeof(uint16_t));
    FX_ASSERT(h != NULL, "out of host memory");
    for (int64_t i = 0; i < n; i++)
        h[i] = to16(host[i]);
    fx_write(m, 0, h, (size_t)n * sizeof(uint16_t));
    free(h);
    return m;
}

/* The n values of device buffer m (in g_dt) as floats. */
static void read_values(cl_mem m, float* dst, int64_t n) {
    if (g_dt == CLDNN_DATA_FLOAT) {
        fx_read_floats(m, 0, dst, (size_t)n);
        return;
    }
    uint16_t* h = malloc((size_t)n * sizeof(uint16_t));
    FX_ASSERT(h != NULL, "out of host memory");
    fx_read(m, 0, h, (size_t)n * sizeof(uint16_t));
    for (int64_t i = 0; i < n; i++)
        dst[i] = from16(h[i]);
    free(h);
}

/* 1 when two values are the same element of g_dt, bit for bit (NaN included). */
static int same_value(float a, float b) {
    if (g_dt != CLDNN_DATA_FLOAT)
        return to16(a) == to16(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Requires device buffer m to hold exactly the n values of host (bitwise; NaN included). */
static void expect_unchanged(cl_mem m, const float* host, int64_t n, const char* name, const char* what) {
    float* got = malloc((size_t)n * sizeof(float));
    FX_ASSERT(got != NULL, "out of host memory");
    read_values(m, got, n);
    int64_t first = -1;
    for (int64_t i = 0; i < n && first < 0; i++)
        if (!same_value(got[i], host[i]))
            first = i;
    FX_ASSERT(first < 0, "%s: %s was modified at element %lld (%.9g -> %.9g)", what, name, (long long)first,
              first >= 0 ? (double)host[first] : 0.0, first >= 0 ? (double)got[first] : 0.0);
    free(got);
}

/* A case in flight: its geometry, host mirrors and device buffers. */
typedef struct {
    gcase c;
    int64_t batch;
    operand A, B, C;
    float *hA, *hB, *hC;
    cl_mem mA, mB, mC;
    char what[512];
} grun;

/* Uploads fresh buffers for case c and enqueues it (through the public call or run_params),
** requiring SUCCESS; does not wait for the device. */
static void gemm_start(grun* r, const gcase* c) {
    memset(r, 0, sizeof *r);
    r->c = *c;
    r->batch = c->batch ? c->batch : 1;
    operand_init(&r->A, c->row, c->ta ? c->k : c->m, c->ta ? c->m : c->k, c->pa, c->ld4, c->oa, r->batch, c->ga);
    operand_init(&r->B, c->row, c->tb ? c->n : c->k, c->tb ? c->k : c->n, c->pb, c->ld4, c->ob, r->batch, c->gb);
    operand_init(&r->C, c->row, c->m, c->n, c->pc, c->ld4, c->oc, r->batch, c->gc);
    describe(c, &r->A, &r->B, &r->C, r->what, sizeof r->what);

    r->hA = host_buffer(r->A.nbuf, 0);
    r->hB = host_buffer(r->B.nbuf, 0);
    r->hC = host_buffer(r->C.nbuf, c->beta == 0.0f);
    r->mA = device_copy(r->hA, r->A.nbuf);
    r->mB = device_copy(r->hB, r->B.nbuf);
    r->mC = device_copy(r->hC, r->C.nbuf);

    cldnnHandle_t h = fx_handle();
    const cldnnLayout_t lay = c->row ? CLDNN_ROW_MAJOR : CLDNN_COL_MAJOR;
    const cldnnOperation_t opa = c->ta ? CLDNN_OP_T : CLDNN_OP_N, opb = c->tb ? CLDNN_OP_T : CLDNN_OP_N;
    const size_t es = elem_size();
    cldnnStatus_t s;
    if (c->params != NULL || c->cpu != NULL) {
        FX_ASSERT(!c->row, "run_params cases are column-major");
        cldnn_gemm_problem pr;
        memset(&pr, 0, sizeof pr);
        pr.m = c->m;
        pr.n = c->n;
        pr.k = c->k;
        pr.trans_a = c->ta;
        pr.trans_b = c->tb;
        pr.lda = r->A.ld;
        pr.ldb = r->B.ld;
        pr.ldc = r->C.ld;
        pr.stride_a = r->A.stride;
        pr.stride_b = r->B.stride;
        pr.stride_c = r->C.stride;
        pr.batch = r->batch;
        pr.off_a = r->A.off;
        pr.off_b = r->B.off;
        pr.off_c = r->C.off;
        pr.alpha = c->alpha;
        pr.beta = c->beta;
        pr.dtype = pr.dtype_c = g_dt;
        const cldnn_gemm_buffers bufs = {r->mA, r->mB, r->mC};
        cldnn_error_clear();
        s = c->cpu ? cldnn_gemm_cpu_run_params(h, &pr, c->cpu, &bufs) : cldnn_gemm_run_params(h, &pr, c->params, &bufs);
    } else if (c->batch == 0) {
        s = cldnnGemm(h, lay, opa, opb, c->m, c->n, c->k, &c->alpha, r->mA, r->A.off * es, r->A.ld, r->mB,
                      r->B.off * es, r->B.ld, &c->beta, r->mC, r->C.off * es, r->C.ld, g_dt);
    } else {
        s = cldnnGemmStridedBatched(h, lay, opa, opb, c->m, c->n, c->k, &c->alpha, r->mA, r->A.off * es, r->A.ld,
                                    r->A.stride, r->mB, r->B.off * es, r->B.ld, r->B.stride, &c->beta, r->mC,
                                    r->C.off * es, r->C.ld, r->C.stride, c->batch, g_dt);
    }
    char err[1024];
    fx_last_error(err, sizeof err);
    FX_ASSERT(s == CLDNN_STATUS_SUCCESS, "%s: returned %s; last error: \"%s\"", r->what, cldnnGetErrorString(s), err);
}

/* Relative rounding of the products' inputs added to the tolerance: 0, or 2 * 2^-11 while a
** TF32 tensor-core test runs (both inputs rounded to 10 mantissa bits). */
static double g_input_rel = 0.0;
/* Units in the last place one addition of the accumulator may lose: 1 (rounded to nearest, half
** an ulp, counted as the unit roundoff u), or 2 while the FP16 tensor-core test runs (truncated:
** a whole ulp). */
static double g_sum_units = 1.0;

/* Waits for r's result and checks every element of C against ref_gemm within the tolerance
** above, that C outside the products is unchanged, and that A and B are unchanged; then frees
** r. Fails the test with the case described. */
static void gemm_check(grun* r) {
    const gcase* c = &r->c;
    const operand *A = &r->A, *B = &r->B, *C = &r->C;
    float* got = malloc((size_t)C->nbuf * sizeof(float));
    double* want = malloc((size_t)C->nbuf * sizeof(double));
    double* scale = malloc((size_t)C->nbuf * sizeof(double));
    unsigned char* in = calloc((size_t)C->nbuf, 1);
    FX_ASSERT(got && want && scale && in, "out of host memory");
    read_values(r->mC, got, C->nbuf);
    for (int64_t b = 0; b < r->batch; b++) {
        const float* a = r->hA + A->off + b * A->stride;
        const float* bb = r->hB + B->off + b * B->stride;
        const int64_t cb = (int64_t)C->off + b * C->stride;
        ref_gemm(c->row, c->ta, c->tb, c->m, c->n, c->k, c->alpha, a, A->ld, bb, B->ld, c->beta, r->hC + cb, want + cb,
                 C->ld);
        ref_gemm_abs(c->row, c->ta, c->tb, c->m, c->n, c->k, a, A->ld, bb, B->ld, scale + cb, C->ld);
        for (int64_t i = 0; i < c->m; i++)
            for (int64_t j = 0; j < c->n; j++)
                in[cb + ref_mat_index(c->row, i, j, C->ld)] = 1;
    }
    const double rel = 4.0 * g_sum_units * UNIT_ROUNDOFF * sqrt((double)c->k) + g_input_rel;
    int64_t bad = 0, changed = 0, first_bad = -1, first_changed = -1;
    double bad_tol = 0.0;
    for (int64_t e = 0; e < C->nbuf; e++) {
        if (!in[e]) {
            if (!same_value(got[e], r->hC[e]) && changed++ == 0)
                first_changed = e;
            continue;
        }
        double mag = fabs((double)c->alpha) * scale[e];
        if (c->beta != 0.0f)
            mag += fabs((double)c->beta) * fabs((double)r->hC[e]);
        double tol = rel * mag + TOL_TINY, d;
        if (g_dt == CLDNN_DATA_HALF) /* C's one rounding to half */
            tol += HALF_REL * (fabs(want[e]) + tol) + HALF_ABS;
        else if (g_dt == CLDNN_DATA_BFLOAT16) /* ... or to bfloat16 (float's exponent range) */
            tol += BF16_REL * (fabs(want[e]) + tol);
        if (!ref_close((double)got[e], want[e], tol, &d) && bad++ == 0) {
            first_bad = e;
            bad_tol = tol;
        }
    }
    if (bad) {
        int64_t at = first_bad - (int64_t)C->off, b = C->stride ? at / C->stride : 0;
        at -= b * C->stride;
        int64_t i = c->row ? at / C->ld : at % C->ld, j = c->row ? at % C->ld : at / C->ld;
        FX_ASSERT(0,
                  "%s: %lld of %lld elements wrong; first: batch %lld C(%lld, %lld) got %.9g want %.9g "
                  "(|err| %.3g > tol %.3g)",
                  r->what, (long long)bad, (long long)(c->m * c->n * r->batch), (long long)b, (long long)i,
                  (long long)j, (double)got[first_bad], want[first_bad], fabs((double)got[first_bad] - want[first_bad]),
                  bad_tol);
    }
    FX_ASSERT(changed == 0,
              "%s: %lld elements of C outside the products changed; first: buffer element %lld (%.9g -> %.9g)", r->what,
              (long long)changed, (long long)first_changed, first_changed >= 0 ? (double)r->hC[first_changed] : 0.0,
              first_changed >= 0 ? (double)got[first_changed] : 0.0);
    expect_unchanged(r->mA, r->hA, A->nbuf, "A", r->what);
    expect_unchanged(r->mB, r->hB, B->nbuf, "B", r->what);

    free(got);
    free(want);
    free(scale);
    free(in);
    free(r->hA);
    free(r->hB);
    free(r->hC);
    fx_release(r->mA);
    fx_release(r->mB);
    fx_release(r->mC);
}

/* Runs case c on fresh buffers and checks it (gemm_start + gemm_check). */
static void run_case(const gcase* c) {
    grun r;
    gemm_start(&r, c);
    gemm_check(&r);
}

/* Runs c once for each (layout, transA, transB) combination whose bit is set in mask: bit
** (row << 2 | transA << 1 | transB). ALL8 runs all eight, COL4 / ROW4 the four transposes of
** one layout. */
#define ALL8 0xffu
#define COL4 0x0fu
#define ROW4 0xf0u
static void run_masked(gcase c, unsigned mask) {
    for (int o = 0; o < 8; o++) {
        if (!(mask >> o & 1))
            continue;
        c.row = o >> 2;
        c.ta = (o >> 1) & 1;
        c.tb = o & 1;
        run_case(&c);
    }
}

/* Runs c in all four transposes of column-major (layouts == 1) or of both layouts (2). */
static void run_orientations(gcase c, int layouts) { run_masked(c, layouts == 1 ? COL4 : ALL8); }

/* A plain cldnnGemm case: minimum leading dimensions, no offsets, the given scalars. */
static gcase plain(int64_t m, int64_t n, int64_t k, float alpha, float beta) {
    gcase c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.n = n;
    c.k = k;
    c.alpha = alpha;
    c.beta = beta;
    return c;
}

/* c with every leading dimension and stride rounded up to a multiple of 4 (offsets are 0 or
** multiples of 16 bytes): the kernel's global loads are 4 wide. */
static gcase aligned(gcase c) {
    c.ld4 = 1;
    return c;
}

/* c with A and B at offsets of 1 and 3 floats: every global load is scalar, whatever the leading
** dimensions. */
static gcase unaligned(gcase c) {
    c.oa = 4;
    c.ob = 12;
    return c;
}

/* c with leading dimensions padded by pa, pb, pc and operands at byte offsets oa, ob, oc. */
static gcase padded(gcase c, int64_t pa, int64_t pb, int64_t pc, size_t oa, size_t ob, size_t oc) {
    c.pa = pa, c.pb = pb, c.pc = pc;
    c.oa = oa, c.ob = ob, c.oc = oc;
    return c;
}

/* ------------------------------------------------------------------------------ shapes */

/* A test body run twice: as Test(suite, name) in FLOAT and as Test(gemm_half, name) in HALF. */
#define FLOAT_AND_HALF(suite, name)                                                                   \
    static void name(void);                                                                           \
    Test(suite, name) { name(); }                                                                     \
    Test(gemm_half, name) {                                                                           \
        g_dt = CLDNN_DATA_HALF;                                                                       \
        name();                                                                                       \
    }                                                                                                 \
    static void name(void)

/* The shape tests run in two alignment classes (all global loads 4 wide, or all scalar); the
** other widths are left to the leading-dimension and offset tests, which use one shape class. */

FLOAT_AND_HALF(gemm, unit_dimensions) {
    static const int64_t s[][3] = {{1, 1, 1},   {1, 37, 19}, {41, 1, 23}, {29, 33, 1},
                                   {1, 1, 300}, {1, 64, 1},  {65, 1, 1}};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        gcase c = plain(s[i][0], s[i][1], s[i][2], 1.0f, i % 2 ? 0.5f : 0.0f);
        run_orientations(i % 2 ? aligned(c) : unaligned(c), 2);
    }
}

/* Sizes one below, at and one above the tile sizes the kernels use (16, 32, 64, 128), for each
** of m, n and k, the other two rotating through the same list; minimum leading dimensions with
** scalar loads, and padded ones with vector loads. */
Test(gemm, tile_edges) {
    static const int64_t s[] = {15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
    const size_t ns = sizeof s / sizeof s[0];
    for (size_t i = 0; i < ns; i++) {
        gcase c = plain(s[i], s[(i + 5) % ns], s[(i + 7) % ns], 1.0f, i % 3 == 0 ? 0.0f : -0.75f);
        run_orientations(unaligned(c), 2);
        run_orientations(aligned(c), 2);
    }
}

/* Long k against tiny m and n: the default parameters split k across work-groups here. */
FLOAT_AND_HALF(gemm, k_much_larger_than_m_and_n) {
    run_orientations(unaligned(plain(5, 5, 1000, 1.0f, 0.0f)), 2);
    run_orientations(aligned(plain(5, 5, 1000, 1.0f, 0.0f)), 2);
    run_orientations(unaligned(plain(3, 7, 2049, 0.5f, 1.0f)), 2);
    run_orientations(aligned(plain(33, 17, 700, -1.0f, 0.25f)), 2);
}

/* Sizes that are multiples of nothing, at their minimum leading dimensions (scalar loads). */
Test(gemm, sizes_not_multiples_of_anything) {
    static const int64_t s[][3] = {{37, 61, 97}, {97, 37, 61}, {61, 97, 37},  {151, 149, 13},
                                   {7, 300, 45}, {300, 7, 45}, {259, 263, 19}};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        run_orientations(unaligned(plain(s[i][0], s[i][1], s[i][2], 1.25f, i % 2 ? 0.0f : 1.0f)), 2);
}

/* 72 x 68 x 36 runs with the same (small-class) parameter set in both layouts, and every
** minimum leading dimension is a multiple of 4. */
#define LD_M 72
#define LD_N 68
#define LD_K 36

/* Leading dimensions at the minimum and above it, multiples of 4 (vector loads allowed) and
** not (odd, or even but not a multiple of 4), and mixed between A and B. A row-major call swaps
** A and B in the kernel, so the mixed cases run in the layout that gives the kernel the same
** (scalar A, 4-wide B) loads, and no extra builds. */
Test(gemm, leading_dimensions) {
    static const struct {
        int64_t p[3];
        unsigned mask;
    } pads[] = {{{0, 0, 0}, ALL8},  {{4, 8, 12}, ALL8}, {{1, 3, 5}, ALL8},   {{2, 6, 2}, ALL8},
                {{17, 0, 1}, COL4}, {{0, 21, 0}, ROW4}, {{64, 64, 64}, ALL8}};
    for (size_t i = 0; i < sizeof pads / sizeof pads[0]; i++) {
        gcase c = plain(LD_M, LD_N, LD_K, 1.0f, i % 2 ? 0.0f : 2.0f);
        c.pa = pads[i].p[0];
        c.pb = pads[i].p[1];
        c.pc = pads[i].p[2];
        run_masked(c, pads[i].mask);
    }
}

/* Non-zero byte offsets on A, B and C: multiples of 16 bytes (vector loads stay aligned) and
** not (4, 8, 12 bytes past one), with the load-width mixes of the test above. */
static void byte_offsets(unsigned orient) {
    static const struct {
        size_t o[3];
        unsigned mask;
    } offs[] = {{{16, 32, 64}, ALL8}, {{4, 12, 8}, ALL8},       {{20, 0, 4}, COL4},
                {{0, 44, 0}, ROW4},   {{1024, 16, 1028}, ALL8}, {{8, 24, 12}, ALL8}};
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        gcase c = plain(LD_M, LD_N, LD_K, 1.0f, i % 2 ? 0.0f : -1.0f);
        c.oa = offs[i].o[0];
        c.ob = offs[i].o[1];
        c.oc = offs[i].o[2];
        c.pc = (int64_t)(i % 3);
        run_masked(c, offs[i].mask & orient);
    }
}

Test(gemm, byte_offsets) { byte_offsets(ALL8); }

/* HALF: column-major only (a row-major call reaches the same kernel variants with A and B
** swapped; the other HALF tests run both layouts), which halves the PoCL builds. */
Test(gemm_half, byte_offsets) {
    g_dt = CLDNN_DATA_HALF;
    byte_offsets(COL4);
}

/* alpha / beta combinations; beta == 0 runs on a NaN-poisoned C, which must not be read. */
Test(gemm, alpha_beta) {
    static const float ab[][2] = {{1.0f, 0.0f}, {-0.5f, 0.0f}, {1.0f, 1.0f}, {0.75f, -1.25f},
                                  {2.0f, 0.5f}, {0.0f, 1.5f},  {0.0f, 0.0f}, {-3.0f, 1.0f}};
    for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++) {
        gcase c = plain(LD_M - 1, LD_N + 1, LD_K - 3, ab[i][0], ab[i][1]);
        c.pc = 3;
        c.oc = 8;
        run_orientations(i % 2 ? aligned(c) : unaligned(c), 2);
    }
}

/* Seeded random problems over every knob at once (a quarter of them batched). Each is either
** aligned for vector loads (every ld, offset and stride a multiple of 4 elements) or not (A and
** B 1 and 3 floats past a multiple of 16 bytes), which keeps the number of kernel builds small. */
static void random_problems(int count) {
    static const int64_t edges[] = {1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
    ref_rng* r = fx_rng();
    for (int t = 0; t < count; t++) {
        int64_t d[3];
        for (int q = 0; q < 3; q++)
            d[q] = ref_rng_next(r) % 4 == 0 ? edges[ref_rng_next(r) % (sizeof edges / sizeof edges[0])]
                                            : 1 + (int64_t)(ref_rng_next(r) % 150);
        gcase c =
            plain(d[0], d[1], d[2], fx_uniform(-2.0, 2.0), ref_rng_next(r) % 3 == 0 ? 0.0f : fx_uniform(-2.0, 2.0));
        c.row = (int)(ref_rng_next(r) & 1);
        c.ta = (int)(ref_rng_next(r) & 1);
        c.tb = (int)(ref_rng_next(r) & 1);
        c.ld4 = (int)(ref_rng_next(r) & 1);
        c.pa = (int64_t)(ref_rng_next(r) % 6);
        c.pb = (int64_t)(ref_rng_next(r) % 6);
        c.pc = (int64_t)(ref_rng_next(r) % 6);
        c.oa = 16 * (size_t)(ref_rng_next(r) % 5) + (c.ld4 ? 0 : 4);
        c.ob = 16 * (size_t)(ref_rng_next(r) % 5) + (c.ld4 ? 0 : 12);
        c.oc = 4 * (size_t)(ref_rng_next(r) % 17);
        if (ref_rng_next(r) % 4 == 0) { /* a few batched ones */
            c.batch = 1 + (int64_t)(ref_rng_next(r) % 4);
            c.ga = (int64_t)(ref_rng_next(r) % 9);
            c.gb = (int64_t)(ref_rng_next(r) % 9);
            c.gc = (int64_t)(ref_rng_next(r) % 9);
        }
        run_case(&c);
    }
}

Test(gemm, random_problems) { random_problems(48); }

/* Fewer in HALF: each problem can reach a new kernel variant (a PoCL build). */
Test(gemm_half, random_problems) {
    g_dt = CLDNN_DATA_HALF;
    random_problems(16);
}

/* --------------------------------------------------------------------------- batched */

/* A strided-batched case with stride gaps ga, gb, gc. */
static gcase batched(int64_t m, int64_t n, int64_t k, int64_t batch, int64_t ga, int64_t gb, int64_t gc, float beta) {
    gcase c = plain(m, n, k, 1.5f, beta);
    c.batch = batch;
    c.ga = ga;
    c.gb = gb;
    c.gc = gc;
    return c;
}

/* Batch counts 1, 3 and 7; the long-k product has few blocks of C, so the default parameters
** split k (by 4, 2 and 1 on a device of 2 compute units) and the partial sums are batched. */
static void batch_counts(int layouts) {
    static const int64_t counts[] = {1, 3, 7};
    for (size_t i = 0; i < 3; i++) {
        run_orientations(unaligned(batched(33, 20, 17, counts[i], 0, 0, 0, 0.0f)), layouts);
        run_orientations(aligned(batched(16, 65, 40, counts[i], 4, 8, 4, -0.5f)), layouts);
        run_orientations(unaligned(batched(5, 7, 600, counts[i], 1, 2, 3, i == 1 ? 0.0f : 1.0f)), layouts);
    }
}

Test(gemm_batched, batch_counts) { batch_counts(2); }

/* HALF: column-major only, as byte_offsets. */
Test(gemm_half, batch_counts) {
    g_dt = CLDNN_DATA_HALF;
    batch_counts(1);
}

/* BFLOAT16: the kernels are HALF's with another load and store, so few problems (each transpose
** is a PoCL build): 4-wide vector loads with beta in every transpose, 2-wide ones, and a batched
** long-k product with scalar loads whose split partial sums gemm_splitk_reduce rounds. */
Test(gemm_bf16, products) {
    g_dt = CLDNN_DATA_BFLOAT16;
    run_orientations(aligned(plain(67, 36, 41, 0.5f, 0.25f)), 1);
    gcase two = plain(30, 18, 22, 1.0f, 0.0f);
    two.oa = 8;
    two.ob = 24;
    run_masked(two, 0x1u);
    run_masked(unaligned(batched(5, 7, 600, 3, 1, 2, 3, 1.0f)), 0x1u);
}

/* Strides larger than a matrix's span: by multiples of 4 (vector loads stay aligned) and not. */
Test(gemm_batched, strides_larger_than_span) {
    static const int64_t gaps[][3] = {{1, 13, 2}, {64, 4, 100}, {3, 3, 3}, {1000, 0, 7}};
    for (size_t i = 0; i < sizeof gaps / sizeof gaps[0]; i++) {
        gcase c = batched(LD_M, LD_N, LD_K, 3 + (int64_t)i, gaps[i][0], gaps[i][1], gaps[i][2], i % 2 ? 0.0f : 1.0f);
        c.oc = 16;
        run_orientations(c, 2);
    }
}

Test(gemm_batched, broadcast_a) {
    run_orientations(unaligned(batched(37, 29, 41, 5, BCAST, 3, 1, 0.0f)), 2);
    run_orientations(aligned(batched(64, 48, 32, 3, BCAST, 0, 0, 1.0f)), 2);
}

Test(gemm_batched, broadcast_b) {
    run_orientations(unaligned(batched(29, 37, 41, 5, 2, BCAST, 0, 0.0f)), 2);
    run_orientations(aligned(batched(48, 64, 32, 3, 0, BCAST, 4, 1.0f)), 2);
}

Test(gemm_batched, broadcast_both) {
    /* Every product the same; with beta != 0 each C still differs. */
    run_orientations(unaligned(batched(23, 31, 19, 4, BCAST, BCAST, 5, -1.0f)), 2);
    run_orientations(aligned(batched(23, 31, 19, 4, BCAST, BCAST, 5, 0.0f)), 2);
}

/* ---------------------------------------------------------------------- parameter sets */

/* The small edge problems every parameter set runs (column-major canonical problems, leading
** dimensions, offsets and strides multiples of 4 so the set's global load widths are used as
** given): one without offsets and beta == 0, one with offsets and beta != 0 whose m and n
** straddle two tiles of 64, and a batched one. `orient` selects the transposes: bit o set runs
** (transA, transB) = (o >> 1, o & 1). */
static void run_params_problems(const cldnn_gemm_params* p, unsigned orient) {
    for (int o = 0; o < 4; o++) {
        if (!(orient >> o & 1))
            continue;
        gcase c = plain(70, 45, 33, 1.0f, 0.0f);
        c.params = p;
        c.ld4 = 1;
        c.ta = o >> 1;
        c.tb = o & 1;
        run_case(&c);
        c = padded(plain(130, 129, 70, -0.5f, 1.25f), 4, 8, 1, 16, 32, 4);
        c.params = p;
        c.ld4 = 1;
        c.ta = o >> 1;
        c.tb = o & 1;
        run_case(&c);
        c = plain(33, 66, 65, 1.0f, 0.5f);
        c.params = p;
        c.ld4 = 1;
        c.ta = o >> 1;
        c.tb = o & 1;
        c.batch = 3;
        c.ga = 5;
        c.gb = 0;
        c.gc = 2;
        run_case(&c);
    }
}

/* p past its tile in every direction, k included: two blocks of C each way, and 4500
** deep (281 k-tiles of 16). A driver that cuts long kernels short fails here: Mesa's llvmpipe
** ends a work-item's loops after 65535 iterations (device.c), which 64x64x16-8x8 reached at
** k = 800 and 4x4 blocks near 11000 before the profile's rules (the 16-accumulator limit, k split
** by cldnn_gemm_k_max). Same build as run_params_problems' first case: no new program. */
static void run_long_k(const cldnn_gemm_params* p) {
    gcase c = plain(p->mwg + 3, p->nwg + 5, 4500, 1.0f, 0.0f);
    c.params = p;
    c.ld4 = 1;
    run_case(&c);
}

/* Copies the distinct ones of n sets of `size` bytes from all into out (room for n); returns
** their count. */
static size_t distinct_sets(const void* all, size_t n, size_t size, void* out) {
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        int dup = 0;
        for (size_t j = 0; j < d && !dup; j++)
            dup = memcmp((const char*)all + i * size, (const char*)out + j * size, size) == 0;
        if (!dup)
            memcpy((char*)out + d++ * size, (const char*)all + i * size, size);
    }
    return d;
}

/* The distinct parameter sets of the shipped tables into out (room for 128); returns the count. */
static size_t distinct_table_sets(cldnn_gemm_params* out) {
    cldnn_gemm_params all[128];
    size_t n = cldnn_gemm_table_params(all, 128);
    FX_ASSERT(n > 0 && n <= 128, "cldnn_gemm_table_params returned %zu sets", n);
    return distinct_sets(all, n, sizeof all[0], out);
}

/* Runs the distinct table sets i with i % 4 == slice (the tables are split over four tests so
** that their kernel builds run in parallel); sets invalid on this device are skipped with a
** note. */
static void table_slice(size_t slice) {
    cldnn_gemm_params sets[128];
    size_t n = distinct_table_sets(sets);
    const cldnn_device_profile* dev = &fx_handle()->prof;
    int valid = 0;
    for (size_t i = 0; i < n; i++)
        valid += cldnn_gemm_params_valid(&sets[i], dev);
    FX_ASSERT(valid > 0, "no table parameter set is valid on %s", dev->name);
    for (size_t i = slice; i < n; i += 4) {
        char ps[96];
        cldnn_gemm_params_format(&sets[i], ps, sizeof ps);
        if (!cldnn_gemm_params_valid(&sets[i], dev)) {
            cr_log_info("table set %s is not valid on %s: skipped", ps, dev->name);
            continue;
        }
        cr_log_info("table set %s", ps);
        run_params_problems(&sets[i], 0xf);
        run_long_k(&sets[i]);
    }
}

Test(gemm_params, table_sets_0) { table_slice(0); }
Test(gemm_params, table_sets_1) { table_slice(1); }
Test(gemm_params, table_sets_2) { table_slice(2); }
Test(gemm_params, table_sets_3) { table_slice(3); }

/* Hand-made sets that differ from the tables in every parameter; each runs two transposes
** (rotating, so that every transpose pair is covered across the sets). */
Test(gemm_params, constructed_sets) {
    static const cldnn_gemm_params sets[] = {
        /* mwg nwg kwg  mdimc ndimc  vwm vwn  vwa vwb  pada padb  splitk */
        {16, 16, 8, 4, 4, 4, 4, 1, 1, 0, 0, 0},    /* the library's fallback */
        {8, 8, 4, 2, 2, 2, 2, 4, 4, 0, 0, 1},      /* tiny tiles, 4 work-items */
        {64, 32, 32, 16, 8, 2, 4, 4, 2, 2, 4, 2},  /* rectangular, padded, split in 2 */
        {128, 64, 8, 16, 16, 4, 2, 2, 2, 4, 2, 0}, /* wide m tile, shallow k */
        {32, 64, 16, 8, 16, 1, 1, 1, 1, 0, 0, 0},  /* scalar everything */
        {48, 48, 32, 16, 16, 1, 1, 2, 2, 1, 3, 3}, /* tiles not a power of two, split in 3 */
    };
    static const unsigned orient[] = {0x9, 0x6, 0x9, 0x6, 0x3, 0xc};
    const cldnn_device_profile* dev = &fx_handle()->prof;
    int ran = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        char ps[96];
        cldnn_gemm_params_format(&sets[i], ps, sizeof ps);
        if (!cldnn_gemm_params_valid(&sets[i], dev)) {
            cr_log_info("constructed set %s is not valid on %s: skipped", ps, dev->name);
            continue;
        }
        run_params_problems(&sets[i], orient[i]);
        ran++;
    }
    FX_ASSERT(ran >= 4, "only %d of the constructed parameter sets are valid on %s", ran, dev->name);
}

/* Explicit k splits (1: none, up to the 64 allowed) of one set, on problems with few blocks of C
** and long k, all four transposes, batched included. */
Test(gemm_params, split_k) {
    static const int splits[] = {1, 2, 3, 5, 64};
    for (size_t s = 0; s < sizeof splits / sizeof splits[0]; s++) {
        const cldnn_gemm_params p = {32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, splits[s]};
        for (int o = 0; o < 4; o++) {
            gcase c = plain(5, 5, 1000, 1.0f, 0.0f);
            c.params = &p;
            c.ld4 = 1;
            c.ta = o >> 1;
            c.tb = o & 1;
            run_case(&c);
            c = plain(33, 17, 700, -2.0f, 0.5f);
            c.params = &p;
            c.ld4 = 1;
            c.ta = o >> 1;
            c.tb = o & 1;
            c.oc = 12;
            run_case(&c);
            c = plain(9, 40, 300, 1.0f, s % 2 ? 0.0f : 1.0f);
            c.params = &p;
            c.ld4 = 1;
            c.ta = o >> 1;
            c.tb = o & 1;
            c.batch = 3;
            c.gc = 3;
            run_case(&c);
        }
    }
}

/* The split-k scratch grows while earlier products that use it are still queued: results of
** every product in flight must be right. */
Test(gemm_params, split_k_scratch_regrowth) {
    const cldnn_gemm_params p = {32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, 64};
    gcase small = plain(8, 8, 2048, 1.0f, 0.0f), big = plain(96, 100, 2048, 1.0f, 0.5f);
    small.params = &p;
    small.ld4 = 1;
    big.params = &p;
    big.ld4 = 1; /* 64 splits of 96 x 100: 2.4 MB of partial sums, past the first 1 MB scratch */
    grun r[3];
    gemm_start(&r[0], &small);
    gemm_start(&r[1], &big);
    gemm_start(&r[2], &small);
    for (int i = 0; i < 3; i++)
        gemm_check(&r[i]);
}

/* -------------------------------------------------------------- the CPU solver (gemm_cpu) */

/* The problems every CPU parameter set runs (column-major canonical problems through
** cldnn_gemm_cpu_run_params, on any device): with x the set's vector dimension (m, or n with
** swap) and y the other, one past two register blocks in x and y (both edges of a block, beta 0:
** C poisoned), one past the bands of mcb blocks with padded leading dimensions, offsets, alpha
** and beta and a deep k (1024 + 8 ku + 3: the layout rule packs there) not a multiple of the
** unroll, and a batched one just past one block in x and y. Explicit sets take one program per
** transpose (no plan change between the three: CI pays per build), layout-rule sets two (shallow
** and deep k). Fields of p that are -1 take the layout rule of each problem. `orient` as
** run_params_problems'. */
static void run_cpu_problems(const cldnn_gemm_cpu_params* p, unsigned orient) {
    const int64_t band = p->mcb > 0 ? (int64_t)p->mcb * p->mr : 3 * p->mr;
    const int64_t ext[3][3] = {{2 * p->mr + 3, 2 * p->nr + 1, 37},
                               {band + p->mr / 2 + 1, p->nr + 2, 1024 + 8 * p->ku + 3},
                               {p->mr + 1, p->nr + 1, 65}};
    for (int o = 0; o < 4; o++) {
        if (!(orient >> o & 1))
            continue;
        for (int i = 0; i < 3; i++) {
            const int swap = p->swap == 1;
            const int64_t m = swap ? ext[i][1] : ext[i][0], n = swap ? ext[i][0] : ext[i][1];
            gcase c = i == 0   ? plain(m, n, ext[i][2], 1.0f, 0.0f)
                      : i == 1 ? padded(plain(m, n, ext[i][2], -0.5f, 1.25f), 3, 5, 1, 4, 12, 8)
                               : batched(m, n, ext[i][2], 3, 5, 0, 2, 1.25f);
            c.ta = o >> 1;
            c.tb = o & 1;
            cldnn_gemm_problem pr = {.m = c.m, .n = c.n, .k = c.k, .trans_a = c.ta, .trans_b = c.tb};
            cldnn_gemm_cpu_params q = *p;
            cldnn_gemm_cpu_params_layout(&pr, &q);
            c.cpu = &q;
            run_case(&c);
        }
    }
}

/* Every distinct register block of the shipped CPU table, all four transposes, the fields a row
** leaves to the layout rule (-1) set by it. */
Test(gemm_cpu, table_sets) {
    cldnn_gemm_cpu_params all[64], sets[64];
    size_t n = cldnn_gemm_cpu_table_params(all, 64);
    FX_ASSERT(n > 0 && n <= 64, "cldnn_gemm_cpu_table_params returned %zu sets", n);
    const size_t d = distinct_sets(all, n, sizeof all[0], sets);
    for (size_t i = 0; i < d; i++) {
        char ps[96];
        cldnn_gemm_cpu_params_format(&sets[i], ps, sizeof ps);
        cldnn_gemm_cpu_params v = sets[i]; /* the row's own fields valid, whatever the rule sets */
        v.yb = v.yb < 0 ? 1 : v.yb;
        v.packx = v.packx < 0 ? 0 : v.packx;
        v.packy = v.packy < 0 ? 0 : v.packy;
        v.swap = v.swap < 0 ? 0 : v.swap;
        FX_ASSERT(cldnn_gemm_cpu_params_valid(&v), "table set %s is not valid", ps);
        cr_log_info("CPU table set %s", ps);
        run_cpu_problems(&sets[i], 0xf);
    }
}

/* Hand-made sets covering each value of each parameter (vector widths 4, 8, 16; 1 to 4 vectors
** per block; 1 to 16 columns; unroll 1, 2, 8; bands none, 1, 3; every packing choice and both
** orientations); each runs two transposes, rotating over the sets. */
static const cldnn_gemm_cpu_params cpu_sets[] = {
    /* mr nr vw ku mcb yb packx packy swap */
    {8, 5, 4, 1, 0, 1, 0, 0, 0},   {32, 3, 16, 2, 1, 3, 1, 0, 1}, {24, 7, 8, 8, 3, 2, 0, 1, 0},
    {16, 16, 16, 4, 0, 1, 1, 1, 1}, {16, 1, 4, 2, 2, 16, 0, 0, 1}, {64, 2, 16, 1, 0, 4, 1, 1, 0},
};
static const unsigned cpu_orient[] = {0x9, 0x6, 0x3, 0xc, 0x9, 0x6};

Test(gemm_cpu, constructed_sets) {
    for (size_t i = 0; i < sizeof cpu_sets / sizeof cpu_sets[0]; i++) {
        char ps[96];
        cldnn_gemm_cpu_params_format(&cpu_sets[i], ps, sizeof ps);
        FX_ASSERT(cldnn_gemm_cpu_params_valid(&cpu_sets[i]), "constructed set %s is not valid", ps);
        run_cpu_problems(&cpu_sets[i], cpu_orient[i]);
    }
}

/* 16-bit storage: one set reading both operands in place (HALF) and one packing both (BFLOAT16),
** two transposes each. */
static void cpu_16bit(cldnnDataType_t dt) {
    g_dt = dt;
    run_cpu_problems(&cpu_sets[dt == CLDNN_DATA_HALF ? 0 : 3], dt == CLDNN_DATA_HALF ? 0x9 : 0x6);
}
Test(gemm_half, cpu_sets) { cpu_16bit(CLDNN_DATA_HALF); }
Test(gemm_bf16, cpu_sets) { cpu_16bit(CLDNN_DATA_BFLOAT16); }

/* Panels that exceed the scratch's cap (lowered by the test hook): batches in chunks, and one
** product's vector-operand panels in ranges of rows (TN packs it whatever the set asks), in both
** orientations. */
Test(gemm_cpu, pieces) {
    static const cldnn_gemm_cpu_params sets[] = {{16, 6, 8, 4, 2, 1, 1, 1, 0}, {16, 6, 8, 4, 0, 2, 1, 0, 1}};
    cldnn_gemm_cpu_test_scratch_cap(16 * 40 * 4 * 4); /* four 16-row panels of k = 40 */
    for (size_t i = 0; i < 2; i++) {
        gcase c = plain(i ? 70 : 131, i ? 131 : 70, 40, 1.0f, 0.0f); /* 9 panels of X: 3 pieces */
        c.ta = 1;
        c.cpu = &sets[i];
        run_case(&c);
        c = plain(20, 9, 40, 0.5f, -1.0f); /* 2 + 2 panels per product: one product per piece */
        c.ta = 1;
        c.batch = 3;
        c.gc = 1;
        c.cpu = &sets[i];
        run_case(&c);
    }
    cldnn_gemm_cpu_test_scratch_cap(0);
}

/* The fused epilogue through pieces: out = relu(alpha AB + alpha2 z + bias) with the bias along
** the rows cut into pieces (swap 0, bias along m) and along the other dimension (swap 1, bias
** along m again: the pieces cut n), against a double reference on the host; then the same with k
** split in three (the path of loop-limited devices), whose partial sums share the scratch with the
** panels and whose reduction applies the epilogue. */
Test(gemm_cpu, epilogue_pieces) {
    const int64_t m = 45, n = 38, k = 20;
    float *ha = host_buffer(m * k, 0), *hb = host_buffer(k * n, 0), *hz = host_buffer(m * n, 0);
    float *hbias = host_buffer(m, 0), *got = malloc((size_t)(m * n) * sizeof(float));
    FX_ASSERT(got != NULL, "out of host memory");
    cl_mem a = device_copy(ha, m * k), b = device_copy(hb, k * n), z = device_copy(hz, m * n);
    cl_mem bias = device_copy(hbias, m);
    static const cldnn_gemm_cpu_params sets[] = {{16, 4, 8, 2, 1, 1, 1, 1, 0}, {8, 6, 8, 4, 0, 3, 1, 1, 1}};
    for (size_t t = 0; t < 4; t++) {
        const size_t i = t % 2, split = t / 2;
        /* Split: k ranges of 7, 7 and 6, and a cap that cuts X into two pieces of rows. */
        cldnn_gemm_cpu_test_scratch_cap(split ? 24000 : 16 * 20 * 4 * 2);
        cldnn_gemm_cpu_test_k_max(split ? 7 : 0);
        float* nan = host_buffer(m * n, 1);
        cl_mem c = device_copy(nan, m * n);
        free(nan);
        cldnn_epilogue e = {.act = CLDNN_ACTIVATION_RELU, .use_z = 1, .bias_m = 1, .alpha2 = 0.5f, .bias = bias,
                            .z = z};
        cldnn_gemm_problem pr = {.m = m, .n = n, .k = k, .lda = m, .ldb = k, .ldc = m, .batch = 1,
                                 .alpha = 2.0f, .dtype = CLDNN_DATA_FLOAT, .dtype_c = CLDNN_DATA_FLOAT, .epi = &e};
        const cldnn_gemm_buffers bufs = {a, b, c};
        FX_OK(cldnn_gemm_cpu_run_params(fx_handle(), &pr, &sets[i], &bufs));
        read_values(c, got, m * n);
        for (int64_t j = 0; j < n; j++)
            for (int64_t r = 0; r < m; r++) {
                double want = 0.0, mag = 0.0;
                for (int64_t p = 0; p < k; p++) {
                    want += (double)ha[r + p * m] * hb[p + j * k];
                    mag += fabs((double)ha[r + p * m] * hb[p + j * k]);
                }
                want = 2.0 * want + 0.5 * hz[r + j * m] + hbias[r];
                want = want > 0.0 ? want : 0.0;
                const double tol = 8.0 * UNIT_ROUNDOFF * (2.0 * mag + fabs(hz[r + j * m]) + fabs(hbias[r])) + TOL_TINY;
                FX_ASSERT(fabs(got[r + j * m] - want) <= tol, "set %zu%s: C(%lld, %lld) = %.9g, want %.9g", i,
                          split ? " (k split)" : "", (long long)r, (long long)j, (double)got[r + j * m], want);
            }
        fx_release(c);
    }
    cldnn_gemm_cpu_test_scratch_cap(0);
    cldnn_gemm_cpu_test_k_max(0);
    fx_release(a);
    fx_release(b);
    fx_release(z);
    fx_release(bias);
    free(ha);
    free(hb);
    free(hz);
    free(hbias);
    free(got);
}

/* --------------------------------------------------------------------------- bad inputs */

#define NP CLDNN_STATUS_BAD_PARAM_NULL_POINTER
#define OOB CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND
#define SZ CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT
#define MIS CLDNN_STATUS_BAD_PARAM_MISALIGNED
#define COL CLDNN_COL_MAJOR
#define ROW CLDNN_ROW_MAJOR
#define ON CLDNN_OP_N
#define OT CLDNN_OP_T
#define F32 CLDNN_DATA_FLOAT

/* Buffers for the bad-input tests: A, B, C of `floats` floats each (C random, mirrored). */
typedef struct {
    cl_mem a, b, c;
    float* hc;
    int64_t n;
} ebufs;

/* Fills e with three fresh buffers of `floats` random floats; C's content is kept in e->hc. */
static void ebufs_init(ebufs* e, int64_t floats) {
    e->n = floats;
    float* ha = host_buffer(floats, 0);
    float* hb = host_buffer(floats, 0);
    e->hc = host_buffer(floats, 0);
    e->a = device_copy(ha, floats);
    e->b = device_copy(hb, floats);
    e->c = device_copy(e->hc, floats);
    free(ha);
    free(hb);
}

/* Requires C unchanged by the failed calls, then releases everything. */
static void ebufs_done(ebufs* e) {
    expect_unchanged(e->c, e->hc, e->n, "C", "after failing calls");
    fx_release(e->a);
    fx_release(e->b);
    fx_release(e->c);
    free(e->hc);
}

/* A 5 x 6 x 7 product (m, n, k) on 64-float buffers: every operand fits with its minimum ld. */
Test(gemm_errors, null_pointers) {
    ebufs e;
    ebufs_init(&e, 64);
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    FX_EXPECT_STATUS(NP, cldnnGemm(NULL, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(NP, cldnnGemm(h, COL, ON, ON, 5, 6, 7, NULL, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(NP, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, NULL, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(NP, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, NULL, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(NP, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, NULL, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(NP, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, NULL, 0, 5, F32));
    FX_EXPECT_STATUS(NP, cldnnGemm(h, ROW, OT, OT, 5, 6, 7, &one, NULL, 0, 5, e.b, 0, 7, &zero, e.c, 0, 6, F32));
    FX_EXPECT_STATUS(NP, cldnnGemm(h, ROW, OT, OT, 5, 6, 7, &one, e.a, 0, 5, NULL, 0, 7, &zero, e.c, 0, 6, F32));
    FX_EXPECT_STATUS(NP, cldnnGemmStridedBatched(NULL, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, 0, e.b, 0, 7, 0, &zero,
                                                 e.c, 0, 5, 30, 2, F32));
    FX_EXPECT_STATUS(NP, cldnnGemmStridedBatched(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, 0, e.b, 0, 7, 0, NULL, e.c,
                                                 0, 5, 30, 2, F32));
    FX_EXPECT_STATUS(NP, cldnnGemmStridedBatched(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, 0, e.b, 0, 7, 0, &zero, NULL,
                                                 0, 5, 30, 2, F32));
    ebufs_done(&e);
}

Test(gemm_errors, sizes_and_enums) {
    ebufs e;
    ebufs_init(&e, 64);
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    static const int64_t bad[] = {0, -1, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const int64_t v = bad[i];
        FX_EXPECT_STATUS(OOB, cldnnGemm(h, COL, ON, ON, v, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
        FX_EXPECT_STATUS(OOB, cldnnGemm(h, COL, ON, ON, 5, v, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
        FX_EXPECT_STATUS(OOB, cldnnGemm(h, COL, ON, ON, 5, 6, v, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
        FX_EXPECT_STATUS(OOB, cldnnGemm(h, ROW, OT, ON, 5, 6, v, &one, e.a, 0, 5, e.b, 0, 6, &zero, e.c, 0, 6, F32));
        /* batchCount */
        FX_EXPECT_STATUS(OOB, cldnnGemmStridedBatched(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, 0, e.b, 0, 7, 0, &zero,
                                                      e.c, 0, 5, 30, v, F32));
    }
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, (cldnnLayout_t)2, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, (cldnnLayout_t)-1, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, COL, (cldnnOperation_t)2, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, COL, ON, (cldnnOperation_t)2, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, COL, (cldnnOperation_t)-1, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, ROW, ON, (cldnnOperation_t)3, 5, 6, 7, &one, e.a, 0, 7, e.b, 0, 6, &zero, e.c, 0, 6, F32));
    FX_EXPECT_STATUS(OOB, cldnnGemmStridedBatched(h, (cldnnLayout_t)7, ON, ON, 5, 6, 7, &one, e.a, 0, 5, 0, e.b, 0, 7,
                                                  0, &zero, e.c, 0, 5, 30, 2, F32));
    /* Data types: FLOAT, HALF and BFLOAT16 are computed (the gemm_half and gemm_bf16 suites). */
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0,
                                                                     7, &zero, e.c, 0, 5, CLDNN_DATA_DOUBLE));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, CLDNN_DATA_INT8));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     cldnnGemmStridedBatched(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, 0, e.b, 0, 7, 0, &zero, e.c, 0,
                                             5, 30, 2, CLDNN_DATA_INT32));
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, (cldnnDataType_t)99));
    ebufs_done(&e);
}

/* Each leading dimension one below its minimum, in both layouts and every transpose (m, n, k =
** 5, 6, 7, so the three minimums differ); the minimum itself is accepted. */
Test(gemm_errors, leading_dimension_below_minimum) {
    ebufs e;
    ebufs_init(&e, 64);
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    const int64_t m = 5, n = 6, k = 7;
    for (int o = 0; o < 8; o++) {
        const int row = o >> 2, ta = (o >> 1) & 1, tb = o & 1;
        const cldnnLayout_t lay = row ? ROW : COL;
        const cldnnOperation_t opa = ta ? OT : ON, opb = tb ? OT : ON;
        /* Stored A is m x k (k x m transposed); the minimum is its row count column-major, its
        ** column count row-major. */
        const int64_t lda = (row != ta) ? k : m, ldb = (row != tb) ? n : k, ldc = row ? n : m;
        FX_EXPECT_STATUS(
            OOB, cldnnGemm(h, lay, opa, opb, m, n, k, &one, e.a, 0, lda - 1, e.b, 0, ldb, &zero, e.c, 0, ldc, F32));
        FX_EXPECT_STATUS(
            OOB, cldnnGemm(h, lay, opa, opb, m, n, k, &one, e.a, 0, lda, e.b, 0, ldb - 1, &zero, e.c, 0, ldc, F32));
        FX_EXPECT_STATUS(
            OOB, cldnnGemm(h, lay, opa, opb, m, n, k, &one, e.a, 0, lda, e.b, 0, ldb, &zero, e.c, 0, ldc - 1, F32));
        FX_EXPECT_STATUS(OOB,
                         cldnnGemm(h, lay, opa, opb, m, n, k, &one, e.a, 0, 0, e.b, 0, ldb, &zero, e.c, 0, ldc, F32));
        FX_EXPECT_STATUS(
            OOB, cldnnGemm(h, lay, opa, opb, m, n, k, &one, e.a, 0, lda, e.b, 0, -ldb, &zero, e.c, 0, ldc, F32));
        FX_EXPECT_STATUS(OOB, cldnnGemmStridedBatched(h, lay, opa, opb, m, n, k, &one, e.a, 0, lda - 1, 0, e.b, 0, ldb,
                                                      0, &zero, e.c, 0, ldc, 0, 1, F32));
    }
    ebufs_done(&e);
    /* The minimums themselves are accepted (fresh buffers: these calls write C). */
    ebufs_init(&e, 64);
    for (int o = 0; o < 8; o++) {
        const int row = o >> 2, ta = (o >> 1) & 1, tb = o & 1;
        const int64_t lda = (row != ta) ? k : m, ldb = (row != tb) ? n : k, ldc = row ? n : m;
        FX_OK(cldnnGemm(h, row ? ROW : COL, ta ? OT : ON, tb ? OT : ON, m, n, k, &one, e.a, 0, lda, e.b, 0, ldb, &zero,
                        e.c, 0, ldc, F32));
    }
    fx_finish();
    fx_release(e.a);
    fx_release(e.b);
    fx_release(e.c);
    free(e.hc);
}

/* Buffers too small for offset + extent, and offsets that are not a multiple of 4 bytes. */
Test(gemm_errors, buffer_extent_and_alignment) {
    ebufs e;
    ebufs_init(&e, 64); /* 256 bytes */
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    cl_mem small = fx_buffer(4 * 35); /* exactly a 5 x 7 A with lda 5 */
    /* Column-major 5 x 6 x 7: A spans 35 floats, B 42, C 30. */
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, small, 8, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 4 * 30, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 4 * 23, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 4 * 35, 5, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 13, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 4096, 5, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, ROW, OT, OT, 5, 6, 7, &one, e.a, 0, 40, e.b, 0, 7, &zero, e.c, 0, 6, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, small, 4 * 6, 5, F32));
    /* The exact fits are accepted: A ends at the last float of `small`, C at the last of c30. */
    cl_mem c30 = fx_buffer(4 * 30);
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, small, 4, 5, e.b, 0, 7, &zero, c30, 0, 5, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, small, 0, 5, e.b, 0, 7, &zero, c30, 4, 5, F32));
    FX_OK(cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, small, 0, 5, e.b, 0, 7, &zero, c30, 0, 5, F32));
    FX_OK(cldnnGemm(h, ROW, OT, OT, 5, 6, 7, &one, e.a, 4 * 29, 5, e.b, 4 * 22, 7, &zero, c30, 0, 6, F32));
    fx_finish();
    fx_release(c30);
    /* 2-byte offsets, and 1 and 3. */
    FX_EXPECT_STATUS(MIS, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 2, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(MIS, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 2, 7, &zero, e.c, 0, 5, F32));
    FX_EXPECT_STATUS(MIS, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 2, 5, F32));
    FX_EXPECT_STATUS(MIS, cldnnGemm(h, ROW, ON, OT, 5, 6, 7, &one, e.a, 1, 7, e.b, 0, 7, &zero, e.c, 0, 6, F32));
    FX_EXPECT_STATUS(MIS, cldnnGemmStridedBatched(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, 0, e.b, 0, 7, 0, &zero, e.c,
                                                  6, 5, 30, 1, F32));
    FX_EXPECT_STATUS(MIS, cldnnGemmStridedBatched(h, ROW, OT, ON, 5, 6, 7, &one, e.a, 3, 5, 0, e.b, 0, 6, 0, &zero, e.c,
                                                  0, 6, 30, 1, F32));
    fx_release(small);
    ebufs_done(&e);
}

/* HALF: offsets must be multiples of 2 bytes, and the extents count halves (a buffer that holds
** the halves exactly is enough, one half less is not). */
Test(gemm_errors, half_alignment_and_extent) {
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    const cldnnDataType_t H = CLDNN_DATA_HALF;
    /* Column-major 5 x 6 x 7: A spans 35 halves, B 42, C 30; each buffer holds one more. */
    cl_mem a = fx_buffer(2 * 36), b = fx_buffer(2 * 43), c = fx_buffer(2 * 31);
    uint16_t init[43];
    for (int i = 0; i < 43; i++)
        init[i] = fx_float_to_half(fx_uniform(-1.0, 1.0));
    fx_write(a, 0, init, 2 * 36);
    fx_write(b, 0, init, 2 * 43);
    fx_write(c, 0, init, 2 * 31);
    FX_EXPECT_STATUS(MIS, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 1, 5, b, 0, 7, &zero, c, 0, 5, H));
    FX_EXPECT_STATUS(MIS, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 0, 5, b, 3, 7, &zero, c, 0, 5, H));
    FX_EXPECT_STATUS(MIS, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 0, 5, b, 0, 7, &zero, c, 1, 5, H));
    FX_EXPECT_STATUS(MIS, cldnnGemmStridedBatched(h, ROW, OT, ON, 5, 6, 7, &one, a, 3, 5, 0, b, 0, 6, 0, &zero, c, 0,
                                                  6, 30, 1, H));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 4, 5, b, 0, 7, &zero, c, 0, 5, H));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 0, 5, b, 4, 7, &zero, c, 0, 5, H));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 0, 5, b, 0, 7, &zero, c, 4, 5, H));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 0, 5, b, 0, 7, &zero, c, 0, 5, F32));
    uint16_t got[31];
    fx_read(c, 0, got, 2 * 31);
    FX_ASSERT(memcmp(got, init, 2 * 31) == 0, "a refused HALF GEMM modified C");
    FX_OK(cldnnGemm(h, COL, ON, ON, 5, 6, 7, &one, a, 2, 5, b, 2, 7, &zero, c, 2, 5, H));
    fx_read(c, 0, got, 2);
    FX_ASSERT(got[0] == init[0], "the HALF GEMM wrote before C's offset");
    fx_release(a);
    fx_release(b);
    fx_release(c);
}

/* Strided-batched extents: negative strides, extents that overflow 63 bits (as elements or as
** bytes), extents past the buffer, and C strides that make the products overlap. */
Test(gemm_errors, batched_strides) {
    ebufs e;
    ebufs_init(&e, 64);
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    /* Column-major 5 x 6 x 7: A spans 35 floats, B 42, C 30. */
#define SB(sa, sb, sc, batch)                                                                                          \
    cldnnGemmStridedBatched(h, COL, ON, ON, 5, 6, 7, &one, e.a, 0, 5, (sa), e.b, 0, 7, (sb), &zero, e.c, 0, 5, (sc),   \
                            (batch), F32)
    FX_EXPECT_STATUS(OOB, SB(-1, 0, 30, 2));
    FX_EXPECT_STATUS(OOB, SB(0, -42, 30, 2));
    FX_EXPECT_STATUS(OOB, SB(0, 0, -30, 2));
    FX_EXPECT_STATUS(OOB, SB(INT64_MIN, 0, 30, 1));
    FX_EXPECT_STATUS(OOB, SB((int64_t)1 << 62, 0, 30, 3)); /* (batch-1) * stride overflows */
    FX_EXPECT_STATUS(OOB, SB(INT64_MAX, 0, 30, 2));        /* stride + span overflows */
    FX_EXPECT_STATUS(OOB, SB(0, (int64_t)1 << 61, 30, 2)); /* elements fit, bytes do not */
    FX_EXPECT_STATUS(OOB, SB(0, (int64_t)1 << 33, 30, (int64_t)1 << 30));
    FX_EXPECT_STATUS(OOB, SB(0, 0, (int64_t)1 << 62, 3));
    FX_EXPECT_STATUS(SZ, SB(40, 0, 30, 2)); /* 75 floats of A */
    FX_EXPECT_STATUS(SZ, SB(0, 1000000, 30, 2));
    FX_EXPECT_STATUS(SZ, SB(0, 0, 30, 3));                /* 90 floats of C */
    FX_EXPECT_STATUS(SZ, SB((int64_t)1 << 40, 0, 30, 2)); /* fits 63 bits, not the buffer */
    /* C products that would overlap. */
    FX_EXPECT_STATUS(OOB, SB(0, 0, 29, 2));
    FX_EXPECT_STATUS(OOB, SB(0, 0, 0, 2));
    FX_EXPECT_STATUS(OOB, cldnnGemmStridedBatched(h, ROW, ON, ON, 5, 6, 7, &one, e.a, 0, 7, 0, e.b, 0, 6, 0, &zero, e.c,
                                                  0, 6, 29, 2, F32));
#undef SB
    ebufs_done(&e);
}

/* Sizes past what the kernel indexes (2^31) are NOT_SUPPORTED_SHAPE, decided before any buffer
** extent is needed (the buffers here are tiny); an extent that fits the sizes but not 63 bits
** of bytes is OUT_OF_BOUND, one that fits but exceeds the buffer SIZE_INSUFFICIENT. */
Test(gemm_errors, huge_shapes) {
    ebufs e;
    ebufs_init(&e, 64);
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    const cldnnStatus_t NS = CLDNN_STATUS_NOT_SUPPORTED_SHAPE;
    static const int64_t big[] = {(int64_t)1 << 31, ((int64_t)1 << 31) + 5, (int64_t)1 << 40, INT64_MAX};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        const int64_t v = big[i];
        FX_EXPECT_STATUS(NS, cldnnGemm(h, COL, ON, ON, v, 6, 7, &one, e.a, 0, v, e.b, 0, 7, &zero, e.c, 0, v, F32));
        FX_EXPECT_STATUS(NS, cldnnGemm(h, COL, ON, ON, 5, v, 7, &one, e.a, 0, 5, e.b, 0, 7, &zero, e.c, 0, 5, F32));
        FX_EXPECT_STATUS(NS, cldnnGemm(h, ROW, ON, ON, 5, 6, v, &one, e.a, 0, v, e.b, 0, 6, &zero, e.c, 0, 6, F32));
        FX_EXPECT_STATUS(NS, cldnnGemmStridedBatched(h, COL, OT, OT, v, 6, 7, &one, e.a, 0, 7, 0, e.b, 0, 6, 0, &zero,
                                                     e.c, 0, v, 0, 1, F32));
    }
    const int64_t imax = 0x7fffffff;
    FX_EXPECT_STATUS(
        OOB, cldnnGemm(h, COL, ON, ON, imax, 1, imax, &one, e.a, 0, imax, e.b, 0, imax, &zero, e.c, 0, imax, F32));
    FX_EXPECT_STATUS(SZ, cldnnGemm(h, COL, ON, ON, (int64_t)1 << 20, 1, 1, &one, e.a, 0, (int64_t)1 << 20, e.b, 0, 1,
                                   &zero, e.c, 0, (int64_t)1 << 20, F32));
    ebufs_done(&e);
}

/* cldnn_gemm_run_params refuses a parameter set the kernel cannot run, before touching C. */
Test(gemm_errors, run_params_invalid_set) {
    const cldnn_device_profile* dev = &fx_handle()->prof;
    int big = 1;
    while ((size_t)big * (size_t)big <= dev->max_wg_size)
        big *= 2;
    int deep = 64;
    while (2ull * (uint64_t)deep * 128u * 4u <= dev->local_mem)
        deep *= 2;
    const cldnn_gemm_params sets[] = {
        /* mwg nwg kwg  mdimc ndimc  vwm vwn  vwa vwb  pada padb */
        {60, 64, 16, 8, 8, 1, 4, 1, 1, 0, 0, 0},       /* MWG not a multiple of MDIMC */
        {64, 60, 16, 8, 8, 4, 1, 1, 1, 0, 0, 0},       /* NWG not a multiple of NDIMC */
        {64, 64, 16, 8, 8, 3, 4, 1, 1, 0, 0, 0},       /* VWM not a power of two */
        {32, 64, 16, 16, 8, 4, 4, 1, 1, 0, 0, 0},      /* MWI = 2 not a multiple of VWM */
        {64, 64, 16, 8, 8, 4, 4, 1, 1, 1, 0, 0},       /* MWG + PADA not a multiple of VWM */
        {64, 64, 16, 8, 8, 4, 4, 1, 1, -4, 0, 0},      /* negative padding */
        {64, 64, 1, 16, 16, 4, 4, 1, 1, 0, 0, 0},      /* tile not divisible among the work-items */
        {64, 64, 0, 8, 8, 4, 4, 1, 1, 0, 0, 0},        /* KWG 0 */
        {64, 64, 16, 0, 8, 4, 4, 1, 1, 0, 0, 0},       /* MDIMC 0 */
        {big, big, 16, big, big, 1, 1, 1, 1, 0, 0, 0}, /* work-group above the device's limit */
        {64, 64, deep, 8, 8, 4, 4, 1, 1, 0, 0, 0},     /* local memory above the device's */
    };
    ebufs e;
    ebufs_init(&e, 1024);
    cldnn_gemm_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.m = pr.n = pr.k = 16;
    pr.lda = pr.ldb = pr.ldc = 16;
    pr.batch = 1;
    pr.alpha = 1.0f;
    const cldnn_gemm_buffers bufs = {e.a, e.b, e.c};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        char ps[96];
        cldnn_gemm_params_format(&sets[i], ps, sizeof ps);
        FX_ASSERT(!cldnn_gemm_params_valid(&sets[i], dev), "cldnn_gemm_params_valid accepts %s", ps);
        cldnn_error_clear();
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnn_gemm_run_params(fx_handle(), &pr, &sets[i], &bufs));
    }
    ebufs_done(&e);
}

/* cldnn_gemm_cpu_run_params refuses a set the kernel cannot run, before touching C. */
Test(gemm_errors, cpu_invalid_set) {
    static const cldnn_gemm_cpu_params sets[] = {
        /* mr nr vw ku mcb yb packx packy swap */
        {12, 6, 8, 4, 0, 1, 1, 1, 0},  /* MR not a multiple of VW */
        {16, 6, 6, 4, 0, 1, 1, 1, 0},  /* VW not a power of two */
        {80, 6, 16, 4, 0, 1, 1, 1, 0}, /* five vectors per block */
        {16, 17, 8, 4, 0, 1, 1, 1, 0}, /* NR above 16 */
        {32, 16, 8, 4, 0, 1, 1, 1, 0}, /* 64 accumulators */
        {16, 6, 8, 3, 0, 1, 1, 1, 0},  /* KU not a power of two */
        {16, 6, 8, 4, -1, 1, 1, 1, 0}, /* negative band */
        {16, 6, 8, 4, 0, 0, 1, 1, 0},  /* no block per work-item */
        {16, 6, 8, 4, 0, 17, 1, 1, 0}, /* 17 blocks per work-item */
        {16, 6, 8, 4, 0, 1, 2, 1, 0},  /* packx not 0 or 1 */
        {16, 6, 8, 4, 0, 1, 1, 1, -1}, /* swap left to the rule */
    };
    ebufs e;
    ebufs_init(&e, 1024);
    cldnn_gemm_problem pr = {.m = 20, .n = 20, .k = 20, .lda = 20, .ldb = 20, .ldc = 20, .batch = 1, .alpha = 1.0f,
                             .dtype = CLDNN_DATA_FLOAT, .dtype_c = CLDNN_DATA_FLOAT};
    const cldnn_gemm_buffers bufs = {e.a, e.b, e.c};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnn_gemm_cpu_run_params(fx_handle(), &pr, &sets[i], &bufs));
    ebufs_done(&e);
}

/* ---- math types and the tensor-core solver's selection (TENSOR_OP_MATH, gemm/gemm_mma.c) */


Test(gemm_math, set_and_get) {
    cldnnHandle_t h = fx_handle();
    cldnnMathType_t m = (cldnnMathType_t)77;
    FX_OK(cldnnGetGemmMathType(h, &m));
    FX_ASSERT(m == CLDNN_DEFAULT_MATH, "a new handle's GEMM math type is %d, not DEFAULT_MATH", (int)m);
    const cldnnMathType_t all[3] = {CLDNN_TENSOR_OP_MATH, CLDNN_FMA_MATH, CLDNN_DEFAULT_MATH};
    for (int i = 0; i < 3; i++) {
        FX_OK(cldnnSetGemmMathType(h, all[i]));
        FX_OK(cldnnGetGemmMathType(h, &m));
        FX_ASSERT(m == all[i], "set %d, read back %d", (int)all[i], (int)m);
    }
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetGemmMathType(h, (cldnnMathType_t)2));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetGemmMathType(h, (cldnnMathType_t)-1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetGemmMathType(NULL, CLDNN_TENSOR_OP_MATH));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetGemmMathType(h, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetGemmMathType(NULL, &m));
    FX_OK(cldnnGetGemmMathType(h, &m));
    FX_ASSERT(m == CLDNN_DEFAULT_MATH, "a refused Set changed the math type to %d", (int)m);
}

/* Which devices, math types and data types are offered the tensor-core solvers: TF32 for FLOAT,
** the 16-bit one for HALF or BFLOAT16 A and B (C of their type, or float for internal callers),
** only under TENSOR_OP_MATH. */
Test(gemm_math, tensor_core_selection) {
    cldnn_gemm_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.m = pr.n = pr.k = 512;
    pr.lda = pr.ldb = pr.ldc = 512;
    pr.batch = 1;
    const struct {
        int major, minor, cpu, nvidia;
        int want;
    } devs[] = {{9, 0, 0, 1, 1}, {8, 0, 0, 1, 1}, {8, 6, 0, 1, 1}, {7, 5, 0, 1, 0},
                {0, 0, 0, 1, 0}, {9, 0, 0, 0, 0}, {9, 0, 1, 1, 0}};
    const cldnnMathType_t maths[3] = {CLDNN_DEFAULT_MATH, CLDNN_TENSOR_OP_MATH, CLDNN_FMA_MATH};
    const char* saved = getenv("CLDNN_TENSOR_CORES");
    FX_ASSERT(saved == NULL || strcmp(saved, "0") != 0, "run this test without CLDNN_TENSOR_CORES=0");
    for (size_t d = 0; d < sizeof devs / sizeof devs[0]; d++) {
        cldnn_device_profile p = wb_nv_profile(devs[d].major, devs[d].minor);
        p.is_nvidia = devs[d].nvidia;
        p.vendor_id = devs[d].nvidia ? 0x10de : 0x1002;
        p.is_cpu = devs[d].cpu;
        p.type = devs[d].cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
        FX_ASSERT(cldnn_mma_available(&p) == devs[d].want, "device %zu (cc %d.%d, cpu %d, nvidia %d): available %d",
                  d, devs[d].major, devs[d].minor, devs[d].cpu, devs[d].nvidia, cldnn_mma_available(&p));
        /* (A and B, C): the TF32 solver takes FLOAT, the FP16 one HALF with C of either type;
        ** FLOAT A and B with a half C is no GEMM the library forms. */
        const struct {
            cldnnDataType_t dt, dt_c;
            int tf32, f16;
        } types[] = {{CLDNN_DATA_FLOAT, CLDNN_DATA_FLOAT, 1, 0},
                     {CLDNN_DATA_HALF, CLDNN_DATA_HALF, 0, 1},
                     {CLDNN_DATA_HALF, CLDNN_DATA_FLOAT, 0, 1},
                     {CLDNN_DATA_FLOAT, CLDNN_DATA_HALF, 0, 0},
                     {CLDNN_DATA_BFLOAT16, CLDNN_DATA_BFLOAT16, 0, 1},
                     {CLDNN_DATA_BFLOAT16, CLDNN_DATA_FLOAT, 0, 1},
                     {CLDNN_DATA_BFLOAT16, CLDNN_DATA_HALF, 0, 0},
                     {CLDNN_DATA_DOUBLE, CLDNN_DATA_DOUBLE, 0, 0}};
        for (int m = 0; m < 3; m++)
            for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
                pr.math = maths[m];
                pr.dtype = types[t].dt;
                pr.dtype_c = types[t].dt_c;
                const int on = devs[d].want && maths[m] == CLDNN_TENSOR_OP_MATH;
                const int tf32 = cldnn_gemm_mma_tf32_applicable(&pr, &p), f16 = cldnn_gemm_mma_f16_applicable(&pr, &p);
                FX_ASSERT(tf32 == (on && types[t].tf32) && f16 == (on && types[t].f16) &&
                              cldnn_gemm_mma_applicable(&pr, &p) == (tf32 || f16),
                          "device %zu, math %d, types %s/%s: tf32 %d f16 %d any %d, want tf32 %d f16 %d", d,
                          (int)maths[m], cldnn_dtype_name(types[t].dt), cldnn_dtype_name(types[t].dt_c), tf32, f16,
                          cldnn_gemm_mma_applicable(&pr, &p), on && types[t].tf32, on && types[t].f16);
            }
    }
    /* the environment switch turns it off */
    cldnn_device_profile h100 = wb_nv_profile(9, 0);
    setenv("CLDNN_TENSOR_CORES", "0", 1);
    int off = cldnn_mma_available(&h100);
    if (saved)
        setenv("CLDNN_TENSOR_CORES", saved, 1);
    else
        unsetenv("CLDNN_TENSOR_CORES");
    FX_ASSERT(off == 0, "CLDNN_TENSOR_CORES=0 left the tensor cores on");
    FX_ASSERT(cldnn_mma_available(&h100) == 1, "the tensor cores stay off after CLDNN_TENSOR_CORES is unset");
}

/* The tensor-core parameter sets: the defaults are valid on the devices that offer the solvers
** (FLOAT and HALF), the constraints refuse what the kernel cannot run (local memory per compute
** capability, transposes and element size; k steps and copy widths per data type), and the text
** form round-trips. */
Test(gemm_math, tensor_core_params) {
    const cldnn_device_profile devs[3] = {wb_nv_profile(9, 0), wb_nv_profile(8, 0), wb_nv_profile(8, 6)};
    const int64_t shapes[][3] = {{1, 1, 1}, {64, 64, 64}, {65, 4096, 17}, {4096, 64, 4096}, {8192, 8192, 8192}};
    const cldnnDataType_t dts[3] = {CLDNN_DATA_FLOAT, CLDNN_DATA_HALF, CLDNN_DATA_BFLOAT16};
    for (size_t d = 0; d < 9; d++)
        for (size_t s = 0; s < 4 * sizeof shapes / sizeof shapes[0]; s++) {
            const cldnnDataType_t dt = dts[d / 3];
            cldnn_gemm_problem pr;
            memset(&pr, 0, sizeof pr);
            pr.m = shapes[s / 4][0];
            pr.n = shapes[s / 4][1];
            pr.k = shapes[s / 4][2];
            pr.trans_a = (int)(s >> 1 & 1);
            pr.trans_b = (int)(s & 1);
            pr.batch = 1;
            pr.math = CLDNN_TENSOR_OP_MATH;
            pr.dtype = pr.dtype_c = dt;
            const cldnn_device_profile* dev = &devs[d % 3];
            cldnn_gemm_mma_params q;
            cldnn_gemm_mma_params_select(&pr, dev, &q);
            char buf[96];
            cldnn_gemm_mma_params_format(&q, buf, sizeof buf);
            FX_ASSERT(cldnn_gemm_mma_params_fit(&q, dev, dt, pr.trans_a, pr.trans_b),
                      "default %s for %s %lldx%lldx%lld %c%c does not fit cc %d.%d", buf, cldnn_dtype_name(dt),
                      (long long)pr.m, (long long)pr.n, (long long)pr.k, pr.trans_a ? 'T' : 'N',
                      pr.trans_b ? 'T' : 'N', dev->nv_cc_major, dev->nv_cc_minor);
            FX_ASSERT(q.vw == (dt == CLDNN_DATA_FLOAT ? 4 : 8), "default %s for %s: copies are not 16 bytes wide", buf,
                      cldnn_dtype_name(dt));
            cldnn_gemm_mma_params back;
            FX_ASSERT(cldnn_gemm_mma_params_parse(buf, &back) && memcmp(&back, &q, sizeof q) == 0,
                      "%s does not parse back to itself", buf);
        }
    const cldnnDataType_t F = CLDNN_DATA_FLOAT, H = CLDNN_DATA_HALF;
    const struct {
        const char* s;
        cldnnDataType_t dt;
        int ok90, ok86;
    } sets[] = {
        {"128x128x32-64x64-s3-v4-k0", F, 1, 0},  /* 120 KiB of local memory: above cc 8.6's 99 */
        {"128x128x16-64x64-s3-v4-k0", F, 1, 1},  /* 72 KiB */
        {"256x128x16-64x64-s6-v4-k0", F, 1, 0},  /* 216 KiB */
        {"256x128x16-64x64-s7-v4-k0", F, 0, 0},  /* 252 KiB: above cc 9.0's 226 */
        {"256x128x32-64x64-s3-v4-k0", F, 1, 0},  /* 180 KiB */
        {"128x256x32-64x64-s4-v4-k0", F, 0, 0},  /* 240 KiB */
        {"128x128x32-64x64-s9-v4-k0", F, 0, 0},  /* stages */
        {"96x128x32-32x64-s3-v4-k0", F, 0, 0},   /* not a power of two */
        {"128x128x32-16x64-s3-v4-k0", F, 0, 0},  /* warp tile below 32 */
        {"128x128x32-128x64-s3-v4-k0", F, 0, 0}, /* 256 accumulators per lane */
        {"128x128x24-64x64-s3-v4-k0", F, 0, 0},  /* k step */
        {"128x128x32-64x64-s3-v2-k0", F, 0, 0},  /* copy width: 8 bytes of floats */
        {"128x128x64-64x64-s3-v4-k0", F, 0, 0},  /* k step 64: HALF only */
        {"128x128x32-64x64-s3-v8-k0", F, 0, 0},  /* 8 floats per copy */
        {"64x64x16-32x32-s3-v4-k0", F, 1, 1},
        {"32x32x16-32x32-s2-v1-k0", F, 1, 1},
        /* HALF: bytes are half the elements' count times 2; the k-contiguous rows pad 8 halves,
        ** the m- (n-) contiguous ones 16 bytes */
        {"128x128x64-64x64-s3-v8-k0", H, 1, 0},  /* 108 KiB */
        {"128x128x32-64x64-s3-v8-k0", H, 1, 1},  /* 60 KiB */
        {"256x128x64-64x64-s4-v8-k0", H, 1, 0},  /* 216 KiB */
        {"256x128x64-64x64-s5-v8-k0", H, 0, 0},  /* 270 KiB */
        {"128x128x32-64x64-s3-v2-k0", H, 1, 1},  /* 4-byte copies */
        {"128x128x32-64x64-s3-v1-k0", H, 1, 1},  /* 2-byte copies */
        {"128x128x32-64x64-s3-v4-k0", H, 1, 1},  /* 8-byte copies */
        {"128x128x32-64x64-s3-v3-k0", H, 0, 0},  /* 6 bytes: not a copy size */
        {"128x128x32-64x64-s3-v16-k0", H, 0, 0}, /* 32 bytes */
        {"128x128x128-64x64-s2-v8-k0", H, 0, 0}, /* k step */
        {"128x128x8-64x64-s3-v8-k0", H, 0, 0},   /* below one m16n8k16 step */
        {"256x32x16-32x32-s2-v8-k0", H, 0, 0},   /* 512 halves of B for 256 work-items copying 8 */
        {"64x64x16-32x32-s3-v8-k0", H, 1, 1},
        {"32x32x16-32x32-s2-v8-k0", H, 1, 1},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        cldnn_gemm_mma_params q;
        const cldnnDataType_t dt = sets[i].dt;
        FX_ASSERT(cldnn_gemm_mma_params_parse(sets[i].s, &q), "%s does not parse", sets[i].s);
        /* valid means: fits every transpose */
        int all = 1;
        for (int t = 0; t < 4; t++)
            all &= cldnn_gemm_mma_params_fit(&q, &devs[0], dt, t >> 1, t & 1);
        FX_ASSERT(all == cldnn_gemm_mma_params_valid(&q, &devs[0], dt), "%s %s: valid %d but fits every transpose %d",
                  cldnn_dtype_name(dt), sets[i].s, cldnn_gemm_mma_params_valid(&q, &devs[0], dt), all);
        FX_ASSERT(cldnn_gemm_mma_params_valid(&q, &devs[0], dt) == sets[i].ok90, "%s %s: valid %d on cc 9.0, want %d",
                  cldnn_dtype_name(dt), sets[i].s, cldnn_gemm_mma_params_valid(&q, &devs[0], dt), sets[i].ok90);
        FX_ASSERT(cldnn_gemm_mma_params_valid(&q, &devs[2], dt) == sets[i].ok86, "%s %s: valid %d on cc 8.6, want %d",
                  cldnn_dtype_name(dt), sets[i].s, cldnn_gemm_mma_params_valid(&q, &devs[2], dt), sets[i].ok86);
        FX_ASSERT(!cldnn_gemm_mma_params_valid(&q, &devs[0], CLDNN_DATA_DOUBLE), "%s is valid for double data",
                  sets[i].s);
    }
    cldnn_gemm_mma_params q;
    FX_ASSERT(cldnn_gemm_mma_params_parse("256x128x32-64x64-s4-v4-k0", &q), "parse");
    FX_ASSERT(cldnn_gemm_mma_params_fit(&q, &devs[0], F, 0, 0) && !cldnn_gemm_mma_params_fit(&q, &devs[0], F, 1, 0),
              "256x128x32-64x64-s4 must fit NN (210 KiB) and not TN (240 KiB) on cc 9.0");
    FX_ASSERT(cldnn_gemm_mma_params_parse("256x128x32-64x64-s8-v8-k0", &q), "parse");
    FX_ASSERT(cldnn_gemm_mma_params_fit(&q, &devs[0], H, 0, 0) && cldnn_gemm_mma_params_fit(&q, &devs[0], H, 0, 1) &&
                  !cldnn_gemm_mma_params_fit(&q, &devs[0], H, 1, 1) && !cldnn_gemm_mma_params_fit(&q, &devs[0], H, 1, 0),
              "HALF 256x128x32-64x64-s8 must fit NN (212 KiB) and NT (200 KiB), not TT (228 KiB) or TN (240 KiB) on "
              "cc 9.0");
    /* The staged epilogue reuses the pipeline's local memory and may need more: 16 warps of 64 x 64
    ** HALF stage 64 rows x 64 columns of floats each (260 KiB), beyond a 2-stage pipeline's 73. */
    FX_ASSERT(cldnn_gemm_mma_params_parse("256x256x32-64x64-s2-v8-k0", &q), "parse");
    FX_ASSERT(!cldnn_gemm_mma_params_fit(&q, &devs[0], H, 0, 0), "HALF 256x256x32-64x64-s2 must not fit on cc 9.0 "
                                                                 "(the epilogue's 260 KiB)");
    FX_ASSERT(cldnn_gemm_mma_params_parse("256x256x32-64x64-s2-v4-k0", &q), "parse");
    FX_ASSERT(cldnn_gemm_mma_params_fit(&q, &devs[0], F, 0, 0), "FLOAT 256x256x32-64x64-s2 must fit on cc 9.0 (pipeline "
                                                                "145 KiB, epilogue 132 KiB)");
    FX_ASSERT(!cldnn_gemm_mma_params_parse("128x128x32-64x64-s3-v4", &q), "a truncated set parses");
    FX_ASSERT(!cldnn_gemm_mma_params_parse("128x128x32-64x64-s3-v4-k0x", &q), "trailing text parses");
}

/* The tuner's declared space for the tensor-core kernel: not empty for either data type on the
** devices that offer it, every member fits the transposes it was asked for, no member twice, and
** the count does not depend on how many sets the caller takes. */
Test(gemm_math, tensor_core_space) {
    const cldnn_device_profile devs[2] = {wb_nv_profile(9, 0), wb_nv_profile(8, 6)};
    const cldnnDataType_t dts[2] = {CLDNN_DATA_FLOAT, CLDNN_DATA_HALF};
    static cldnn_gemm_mma_params space[1024];
    for (int d = 0; d < 2; d++)
        for (int t = 0; t < 2; t++)
            for (int tr = 0; tr < 4; tr++) {
                const int ta = tr >> 1, tb = tr & 1;
                const size_t n = cldnn_gemm_mma_param_space(&devs[d], dts[t], ta, tb, space, 1024);
                FX_ASSERT(n > 0 && n <= 1024, "cc %d.%d %s %c%c: %zu sets", devs[d].nv_cc_major, devs[d].nv_cc_minor,
                          cldnn_dtype_name(dts[t]), ta ? 'T' : 'N', tb ? 'T' : 'N', n);
                FX_ASSERT(cldnn_gemm_mma_param_space(&devs[d], dts[t], ta, tb, space, 0) == n,
                          "the count depends on max");
                for (size_t i = 0; i < n; i++) {
                    char ps[96];
                    cldnn_gemm_mma_params_format(&space[i], ps, sizeof ps);
                    FX_ASSERT(cldnn_gemm_mma_params_fit(&space[i], &devs[d], dts[t], ta, tb),
                              "%s in the %s space does not fit cc %d.%d", ps, cldnn_dtype_name(dts[t]),
                              devs[d].nv_cc_major, devs[d].nv_cc_minor);
                    for (size_t j = 0; j < i; j++)
                        FX_ASSERT(memcmp(&space[i], &space[j], sizeof space[i]) != 0, "%s is in the space twice", ps);
                }
            }
    /* less local memory, fewer sets */
    const size_t big = cldnn_gemm_mma_param_space(&devs[0], CLDNN_DATA_HALF, 0, 0, space, 0);
    const size_t small = cldnn_gemm_mma_param_space(&devs[1], CLDNN_DATA_HALF, 0, 0, space, 0);
    FX_ASSERT(small < big, "cc 8.6 has %zu HALF sets, cc 9.0 %zu", small, big);
}

/* On a device without tensor cores, TENSOR_OP_MATH runs the FP32 kernels: the results meet the
** FP32 tolerance (a TF32 product would not), in both layouts and every transpose. */
Test(gemm_math, tensor_op_math_without_tensor_cores) {
    cldnnHandle_t h = fx_handle();
    if (cldnn_mma_available(&h->prof)) {
        cr_log_info("%s has TF32 tensor cores: the FP32 fallback is not what runs here", h->prof.name);
        return;
    }
    FX_OK(cldnnSetGemmMathType(h, CLDNN_TENSOR_OP_MATH));
    gcase c = plain(37, 29, 300, 1.0f, 0.5f);
    run_orientations(c, 2);
    FX_OK(cldnnSetGemmMathType(h, CLDNN_DEFAULT_MATH));
}

/* On a device with TF32 tensor cores, TENSOR_OP_MATH runs the tensor-core kernel: every layout and
** transpose, edges around its tiles, unaligned leading dimensions (single-float copies), batches,
** split-k and beta, within the FP32 tolerance plus the TF32 rounding of both inputs. (On PoCL it
** has nothing to run: see tensor_op_math_without_tensor_cores.) */
Test(gemm_math, tensor_cores_tf32) {
    cldnnHandle_t h = fx_handle();
    if (!cldnn_mma_available(&h->prof)) {
        cr_log_info("%s has no TF32 tensor cores: nothing to test here", h->prof.name);
        return;
    }
    FX_OK(cldnnSetGemmMathType(h, CLDNN_TENSOR_OP_MATH));
    g_input_rel = 2.0 / 2048.0;
    run_orientations(plain(1, 1, 1, 1.0f, 0.0f), 2);
    run_orientations(plain(129, 67, 33, 0.5f, 0.25f), 2);
    run_orientations(aligned(plain(300, 260, 100, 1.0f, 0.0f)), 1);
    run_orientations(unaligned(plain(97, 130, 45, 1.0f, 1.0f)), 1);
    gcase sk = plain(128, 96, 9000, 1.0f, 0.0f); /* few blocks, long k: split-k */
    run_case(&sk);
    gcase b = batched(70, 50, 40, 3, 0, 0, 0, 0.5f);
    run_masked(b, COL4);
    g_input_rel = 0.0;
    FX_OK(cldnnSetGemmMathType(h, CLDNN_DEFAULT_MATH));
}

/* HALF (BFLOAT16) data under TENSOR_OP_MATH on a device with tensor cores runs the FP16 (BF16)
** kernel: every layout and transpose, edges around its tiles, copies of 8, 4, 2 and 1 elements
** (leading dimensions and offsets multiples of 8, of 4, even, odd), batches, split-k and beta.
** Tolerance: the inputs are 16-bit (no rounding: the products are exact in float), so it is the FP32
** one with the accumulator's additions counted as truncating (one unit in the last place instead of
** half: the tensor core aligns and truncates), plus C's rounding to the storage type. Devices without
** tensor cores run the portable kernels in gemm_half and gemm_bf16. */
static void tensor_cores_16bit(cldnnDataType_t dt) {
    cldnnHandle_t h = fx_handle();
    if (!cldnn_mma_available(&h->prof)) {
        cr_log_info("%s has no tensor cores: nothing to test here", h->prof.name);
        return;
    }
    g_dt = dt;
    FX_OK(cldnnSetGemmMathType(h, CLDNN_TENSOR_OP_MATH));
    g_sum_units = 2.0;
    run_orientations(plain(1, 1, 1, 1.0f, 0.0f), 2);
    run_orientations(plain(129, 67, 33, 0.5f, 0.25f), 2);
    run_orientations(aligned(plain(300, 260, 100, 1.0f, 0.0f)), 2); /* multiples of 4: 8-byte copies */
    gcase a8 = plain(256, 128, 512, 1.0f, 0.0f); /* every dimension a multiple of 8: 16-byte copies */
    run_orientations(a8, 1);
    gcase even = plain(98, 130, 46, 1.0f, 0.5f); /* even leading dimensions and offsets: 4-byte copies */
    even.oa = 8;
    even.ob = 24;
    run_orientations(even, 1);
    run_orientations(unaligned(plain(97, 130, 45, 1.0f, 1.0f)), 1); /* odd: 2-byte copies */
    gcase sk = plain(128, 96, 9000, 1.0f, 0.0f); /* few blocks, long k: split-k */
    run_case(&sk);
    sk.beta = -0.5f;
    sk.ta = 1;
    run_case(&sk);
    gcase b = batched(70, 50, 40, 3, 0, 0, 0, 0.5f);
    run_masked(b, COL4);
    gcase bb = batched(64, 72, 48, 5, 8, 16, 8, 0.0f);
    run_masked(aligned(bb), COL4);
    g_sum_units = 1.0;
    FX_OK(cldnnSetGemmMathType(h, CLDNN_DEFAULT_MATH));
}
Test(gemm_math, tensor_cores_f16) { tensor_cores_16bit(CLDNN_DATA_HALF); }
Test(gemm_math, tensor_cores_bf16) { tensor_cores_16bit(CLDNN_DATA_BFLOAT16); }

/* Table rows keyed by compute capability serve every part of the architecture: an "sm_90" row
** matches any NVIDIA profile of cc 9.0 (the H100's rows serve the H200), no other cc and no other
** vendor; other keys are name substrings. */
Test(gemm_params, device_keys) {
    cldnn_device_profile h100 = wb_nv_profile(9, 0), a100 = wb_nv_profile(8, 0), other = wb_nv_profile(9, 0);
    snprintf(h100.name, sizeof h100.name, "NVIDIA H200");
    other.is_nvidia = 0;
    cr_assert(cldnn_device_matches(&h100, "sm_90"));
    cr_assert(!cldnn_device_matches(&a100, "sm_90"));
    cr_assert(cldnn_device_matches(&a100, "sm_80"));
    cr_assert(!cldnn_device_matches(&other, "sm_90"));
    cr_assert(!cldnn_device_matches(&h100, "sm_9"));
    cr_assert(cldnn_device_matches(&h100, "H200"));
    cr_assert(!cldnn_device_matches(&h100, "H100"));
    cr_assert(cldnn_device_matches(&h100, ""));
    /* A large product takes the cc 9.0 row (128 x 128 blocks), not the GPU default, on both. */
    cldnn_gemm_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.m = pr.n = pr.k = 4096;
    pr.lda = pr.ldb = pr.ldc = 4096;
    pr.batch = 1;
    pr.dtype = pr.dtype_c = CLDNN_DATA_FLOAT;
    cldnn_gemm_params q9, q8;
    cldnn_gemm_params_select(&pr, &h100, &q9);
    cldnn_gemm_params_select(&pr, &a100, &q8);
    cr_assert(q9.mwg == 128 && q9.nwg == 128 && q9.kwg == 16, "cc 9.0 took %dx%dx%d", q9.mwg, q9.nwg, q9.kwg);
    cr_assert(memcmp(&q9, &q8, sizeof q9) != 0, "cc 8.0 took the cc 9.0 row");
}
