/*
** eltwise.h: the elementwise family (tensor/eltwise.c), on which activations and the tensor
** ops are built.
*/
#ifndef CLDNN_ELTWISE_H_
#define CLDNN_ELTWISE_H_

#include "tensor/tensor.h"

/* ------------------------------------------------------------ elementwise (tensor/eltwise.c) */

/* The elementwise family: out = alpha * f(a, b) + beta * out over tensors of one logical shape,
** each operand with its own strides (stride 0 broadcasts). Serves activations and tensor ops. */
typedef enum {
    CLDNN_ELT_ACT_FWD = 0,  /* f = act(a)                         a = x            */
    CLDNN_ELT_ACT_BWD = 1,  /* f = act'(a) * b                    a = x or y, b = dy */
    CLDNN_ELT_AXPBY = 2,    /* f = a                              add, transform, scale */
    CLDNN_ELT_SET = 3       /* f = value, alpha = 1, beta = 0    set */
} cldnn_elt_op;

typedef struct {
    cldnn_elt_op op;
    int act_mode;            /* cldnnActivationMode_t */
    int nan_prop;
    float coef, coef2;       /* activation coef and swish beta, or the SET value in coef */
    float alpha, beta;
    cldnnDataType_t dtype;
    int nd;                  /* after collapsing: >= 1 */
    int64_t dims[CLDNN_DIM_MAX];
    int64_t strides[3][CLDNN_DIM_MAX]; /* [0] out, [1] a, [2] b */
    int64_t count;
    int nops;                /* operands in use: 1 (set), 2, or 3 */
    uint64_t offset[3];      /* elements */
    uint64_t span[3];        /* elements each operand's view covers */
} cldnn_elt_problem;

typedef struct {
    cl_mem mem[3];
} cldnn_elt_buffers;

/* Builds a problem from full-rank views (dims of the output, per-operand strides), collapsing
** dimensions that are contiguous in every operand and dropping size-1 ones. */
void cldnn_elt_problem_init(cldnn_elt_problem* p, cldnn_elt_op op, cldnnDataType_t dtype, int nd,
                            const int64_t* dims, int nops, const int64_t* const* strides, const size_t* byte_offsets);
/* Runs the problem through the elementwise solver table. `key` names it in logs and errors. */
cldnnStatus_t cldnn_elt_run(cldnnHandle_t h, const cldnn_elt_problem* p, const cldnn_elt_buffers* b,
                            const char* key);

#endif /* CLDNN_ELTWISE_H_ */
