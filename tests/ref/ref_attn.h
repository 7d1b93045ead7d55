/*
** ref_attn.h: double-precision reference of scaled dot-product attention
** (cldnnAttentionForward / Backward) that materialises the probabilities.
**
** Arrays are packed in logical order: q B x H x Sq x D, k B x Hkv x Sk x D, v B x Hkv x Sk x Dv,
** o and dout B x H x Sq x Dv, stats B x H x Sq. Query head h reads kv head h / (H / Hkv). causal
** masks key j > i + (Sk - Sq); a row with every key masked gives o = 0, stats = -inf and zero
** gradients. z (NULL: no dropout) is B x H x Sq x Sk: each probability's factor after the softmax
** (0 dropped, 1 / (1 - p) kept), as cldnnDropoutForward on a tensor of ones gives it.
*/
#ifndef CLDNN_REF_ATTN_H_
#define CLDNN_REF_ATTN_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int B, H, Hkv, Sq, Sk, D, Dv;
    double scale;
    int causal;
} ref_attn;

/* o and stats (stats NULL: not written). */
void ref_attn_forward(const ref_attn* p, const double* q, const double* k, const double* v, const double* z,
                      double* o, double* stats);
/* dq, dk, dv (overwritten) from dout, recomputing the probabilities. */
void ref_attn_backward(const ref_attn* p, const double* q, const double* k, const double* v, const double* z,
                       const double* dout, double* dq, double* dk, double* dv);

#ifdef __cplusplus
}
#endif

#endif /* CLDNN_REF_ATTN_H_ */
