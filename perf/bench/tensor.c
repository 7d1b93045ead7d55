/*
** tensor.c: the `tensor` mode of cldnn-bench: cldnnAddTensor, cldnnSetTensor, cldnnScaleTensor
** and cldnnTransformTensor.
**
**   cldnn-bench tensor -o add|set|scale|transform|all [-b 0|1] [common flags]
**
** The tensor of the common flags is C (add), y (set, scale) or x (transform). add: C = alpha * A
** + beta * C with A of C's shape, or with -b 1 a bias broadcast of shape 1 x C x 1 x ... (only
** dim 1 kept; a 1-d C gets a 1-element A). set: y = alpha (the -A value). scale: y = alpha * y.
** transform: y = alpha * x + beta * y with x in the -L layout and y in the other one (NCHW ->
** NHWC by default), same dims.
**
** Each operation gets its own buffers and host arrays (allocated, verified, timed, released),
** so the peak memory is that of one operation. Verification compares with a double
** computation done here (these operations have no transcendental part; ref.h supplies the views,
** the random fill and the comparison).
**
** Bytes counted per call: add C write + A read (A's own size) + C read when beta != 0; set y
** write; scale y read + write; transform x read + y write + y read when beta != 0.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const bench_flag k_flags[] = {
    {"-o", BENCH_FLAG_STRING, "add", "add|set|scale|transform|all"},
    {"-b", BENCH_FLAG_INT, "0", "add: 1 broadcasts A of shape 1 x C x 1 x 1 (bias), 0 A of C's shape"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

typedef enum { OP_ADD = 0, OP_SET = 1, OP_SCALE = 2, OP_TRANSFORM = 3, N_OPS = 4 } tensor_op;
static const char* const k_op_names[N_OPS] = {"add", "set", "scale", "transform"};

/* One operation's descriptors and buffers: `in` is A (add) or x (transform), `out` is C or y. */
typedef struct {
    cldnnHandle_t handle;
    tensor_op op;
    float alpha, beta;
    cldnnTensorDescriptor_t in_desc, out_desc;
    cl_mem in, out;
} tensor_call;

/* Enqueues one call of the operation. */
static cldnnStatus_t tensor_once(void* user) {
    tensor_call* c = user;
    switch (c->op) {
    case OP_ADD: return cldnnAddTensor(c->handle, &c->alpha, c->in_desc, c->in, 0, &c->beta, c->out_desc, c->out, 0);
    case OP_SET: return cldnnSetTensor(c->handle, c->out_desc, c->out, 0, &c->alpha);
    case OP_SCALE: return cldnnScaleTensor(c->handle, c->out_desc, c->out, 0, &c->alpha);
    case OP_TRANSFORM:
        return cldnnTransformTensor(c->handle, &c->alpha, c->in_desc, c->in, 0, &c->beta, c->out_desc, c->out, 0);
    default: return CLDNN_STATUS_BAD_PARAM;
    }
}

/* The function names, for messages. */
static const char* const k_call_names[N_OPS] = {"cldnnAddTensor", "cldnnSetTensor", "cldnnScaleTensor",
                                                "cldnnTransformTensor"};

/* Runs (verifies, times, reports) one operation; returns 1 when it failed, else 0. */
static int tensor_one(bench_ctx* ctx, const bench_opts* o, tensor_op op, int bcast) {
    bench_result res;
    bench_result_init(&res, "tensor", o);
    ref_view vout = bench_view(o->nd, o->dims, o->layout), vin = vout;
    int has_in = op == OP_ADD || op == OP_TRANSFORM;
    /* reads the prior output: scale always, add/transform when beta != 0 */
    int reads_out = op == OP_SCALE || (op != OP_SET && o->beta != 0);
    if (op == OP_ADD && bcast) {
        int64_t ad[CLDNN_DIM_MAX];
        for (int d = 0; d < o->nd; d++) ad[d] = (d == 1) ? o->dims[1] : 1;
        vin = bench_view(o->nd, ad, o->layout);
        char s[64];
        bench_dims_str(o->nd, ad, s, sizeof s);
        snprintf(res.op, sizeof res.op, "add A=%s", s);
    } else if (op == OP_TRANSFORM) {
        cldnnTensorFormat_t other = o->layout == CLDNN_TENSOR_NHWC ? CLDNN_TENSOR_NCHW : CLDNN_TENSOR_NHWC;
        vout = bench_view(o->nd, o->dims, other);
        snprintf(res.op, sizeof res.op, "transform %s->%s", bench_layout_name(o->layout), bench_layout_name(other));
    } else {
        snprintf(res.op, sizeof res.op, "%s", k_op_names[op]);
    }
    if (op == OP_SET || op == OP_SCALE) res.beta = 0;   /* not an argument of these calls */
    size_t nout = (size_t)ref_view_span(&vout), nin = (size_t)ref_view_span(&vin);
    size_t out_bytes = nout * o->elem_size, in_bytes = nin * o->elem_size;
    res.bytes = (double)out_bytes * (1 + reads_out) + (has_in ? (double)in_bytes : 0);

    tensor_call c = {ctx->handle, op, (float)o->alpha, (float)o->beta, NULL, NULL, NULL, NULL};
    float *hin = NULL, *hprior = NULL, *got = NULL;
    double* want = NULL;
    int fail = 1, verify_failed = 0;
    if (!(c.out_desc = bench_desc(&vout, o->dtype)) || !(c.out = bench_buffer(ctx, out_bytes))) goto out;
    if (has_in && (!(c.in_desc = bench_desc(&vin, o->dtype)) || !(c.in = bench_buffer(ctx, in_bytes)))) goto out;

    ref_rng rng;
    ref_rng_seed(&rng, o->seed + (uint64_t)op);
    if (has_in) {
        if (!(hin = bench_alloc(nin, sizeof *hin))) goto out;
        ref_fill_uniform(&rng, hin, nin, -1.0, 1.0);
        bench_round(o->dtype, hin, nin);
        if (bench_upload(ctx, c.in, o->dtype, hin, nin)) goto out;
    }
    if (!(got = bench_alloc(nout, sizeof *got))) goto out;
    if (reads_out) {
        if (!(hprior = bench_alloc(nout, sizeof *hprior))) goto out;
        ref_fill_uniform(&rng, hprior, nout, -1.0, 1.0);
        bench_round(o->dtype, hprior, nout);
        memcpy(got, hprior, nout * sizeof *got);
    } else {
        ref_fill_nan(got, nout);
    }
    if (bench_upload(ctx, c.out, o->dtype, got, nout)) goto out;

    if (o->verify) {
        cldnnStatus_t st = tensor_once(&c);
        if (st != CLDNN_STATUS_SUCCESS) {
            bench_print_status(k_call_names[op], st);
            snprintf(res.note, sizeof res.note, "%s: %s", k_call_names[op], cldnnGetErrorString(st));
            fail = CLDNN_STATUS_CATEGORY(st) != CLDNN_STATUS_NOT_SUPPORTED;
            bench_report(o, &res);
            goto out;
        }
        if (bench_download(ctx, c.out, o->dtype, got, nout)) goto out;
        if (!(want = bench_alloc((size_t)ref_view_count(&vout), sizeof *want))) goto out;
        const ref_view* views[2] = {&vout, &vin};
        bench_walk w;
        bench_walk_init(&w, o->nd, o->dims, 2, views);
        int64_t count = ref_view_count(&vout);
        for (int64_t i = 0; i < count; i++, bench_walk_next(&w)) {
            int64_t oo = w.off[0], io = w.off[1];
            double v;
            switch (op) {
            case OP_SET: v = (double)c.alpha; break;
            case OP_SCALE: v = o->alpha * hprior[oo]; break;
            default: v = o->alpha * hin[io] + (o->beta != 0 ? o->beta * hprior[oo] : 0.0); break;
            }
            want[i] = v;
        }
        verify_failed = bench_check_result(o, &vout, got, want, &res);
    }
    if (o->time) {
        if (bench_time_us(ctx, o, tensor_once, &c, &res.us)) {
            res.us = -1;
            snprintf(res.note, sizeof res.note, "timed call failed");
            bench_report(o, &res);
            goto out;
        }
        if (bench_copy_gbs(ctx, o, out_bytes, &res.copy_gbs)) res.copy_gbs = -1;
    }
    bench_report(o, &res);
    fail = verify_failed;
out:
    bench_release(c.in);
    bench_release(c.out);
    cldnnDestroyTensorDescriptor(c.in_desc);
    cldnnDestroyTensorDescriptor(c.out_desc);
    free(hin);
    free(hprior);
    free(got);
    free(want);
    return fail;
}

/* The mode's run function (see bench_mode). */
static int tensor_run(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    const char* name = bench_arg_str(args, "-o");
    int all = strcmp(name, "all") == 0, which = -1;
    for (int k = 0; k < N_OPS; k++)
        if (strcmp(name, k_op_names[k]) == 0) which = k;
    if (!all && which < 0) {
        fprintf(stderr, "cldnn-bench tensor: -o %s: expected add, set, scale, transform or all\n", name);
        return 2;
    }
    int bcast = bench_arg_int(args, "-b", 0) != 0;
    int fails = 0;
    for (int k = 0; k < N_OPS; k++)
        if (all || k == which) fails += tensor_one(ctx, opts, (tensor_op)k, bcast);
    return fails ? 1 : 0;
}

const bench_mode bench_mode_tensor = {"tensor", "add, set, scale, transform (cldnnAddTensor, ...)", k_flags,
                                      tensor_run, NULL};
