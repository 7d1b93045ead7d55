/*
** conv_descs.c: the cldnn descriptors of a conv_shape row (conv_descs.h).
*/
#include "conv_descs.h"

cldnnStatus_t conv_descs_create(const conv_shape* s, cldnnTensorDescriptor_t* xd, cldnnTensorDescriptor_t* yd,
                                cldnnFilterDescriptor_t* wd, cldnnConvolutionDescriptor_t* cd) {
    int P = 0, Q = 0;
    conv_shape_out(s, &P, &Q);
    *xd = NULL;
    *yd = NULL;
    *wd = NULL;
    *cd = NULL;
    cldnnStatus_t st;
    if ((st = cldnnCreateTensorDescriptor(xd)) || (st = cldnnCreateTensorDescriptor(yd)) ||
        (st = cldnnCreateFilterDescriptor(wd)) || (st = cldnnCreateConvolutionDescriptor(cd)) ||
        (st = cldnnSetTensor4dDescriptor(*xd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, s->n, s->c, s->h, s->w)) ||
        (st = cldnnSetTensor4dDescriptor(*yd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, s->n, s->k, P, Q)) ||
        (st = cldnnSetFilter4dDescriptor(*wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, s->k, s->c / s->groups, s->r,
                                         s->s)) ||
        (st = cldnnSetConvolution2dDescriptor(*cd, s->pad_h, s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w,
                                              CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT)) ||
        (st = cldnnSetConvolutionGroupCount(*cd, s->groups)))
        return st;
    return CLDNN_STATUS_SUCCESS;
}
