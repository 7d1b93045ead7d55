/*
** optensor.c: the `optensor` mode of cldnn-bench: cldnnOpTensor, C = op(alpha1 * A, alpha2 * B)
** + beta * C.
**
**   cldnn-bench optensor --op add|mul|min|max|sqrt|not|div [--a-dims AxB..] [--b-dims AxB..]
**                        [--A2 alpha2] [--nan 0|1] [common flags]
**
** C's dims are -D (or the common shape flags); A and B default to C's dims, and each may have 1
** wherever C has more (a broadcast). All three are packed in the -L layout. -A is alpha1, -B beta.
** Verification compares with a double computation done here from the rounded inputs; SQRT draws
** A in [0, 1), DIV draws B in [0.5, 2.5), everything else in [-1, 1).
**
** Bytes counted per call: C write + A read + B read (each its own size; B not for SQRT and NOT) +
** C read when beta != 0. The copy baseline copies C's size.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const bench_flag k_flags[] = {
    {"--op", BENCH_FLAG_STRING, "add", "add|mul|min|max|sqrt|not|div"},
    {"--a-dims", BENCH_FLAG_STRING, NULL, "A's dims AxBx.. (default C's, -D); 1 broadcasts"},
    {"--b-dims", BENCH_FLAG_STRING, NULL, "B's dims AxBx.. (default C's, -D); 1 broadcasts"},
    {"--A2", BENCH_FLAG_DOUBLE, "1", "alpha2 (B's scale)"},
    {"--nan", BENCH_FLAG_INT, "0", "1: min and max propagate NaN"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

static const struct {
    const char* name;
    cldnnOpTensorOp_t op;
} k_ops[] = {{"add", CLDNN_OP_TENSOR_ADD}, {"mul", CLDNN_OP_TENSOR_MUL},   {"min", CLDNN_OP_TENSOR_MIN},
             {"max", CLDNN_OP_TENSOR_MAX}, {"sqrt", CLDNN_OP_TENSOR_SQRT}, {"not", CLDNN_OP_TENSOR_NOT},
             {"div", CLDNN_OP_TENSOR_DIV}};
#define N_OPS (sizeof k_ops / sizeof k_ops[0])

typedef struct {
    cldnnHandle_t handle;
    cldnnOpTensorDescriptor_t od;
    float a1, a2, beta;
    cldnnTensorDescriptor_t ad, bd, cd;
    cl_mem a, b, c;
} op_call;

static cldnnStatus_t op_once(void* user) {
    op_call* k = user;
    return cldnnOpTensor(k->handle, k->od, &k->a1, k->ad, k->a, 0, &k->a2, k->bd, k->b, 0, &k->beta, k->cd, k->c, 0);
}

static double ref_op(cldnnOpTensorOp_t op, double a, double b) {
    switch (op) {
    case CLDNN_OP_TENSOR_ADD: return a + b;
    case CLDNN_OP_TENSOR_MUL: return a * b;
    case CLDNN_OP_TENSOR_MIN: return fmin(a, b);
    case CLDNN_OP_TENSOR_MAX: return fmax(a, b);
    case CLDNN_OP_TENSOR_SQRT: return sqrt(a);
    case CLDNN_OP_TENSOR_NOT: return 1.0 - a;
    default: return a / b;
    }
}

/* Reads flag `name` as dims broadcastable to C's (opts'), into v. 0, or 2 after printing why. */
static int operand_view(const bench_opts* o, const bench_args* args, const char* name, ref_view* v) {
    int64_t dims[CLDNN_DIM_MAX];
    int nd = o->nd;
    memcpy(dims, o->dims, sizeof dims);
    if (bench_arg_given(args, name)) {
        nd = bench_parse_dims(bench_arg_str(args, name), dims);
        int ok = nd == o->nd;
        for (int d = 0; ok && d < nd; d++) ok = dims[d] == o->dims[d] || dims[d] == 1;
        if (!ok) {
            fprintf(stderr, "cldnn-bench optensor: %s %s: expected %d dims, each C's (-D) or 1\n", name,
                    bench_arg_str(args, name), o->nd);
            return 2;
        }
    }
    *v = bench_view(nd, dims, o->layout);
    return 0;
}

/* Allocates n floats drawn uniform in [lo, hi) and rounded to the data type, and uploads them
** into a new buffer. 0, or 1 after printing why. */
static int make_input(bench_ctx* ctx, const bench_opts* o, ref_rng* rng, size_t n, double lo, double hi, float** h,
                      cl_mem* m) {
    if (!(*h = bench_alloc(n, sizeof **h)) || !(*m = bench_buffer(ctx, n * o->elem_size))) return 1;
    ref_fill_uniform(rng, *h, n, lo, hi);
    bench_round(o->dtype, *h, n);
    return bench_upload(ctx, *m, o->dtype, *h, n);
}

static int optensor_run(bench_ctx* ctx, const bench_opts* o, const bench_args* args) {
    const char* name = bench_arg_str(args, "--op");
    int which = -1;
    for (size_t k = 0; k < N_OPS; k++)
        if (strcmp(name, k_ops[k].name) == 0) which = (int)k;
    if (which < 0) {
        fprintf(stderr, "cldnn-bench optensor: --op %s: expected add, mul, min, max, sqrt, not or div\n", name);
        return 2;
    }
    const cldnnOpTensorOp_t op = k_ops[which].op;
    const int unary = op == CLDNN_OP_TENSOR_SQRT || op == CLDNN_OP_TENSOR_NOT;
    ref_view vc = bench_view(o->nd, o->dims, o->layout), va, vb;
    if (operand_view(o, args, "--a-dims", &va) || operand_view(o, args, "--b-dims", &vb)) return 2;

    bench_result res;
    bench_result_init(&res, "optensor", o);
    char sa[64], sb[64];
    bench_dims_str(va.nd, va.dims, sa, sizeof sa);
    bench_dims_str(vb.nd, vb.dims, sb, sizeof sb);
    if (unary) snprintf(res.op, sizeof res.op, "%.8s A=%.40s", name, sa);
    else snprintf(res.op, sizeof res.op, "%.8s A=%.40s B=%.40s", name, sa, sb);
    size_t nc = (size_t)ref_view_span(&vc), na = (size_t)ref_view_span(&va), nb = (size_t)ref_view_span(&vb);
    res.bytes = (double)o->elem_size * ((double)nc * (1 + (o->beta != 0)) + (double)na + (unary ? 0.0 : (double)nb));

    op_call c = {ctx->handle, NULL, (float)o->alpha, (float)bench_arg_double(args, "--A2", 1.0), (float)o->beta,
                 NULL, NULL, NULL, NULL, NULL, NULL};
    float *ha = NULL, *hb = NULL, *hprior = NULL, *got = NULL;
    double* want = NULL;
    int fail = 1;
    cldnnStatus_t st = cldnnCreateOpTensorDescriptor(&c.od);
    if (st == CLDNN_STATUS_SUCCESS)
        st = cldnnSetOpTensorDescriptor(c.od, op, CLDNN_DATA_FLOAT,
                                        bench_arg_int(args, "--nan", 0) ? CLDNN_PROPAGATE_NAN : CLDNN_NOT_PROPAGATE_NAN);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnSetOpTensorDescriptor", st);
        goto out;
    }
    if (!(c.ad = bench_desc(&va, o->dtype)) || !(c.bd = bench_desc(&vb, o->dtype)) || !(c.cd = bench_desc(&vc, o->dtype)))
        goto out;
    ref_rng rng;
    ref_rng_seed(&rng, o->seed + (uint64_t)which);
    const double alo = op == CLDNN_OP_TENSOR_SQRT ? 0.0 : -1.0, blo = op == CLDNN_OP_TENSOR_DIV ? 0.5 : -1.0;
    if (make_input(ctx, o, &rng, na, alo, 1.0, &ha, &c.a) || make_input(ctx, o, &rng, nb, blo, blo + 2.0, &hb, &c.b))
        goto out;
    if (!(got = bench_alloc(nc, sizeof *got)) || !(c.c = bench_buffer(ctx, nc * o->elem_size))) goto out;
    if (o->beta != 0) {
        if (!(hprior = bench_alloc(nc, sizeof *hprior))) goto out;
        ref_fill_uniform(&rng, hprior, nc, -1.0, 1.0);
        bench_round(o->dtype, hprior, nc);
        memcpy(got, hprior, nc * sizeof *got);
    } else {
        ref_fill_nan(got, nc);
    }
    if (bench_upload(ctx, c.c, o->dtype, got, nc)) goto out;

    int verify_failed = 0;
    if (o->verify) {
        st = op_once(&c);
        if (st != CLDNN_STATUS_SUCCESS) {
            fail = bench_note_status(&res, "cldnnOpTensor", st);
            bench_report(o, &res);
            goto out;
        }
        if (bench_download(ctx, c.c, o->dtype, got, nc)) goto out;
        int64_t count = ref_view_count(&vc);
        if (!(want = bench_alloc((size_t)count, sizeof *want))) goto out;
        const ref_view* views[3] = {&vc, &va, &vb};
        bench_walk w;
        bench_walk_init(&w, o->nd, o->dims, 3, views);
        for (int64_t i = 0; i < count; i++, bench_walk_next(&w)) {
            double f = ref_op(op, (double)c.a1 * ha[w.off[1]], (double)c.a2 * hb[w.off[2]]);
            want[i] = f + (o->beta != 0 ? o->beta * hprior[w.off[0]] : 0.0);
        }
        verify_failed = bench_check_result(o, &vc, got, want, &res);
    }
    if (o->time && bench_time_result(ctx, o, op_once, &c, nc * o->elem_size, &res)) {
        bench_report(o, &res);
        goto out;
    }
    bench_report(o, &res);
    fail = verify_failed;
out:
    bench_release(c.a);
    bench_release(c.b);
    bench_release(c.c);
    cldnnDestroyTensorDescriptor(c.ad);
    cldnnDestroyTensorDescriptor(c.bd);
    cldnnDestroyTensorDescriptor(c.cd);
    cldnnDestroyOpTensorDescriptor(c.od);
    free(ha);
    free(hb);
    free(hprior);
    free(got);
    free(want);
    return fail;
}

const bench_mode bench_mode_optensor = {"optensor", "op tensor: add, mul, min, max, sqrt, not, div (cldnnOpTensor)",
                                        k_flags, optensor_run, NULL};
