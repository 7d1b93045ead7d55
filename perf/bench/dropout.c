/*
** dropout.c: the `dropout` mode of cldnn-bench: cldnnDropoutForward and cldnnDropoutBackward.
**
**   cldnn-bench dropout [-p P] [--dir fwd|bwd] [--reserve 0|1] [--offset N] [--drop-seed S] [common flags]
**
** x (or dy) is the tensor of the common flags, drawn uniform in [-1, 1) and rounded to the data
** type; y (or dx) has the same layout. --reserve 1 stores the mask (one byte per element) in the
** forward and reads it in the backward, which then gets its reserve from one un-timed forward;
** --reserve 0 regenerates the mask. Verification compares with in * mask * (1 / (1 - p)), the mask
** from the host build of the kernels' Philox (kernels/common/philox.h) at each logical index.
** -A and -B are not arguments of these calls.
**
** Bytes counted per call: the input read + the output write, plus the reserve (one byte per
** element) written (fwd) or read (bwd) when --reserve 1. The copy baseline copies the input's size.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/common/philox.h"
#include "common.h"

static const bench_flag k_flags[] = {
    {"-p", BENCH_FLAG_DOUBLE, "0.1", "dropout probability in [0, 1)"},
    {"--dir", BENCH_FLAG_STRING, "fwd", "fwd|bwd"},
    {"--reserve", BENCH_FLAG_INT, "1", "1: store the mask in a reserve (fwd) and read it (bwd); 0: regenerate it"},
    {"--offset", BENCH_FLAG_INT, "0", "the generator's offset"},
    {"--drop-seed", BENCH_FLAG_INT, "1234", "the generator's seed (the dropout descriptor's; --seed is the data's)"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

typedef struct {
    cldnnHandle_t handle;
    cldnnDropoutDescriptor_t dd;
    int fwd;
    cldnnTensorDescriptor_t desc;
    cl_mem in, out, reserve;
    size_t rsize;
} drop_call;

static cldnnStatus_t drop_once(void* user) {
    drop_call* c = user;
    size_t rs = c->reserve ? c->rsize : 0;
    return c->fwd ? cldnnDropoutForward(c->handle, c->dd, c->desc, c->in, 0, c->desc, c->out, 0, c->reserve, 0, rs)
                  : cldnnDropoutBackward(c->handle, c->dd, c->desc, c->in, 0, c->desc, c->out, 0, c->reserve, 0, rs);
}

static int dropout_run(bench_ctx* ctx, const bench_opts* o, const bench_args* args) {
    const double p = bench_arg_double(args, "-p", 0.1);
    const char* dir = bench_arg_str(args, "--dir");
    if (strcmp(dir, "fwd") != 0 && strcmp(dir, "bwd") != 0) {
        fprintf(stderr, "cldnn-bench dropout: --dir %s: expected fwd or bwd\n", dir);
        return 2;
    }
    const int fwd = strcmp(dir, "fwd") == 0, use_reserve = bench_arg_int(args, "--reserve", 1) != 0;
    const uint64_t offset = (uint64_t)bench_arg_int(args, "--offset", 0);
    const uint64_t seed = (uint64_t)bench_arg_int(args, "--drop-seed", 1234);
    bench_result res;
    bench_result_init(&res, "dropout", o);
    res.alpha = 1;
    res.beta = 0;
    snprintf(res.op, sizeof res.op, "%s p=%g%s", dir, p, use_reserve ? " reserve" : "");
    ref_view v = bench_view(o->nd, o->dims, o->layout);
    const size_t n = (size_t)ref_view_span(&v);
    const int64_t count = ref_view_count(&v);
    drop_call c = {ctx->handle, NULL, fwd, NULL, NULL, NULL, NULL, (size_t)count};
    res.bytes = 2.0 * (double)n * (double)o->elem_size + (use_reserve ? (double)count : 0.0);
    float *hin = NULL, *got = NULL;
    double* want = NULL;
    int fail = 1;
    cldnnStatus_t st = cldnnCreateDropoutDescriptor(&c.dd);
    if (st == CLDNN_STATUS_SUCCESS) st = cldnnSetDropoutDescriptor(c.dd, (float)p, seed, offset);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnSetDropoutDescriptor", st);
        goto out;
    }
    if (!(c.desc = bench_desc(&v, o->dtype)) || !(c.in = bench_buffer(ctx, n * o->elem_size)) ||
        !(c.out = bench_buffer(ctx, n * o->elem_size)) || (use_reserve && !(c.reserve = bench_buffer(ctx, c.rsize))))
        goto out;
    if (!(hin = bench_alloc(n, sizeof *hin)) || !(got = bench_alloc(n, sizeof *got))) goto out;
    ref_rng rng;
    ref_rng_seed(&rng, o->seed);
    ref_fill_uniform(&rng, hin, n, -1.0, 1.0);
    bench_round(o->dtype, hin, n);
    ref_fill_nan(got, n);
    if (bench_upload(ctx, c.in, o->dtype, hin, n) || bench_upload(ctx, c.out, o->dtype, got, n)) goto out;
    if (!fwd && use_reserve) { /* the backward's reserve comes from a forward (its output lands in out) */
        c.fwd = 1;
        st = drop_once(&c);
        c.fwd = 0;
        if (st != CLDNN_STATUS_SUCCESS) {
            fail = bench_note_status(&res, "cldnnDropoutForward", st);
            bench_report(o, &res);
            goto out;
        }
        if (bench_upload(ctx, c.out, o->dtype, got, n)) goto out;
    }

    int verify_failed = 0;
    if (o->verify) {
        st = drop_once(&c);
        if (st != CLDNN_STATUS_SUCCESS) {
            fail = bench_note_status(&res, fwd ? "cldnnDropoutForward" : "cldnnDropoutBackward", st);
            bench_report(o, &res);
            goto out;
        }
        if (bench_download(ctx, c.out, o->dtype, got, n)) goto out;
        if (!(want = bench_alloc((size_t)count, sizeof *want))) goto out;
        const uint32_t gen[4] = {(uint32_t)seed, (uint32_t)(seed >> 32), (uint32_t)offset, (uint32_t)(offset >> 32)};
        const uint32_t thresh = (uint32_t)floor((double)(float)p * 4294967296.0);
        const float scale = (float)(1.0 / (1.0 - (double)(float)p));
        uint32_t blk[4] = {0, 0, 0, 0};
        uint64_t cached = ~(uint64_t)0;
        const ref_view* views[1] = {&v};
        bench_walk w;
        bench_walk_init(&w, o->nd, o->dims, 1, views);
        for (int64_t i = 0; i < count; i++, bench_walk_next(&w)) {
            int keep = philox_dropout_keep(blk, &cached, gen, thresh, (uint64_t)i);
            want[i] = (double)(hin[w.off[0]] * ((float)keep * scale));
        }
        verify_failed = bench_check_result(o, &v, got, want, &res);
    }
    if (o->time && bench_time_result(ctx, o, drop_once, &c, n * o->elem_size, &res)) {
        bench_report(o, &res);
        goto out;
    }
    bench_report(o, &res);
    fail = verify_failed;
out:
    bench_release(c.in);
    bench_release(c.out);
    bench_release(c.reserve);
    cldnnDestroyTensorDescriptor(c.desc);
    cldnnDestroyDropoutDescriptor(c.dd);
    free(hin);
    free(got);
    free(want);
    return fail;
}

const bench_mode bench_mode_dropout = {"dropout", "dropout forward and backward (cldnnDropoutForward, ...)", k_flags,
                                       dropout_run, NULL};
