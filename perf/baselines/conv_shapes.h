/*
** conv_shapes.h: the convolution shape lists of perf/shapes/conv-*.csv, read the same way by
** `cldnn-bench conv --shapes` and by the convolution baselines of perf/baselines/ (cudnn_conv),
** and the one result line that all of them print, so that perf/merge.py conv can join the
** tools' outputs row by row.
**
** File format: a header line naming the columns, then one convolution per line, comma-separated:
**   name,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups
** Columns are found by name (any order; extra columns are ignored). x is n x c x h x w, the filter
** k x (c / groups) x r x s (r rows, s columns), y n x k x p x q. name identifies the row in the
** results: 1 to 63 printable characters without blanks, unique in the file (by convention
** "<net>/<layer>"). Every number is an integer in 1 .. 2^24 except the pads (0 .. 2^24); c and
** k are multiples of groups and the output is not empty (p, q >= 1). Blank lines and lines
** starting with '#' are skipped.
**
** Result line (one per shape and direction; fields separated by one space):
**   RESULT <lib> <dir> <name> <n>x<c>x<h>x<w> k<k> <r>x<s> p<pad_h>x<pad_w> u<stride_h>x<stride_w>
**          d<dil_h>x<dil_w> g<groups> <algo> <ms> <tflops>
** (on one line). dir is fwd, bwd-data or bwd-filter; ms is the time of one call, tflops
** conv_shape_flops / time / 1e12; a failed measurement prints FAIL in both and, by convention,
** a short reason token as algo.
*/
#ifndef CLDNN_CONV_SHAPES_H_
#define CLDNN_CONV_SHAPES_H_

#include <stdio.h>

/* One row of a shape file (see the file comment for the ranges the reader guarantees). */
typedef struct {
    char name[64];
    int n, c, h, w, k, r, s, pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
} conv_shape;

/* Reads a CSV with header line `name,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups`
** (blank lines and lines starting with # ignored); *out is malloc'd; returns the count, or -1
** after printing why (file:line). Validates every field (>= 1 except pads >= 0; c and k divisible
** by groups). The count is at least 1; on -1, *out is NULL. The caller frees *out. */
int conv_shapes_read(const char* path, conv_shape** out);

/* FLOPs of one direction of the shape as the direct convolution counts them:
** 2*N*K*P*Q*(C/groups)*R*S. P, Q from the usual formula. The same count for fwd, bwd-data and
** bwd-filter. */
double conv_shape_flops(const conv_shape* s);

/* The output height *p and width *q: (h + 2 pad_h - dil_h (r - 1) - 1) / stride_h + 1, and the same
** along w; 0 where the dilated filter does not fit the padded input. Either pointer may be NULL. */
void conv_shape_out(const conv_shape* s, int* p, int* q);

/* Prints `RESULT <lib> <dir> <name> <n>x<c>x<h>x<w> k<k> <r>x<s> p<ph>x<pw> u<sh>x<sw> d<dh>x<dw> g<g>
** <algo> <ms> <tflops>` on one line to f. dir is fwd, bwd-data or bwd-filter; ms < 0 prints
** `FAIL` in ms and tflops (so does any ms that is not a positive number). Blanks in lib, dir and
** algo become '_' and an empty or NULL algo prints '-', so the line always has 14 fields. Flushes f. */
void conv_result_print(FILE* f, const char* lib, const char* dir, const conv_shape* s, const char* algo, double ms);

#endif /* CLDNN_CONV_SHAPES_H_ */
