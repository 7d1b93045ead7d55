/*
** test_optensor.c: cldnnOpTensor and its descriptor against a double reference computed from the
** same stored inputs: every operation, broadcasting of A, of B and of both, the three (alpha1,
** alpha2, beta) triples (beta = 0 with a NaN-filled C), byte offsets, NHWC, padded and 5-d views,
** in place on A and on B, NaN propagation both ways, HALF and BFLOAT16, and every bad input.
**
** Kernel builds are what a cold run pays for on PoCL, so the float cases span the solvers (vector
** contig, rows, strided) for every op while HALF and BFLOAT16 take a few ops each.
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(optensor, .fini = fx_fini);
TestSuite(optensor_bad, .fini = fx_fini);

typedef struct {
    const char* name;
    int nd;
    int64_t cdims[8], adims[8], bdims[8];
    fx_tdesc c, a, b;
} op_case;

static const op_case k_cases[] = {
    /* offsets multiples of 4 elements: the vector path */
    {"same shape, aligned", 4, {2, 3, 8, 12}, {2, 3, 8, 12}, {2, 3, 8, 12}, {FX_NCHW, {0}, 4}, {FX_NCHW, {0}, 8},
     {FX_NCHW, {0}, 0}},
    {"B bias 1xCx1x1", 4, {2, 3, 5, 7}, {2, 3, 5, 7}, {1, 3, 1, 1}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 3},
     {FX_NCHW, {0}, 2}},
    {"A Nx1xHxW, B nhwc", 4, {2, 4, 6, 8}, {2, 1, 6, 8}, {2, 4, 6, 8}, {FX_NCHW, {0}, 4}, {FX_NCHW, {0}, 8},
     {FX_NHWC, {0}, 0}},
    {"A 1xCx1x1, B Nx1xHxW, rows", 4, {2, 3, 4, 8}, {1, 3, 1, 1}, {2, 1, 4, 8}, {FX_NCHW, {0}, 0},
     {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 4}},
    {"B scalar", 4, {3, 5, 7, 11}, {3, 5, 7, 11}, {1, 1, 1, 1}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 4},
     {FX_NCHW, {0}, 3}},
    {"C nhwc, A nchw, B bias", 4, {2, 5, 3, 4}, {2, 5, 3, 4}, {1, 5, 1, 1}, {FX_NHWC, {0}, 3}, {FX_NCHW, {0}, 1},
     {FX_NCHW, {0}, 0}},
    {"C padded 4dEx", 4, {2, 3, 5, 7}, {2, 3, 5, 7}, {2, 3, 5, 7}, {FX_EX, {256, 83, 16, 2}, 7},
     {FX_EX, {160, 50, 9, 1}, 4}, {FX_NCHW, {0}, 5}},
    {"5-d gaps, both broadcast", 5, {2, 3, 4, 5, 3}, {1, 3, 1, 5, 1}, {2, 1, 4, 1, 3},
     {FX_ND, {400, 120, 28, 5, 1}, 7}, {FX_ND, {0}, 1}, {FX_ND, {0}, 2}},
    {"1-d strided", 1, {41}, {41}, {1}, {FX_ND, {2}, 1}, {FX_ND, {1}, 7}, {FX_ND, {1}, 0}},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

/* (alpha1, alpha2, beta): every alpha1 positive so SQRT sees non-negative operands. */
static const float k_abc[][3] = {{1.0f, 1.0f, 0.0f}, {0.5f, -2.0f, 0.25f}, {2.0f, 1.0f, -1.0f}};
#define NABC (sizeof k_abc / sizeof k_abc[0])

static const cldnnOpTensorOp_t k_ops[] = {CLDNN_OP_TENSOR_ADD, CLDNN_OP_TENSOR_MUL,  CLDNN_OP_TENSOR_MIN,
                                          CLDNN_OP_TENSOR_MAX, CLDNN_OP_TENSOR_SQRT, CLDNN_OP_TENSOR_NOT,
                                          CLDNN_OP_TENSOR_DIV};
#define NOPS (sizeof k_ops / sizeof k_ops[0])

static const char* op_str(cldnnOpTensorOp_t op) {
    switch (op) {
    case CLDNN_OP_TENSOR_ADD: return "add";
    case CLDNN_OP_TENSOR_MUL: return "mul";
    case CLDNN_OP_TENSOR_MIN: return "min";
    case CLDNN_OP_TENSOR_MAX: return "max";
    case CLDNN_OP_TENSOR_SQRT: return "sqrt";
    case CLDNN_OP_TENSOR_NOT: return "not";
    default: return "div";
    }
}

static const char* dt_str(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? "half" : dt == CLDNN_DATA_BFLOAT16 ? "bfloat16" : "float";
}

static int is_unary(cldnnOpTensorOp_t op) { return op == CLDNN_OP_TENSOR_SQRT || op == CLDNN_OP_TENSOR_NOT; }

/* op(a, b) in double, with fmin/fmax semantics unless nan_prop; *mag is the size its rounding
** error scales with. */
static double ref_op(cldnnOpTensorOp_t op, double a, double b, int nan_prop, double* mag) {
    double r;
    switch (op) {
    case CLDNN_OP_TENSOR_ADD: r = a + b; *mag = fabs(a) + fabs(b); return r;
    case CLDNN_OP_TENSOR_MUL: r = a * b; break;
    case CLDNN_OP_TENSOR_MIN: r = nan_prop && (isnan(a) || isnan(b)) ? NAN : fmin(a, b); break;
    case CLDNN_OP_TENSOR_MAX: r = nan_prop && (isnan(a) || isnan(b)) ? NAN : fmax(a, b); break;
    case CLDNN_OP_TENSOR_SQRT: r = sqrt(a); break;
    case CLDNN_OP_TENSOR_NOT: r = 1.0 - a; *mag = 1.0 + fabs(a); return r;
    default: r = a / b; break;
    }
    *mag = fabs(r);
    return r;
}

/* The element of a broadcast operand (dims `d`) under C's multi-index idx, as a logical index. */
static int64_t bcast_index(int nd, const int64_t* d, const int64_t* idx) {
    int64_t i = 0;
    for (int k = 0; k < nd; k++)
        i = i * d[k] + (d[k] == 1 ? 0 : idx[k]);
    return i;
}

static cldnnOpTensorDescriptor_t make_op(cldnnOpTensorOp_t op, cldnnNanPropagation_t nan) {
    cldnnOpTensorDescriptor_t d;
    FX_OK(cldnnCreateOpTensorDescriptor(&d));
    FX_OK(cldnnSetOpTensorDescriptor(d, op, CLDNN_DATA_FLOAT, nan));
    return d;
}

/* Fills an input for op: SQRT's A non-negative, DIV's B away from 0. */
static void fill_input(fx_tensor* t, cldnnOpTensorOp_t op, int is_b) {
    fx_tensor_poison_random(t);
    if (op == CLDNN_OP_TENSOR_SQRT && !is_b)
        fx_tensor_fill_uniform(t, 0.0, 3.0);
    else if (op == CLDNN_OP_TENSOR_DIV && is_b)
        fx_tensor_fill_uniform(t, 0.5, 3.0);
    else
        fx_tensor_fill_uniform(t, -3.0, 3.0);
}

static double rtol_of(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? 2e-3 : dt == CLDNN_DATA_BFLOAT16 ? 8e-3 : 2e-6;
}

/* Half results below 2^-14 are subnormal: their one rounding is up to half a step of 2^-24,
** which the relative bound misses (seed 35080641716: a quotient of 9.93e-6 stored 2.8e-8 off). */
static double atol_of(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? 0x1p-25 : 1e-30;
}

/* Checks C (downloaded) against the reference of the uploaded A, B and prior C. inplace: 1 C is A,
** 2 C is B (their host mirrors are C's prior content). */
static void check_c(const op_case* k, cldnnOpTensorOp_t op, int nan_prop, const float* abc, cldnnDataType_t dt,
                    fx_tensor* A, fx_tensor* B, fx_tensor* C, const char* what) {
    double* want = malloc((size_t)C->count * sizeof(double));
    double* scale = malloc((size_t)C->count * sizeof(double));
    FX_ASSERT(want && scale, "out of memory");
    for (int64_t i = 0; i < C->count; i++) {
        int64_t idx[8];
        fx_unravel(&C->view, i, idx);
        double a = abc[0] * fx_tensor_host(A, bcast_index(k->nd, k->adims, idx));
        double b = is_unary(op) ? 0.0 : abc[1] * fx_tensor_host(B, bcast_index(k->nd, k->bdims, idx));
        double mag, f = ref_op(op, a, b, nan_prop, &mag);
        double prior = abc[2] != 0.0f ? abc[2] * fx_tensor_host(C, i) : 0.0;
        want[i] = f + prior;
        scale[i] = mag + fabs(prior);
    }
    fx_tensor_download(C);
    char msg[512];
    int64_t bad = fx_compare(C, want, scale, atol_of(dt), rtol_of(dt), msg, sizeof msg, NULL);
    FX_ASSERT(bad == 0, "%s: %lld of %lld wrong; first: %s", what, (long long)bad, (long long)C->count, msg);
    int64_t gaps = fx_tensor_gaps_changed(C);
    FX_ASSERT(gaps == 0, "%s: %lld elements outside C's view changed", what, (long long)gaps);
    free(want);
    free(scale);
}

/* One cldnnOpTensor call of case k. */
static void run_case(const op_case* k, cldnnOpTensorOp_t op, const float* abc, cldnnDataType_t dt) {
    fx_tensor A, B, C;
    fx_tensor_from_desc(&A, k->nd, k->adims, &k->a, dt);
    fx_tensor_from_desc(&B, k->nd, k->bdims, &k->b, dt);
    fx_tensor_from_desc(&C, k->nd, k->cdims, &k->c, dt);
    fill_input(&A, op, 0);
    fill_input(&B, op, 1);
    fx_poison_out(&C, abc[2]);
    if (abc[2] != 0.0f)
        fx_tensor_fill_uniform(&C, -3.0, 3.0);
    fx_tensor_upload(&A);
    fx_tensor_upload(&B);
    fx_tensor_upload(&C);
    cldnnOpTensorDescriptor_t d = make_op(op, CLDNN_NOT_PROPAGATE_NAN);
    FX_OK(cldnnOpTensor(fx_handle(), d, &abc[0], A.desc, A.mem, A.offset, &abc[1], B.desc, B.mem, B.offset, &abc[2],
                        C.desc, C.mem, C.offset));
    char what[256];
    snprintf(what, sizeof what, "OpTensor %s \"%s\" %s alphas %g %g beta %g", op_str(op), k->name, dt_str(dt), abc[0],
             abc[1], abc[2]);
    check_c(k, op, 0, abc, dt, &A, &B, &C, what);
    fx_expect_untouched(&A, "A", what);
    fx_expect_untouched(&B, "B", what);
    cldnnDestroyOpTensorDescriptor(d);
    fx_tensor_free(&A);
    fx_tensor_free(&B);
    fx_tensor_free(&C);
}

Test(optensor, every_op_float) {
    for (size_t o = 0; o < NOPS; o++)
        for (size_t k = 0; k < NCASES; k++)
            for (size_t t = 0; t < NABC; t++)
                run_case(&k_cases[k], k_ops[o], k_abc[t], CLDNN_DATA_FLOAT);
}

Test(optensor, half_and_bfloat16) {
    const size_t ks[] = {0, 1, 3};
    const cldnnOpTensorOp_t hops[] = {CLDNN_OP_TENSOR_ADD, CLDNN_OP_TENSOR_DIV};
    const cldnnOpTensorOp_t bops[] = {CLDNN_OP_TENSOR_MUL, CLDNN_OP_TENSOR_MAX, CLDNN_OP_TENSOR_NOT};
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++)
        for (size_t t = 0; t < NABC; t++) {
            for (size_t o = 0; o < sizeof hops / sizeof hops[0]; o++)
                run_case(&k_cases[ks[k]], hops[o], k_abc[t], CLDNN_DATA_HALF);
            for (size_t o = 0; o < sizeof bops / sizeof bops[0]; o++)
                run_case(&k_cases[ks[k]], bops[o], k_abc[t], CLDNN_DATA_BFLOAT16);
        }
}

/* C is A (then B): the same buffer, descriptor and offset. */
Test(optensor, in_place) {
    const op_case* k = &k_cases[0];
    for (int which = 1; which <= 2; which++)
        for (size_t t = 0; t < NABC; t++) {
            fx_tensor A, B;
            fx_tensor_from_desc(&A, k->nd, k->adims, &k->a, CLDNN_DATA_FLOAT);
            fx_tensor_from_desc(&B, k->nd, k->bdims, &k->b, CLDNN_DATA_FLOAT);
            fill_input(&A, CLDNN_OP_TENSOR_MUL, 0);
            fill_input(&B, CLDNN_OP_TENSOR_MUL, 1);
            fx_tensor_upload(&A);
            fx_tensor_upload(&B);
            fx_tensor* C = which == 1 ? &A : &B;
            cldnnOpTensorDescriptor_t d = make_op(CLDNN_OP_TENSOR_MUL, CLDNN_NOT_PROPAGATE_NAN);
            const float* abc = k_abc[t];
            FX_OK(cldnnOpTensor(fx_handle(), d, &abc[0], A.desc, A.mem, A.offset, &abc[1], B.desc, B.mem, B.offset,
                                &abc[2], C->desc, C->mem, C->offset));
            char what[128];
            snprintf(what, sizeof what, "in place on %s, beta %g", which == 1 ? "A" : "B", abc[2]);
            check_c(k, CLDNN_OP_TENSOR_MUL, 0, abc, CLDNN_DATA_FLOAT, &A, &B, C, what);
            cldnnDestroyOpTensorDescriptor(d);
            fx_tensor_free(&A);
            fx_tensor_free(&B);
        }
}

/* MIN and MAX with NaN in A only, B only and both: NOT_PROPAGATE returns the number, PROPAGATE
** the NaN. */
Test(optensor, nan_propagation) {
    const op_case* k = &k_cases[0];
    const cldnnOpTensorOp_t ops[] = {CLDNN_OP_TENSOR_MIN, CLDNN_OP_TENSOR_MAX};
    const float abc[3] = {1.0f, 1.0f, 0.0f};
    for (size_t o = 0; o < 2; o++)
        for (int nan = 0; nan <= 1; nan++) {
            fx_tensor A, B, C;
            fx_tensor_from_desc(&A, k->nd, k->adims, &k->a, CLDNN_DATA_FLOAT);
            fx_tensor_from_desc(&B, k->nd, k->bdims, &k->b, CLDNN_DATA_FLOAT);
            fx_tensor_from_desc(&C, k->nd, k->cdims, &k->c, CLDNN_DATA_FLOAT);
            fill_input(&A, ops[o], 0);
            fill_input(&B, ops[o], 1);
            for (int64_t i = 0; i < A.count; i++) {
                if (i % 3 == 0)
                    fx_tensor_set(&A, i, NAN);
                if (i % 5 == 0)
                    fx_tensor_set(&B, i, NAN);
            }
            fx_tensor_poison_nan(&C);
            fx_tensor_upload(&A);
            fx_tensor_upload(&B);
            fx_tensor_upload(&C);
            cldnnOpTensorDescriptor_t d = make_op(ops[o], nan ? CLDNN_PROPAGATE_NAN : CLDNN_NOT_PROPAGATE_NAN);
            FX_OK(cldnnOpTensor(fx_handle(), d, &abc[0], A.desc, A.mem, A.offset, &abc[1], B.desc, B.mem, B.offset,
                                &abc[2], C.desc, C.mem, C.offset));
            char what[128];
            snprintf(what, sizeof what, "%s nanOpt %d", op_str(ops[o]), nan);
            check_c(k, ops[o], nan, abc, CLDNN_DATA_FLOAT, &A, &B, &C, what);
            /* the reference must have had both kinds, or the test proves nothing */
            int64_t nans = 0;
            for (int64_t i = 0; i < C.count; i++)
                nans += isnan(fx_tensor_got(&C, i));
            FX_ASSERT(nan ? nans > C.count / 3 : nans > 0 && nans < C.count / 10, "%s: %lld NaNs", what,
                      (long long)nans);
            cldnnDestroyOpTensorDescriptor(d);
            fx_tensor_free(&A);
            fx_tensor_free(&B);
            fx_tensor_free(&C);
        }
}

Test(optensor, descriptor) {
    cldnnOpTensorDescriptor_t d;
    FX_OK(cldnnCreateOpTensorDescriptor(&d));
    cldnnOpTensorOp_t op;
    cldnnDataType_t ct;
    cldnnNanPropagation_t nan;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetOpTensorDescriptor(d, &op, &ct, &nan));
    FX_OK(cldnnSetOpTensorDescriptor(d, CLDNN_OP_TENSOR_DIV, CLDNN_DATA_FLOAT, CLDNN_PROPAGATE_NAN));
    FX_OK(cldnnGetOpTensorDescriptor(d, &op, &ct, &nan));
    FX_ASSERT(op == CLDNN_OP_TENSOR_DIV && ct == CLDNN_DATA_FLOAT && nan == CLDNN_PROPAGATE_NAN, "round trip");
    FX_OK(cldnnGetOpTensorDescriptor(d, NULL, NULL, &nan));
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER, OB = CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND;
    FX_EXPECT_STATUS(NP, cldnnCreateOpTensorDescriptor(NULL));
    FX_EXPECT_STATUS(NP, cldnnSetOpTensorDescriptor(NULL, CLDNN_OP_TENSOR_ADD, CLDNN_DATA_FLOAT, CLDNN_PROPAGATE_NAN));
    FX_EXPECT_STATUS(OB, cldnnSetOpTensorDescriptor(d, (cldnnOpTensorOp_t)6, CLDNN_DATA_FLOAT, CLDNN_PROPAGATE_NAN));
    FX_EXPECT_STATUS(OB, cldnnSetOpTensorDescriptor(d, (cldnnOpTensorOp_t)-1, CLDNN_DATA_FLOAT, CLDNN_PROPAGATE_NAN));
    FX_EXPECT_STATUS(OB, cldnnSetOpTensorDescriptor(d, CLDNN_OP_TENSOR_ADD, CLDNN_DATA_FLOAT, (cldnnNanPropagation_t)2));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     cldnnSetOpTensorDescriptor(d, CLDNN_OP_TENSOR_ADD, CLDNN_DATA_HALF, CLDNN_PROPAGATE_NAN));
    FX_EXPECT_STATUS(NP, cldnnGetOpTensorDescriptor(NULL, &op, &ct, &nan));
    /* a failed Set leaves the descriptor as it was */
    FX_OK(cldnnGetOpTensorDescriptor(d, &op, &ct, &nan));
    FX_ASSERT(op == CLDNN_OP_TENSOR_DIV, "a failed Set changed the descriptor");
    FX_OK(cldnnDestroyOpTensorDescriptor(d));
    FX_OK(cldnnDestroyOpTensorDescriptor(NULL));
}

Test(optensor_bad, arguments) {
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    const fx_tdesc p1 = {FX_NCHW, {0}, 1};
    fx_tensor A, B, C, Bbad, A3, Ah, Ad, Cd;
    const int64_t dims[4] = {2, 3, 5, 7};
    fx_tensor_from_desc(&A, 4, dims, &p1, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&B, 4, (const int64_t[]){1, 3, 1, 1}, &p1, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&C, 4, dims, &p1, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&Bbad, 4, (const int64_t[]){1, 2, 1, 1}, &p1, CLDNN_DATA_FLOAT); /* 2: neither 1 nor 3 */
    const fx_tdesc nd3 = {FX_ND, {0}, 1};
    fx_tensor_from_desc(&A3, 3, (const int64_t[]){3, 5, 7}, &nd3, CLDNN_DATA_FLOAT);
    fx_tensor_from_desc(&Ah, 4, dims, &p1, CLDNN_DATA_HALF);
    fx_tensor_from_desc(&Ad, 4, dims, &p1, CLDNN_DATA_DOUBLE);
    fx_tensor_from_desc(&Cd, 4, dims, &p1, CLDNN_DATA_DOUBLE);
    fx_tensor_poison_random(&C);
    fx_tensor_upload(&C);
    cldnnOpTensorDescriptor_t d = make_op(CLDNN_OP_TENSOR_ADD, CLDNN_NOT_PROPAGATE_NAN), unset;
    FX_OK(cldnnCreateOpTensorDescriptor(&unset));
    cldnnTensorDescriptor_t tunset;
    FX_OK(cldnnCreateTensorDescriptor(&tunset));
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER, SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                        BP = CLDNN_STATUS_BAD_PARAM, SI = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
#define OPT(hh, dd, a1, ad, am, ao, a2, bd, bm, bo, bt, cd, cm, co) \
    cldnnOpTensor(hh, dd, a1, ad, am, ao, a2, bd, bm, bo, bt, cd, cm, co)
    FX_EXPECT_STATUS(NP, OPT(NULL, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, NULL, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(BP, OPT(h, unset, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, NULL, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, A.desc, A.mem, 4, NULL, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, NULL, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, NULL, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, A.desc, A.mem, 4, &one, NULL, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, NULL, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, A.desc, NULL, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, NULL, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, NULL, 4));
    FX_EXPECT_STATUS(BP, OPT(h, d, &one, tunset, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(BP, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, tunset, C.mem, 4));
    /* shapes: B 1x2x1x1 against C's 3 channels; A one rank short; C broadcast into A is not allowed */
    FX_EXPECT_STATUS(SM, OPT(h, d, &one, A.desc, A.mem, 4, &one, Bbad.desc, Bbad.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(SM, OPT(h, d, &one, A3.desc, A3.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(SM, OPT(h, d, &one, A.desc, A.mem, 4, &one, C.desc, C.mem, 4, &zero, B.desc, B.mem, 4));
    /* data types: mixed -> BAD_PARAM, DOUBLE -> not supported */
    FX_EXPECT_STATUS(BP, OPT(h, d, &one, Ah.desc, Ah.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     OPT(h, d, &one, Ad.desc, Ad.mem, 8, &one, Ad.desc, Ad.mem, 8, &zero, Cd.desc, Cd.mem, 8));
    /* offsets and sizes */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     OPT(h, d, &one, A.desc, A.mem, 2, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 6));
    FX_EXPECT_STATUS(SI, OPT(h, d, &one, A.desc, A.mem, 4 * (2 + FX_TAIL), &one, B.desc, B.mem, 4, &zero, C.desc,
                             C.mem, 4));
    FX_EXPECT_STATUS(SI, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4 * (2 + FX_TAIL), &zero, C.desc,
                             C.mem, 4));
    FX_EXPECT_STATUS(SI, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, B.mem, 4));
    /* C overlapping an input it is not: shifted by one element, or the broadcast B itself */
    FX_EXPECT_STATUS(BP, OPT(h, d, &one, A.desc, C.mem, 4, &one, B.desc, B.mem, 4, &zero, C.desc, C.mem, 8));
    FX_EXPECT_STATUS(BP, OPT(h, d, &one, A.desc, A.mem, 4, &one, B.desc, C.mem, 4, &zero, C.desc, C.mem, 4));
    fx_expect_untouched(&C, "C", "bad arguments");
    /* SQRT and NOT ignore B and alpha2 */
    cldnnOpTensorDescriptor_t sq = make_op(CLDNN_OP_TENSOR_SQRT, CLDNN_NOT_PROPAGATE_NAN);
    FX_OK(OPT(h, sq, &one, A.desc, A.mem, 4, NULL, NULL, NULL, 0, &zero, C.desc, C.mem, 4));
    fx_finish();
#undef OPT
    cldnnDestroyOpTensorDescriptor(sq);
    cldnnDestroyOpTensorDescriptor(d);
    cldnnDestroyOpTensorDescriptor(unset);
    cldnnDestroyTensorDescriptor(tunset);
    fx_tensor_free(&A);
    fx_tensor_free(&B);
    fx_tensor_free(&C);
    fx_tensor_free(&Bbad);
    fx_tensor_free(&A3);
    fx_tensor_free(&Ah);
    fx_tensor_free(&Ad);
    fx_tensor_free(&Cd);
}
