/*
** gemm_shapes.h: the GEMM shape lists of perf/shapes/ (CSV files), read the same way by
** `cldnn-bench gemm --shapes` and by the baselines of perf/baselines/ (cuBLAS, CLBlast, OpenBLAS),
** so that every tool runs exactly the same rows in the same order; plus the few helpers the
** baselines share (median, timing clock, the random fill block, the result line, half
** conversions).
**
** File format: a header line naming the columns, then one shape per line, comma-separated:
**   m,n,k,a_t,b_t[,batch][,anything else]
** Columns are found by name (any order; unknown columns are ignored). a_t and b_t are N or T
** (also n, t, 0, 1) with cuBLAS column-major semantics: C (m x n) = op(A) op(B), op(A) m x k.
** batch is optional (default 1). Blank lines and lines starting with '#' are skipped.
**
** Result line of every baseline (one per shape, fields separated by one space):
**   <tool> m n k a_t b_t batch ms tflops iters
** with ms the median time per call and tflops = 2 m n k batch / time / 1e12; a failed shape
** prints '-' for ms, tflops and iters and appends the reason after them.
*/
#ifndef CLDNN_GEMM_SHAPES_H_
#define CLDNN_GEMM_SHAPES_H_

#include <stddef.h>
#include <stdint.h>

/* One row of a shape file. */
typedef struct {
    int64_t m, n, k;        /* >= 1 */
    int ta, tb;             /* 1: op is a transpose */
    int64_t batch;          /* >= 1 */
    int line;               /* line number in the file, for messages */
} gemm_shape;

/* Reads the shape file at path into a malloc'd array (*out, *count rows, at least one).
** Returns 0, or 1 after writing why (with the file name and line) into err. */
int gemm_shapes_read(const char* path, gemm_shape** out, int* count, char* err, size_t errsize);

/* Seconds on the monotonic clock. */
double gemm_now_s(void);

/* The median of n values (sorts v in place); n >= 1. */
double gemm_median(double* v, int n);

/* Elements in the random fill block: a prime, so a buffer filled by repeating the block (value
** at element offset o = block[o % GEMM_BLOCK]) has no power-of-two period. */
#define GEMM_BLOCK 1048573

/* Fills n floats uniformly in [-1, 1) from a xorshift64* stream seeded with seed. */
void gemm_fill_block(float* p, size_t n, uint64_t seed);

/* Prints the result line above for shape s (ms <= 0: the failed form with `why`). */
void gemm_print_result(const char* tool, const gemm_shape* s, double ms, long long iters, const char* why);

/* Timed iterations per repetition for a per-call time of `per_call_s` so that `reps`
** repetitions take about `target_ms` in all: at least 1, at most 100000. */
long long gemm_iters_for(double per_call_s, double target_ms, int reps);

/* IEEE binary16 bits of f, rounded to nearest even (overflow to inf, NaN kept quiet), and the
** float value of binary16 bits h: half data of cldnn-bench and the FP16 baselines. */
uint16_t gemm_float_to_half(float f);
float gemm_half_to_float(uint16_t h);
/* bfloat16 bits of f (the high half, rounded to nearest even; NaN kept quiet) and the float value
** of bfloat16 bits: the BF16 baselines' data. */
uint16_t gemm_float_to_bf16(float f);
float gemm_bf16_to_float(uint16_t h);
#endif /* CLDNN_GEMM_SHAPES_H_ */
