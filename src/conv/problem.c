/*
** problem.c: facts derived from a convolution problem that the solvers and the family's loops
** share: its GEMM-equivalent sizes, the bytes of backward-filter's split partial sums, and the
** argument lists its kernels share (kernels/common/conv_index.h).
*/
#include "conv/conv.h"

void cldnn_conv_gemm_dims(const cldnn_conv_problem* p, int64_t* m, int64_t* n, int64_t* k) {
    switch (p->dir) {
    case CLDNN_CONV_FWD:
        *m = (int64_t)p->n * p->p * p->q, *n = p->kg, *k = (int64_t)p->cg * p->r * p->s;
        break;
    case CLDNN_CONV_BWD_DATA:
        *m = (int64_t)p->n * p->h * p->w, *n = p->cg, *k = (int64_t)p->kg * p->r * p->s;
        break;
    default:
        *m = p->kg, *n = (int64_t)p->cg * p->r * p->s, *k = (int64_t)p->n * p->p * p->q;
        break;
    }
}

size_t cldnn_conv_partials_bytes(const cldnn_conv_problem* p, int splits) {
    if (splits <= 1)
        return 0;
    return (size_t)splits * (size_t)p->k * (size_t)p->cg * (size_t)p->r * (size_t)p->s * 4u;
}

cldnn_conv_values cldnn_conv_values_of(const cldnn_conv_problem* p) {
    /* The problem keeps strides as int64_t; every one the kernels index with is below 2^31. */
    cldnn_conv_values v = {p->k, p->h, p->w, p->p, p->q, p->r, p->s, p->cg, p->kg, p->pad_h, p->pad_w, p->u, p->v,
                           p->dil_h, p->dil_w, p->flip, p->off_x, p->off_w, p->off_y,
                           {{(cl_int)p->xs[0], (cl_int)p->xs[1], (cl_int)p->xs[2], (cl_int)p->xs[3]}},
                           {{(cl_int)p->ys[0], (cl_int)p->ys[1], (cl_int)p->ys[2], (cl_int)p->ys[3]}}};
    return v;
}

cldnnStatus_t cldnn_conv_geometry_args(cl_kernel k, cl_uint first, const cldnn_conv_problem* p) {
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    /* CONV_GEOMETRY_ARGS (kernels/common/conv_index.h), in its order. */
    return CLDNN_KERNEL_ARGS(k, first, CLDNN_ARG(v.H), CLDNN_ARG(v.Wd), CLDNN_ARG(v.P), CLDNN_ARG(v.Q),
                             CLDNN_ARG(v.R), CLDNN_ARG(v.S), CLDNN_ARG(v.Cg), CLDNN_ARG(v.Kg), CLDNN_ARG(v.pad_h),
                             CLDNN_ARG(v.pad_w), CLDNN_ARG(v.su), CLDNN_ARG(v.sv), CLDNN_ARG(v.dil_h),
                             CLDNN_ARG(v.dil_w), CLDNN_ARG(v.flip), CLDNN_ARG(v.xs), CLDNN_ARG(v.ys));
}

cldnnStatus_t cldnn_conv_divisor_args(cl_kernel k, cl_uint first, const cldnn_conv_problem* p, int tap_div) {
    /* CONV_DIVISOR_ARGS (kernels/common/conv_index.h), in its order. The GEMM's pixel index runs
    ** over dx's planes in backward-data, over y's (dy's) otherwise. */
    const int plane_rows = p->dir == CLDNN_CONV_BWD_DATA ? p->h : p->p;
    const int plane_cols = p->dir == CLDNN_CONV_BWD_DATA ? p->w : p->q;
    cl_uint4 dv_plane = cldnn_fastdiv((uint32_t)(plane_rows * plane_cols));
    cl_uint4 dv_row = cldnn_fastdiv((uint32_t)plane_cols);
    cl_uint4 dv_tap = cldnn_fastdiv((uint32_t)tap_div);
    cl_uint4 dv_s = cldnn_fastdiv((uint32_t)p->s);
    cl_uint4 dv_u = cldnn_fastdiv((uint32_t)p->u);
    cl_uint4 dv_v = cldnn_fastdiv((uint32_t)p->v);
    return CLDNN_KERNEL_ARGS(k, first, CLDNN_ARG(dv_plane), CLDNN_ARG(dv_row), CLDNN_ARG(dv_tap), CLDNN_ARG(dv_s),
                             CLDNN_ARG(dv_u), CLDNN_ARG(dv_v));
}
