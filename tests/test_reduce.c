/*
** test_reduce.c: cldnnReduceTensor, its descriptor and its size queries against a double
** reference.
**
**   rd_subsets::*     ADD over each of the 16 subsets of a 3x5x4x6 tensor's dims (none: a copy
**                     with alpha/beta; all: one element), A NCHW, NHWC and padded 4dEx with byte
**                     offsets (aligned and not, for the vector path), C NCHW or padded; every
**                     (alpha, beta), C poisoned (NaN when beta == 0); each solver forced through
**                     CLDNN_SOLVER (reduce_row, reduce_col, reduce_split) and the heuristic's pick.
**                     rd_subsets::nd: 5-d and 8-d tensors, packed and strided.
**   rd_ops::*         every op over several subsets, the comparison ops with 32-bit indices and
**                     without indices.
**   rd_indices::*     64-bit indices, ties (values from a set of 3: first occurrence wins), NHWC.
**   rd_nan::*         NaN in MIN/MAX/AMAX reductions, PROPAGATE and NOT_PROPAGATE, all-NaN rows,
**                     with indices and without (the kernels then keep values only).
**   rd_types::*       HALF and BFLOAT16 storage (ADD and MAX with indices).
**   rd_large::*       the split on a full reduction and on batch statistics (NCHW over N, H, W),
**                     determinism (two calls, the same bits), the workspace query's exactness.
**   rd_bad::*         every entry's bad inputs, too small workspace and indices.
** Tolerance: |got - want| <= atol + rtol * (|alpha| * S + |beta * prior|), S the sum of the
** magnitudes the result is made of (ADD, AVG, NORM*: sum |mapped|; MUL: |product|; MIN/MAX: |r|);
** rtol 1e-5 float, 2e-3 half, 1e-2 bfloat16. Indices are compared exactly.
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(rd_subsets, .fini = fx_fini);
TestSuite(rd_ops, .fini = fx_fini);
TestSuite(rd_indices, .fini = fx_fini);
TestSuite(rd_nan, .fini = fx_fini);
TestSuite(rd_types, .fini = fx_fini);
TestSuite(rd_large, .fini = fx_fini);
TestSuite(rd_bad, .fini = fx_fini);

typedef struct {
    cldnnReduceTensorOp_t op;
    cldnnNanPropagation_t nan;
    int idx; /* 0, 32, 64 */
} rd_case;

static int is_cmp(cldnnReduceTensorOp_t op) {
    return op == CLDNN_REDUCE_TENSOR_MIN || op == CLDNN_REDUCE_TENSOR_MAX || op == CLDNN_REDUCE_TENSOR_AMAX;
}

static double ref_map(cldnnReduceTensorOp_t op, double a) {
    switch (op) {
    case CLDNN_REDUCE_TENSOR_AMAX:
    case CLDNN_REDUCE_TENSOR_NORM1: return fabs(a);
    case CLDNN_REDUCE_TENSOR_NORM2: return a * a;
    case CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS: return a == 0.0 ? 1.0 : a;
    default: return a;
    }
}

/* The reference's rule for the comparison ops: (a, ia) beats (b, ib). */
static int ref_better(cldnnReduceTensorOp_t op, int propagate, double a, int64_t ia, double b, int64_t ib) {
    int na = isnan(a), nb = isnan(b);
    if (na || nb)
        return na && nb ? ia < ib : propagate ? na : nb;
    if (op == CLDNN_REDUCE_TENSOR_MIN)
        return a < b || (a == b && ia < ib);
    return a > b || (a == b && ia < ib);
}

/* The reference over A's view and C's dims: per output its value (before alpha/beta), the
** magnitude scale and the winner's flattened index. */
static void ref_reduce(const rd_case* rc, const fx_tensor* a, const fx_tensor* c, double* val, double* scale,
                       int64_t* index) {
    int nd = a->view.nd;
    int64_t M = c->count;
    for (int64_t o = 0; o < M; ++o) {
        val[o] = rc->op == CLDNN_REDUCE_TENSOR_MUL || rc->op == CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS ? 1.0
                 : is_cmp(rc->op)                                                             ? NAN
                                                                                               : 0.0;
        scale[o] = 0.0;
        index[o] = -1;
    }
    int64_t L = 1;
    for (int d = 0; d < nd; ++d)
        if (c->view.dims[d] == 1)
            L *= a->view.dims[d];
    int64_t idx[8];
    for (int64_t i = 0; i < a->count; ++i) {
        fx_unravel(&a->view, i, idx);
        int64_t o = 0, r = 0;
        for (int d = 0; d < nd; ++d) {
            if (c->view.dims[d] == 1) {
                r = r * a->view.dims[d] + idx[d];
            } else {
                o = o * c->view.dims[d] + idx[d];
            }
        }
        double x = ref_map(rc->op, fx_tensor_host(a, i));
        if (is_cmp(rc->op)) {
            if (index[o] < 0 || ref_better(rc->op, rc->nan == CLDNN_PROPAGATE_NAN, x, r, val[o], index[o])) {
                val[o] = x;
                index[o] = r;
            }
        } else if (rc->op == CLDNN_REDUCE_TENSOR_MUL || rc->op == CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS) {
            val[o] *= x;
        } else {
            val[o] += x;
            scale[o] += fabs(x);
        }
    }
    for (int64_t o = 0; o < M; ++o) {
        if (rc->op == CLDNN_REDUCE_TENSOR_AVG) {
            val[o] /= (double)L;
            scale[o] /= (double)L;
        } else if (rc->op == CLDNN_REDUCE_TENSOR_NORM2) {
            val[o] = sqrt(val[o]);
            scale[o] = val[o];
        }
        if (scale[o] == 0.0 || isnan(scale[o]))
            scale[o] = fabs(val[o]);
    }
}

static double rtol_of(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_FLOAT ? 1e-5 : dt == CLDNN_DATA_HALF ? 2e-3 : 1e-2;
}

static cldnnReduceTensorDescriptor_t make_desc(const rd_case* rc) {
    cldnnReduceTensorDescriptor_t r;
    FX_OK(cldnnCreateReduceTensorDescriptor(&r));
    FX_OK(cldnnSetReduceTensorDescriptor(
        r, rc->op, CLDNN_DATA_FLOAT, rc->nan,
        rc->idx ? CLDNN_REDUCE_TENSOR_FLATTENED_INDICES : CLDNN_REDUCE_TENSOR_NO_INDICES,
        rc->idx == 64 ? CLDNN_64BIT_INDICES : CLDNN_32BIT_INDICES));
    return r;
}

/* Runs the reduction of a (already filled and uploaded) into c with alpha/beta, checks C's
** view, its gaps, the indices and that A is untouched. ctx names the case in failures. */
static void run_check(const rd_case* rc, fx_tensor* a, fx_tensor* c, float alpha, float beta, const char* ctx) {
    cldnnHandle_t h = fx_handle();
    cldnnReduceTensorDescriptor_t r = make_desc(rc);
    size_t ib = 0, wb = 0;
    FX_OK(cldnnGetReductionIndicesSize(h, r, a->desc, c->desc, &ib));
    FX_OK(cldnnGetReductionWorkspaceSize(h, r, a->desc, c->desc, &wb));
    size_t want_ib = rc->idx ? (size_t)c->count * (size_t)(rc->idx / 8) : 0;
    FX_ASSERT(ib == want_ib, "%s: indices size %zu, want %zu", ctx, ib, want_ib);
    const size_t ioff = 16;
    cl_mem ibuf = ib ? fx_buffer(ib + ioff) : NULL;
    cl_mem wbuf = wb ? fx_buffer(wb + 8) : NULL;
    if (ibuf) {
        unsigned char* junk = malloc(ib + ioff);
        memset(junk, 0xa5, ib + ioff);
        fx_write(ibuf, 0, junk, ib + ioff);
        free(junk);
    }
    fx_poison_out(c, beta);
    fx_tensor_upload(c);
    FX_OK(cldnnReduceTensor(h, r, ibuf, ib ? ioff : 0, ib, wbuf, wb ? 8 : 0, wb, &alpha, a->desc, a->mem, a->offset,
                            &beta, c->desc, c->mem, c->offset));
    fx_tensor_download(c);
    int64_t M = c->count;
    double* val = malloc((size_t)M * sizeof(double));
    double* scale = malloc((size_t)M * sizeof(double));
    double* want = malloc((size_t)M * sizeof(double));
    int64_t* index = malloc((size_t)M * sizeof(int64_t));
    ref_reduce(rc, a, c, val, scale, index);
    for (int64_t o = 0; o < M; ++o) {
        double prior = beta != 0.0f ? fx_tensor_host(c, o) : 0.0;
        want[o] = (double)alpha * val[o] + (double)beta * prior;
        scale[o] = fabs((double)alpha) * scale[o] + fabs((double)beta * prior);
    }
    char msg[512];
    int64_t bad = fx_compare(c, want, scale, 1e-6, rtol_of(a->dtype), msg, sizeof msg, NULL);
    FX_ASSERT(bad == 0, "%s: op %d alpha %g beta %g: %lld bad outputs of %lld: %s", ctx, (int)rc->op, (double)alpha,
              (double)beta, (long long)bad, (long long)M, msg);
    FX_ASSERT(fx_tensor_gaps_changed(c) == 0, "%s: C's gaps changed", ctx);
    if (ib) {
        unsigned char* got = malloc(ib + ioff);
        fx_read(ibuf, 0, got, ib + ioff);
        for (size_t k = 0; k < ioff; ++k)
            FX_ASSERT(got[k] == 0xa5, "%s: the indices' bytes before the offset changed", ctx);
        for (int64_t o = 0; o < M; ++o) {
            int64_t g;
            if (rc->idx == 32) {
                uint32_t u;
                memcpy(&u, got + ioff + (size_t)o * 4, 4);
                g = u;
            } else {
                memcpy(&g, got + ioff + (size_t)o * 8, 8);
            }
            FX_ASSERT(g == index[o], "%s: op %d: index of output %lld is %lld, want %lld (value %g)", ctx, (int)rc->op,
                      (long long)o, (long long)g, (long long)index[o], val[o]);
        }
        free(got);
    }
    fx_expect_untouched(a, "A", ctx);
    free(val);
    free(scale);
    free(want);
    free(index);
    fx_release(ibuf);
    fx_release(wbuf);
    cldnnDestroyReduceTensorDescriptor(r);
}

/* A random A of dims in form ad, C = A's dims with the dims in mask (bit d: dim d) set to 1. */
static void make_pair(fx_tensor* a, fx_tensor* c, const int64_t* dims, unsigned mask, const fx_tdesc* ad,
                      const fx_tdesc* cd, cldnnDataType_t dt, double lo, double hi) {
    int64_t cdims[4];
    for (int d = 0; d < 4; ++d)
        cdims[d] = (mask >> d) & 1u ? 1 : dims[d];
    fx_tensor_from_desc(a, 4, dims, ad, dt);
    fx_tensor_from_desc(c, 4, cdims, cd, dt);
    fx_tensor_poison_random(a);
    fx_tensor_fill_uniform(a, lo, hi);
    fx_tensor_upload(a);
}

static const int64_t SHAPE[4] = {3, 5, 4, 6};

static const fx_tdesc NCHW0 = {FX_NCHW, {0}, 0};
static const fx_tdesc NCHW4 = {FX_NCHW, {0}, 4};
static const fx_tdesc NHWC3 = {FX_NHWC, {0}, 3};
static const fx_tdesc EX_A = {FX_ND, {400, 1, 80, 13}, 1}; /* C innermost, padded rows */

/* C's padded form for A's shape with mask: strides of a packed tensor with every dim padded by one. */
static void padded_c(fx_tdesc* cd, const int64_t* dims, unsigned mask) {
    memset(cd, 0, sizeof *cd);
    cd->kind = FX_ND;
    int64_t s = 2;
    for (int d = 3; d >= 0; --d) {
        int64_t n = (mask >> d) & 1u ? 1 : dims[d];
        cd->strides[d] = s;
        s *= n + 1;
    }
    cd->offset = 2;
}

/* Every subset of the 4 dims, ADD, across A's forms, C packed and padded, every (alpha, beta). */
static void check_subsets(const char* solver) {
    if (solver)
        setenv("CLDNN_SOLVER", solver, 1);
    const fx_tdesc* forms[] = {&NCHW0, &NCHW4, &NHWC3, &EX_A};
    rd_case rc = {CLDNN_REDUCE_TENSOR_ADD, CLDNN_NOT_PROPAGATE_NAN, 0};
    for (unsigned mask = 0; mask < 16; ++mask)
        for (int f = 0; f < 4; ++f) {
            fx_tensor a, c;
            fx_tdesc cd;
            padded_c(&cd, SHAPE, mask);
            make_pair(&a, &c, SHAPE, mask, forms[f], (mask + (unsigned)f) % 2 ? &cd : &NCHW0, CLDNN_DATA_FLOAT, -4, 4);
            const float* ab = fx_alpha_beta[(mask + (unsigned)f) % FX_NAB];
            char ctx[128];
            snprintf(ctx, sizeof ctx, "solver %s, reduced mask 0x%x, A form %d", solver ? solver : "(pick)", mask, f);
            run_check(&rc, &a, &c, ab[0], ab[1], ctx);
            fx_tensor_free(&a);
            fx_tensor_free(&c);
        }
    if (solver)
        unsetenv("CLDNN_SOLVER");
}

Test(rd_subsets, heuristic) { check_subsets(NULL); }
Test(rd_subsets, row) { check_subsets("reduce_row"); }
Test(rd_subsets, col) { check_subsets("reduce_col"); }
Test(rd_subsets, split) { check_subsets("reduce_split"); }

/* 5-d and 8-d tensors, packed and with every stride doubled: ADD and MAX with indices over
** several subsets of their dims. */
Test(rd_subsets, nd) {
    static const int64_t d5[5] = {2, 3, 4, 5, 6}, d8[8] = {2, 3, 2, 2, 3, 2, 2, 3};
    static const unsigned masks[] = {0x15, 0x0a, 0x1f, 0x3c, 0xa5, 0xff, 0x80, 0x01};
    for (int k = 0; k < 2; ++k) {
        rd_case rc = {k ? CLDNN_REDUCE_TENSOR_MAX : CLDNN_REDUCE_TENSOR_ADD, CLDNN_NOT_PROPAGATE_NAN, k ? 32 : 0};
        for (int big = 0; big < 2; ++big)
            for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m)
                for (int strided = 0; strided < 2; ++strided) {
                    int nd = big ? 8 : 5;
                    const int64_t* dims = big ? d8 : d5;
                    int64_t cdims[8], as[8], s = 2;
                    for (int d = nd - 1; d >= 0; --d) {
                        cdims[d] = (masks[m] >> d) & 1u ? 1 : dims[d];
                        as[d] = s;
                        s *= dims[d];
                    }
                    fx_tensor a, c;
                    fx_tensor_nd(&a, CLDNN_DATA_FLOAT, nd, dims, strided ? as : NULL, strided ? 4 : 0);
                    fx_tensor_nd(&c, CLDNN_DATA_FLOAT, nd, cdims, NULL, 0);
                    fx_tensor_poison_random(&a);
                    fx_tensor_fill_uniform(&a, -4, 4);
                    fx_tensor_upload(&a);
                    char ctx[96];
                    snprintf(ctx, sizeof ctx, "%d-d, mask 0x%x, strided %d", nd, masks[m], strided);
                    const float* ab = fx_alpha_beta[m % FX_NAB];
                    run_check(&rc, &a, &c, ab[0], ab[1], ctx);
                    fx_tensor_free(&a);
                    fx_tensor_free(&c);
                }
    }
}

/* op over a few subsets (H x W, N x H x W, C, all, N) in NCHW and NHWC. */
static void check_op(cldnnReduceTensorOp_t op, int idx) {
    static const unsigned masks[] = {0xc, 0xd, 0x2, 0xf, 0x1};
    rd_case rc = {op, CLDNN_NOT_PROPAGATE_NAN, idx};
    int product = op == CLDNN_REDUCE_TENSOR_MUL || op == CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m)
        for (int f = 0; f < 2; ++f) {
            fx_tensor a, c;
            make_pair(&a, &c, SHAPE, masks[m], f ? &NHWC3 : &NCHW0, &NCHW0, CLDNN_DATA_FLOAT, product ? 0.7 : -4,
                      product ? 1.3 : 4);
            if (op == CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS) { /* zeros to skip */
                for (int64_t i = 0; i < a.count; i += 7)
                    fx_tensor_set(&a, i, 0.0);
                fx_tensor_upload(&a);
            }
            const float* ab = fx_alpha_beta[(m + (size_t)f) % FX_NAB];
            char ctx[96];
            snprintf(ctx, sizeof ctx, "mask 0x%x, %s", masks[m], f ? "NHWC" : "NCHW");
            run_check(&rc, &a, &c, ab[0], ab[1], ctx);
            fx_tensor_free(&a);
            fx_tensor_free(&c);
        }
}

Test(rd_ops, add) { check_op(CLDNN_REDUCE_TENSOR_ADD, 0); }
Test(rd_ops, mul) { check_op(CLDNN_REDUCE_TENSOR_MUL, 0); }
Test(rd_ops, min) { check_op(CLDNN_REDUCE_TENSOR_MIN, 32); }
Test(rd_ops, max) { check_op(CLDNN_REDUCE_TENSOR_MAX, 32); }
Test(rd_ops, amax) { check_op(CLDNN_REDUCE_TENSOR_AMAX, 32); }
/* without indices the kernels keep the winner's value only (reduce.cl) */
Test(rd_ops, min_values) { check_op(CLDNN_REDUCE_TENSOR_MIN, 0); }
Test(rd_ops, max_values) { check_op(CLDNN_REDUCE_TENSOR_MAX, 0); }
Test(rd_ops, amax_values) { check_op(CLDNN_REDUCE_TENSOR_AMAX, 0); }
Test(rd_ops, avg) { check_op(CLDNN_REDUCE_TENSOR_AVG, 0); }
Test(rd_ops, norm1) { check_op(CLDNN_REDUCE_TENSOR_NORM1, 0); }
Test(rd_ops, norm2) { check_op(CLDNN_REDUCE_TENSOR_NORM2, 0); }
Test(rd_ops, mul_no_zeros) { check_op(CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS, 0); }

/* Values from {-1, 0, 1}: every output has ties, the first occurrence must win. */
static void check_ties(cldnnReduceTensorOp_t op, int idx, const char* solver) {
    if (solver)
        setenv("CLDNN_SOLVER", solver, 1);
    rd_case rc = {op, CLDNN_NOT_PROPAGATE_NAN, idx};
    static const unsigned masks[] = {0xc, 0xd, 0x2, 0xf, 0x5};
    for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m)
        for (int f = 0; f < 2; ++f) {
            fx_tensor a, c;
            make_pair(&a, &c, SHAPE, masks[m], f ? &NHWC3 : &NCHW4, &NCHW0, CLDNN_DATA_FLOAT, -4, 4);
            for (int64_t i = 0; i < a.count; ++i)
                fx_tensor_set(&a, i, (double)((int64_t)(fx_uniform(0, 3)) - 1));
            fx_tensor_upload(&a);
            char ctx[96];
            snprintf(ctx, sizeof ctx, "ties, solver %s, mask 0x%x, %s", solver ? solver : "(pick)", masks[m],
                     f ? "NHWC" : "NCHW");
            run_check(&rc, &a, &c, 1.0f, 0.0f, ctx);
            fx_tensor_free(&a);
            fx_tensor_free(&c);
        }
    if (solver)
        unsetenv("CLDNN_SOLVER");
}

Test(rd_indices, max_64) { check_ties(CLDNN_REDUCE_TENSOR_MAX, 64, NULL); }
Test(rd_indices, max_64_split) { check_ties(CLDNN_REDUCE_TENSOR_MAX, 64, "reduce_split"); }
Test(rd_indices, min_32_ties) { check_ties(CLDNN_REDUCE_TENSOR_MIN, 32, NULL); }
Test(rd_indices, amax_32_col) { check_ties(CLDNN_REDUCE_TENSOR_AMAX, 32, "reduce_col"); }

/* NaN at random places (a quarter of the elements), and every element of the first outputs'
** rows NaN: PROPAGATE gives NaN and the first NaN's index, NOT_PROPAGATE the best number. */
static void check_nan(cldnnReduceTensorOp_t op, cldnnNanPropagation_t nan, const char* solver, int idx) {
    if (solver)
        setenv("CLDNN_SOLVER", solver, 1);
    rd_case rc = {op, nan, idx};
    static const unsigned masks[] = {0xc, 0xd, 0x8};
    for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m) {
        fx_tensor a, c;
        make_pair(&a, &c, SHAPE, masks[m], &NCHW0, &NCHW0, CLDNN_DATA_FLOAT, -4, 4);
        for (int64_t i = 0; i < a.count; ++i)
            if (fx_uniform(0, 1) < 0.25 || i < 24)
                fx_tensor_set(&a, i, NAN);
        fx_tensor_upload(&a);
        char ctx[96];
        snprintf(ctx, sizeof ctx, "NaN %d, indices %d, solver %s, mask 0x%x", (int)nan, idx, solver ? solver : "(pick)",
                 masks[m]);
        run_check(&rc, &a, &c, 1.0f, 0.0f, ctx);
        fx_tensor_free(&a);
        fx_tensor_free(&c);
    }
    if (solver)
        unsetenv("CLDNN_SOLVER");
}

Test(rd_nan, max_propagate) { check_nan(CLDNN_REDUCE_TENSOR_MAX, CLDNN_PROPAGATE_NAN, NULL, 32); }
Test(rd_nan, max_propagate_split) { check_nan(CLDNN_REDUCE_TENSOR_MAX, CLDNN_PROPAGATE_NAN, "reduce_split", 32); }
Test(rd_nan, max_not_propagate) { check_nan(CLDNN_REDUCE_TENSOR_MAX, CLDNN_NOT_PROPAGATE_NAN, NULL, 32); }
Test(rd_nan, max_not_propagate_split) { check_nan(CLDNN_REDUCE_TENSOR_MAX, CLDNN_NOT_PROPAGATE_NAN, "reduce_split", 32); }
Test(rd_nan, min_not_propagate) { check_nan(CLDNN_REDUCE_TENSOR_MIN, CLDNN_NOT_PROPAGATE_NAN, "reduce_col", 32); }
Test(rd_nan, max_propagate_values) { check_nan(CLDNN_REDUCE_TENSOR_MAX, CLDNN_PROPAGATE_NAN, "reduce_split", 0); }
Test(rd_nan, max_not_propagate_values) { check_nan(CLDNN_REDUCE_TENSOR_MAX, CLDNN_NOT_PROPAGATE_NAN, NULL, 0); }
Test(rd_nan, min_propagate_values) { check_nan(CLDNN_REDUCE_TENSOR_MIN, CLDNN_PROPAGATE_NAN, "reduce_col", 0); }
Test(rd_nan, max_not_propagate_values_split) {
    check_nan(CLDNN_REDUCE_TENSOR_MAX, CLDNN_NOT_PROPAGATE_NAN, "reduce_split", 0);
}
Test(rd_nan, amax_propagate_values) { check_nan(CLDNN_REDUCE_TENSOR_AMAX, CLDNN_PROPAGATE_NAN, NULL, 0); }

/* Storage types: ADD and MAX with indices over the subsets of the ops test, both layouts. */
static void check_type(cldnnDataType_t dt) {
    static const unsigned masks[] = {0xc, 0xd, 0x2, 0xf};
    for (int k = 0; k < 2; ++k) {
        rd_case rc = {k ? CLDNN_REDUCE_TENSOR_MAX : CLDNN_REDUCE_TENSOR_ADD, CLDNN_NOT_PROPAGATE_NAN, k ? 32 : 0};
        for (size_t m = 0; m < sizeof masks / sizeof masks[0]; ++m)
            for (int f = 0; f < 2; ++f) {
                fx_tensor a, c;
                make_pair(&a, &c, SHAPE, masks[m], f ? &NHWC3 : &NCHW4, &NCHW0, dt, -4, 4);
                const float* ab = fx_alpha_beta[(m + (size_t)f) % FX_NAB];
                char ctx[96];
                snprintf(ctx, sizeof ctx, "dtype %d, mask 0x%x, %s", (int)dt, masks[m], f ? "NHWC" : "NCHW");
                run_check(&rc, &a, &c, ab[0], ab[1], ctx);
                fx_tensor_free(&a);
                fx_tensor_free(&c);
            }
    }
}

Test(rd_types, half) { check_type(CLDNN_DATA_HALF); }
Test(rd_types, bfloat16) { check_type(CLDNN_DATA_BFLOAT16); }

/* Large reductions through the heuristic: a full one and batch statistics. */
Test(rd_large, full_and_batch_stats) {
    static const int64_t dims[4] = {16, 24, 32, 32};
    rd_case rc = {CLDNN_REDUCE_TENSOR_ADD, CLDNN_NOT_PROPAGATE_NAN, 0};
    unsigned masks[] = {0xf, 0xd};
    for (int m = 0; m < 2; ++m)
        for (int f = 0; f < 2; ++f) {
            fx_tensor a, c;
            make_pair(&a, &c, dims, masks[m], f ? &NHWC3 : &NCHW0, &NCHW0, CLDNN_DATA_FLOAT, -4, 4);
            char ctx[64];
            snprintf(ctx, sizeof ctx, "large, mask 0x%x, %s", masks[m], f ? "NHWC" : "NCHW");
            run_check(&rc, &a, &c, 1.0f, 0.0f, ctx);
            setenv("CLDNN_SOLVER", "reduce_split", 1);
            run_check(&rc, &a, &c, 0.5f, 0.25f, ctx);
            unsetenv("CLDNN_SOLVER");
            fx_tensor_free(&a);
            fx_tensor_free(&c);
        }
}

/* Two calls give the same bits, and the workspace the query names is what the run needs: one
** byte less is refused. */
Test(rd_large, deterministic_and_exact_workspace) {
    static const int64_t dims[4] = {8, 16, 32, 32};
    setenv("CLDNN_SOLVER", "reduce_split", 1);
    rd_case rc = {CLDNN_REDUCE_TENSOR_ADD, CLDNN_NOT_PROPAGATE_NAN, 0};
    cldnnReduceTensorDescriptor_t r = make_desc(&rc);
    fx_tensor a, c;
    make_pair(&a, &c, dims, 0xd, &NCHW0, &NCHW0, CLDNN_DATA_FLOAT, -4, 4);
    cldnnHandle_t h = fx_handle();
    size_t wb = 0;
    FX_OK(cldnnGetReductionWorkspaceSize(h, r, a.desc, c.desc, &wb));
    FX_ASSERT(wb >= 16 * sizeof(float) * 2, "the forced split's workspace is %zu bytes", wb);
    cl_mem w = fx_buffer(wb);
    float one = 1.0f, zero = 0.0f;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnReduceTensor(h, r, NULL, 0, 0, w, 0, wb - 1, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    unsigned char* first = malloc((size_t)c.count * 4);
    unsigned char* second = malloc((size_t)c.count * 4);
    FX_OK(cldnnReduceTensor(h, r, NULL, 0, 0, w, 0, wb, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    fx_read(c.mem, 0, first, (size_t)c.count * 4);
    FX_OK(cldnnReduceTensor(h, r, NULL, 0, 0, w, 0, wb, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    fx_read(c.mem, 0, second, (size_t)c.count * 4);
    FX_ASSERT(memcmp(first, second, (size_t)c.count * 4) == 0, "two calls gave different bits");
    unsetenv("CLDNN_SOLVER");
    /* Without the split, no workspace. */
    setenv("CLDNN_SOLVER", "reduce_row", 1);
    FX_OK(cldnnGetReductionWorkspaceSize(h, r, a.desc, c.desc, &wb));
    FX_ASSERT(wb == 0, "reduce_row asks %zu bytes of workspace", wb);
    unsetenv("CLDNN_SOLVER");
    free(first);
    free(second);
    fx_release(w);
    fx_tensor_free(&a);
    fx_tensor_free(&c);
    cldnnDestroyReduceTensorDescriptor(r);
}

/* ------------------------------------------------------------------------------ bad inputs */

Test(rd_bad, descriptor) {
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateReduceTensorDescriptor(NULL));
    FX_OK(cldnnDestroyReduceTensorDescriptor(NULL));
    cldnnReduceTensorDescriptor_t r;
    FX_OK(cldnnCreateReduceTensorDescriptor(&r));
    cldnnReduceTensorOp_t op;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetReduceTensorDescriptor(r, &op, NULL, NULL, NULL, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnSetReduceTensorDescriptor(NULL, CLDNN_REDUCE_TENSOR_ADD, CLDNN_DATA_FLOAT,
                                                    CLDNN_NOT_PROPAGATE_NAN, CLDNN_REDUCE_TENSOR_NO_INDICES,
                                                    CLDNN_32BIT_INDICES));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetReduceTensorDescriptor(r, (cldnnReduceTensorOp_t)9, CLDNN_DATA_FLOAT,
                                                    CLDNN_NOT_PROPAGATE_NAN, CLDNN_REDUCE_TENSOR_NO_INDICES,
                                                    CLDNN_32BIT_INDICES));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetReduceTensorDescriptor(r, CLDNN_REDUCE_TENSOR_ADD, (cldnnDataType_t)77,
                                                    CLDNN_NOT_PROPAGATE_NAN, CLDNN_REDUCE_TENSOR_NO_INDICES,
                                                    CLDNN_32BIT_INDICES));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetReduceTensorDescriptor(r, CLDNN_REDUCE_TENSOR_ADD, CLDNN_DATA_FLOAT,
                                                    (cldnnNanPropagation_t)2, CLDNN_REDUCE_TENSOR_NO_INDICES,
                                                    CLDNN_32BIT_INDICES));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetReduceTensorDescriptor(r, CLDNN_REDUCE_TENSOR_MAX, CLDNN_DATA_FLOAT,
                                                    CLDNN_NOT_PROPAGATE_NAN, (cldnnReduceTensorIndices_t)2,
                                                    CLDNN_32BIT_INDICES));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnSetReduceTensorDescriptor(r, CLDNN_REDUCE_TENSOR_MAX, CLDNN_DATA_FLOAT,
                                                    CLDNN_NOT_PROPAGATE_NAN, CLDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                                    (cldnnIndicesType_t)5));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     cldnnSetReduceTensorDescriptor(r, CLDNN_REDUCE_TENSOR_ADD, CLDNN_DATA_HALF,
                                                    CLDNN_NOT_PROPAGATE_NAN, CLDNN_REDUCE_TENSOR_NO_INDICES,
                                                    CLDNN_32BIT_INDICES));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     cldnnSetReduceTensorDescriptor(r, CLDNN_REDUCE_TENSOR_ADD, CLDNN_DATA_FLOAT,
                                                    CLDNN_NOT_PROPAGATE_NAN, CLDNN_REDUCE_TENSOR_FLATTENED_INDICES,
                                                    CLDNN_32BIT_INDICES));
    FX_OK(cldnnSetReduceTensorDescriptor(r, CLDNN_REDUCE_TENSOR_AMAX, CLDNN_DATA_FLOAT, CLDNN_PROPAGATE_NAN,
                                         CLDNN_REDUCE_TENSOR_FLATTENED_INDICES, CLDNN_64BIT_INDICES));
    cldnnDataType_t ct;
    cldnnNanPropagation_t nan;
    cldnnReduceTensorIndices_t ind;
    cldnnIndicesType_t it;
    FX_OK(cldnnGetReduceTensorDescriptor(r, &op, &ct, &nan, &ind, &it));
    FX_ASSERT(op == CLDNN_REDUCE_TENSOR_AMAX && ct == CLDNN_DATA_FLOAT && nan == CLDNN_PROPAGATE_NAN &&
                  ind == CLDNN_REDUCE_TENSOR_FLATTENED_INDICES && it == CLDNN_64BIT_INDICES,
              "Get does not mirror Set");
    FX_OK(cldnnGetReduceTensorDescriptor(r, NULL, NULL, NULL, NULL, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetReduceTensorDescriptor(NULL, &op, &ct, &nan, &ind, &it));
    cldnnDestroyReduceTensorDescriptor(r);
}

Test(rd_bad, calls) {
    cldnnHandle_t h = fx_handle();
    rd_case rc = {CLDNN_REDUCE_TENSOR_MAX, CLDNN_NOT_PROPAGATE_NAN, 32};
    cldnnReduceTensorDescriptor_t r = make_desc(&rc), unset;
    FX_OK(cldnnCreateReduceTensorDescriptor(&unset));
    fx_tensor a, c, c2, ah;
    make_pair(&a, &c, SHAPE, 0xc, &NCHW0, &NCHW0, CLDNN_DATA_FLOAT, -4, 4);
    static const int64_t bad_dims[4] = {3, 4, 1, 1}, dims3[3] = {3, 5, 1}, strides3[3] = {5, 1, 1};
    fx_tensor_nd(&c2, CLDNN_DATA_FLOAT, 4, bad_dims, NULL, 0);
    fx_tensor_nd(&ah, CLDNN_DATA_HALF, 4, SHAPE, NULL, 0);
    cldnnTensorDescriptor_t unset_t, d3, dint;
    FX_OK(cldnnCreateTensorDescriptor(&unset_t));
    FX_OK(cldnnCreateTensorDescriptor(&d3));
    FX_OK(cldnnSetTensorNdDescriptor(d3, CLDNN_DATA_FLOAT, 3, dims3, strides3));
    FX_OK(cldnnCreateTensorDescriptor(&dint));
    FX_OK(cldnnSetTensor4dDescriptor(dint, CLDNN_TENSOR_NCHW, CLDNN_DATA_INT32, 3, 5, 4, 6));
    size_t sz;
    /* The size queries. */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetReductionIndicesSize(NULL, r, a.desc, c.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetReductionIndicesSize(h, NULL, a.desc, c.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetReductionIndicesSize(h, unset, a.desc, c.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetReductionIndicesSize(h, r, NULL, c.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetReductionIndicesSize(h, r, a.desc, unset_t, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetReductionIndicesSize(h, r, a.desc, c.desc, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, cldnnGetReductionIndicesSize(h, r, a.desc, c2.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, cldnnGetReductionIndicesSize(h, r, a.desc, d3, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetReductionIndicesSize(h, r, ah.desc, c.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, cldnnGetReductionIndicesSize(h, r, dint, dint, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetReductionWorkspaceSize(NULL, r, a.desc, c.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetReductionWorkspaceSize(h, r, a.desc, c.desc, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, cldnnGetReductionWorkspaceSize(h, r, a.desc, c2.desc, &sz));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetReductionWorkspaceSize(h, unset, a.desc, c.desc, &sz));
    /* The run. */
    size_t ib = (size_t)c.count * 4;
    cl_mem ibuf = fx_buffer(ib), small = fx_buffer(ib - 4);
    float one = 1.0f, zero = 0.0f;
    FX_OK(cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(NULL, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, NULL, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     cldnnReduceTensor(h, unset, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, NULL, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, NULL, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, NULL, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, NULL, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, NULL, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 2, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 64, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c2.desc, c2.mem, 0));
    /* Indices: size below the query's, NULL, a buffer smaller than it says, misaligned offset. */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnReduceTensor(h, r, ibuf, 0, ib - 1, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, r, NULL, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnReduceTensor(h, r, small, 0, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     cldnnReduceTensor(h, r, ibuf, 2, ib, NULL, 0, 0, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    /* Workspace: the forced split needs some; less, none, or NULL is refused. */
    setenv("CLDNN_SOLVER", "reduce_split", 1);
    size_t wb = 0;
    FX_OK(cldnnGetReductionWorkspaceSize(h, r, a.desc, c.desc, &wb));
    FX_ASSERT(wb > 0, "the forced split asks no workspace");
    cl_mem w = fx_buffer(wb);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, w, 0, wb - 4, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, NULL, 0, wb, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnReduceTensor(h, r, ibuf, 0, ib, w, 4, wb, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    FX_OK(cldnnReduceTensor(h, r, ibuf, 0, ib, w, 0, wb, &one, a.desc, a.mem, 0, &zero, c.desc, c.mem, 0));
    unsetenv("CLDNN_SOLVER");
    fx_finish();
    fx_release(w);
    fx_release(ibuf);
    fx_release(small);
    fx_tensor_free(&a);
    fx_tensor_free(&c);
    fx_tensor_free(&c2);
    fx_tensor_free(&ah);
    cldnnDestroyTensorDescriptor(unset_t);
    cldnnDestroyTensorDescriptor(d3);
    cldnnDestroyTensorDescriptor(dint);
    cldnnDestroyReduceTensorDescriptor(r);
    cldnnDestroyReduceTensorDescriptor(unset);
}
