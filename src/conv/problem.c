/*
** problem.c: facts derived from a convolution problem that the solvers and the family's loops
** share: its GEMM-equivalent sizes and the bytes of backward-filter's split partial sums.
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
