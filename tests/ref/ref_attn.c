/*
** ref_attn.c: attention in double, one (b, h) slice at a time, with its Sq x Sk probabilities.
*/
#include "ref_attn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Probabilities of slice (b, h) into P (Sq x Sk, undropped), stats into lse (Sq). */
static void probs(const ref_attn* p, const double* q, const double* k, int b, int h, double* P, double* lse) {
    const int hk = h / (p->H / p->Hkv);
    const double* qs = q + ((size_t)b * p->H + h) * p->Sq * p->D;
    const double* ks = k + ((size_t)b * p->Hkv + hk) * p->Sk * p->D;
    for (int i = 0; i < p->Sq; ++i) {
        double* row = P + (size_t)i * p->Sk;
        double mx = -INFINITY;
        for (int j = 0; j < p->Sk; ++j) {
            if (p->causal && j > i + (p->Sk - p->Sq)) {
                row[j] = -INFINITY;
                continue;
            }
            double s = 0;
            for (int d = 0; d < p->D; ++d)
                s += qs[(size_t)i * p->D + d] * ks[(size_t)j * p->D + d];
            row[j] = s * p->scale;
            mx = row[j] > mx ? row[j] : mx;
        }
        if (mx == -INFINITY) { /* every key masked */
            for (int j = 0; j < p->Sk; ++j)
                row[j] = 0;
            lse[i] = -INFINITY;
            continue;
        }
        double sum = 0;
        for (int j = 0; j < p->Sk; ++j) {
            row[j] = exp(row[j] - mx);
            sum += row[j];
        }
        for (int j = 0; j < p->Sk; ++j)
            row[j] /= sum;
        lse[i] = mx + log(sum);
    }
}

void ref_attn_forward(const ref_attn* p, const double* q, const double* k, const double* v, const double* z,
                      double* o, double* stats) {
    double* P = malloc(sizeof(double) * (size_t)p->Sq * p->Sk);
    double* lse = malloc(sizeof(double) * (size_t)p->Sq);
    for (int b = 0; b < p->B; ++b)
        for (int h = 0; h < p->H; ++h) {
            const size_t bh = (size_t)b * p->H + h;
            const int hk = h / (p->H / p->Hkv);
            const double* vs = v + ((size_t)b * p->Hkv + hk) * p->Sk * p->Dv;
            const double* zs = z ? z + bh * p->Sq * p->Sk : NULL;
            probs(p, q, k, b, h, P, lse);
            for (int i = 0; i < p->Sq; ++i) {
                double* orow = o + (bh * p->Sq + i) * p->Dv;
                for (int x = 0; x < p->Dv; ++x) {
                    double s = 0;
                    for (int j = 0; j < p->Sk; ++j) {
                        double pz = P[(size_t)i * p->Sk + j] * (zs ? zs[(size_t)i * p->Sk + j] : 1.0);
                        s += pz * vs[(size_t)j * p->Dv + x];
                    }
                    orow[x] = s;
                }
                if (stats)
                    stats[bh * p->Sq + i] = lse[i];
            }
        }
    free(P);
    free(lse);
}

void ref_attn_backward(const ref_attn* p, const double* q, const double* k, const double* v, const double* z,
                       const double* dout, double* dq, double* dk, double* dv) {
    const size_t nk = (size_t)p->B * p->Hkv * p->Sk;
    memset(dq, 0, sizeof(double) * (size_t)p->B * p->H * p->Sq * p->D);
    memset(dk, 0, sizeof(double) * nk * p->D);
    memset(dv, 0, sizeof(double) * nk * p->Dv);
    double* P = malloc(sizeof(double) * (size_t)p->Sq * p->Sk);
    double* dS = malloc(sizeof(double) * (size_t)p->Sq * p->Sk);
    double* lse = malloc(sizeof(double) * (size_t)p->Sq);
    for (int b = 0; b < p->B; ++b)
        for (int h = 0; h < p->H; ++h) {
            const size_t bh = (size_t)b * p->H + h, bk = (size_t)b * p->Hkv + h / (p->H / p->Hkv);
            const double* qs = q + bh * p->Sq * p->D;
            const double* ks = k + bk * p->Sk * p->D;
            const double* vs = v + bk * p->Sk * p->Dv;
            const double* dos = dout + bh * p->Sq * p->Dv;
            const double* zs = z ? z + bh * p->Sq * p->Sk : NULL;
            double* dqs = dq + bh * p->Sq * p->D;
            double* dks = dk + bk * p->Sk * p->D;
            double* dvs = dv + bk * p->Sk * p->Dv;
            probs(p, q, k, b, h, P, lse);
            for (int i = 0; i < p->Sq; ++i) {
                /* dP_ij = z_ij dO_i . V_j; dS_ij = P_ij (dP_ij - sum_l P_il dP_il) */
                double dot = 0;
                for (int j = 0; j < p->Sk; ++j) {
                    double zz = zs ? zs[(size_t)i * p->Sk + j] : 1.0, dp = 0;
                    for (int x = 0; x < p->Dv; ++x)
                        dp += dos[(size_t)i * p->Dv + x] * vs[(size_t)j * p->Dv + x];
                    dS[(size_t)i * p->Sk + j] = dp * zz;
                    dot += P[(size_t)i * p->Sk + j] * dp * zz;
                }
                for (int j = 0; j < p->Sk; ++j) {
                    const double pij = P[(size_t)i * p->Sk + j], zz = zs ? zs[(size_t)i * p->Sk + j] : 1.0;
                    dS[(size_t)i * p->Sk + j] = pij * (dS[(size_t)i * p->Sk + j] - dot);
                    for (int x = 0; x < p->Dv; ++x)
                        dvs[(size_t)j * p->Dv + x] += pij * zz * dos[(size_t)i * p->Dv + x];
                }
            }
            for (int i = 0; i < p->Sq; ++i)
                for (int j = 0; j < p->Sk; ++j) {
                    const double g = dS[(size_t)i * p->Sk + j] * p->scale;
                    if (g == 0)
                        continue;
                    for (int d = 0; d < p->D; ++d) {
                        dqs[(size_t)i * p->D + d] += g * ks[(size_t)j * p->D + d];
                        dks[(size_t)j * p->D + d] += g * qs[(size_t)i * p->D + d];
                    }
                }
        }
    free(P);
    free(dS);
    free(lse);
}
