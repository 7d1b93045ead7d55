/*
** conv_descs.h: the cldnn descriptors of one row of a perf/shapes/conv-*.csv list (NCHW, float,
** cross-correlation), for cldnn-first-iter (perf/first_iter.c).
*/
#ifndef CLDNN_PERF_CONV_DESCS_H_
#define CLDNN_PERF_CONV_DESCS_H_

#include "cldnn.h"
#include "conv_shapes.h"

/* Creates and sets x (n c h w), y (n k p q), the filter (k c/groups r s) and the convolution
** descriptors of s. On failure returns the first failing call's status; what was created is in
** the outputs (NULL otherwise) for the caller to destroy. */
cldnnStatus_t conv_descs_create(const conv_shape* s, cldnnTensorDescriptor_t* xd, cldnnTensorDescriptor_t* yd,
                                cldnnFilterDescriptor_t* wd, cldnnConvolutionDescriptor_t* cd);

#endif /* CLDNN_PERF_CONV_DESCS_H_ */
