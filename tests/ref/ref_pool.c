/*
** ref_pool.c: the double-precision 2-d pooling reference (semantics in ref_pool.h).
**
** Written straight from the definition, one output or input element at a time: the forward
** walks each window, the backward walks each window and hands its gradient to the taps it
** owns (scatter), the opposite direction from the library's gather, so the two cannot share a
** mistake in the covering-window arithmetic.
*/
#include "ref_pool.h"

#include <math.h>
#include <string.h>

int ref_pool_init(ref_pool* p, int mode, int nan, int64_t n, int64_t c, int64_t h, int64_t w, int64_t wh,
                  int64_t ww, int64_t ph, int64_t pw, int64_t sh, int64_t sw) {
    memset(p, 0, sizeof *p);
    if (wh < 1 || ww < 1 || sh < 1 || sw < 1 || ph < 0 || pw < 0 || ph >= wh || pw >= ww)
        return 0;
    if (h + 2 * ph < wh || w + 2 * pw < ww)
        return 0;
    p->mode = mode;
    p->nan = nan;
    p->n = n;
    p->c = c;
    p->h = h;
    p->w = w;
    p->wh = wh;
    p->ww = ww;
    p->ph = ph;
    p->pw = pw;
    p->sh = sh;
    p->sw = sw;
    p->oh = 1 + (h + 2 * ph - wh) / sh;
    p->ow = 1 + (w + 2 * pw - ww) / sw;
    return 1;
}

static int is_max(const ref_pool* p) { return p->mode == 0 || p->mode == 3; }

/* Element (n, c, h, w) of a 4-d view. */
static int64_t at4(const ref_view* v, int64_t n, int64_t c, int64_t h, int64_t w) {
    return n * v->strides[0] + c * v->strides[1] + h * v->strides[2] + w * v->strides[3];
}

/* The clipped window of output (oh, ow): rows [*hb, *he), columns [*wb, *we); returns the divisor. */
static double window(const ref_pool* p, int64_t oh, int64_t ow, int64_t* hb, int64_t* he, int64_t* wb,
                     int64_t* we) {
    int64_t h0 = oh * p->sh - p->ph, w0 = ow * p->sw - p->pw;
    *hb = h0 < 0 ? 0 : h0;
    *he = h0 + p->wh < p->h ? h0 + p->wh : p->h;
    *wb = w0 < 0 ? 0 : w0;
    *we = w0 + p->ww < p->w ? w0 + p->ww : p->w;
    if (p->mode == 1)
        return (double)(p->wh * p->ww);
    return (double)((*he - *hb) * (*we - *wb));
}

void ref_pool_forward(const ref_pool* p, const ref_view* xv, const float* x, double* y, double* mag) {
    int64_t i = 0;
    for (int64_t n = 0; n < p->n; n++)
        for (int64_t c = 0; c < p->c; c++)
            for (int64_t oh = 0; oh < p->oh; oh++)
                for (int64_t ow = 0; ow < p->ow; ow++, i++) {
                    int64_t hb, he, wb, we;
                    double cnt = window(p, oh, ow, &hb, &he, &wb, &we);
                    double r = is_max(p) ? -INFINITY : 0.0, a = 0.0;
                    int saw_nan = 0;
                    for (int64_t h = hb; h < he; h++)
                        for (int64_t w = wb; w < we; w++) {
                            double v = x[at4(xv, n, c, h, w)];
                            if (!is_max(p)) {
                                r += v;
                                a += fabs(v);
                            } else if (isnan(v)) {
                                saw_nan = 1;
                            } else if (v > r) {
                                r = v;
                            }
                        }
                    if (is_max(p)) {
                        if (saw_nan && p->nan == 1)
                            r = NAN;
                        a = fabs(r);
                    } else {
                        r /= cnt;
                        a /= cnt;
                    }
                    y[i] = r;
                    if (mag)
                        mag[i] = a;
                }
}

static int match(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

void ref_pool_backward(const ref_pool* p, const ref_view* xv, const float* x, const ref_view* yv, const float* y,
                       const ref_view* dyv, const float* dy, double* dx, double* mag) {
    int64_t hw = p->h * p->w;
    int64_t total = p->n * p->c * hw;
    for (int64_t i = 0; i < total; i++) {
        dx[i] = 0.0;
        if (mag)
            mag[i] = 0.0;
    }
    for (int64_t n = 0; n < p->n; n++)
        for (int64_t c = 0; c < p->c; c++) {
            int64_t base = (n * p->c + c) * hw;
            for (int64_t oh = 0; oh < p->oh; oh++)
                for (int64_t ow = 0; ow < p->ow; ow++) {
                    int64_t hb, he, wb, we;
                    double cnt = window(p, oh, ow, &hb, &he, &wb, &we);
                    double g = dy[at4(dyv, n, c, oh, ow)];
                    if (!is_max(p)) {
                        for (int64_t h = hb; h < he; h++)
                            for (int64_t w = wb; w < we; w++) {
                                dx[base + h * p->w + w] += g / cnt;
                                if (mag)
                                    mag[base + h * p->w + w] += fabs(g) / cnt;
                            }
                        continue;
                    }
                    double yv_ = y[at4(yv, n, c, oh, ow)];
                    int found = 0;
                    for (int64_t h = hb; h < he && !found; h++)
                        for (int64_t w = wb; w < we && !found; w++)
                            if (match(x[at4(xv, n, c, h, w)], yv_)) {
                                dx[base + h * p->w + w] += g;
                                if (mag)
                                    mag[base + h * p->w + w] += fabs(g);
                                found = 1;
                            }
                }
        }
}
