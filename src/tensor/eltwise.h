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
    CLDNN_ELT_SET = 3,      /* f = value, alpha = 1, beta = 0    set */
    CLDNN_ELT_BINARY = 4,   /* f = binop(coef * a, coef2 * b)    op tensor (b unused by SQRT, NOT) */
    CLDNN_ELT_DROPOUT = 5   /* f = a * mask * coef               dropout; b: the mask's index */
} cldnn_elt_op;

/* How CLDNN_ELT_DROPOUT gets its mask. Operand b always has the packed row-major strides of the
** logical shape (its index is the element's logical index); it is the reserve (bytes, offset in
** bytes) or, with no reserve, an alias of out that is never accessed. */
typedef enum {
    CLDNN_ELT_MASK_GENERATE = 0, /* Philox from gen and threshold */
    CLDNN_ELT_MASK_STORE = 1,    /* generate and store 0/1 bytes into b */
    CLDNN_ELT_MASK_READ = 2      /* read b */
} cldnn_elt_mask_mode;

typedef struct {
    cldnn_elt_op op;
    int act_mode;            /* cldnnActivationMode_t */
    int nan_prop;
    float coef, coef2;       /* activation coef and swish beta, or the SET value in coef */
    float alpha, beta;
    int binop;               /* CLDNN_ELT_BINARY: cldnnOpTensorOp_t (a build option) */
    int mask_mode;           /* CLDNN_ELT_DROPOUT: cldnn_elt_mask_mode (a build option) */
    uint32_t gen[4];         /* CLDNN_ELT_DROPOUT: seed low, high, offset low, high */
    uint32_t threshold;      /* CLDNN_ELT_DROPOUT: kept when the Philox word >= threshold */
    cldnnDataType_t dtype;
    int nd;                  /* after collapsing: >= 1 */
    int64_t dims[CLDNN_DIM_MAX];
    int64_t strides[3][CLDNN_DIM_MAX]; /* [0] out, [1] a, [2] b */
    int64_t count;
    int nops;                /* operands in use: 1 (set), 2, or 3 */
    uint64_t offset[3];      /* elements (bytes for a dropout reserve) */
    uint64_t span[3];        /* elements each operand's view covers */
} cldnn_elt_problem;

typedef struct {
    cl_mem mem[3];
} cldnn_elt_buffers;

/* Builds a problem from full-rank views (dims of the output, per-operand strides), collapsing
** dimensions that are contiguous in every operand and dropping size-1 ones. */
void cldnn_elt_problem_init(cldnn_elt_problem* p, cldnn_elt_op op, cldnnDataType_t dtype, int nd,
                            const int64_t* dims, int nops, const int64_t* const* strides, const size_t* byte_offsets);
/* BAD_PARAM when `out` (descriptor, buffer, byte offset) overlaps input `in` without being the
** very same view (equal dims, strides and offset: an in-place call); SUCCESS otherwise. */
cldnnStatus_t cldnn_elt_check_alias(const struct cldnnTensorStruct* out, cl_mem om, size_t ooff, const char* oname,
                                    const struct cldnnTensorStruct* in, cl_mem im, size_t ioff, const char* iname);
/* in's strides against out's dims: in's own where the dims agree, 0 where in has 1 (a broadcast),
** BAD_PARAM_SHAPE_MISMATCH naming both where neither (or the ranks differ). *broadcast (may be
** NULL) says whether any dim was broadcast. */
cldnnStatus_t cldnn_elt_broadcast_strides(const struct cldnnTensorStruct* in, const char* iname,
                                          const struct cldnnTensorStruct* out, const char* oname, int64_t* strides,
                                          int* broadcast);
/* Runs the problem through the elementwise solver table. `key` names it in logs and errors. */
cldnnStatus_t cldnn_elt_run(cldnnHandle_t h, const cldnn_elt_problem* p, const cldnn_elt_buffers* b,
                            const char* key);

#endif /* CLDNN_ELTWISE_H_ */
