/*
** gemm_params.c: per-device GEMM parameters as data, and the shape classes that key them.
**
** The table maps (device, shape class) to a parameter set of kernels/gemm/gemm.cl, in the
** manner of CLBlast's database and BLIS's per-architecture context: rows are found by
** measurement (perf/cldnn-tune gemm, which prints rows in this format), and a device that has
** no row gets its device type's default. A row's device key is a compute capability ("sm_90": every
** part of that architecture) or a substring of the device's name (cldnn_device_matches); the first
** matching row wins.
**
** Shape classes (of the canonical, column-major problem):
**   LARGE    m >= 1024 and n >= 1024
**   THIN_N   n <= 48 and n <= m (matrix times a few vectors: bandwidth-bound)
**   THIN_M   m <= 64 and m < n
**   SMALL_N  n < 256 and n <= m (a narrow C: few work-groups at large tiles)
**   SMALL_M  m < 256 and m < n
**   MEDIUM   the rest
** After the table's choice, a wave-fill rule halves the larger tile dimension while the blocks
** of C (times the batch) cannot give every compute unit one (LARGE and MEDIUM only).
*/
#include "gemm/gemm.h"
#include "handle/engine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cldnn_gemm_class cldnn_gemm_classify(const cldnn_gemm_problem* pr) {
    if (pr->m >= 1024 && pr->n >= 1024)
        return CLDNN_GEMM_LARGE;
    if (pr->n <= 48 && pr->n <= pr->m)
        return CLDNN_GEMM_THIN_N;
    if (pr->m <= 64 && pr->m < pr->n)
        return CLDNN_GEMM_THIN_M;
    if (pr->n < 256 && pr->n <= pr->m)
        return CLDNN_GEMM_SMALL_N;
    if (pr->m < 256)
        return CLDNN_GEMM_SMALL_M;
    return CLDNN_GEMM_MEDIUM;
}

const char* cldnn_gemm_class_name(cldnn_gemm_class c) {
    static const char* names[] = {"large", "medium", "small_n", "small_m", "thin_n", "thin_m"};
    return (unsigned)c < CLDNN_GEMM_CLASSES ? names[c] : "unknown";
}

typedef struct {
    const char* device;      /* cldnn_device_matches key: "sm_90", a name substring, "" any device of the type */
    int cpu;                 /* 1: CPU devices, 0: others */
    cldnn_gemm_params p[CLDNN_GEMM_CLASSES];
} gemm_table_row;

/* mwg nwg kwg  mdimc ndimc  vwm vwn  vwa vwb  pada padb  splitk (0: chosen per problem) */
static const gemm_table_row table[] = {
    /* Compute capability 9.0 (H100, H200), measured on the NVIDIA H100 80GB HBM3, OpenCL driver
    ** 580.159 (cldnn-tune gemm, 2026-11-23, perf/results/gemm-tune-h100.md):
    ** large 4096^3 43.7 TFLOP/s, medium 512x24000x2816 42.4, small_n 7680x128x2560 32.7,
    ** small_m 35x8457x2560 8.7, thin_n 1024x16x100000 20.4, thin_m 35x8457x2560 8.6. */
    {"sm_90", 0,
     {{128, 128, 16, 16, 16, 4, 4, 4, 4, 4, 4, 0},
      {128, 128, 16, 16, 16, 4, 4, 4, 4, 4, 4, 0},
      {128, 64, 16, 16, 8, 4, 4, 4, 4, 4, 4, 0},
      {32, 64, 16, 8, 16, 4, 4, 4, 4, 0, 0, 0},
      {128, 16, 32, 32, 4, 4, 4, 4, 4, 4, 4, 0},
      {32, 64, 16, 8, 16, 4, 4, 4, 4, 0, 0, 0}}},
    /* PoCL 3.1 CPU device ("pthread-..."), AMD EPYC, 2 cores, AVX-512 (cldnn-tune gemm, 2026-11-23,
    ** budget 150 s per shape; perf/results/gemm-pocl.md): 1024^3 4.6x the old default,
    ** 512^3 1.7x, 512x128x512 9.7x, 128x512x512 4.5x, 1024x16x2048 2.8x, 35x1024x512 1.8x. */
    {"pthread", 1,
     {{128, 64, 32, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {128, 32, 8, 8, 4, 4, 4, 4, 4, 0, 0, 0},
      {64, 128, 32, 4, 16, 4, 4, 4, 4, 4, 4, 0},
      {128, 32, 8, 8, 4, 4, 4, 4, 4, 0, 0, 0},
      {64, 16, 8, 16, 4, 4, 4, 4, 2, 4, 4, 0},
      {128, 64, 32, 8, 8, 4, 4, 4, 4, 0, 0, 0}}},
    /* Mesa's llvmpipe (rusticl 22.3, Debian's mesa-opencl-icd): its loop limit (device.c) leaves
    ** register blocks of at most 16 accumulators (cldnn_gemm_params_valid), so the CPU defaults'
    ** 8x8 blocks give way to 4x4 ones. */
    {"llvmpipe", 1,
     {{32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 16, 16, 8, 4, 4, 4, 4, 4, 0, 0, 0},
      {16, 32, 16, 4, 8, 4, 4, 4, 4, 0, 0, 0}}},
    /* Defaults by device type (measured rows go above these). */
    {"", 0,
     {{64, 64, 16, 16, 16, 4, 4, 4, 4, 0, 0, 0},
      {64, 64, 16, 16, 16, 4, 4, 4, 4, 0, 0, 0},
      {64, 32, 16, 16, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 64, 16, 8, 16, 4, 4, 4, 4, 0, 0, 0},
      {64, 16, 32, 16, 4, 4, 4, 4, 4, 0, 0, 0},
      {16, 64, 32, 4, 16, 4, 4, 4, 4, 0, 0, 0}}},
    {"", 1,
     {{64, 64, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {64, 64, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 32, 16, 8, 8, 4, 4, 4, 4, 0, 0, 0},
      {32, 16, 16, 8, 4, 4, 4, 4, 4, 0, 0, 0},
      {16, 32, 16, 4, 8, 4, 4, 4, 4, 0, 0, 0}}},
};

void cldnn_gemm_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev, cldnn_gemm_params* out) {
    cldnn_gemm_class c = cldnn_gemm_classify(pr);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        const gemm_table_row* r = &table[i];
        if (r->cpu != dev->is_cpu || !cldnn_device_matches(dev, r->device))
            continue;
        if (!cldnn_gemm_params_valid(&r->p[c], dev))
            continue;
        *out = r->p[c];
        if (c == CLDNN_GEMM_LARGE || c == CLDNN_GEMM_MEDIUM) {
            /* wave fill: halve the larger tile dimension (and its register block) while the
            ** blocks of C cannot give every compute unit one */
            for (;;) {
                uint64_t blocks = (uint64_t)((pr->m + out->mwg - 1) / out->mwg) *
                                  (uint64_t)((pr->n + out->nwg - 1) / out->nwg) * (uint64_t)pr->batch;
                if (blocks >= dev->compute_units)
                    break;
                cldnn_gemm_params t = *out;
                if (t.mwg >= t.nwg)
                    t.mwg /= 2;
                else
                    t.nwg /= 2;
                if (t.mwg < 32 || t.nwg < 32 || !cldnn_gemm_params_valid(&t, dev))
                    break;
                *out = t;
            }
        }
        return;
    }
    /* Nothing valid in the table (a device with small work-groups): 4 x 4 accumulators per
    ** work-item on the largest square of up to 4 x 4 work-items the device allows (OpenCL's
    ** minimum is one). */
    int d = 4;
    while (d > 1 && (size_t)(d * d) > dev->max_wg_size)
        d /= 2;
    cldnn_gemm_params small = {4 * d, 4 * d, 8, d, d, 4, 4, 1, 1, 0, 0, 0};
    *out = small;
}

size_t cldnn_gemm_table_params(cldnn_gemm_params* out, size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        for (int c = 0; c < CLDNN_GEMM_CLASSES; ++c)
            if (n < max)
                out[n++] = table[i].p[c];
    return n;
}

static int pow2_le(int x, int hi) { return x >= 1 && x <= hi && (x & (x - 1)) == 0; }

int cldnn_gemm_params_valid(const cldnn_gemm_params* p, const cldnn_device_profile* dev) {
    if (!pow2_le(p->vwm, 4) || !pow2_le(p->vwn, 4) || !pow2_le(p->vwa, 4) || !pow2_le(p->vwb, 4))
        return 0;
    if (p->mdimc < 1 || p->ndimc < 1 || p->kwg < 1 || p->pada < 0 || p->padb < 0 || p->splitk < 0 || p->splitk > 64)
        return 0;
    if (p->mwg % p->mdimc || p->nwg % p->ndimc)
        return 0;
    int mwi = p->mwg / p->mdimc, nwi = p->nwg / p->ndimc, nt = p->mdimc * p->ndimc;
    if (mwi % p->vwm || nwi % p->vwn)
        return 0;
    if ((size_t)nt > dev->max_wg_size)
        return 0;
    if ((p->mwg * p->kwg) % (nt * p->vwa) || (p->nwg * p->kwg) % (nt * p->vwb))
        return 0;
    /* The unit-stride extent of a tile is mwg (A not transposed) or kwg (transposed): both must
    ** divide into load chunks, and local rows keep VWM / VWN chunks 16-byte aligned. */
    if (p->mwg % p->vwa || p->kwg % p->vwa || p->nwg % p->vwb || p->kwg % p->vwb)
        return 0;
    if ((p->mwg + p->pada) % p->vwm || (p->nwg + p->padb) % p->vwn)
        return 0;
    uint64_t local = 2ull * (uint64_t)p->kwg * (uint64_t)(p->mwg + p->pada + p->nwg + p->padb) * 4u;
    if (local > dev->local_mem)
        return 0;
    /* A loop-limited device (llvmpipe) keeps register blocks of more than 16 accumulators as loops
    ** in the micro-tile update: 64x64x16-8x8 ran about 1300 loop iterations per k-tile there and
    ** gave wrong results from k = 800 (device.c), where a 4x4 block runs about 90. */
    return dev->loop_limit == 0 || mwi * nwi <= 16;
}

int64_t cldnn_gemm_k_max(int kwg, const cldnn_device_profile* dev) {
    if (dev->loop_limit == 0)
        return INT64_MAX;
    const int64_t tiles = (int64_t)(dev->loop_limit / CLDNN_GEMM_LOOPS_PER_K) / kwg;
    return (tiles > 1 ? tiles : 1) * kwg;
}

void cldnn_gemm_params_format(const cldnn_gemm_params* p, char* buf, size_t size) {
    cldnn_params_format(CLDNN_GEMM_PARAMS_TEXT, p, buf, size);
}

int cldnn_gemm_params_parse(const char* s, cldnn_gemm_params* p) {
    cldnn_gemm_params q;
    if (!cldnn_params_parse(CLDNN_GEMM_PARAMS_TEXT, s, &q, sizeof q))
        return 0;
    *p = q;
    return 1;
}

/* ---- the tuning space (perf/cldnn-tune gemm walks it)
**
** Value lists per parameter; the vector widths of the register block are the largest the block
** allows (4 when MWI / NWI allow it), global loads ask for width 4 (lowered per problem), and
** both paddings move together. Pruned: work-groups of 64 to 256 work-items (GPUs) or 16 to 64
** (CPUs), register blocks of 4 to 128 accumulators. */
size_t cldnn_gemm_param_space(const cldnn_device_profile* dev, cldnn_gemm_params* out, size_t max) {
    /* Larger tiles first: with a time budget, the promising part of the space is searched. */
    static const int tiles[] = {128, 64, 32, 16};
    static const int kwgs[] = {16, 8, 32};
    static const int dims[] = {16, 8, 32, 4};
    static const int pads[] = {4, 0};
    int tmin = dev->is_cpu ? 16 : 64, tmax = dev->is_cpu ? 64 : 256;
    int bmin = dev->is_cpu ? 4 : 16; /* GPUs: 4x4 accumulators and up (smaller blocks measured slow) */
    size_t n = 0;
    for (size_t a = 0; a < 4; ++a)
        for (size_t b = 0; b < 4; ++b)
            for (size_t c = 0; c < 3; ++c)
                for (size_t d = 0; d < 4; ++d)
                    for (size_t e = 0; e < 4; ++e)
                        for (size_t f = 0; f < 2; ++f) {
                            cldnn_gemm_params p;
                            p.mwg = tiles[a];
                            p.nwg = tiles[b];
                            p.kwg = kwgs[c];
                            p.mdimc = dims[d];
                            p.ndimc = dims[e];
                            p.pada = p.padb = pads[f];
                            p.splitk = 0;
                            int threads = p.mdimc * p.ndimc;
                            if (threads < tmin || threads > tmax || p.mwg % p.mdimc || p.nwg % p.ndimc)
                                continue;
                            int mwi = p.mwg / p.mdimc, nwi = p.nwg / p.ndimc;
                            if (mwi * nwi < bmin || mwi * nwi > 128)
                                continue;
                            p.vwm = mwi % 4 == 0 ? 4 : mwi % 2 == 0 ? 2 : 1;
                            p.vwn = nwi % 4 == 0 ? 4 : nwi % 2 == 0 ? 2 : 1;
                            p.vwa = p.vwb = 4;
                            while (p.vwa > 1 && ((p.mwg * p.kwg) % (threads * p.vwa) || p.kwg % p.vwa))
                                p.vwa /= 2;
                            while (p.vwb > 1 && ((p.nwg * p.kwg) % (threads * p.vwb) || p.kwg % p.vwb))
                                p.vwb /= 2;
                            if (!cldnn_gemm_params_valid(&p, dev))
                                continue;
                            if (n < max)
                                out[n] = p;
                            n++;
                        }
    return n;
}
