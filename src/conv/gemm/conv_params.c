/*
** conv_params.c: per-device implicit-GEMM parameters of the convolution directions, as data.
**
** Rows map (device, direction, GEMM class of the direction's equivalent GEMM) to a parameter set
** of kernels/conv/conv_igemm.cl (the GEMM tile parameters of common/gemm_tile.h). They come
** from `cldnn-tune conv` (perf/tune/cldnn-tune.c), which prints rows in this format. A problem
** with no row takes the GEMM family's table entry for its equivalent GEMM (gemm_params.c), so a
** device tuned for GEMM starts from sensible tiles. The first matching row wins; a row's device
** key is a compute capability ("sm_90") or a substring of the device's name (cldnn_device_matches).
*/
#include "conv/conv.h"

#include <string.h>

typedef struct {
    const char* device;
    int dir;                  /* cldnn_conv_dir */
    int cls;                  /* cldnn_gemm_class of the equivalent GEMM; -1: any */
    cldnn_gemm_params p;      /* mwg nwg kwg mdimc ndimc vwm vwn vwa vwb pada padb splitk */
} conv_table_row;

static const conv_table_row table[] = {
    /* Compute capability 9.0 (H100, H200), measured on the NVIDIA H100 80GB HBM3, OpenCL driver
    ** 580.159 (cldnn-tune conv --shapes perf/shapes/conv-tune.csv, 2026-11-23, perf/results/conv-tune-h100.md; batch 32 layers).
    ** forward, medium: ResNet 3x3 256 @ 14 22.3 -> 24.7 TFLOP/s, 512 @ 7 17.8 -> 20.6. */
    {"sm_90", CLDNN_CONV_FWD, CLDNN_GEMM_MEDIUM, {128, 64, 16, 32, 8, 4, 4, 1, 4, 4, 4, 0}},
    /* backward-data, medium: 3x3 256 @ 14 15.8 -> 17.9, VGG 3x3 256 @ 56 24.3 -> 31.2. */
    {"sm_90", CLDNN_CONV_BWD_DATA, CLDNN_GEMM_MEDIUM, {128, 128, 8, 32, 8, 4, 4, 1, 4, 4, 4, 0}},
    /* backward-filter: the split-k supplies the parallelism, so the register block with the
    ** most reuse beats the GEMM table's thin-class tiles (3x3 64 @ 56: 6.8 -> 14.6 with 64 x 128
    ** tiles, perf/shapes/conv-tune.csv); small_m: 3x3 128 @ 56 stride 2 12.3 -> 19.1; medium: 3x3 256 @ 14 17.5 -> 19.0,
    ** 512 @ 7 17.0 -> 18.3. */
    /* thin_m, thin_n (few output or input channels; perf/shapes/conv-tune-narrow.csv): DeepBench
    ** 5x20 C=1 2.8 -> 4.1, 3x3 C=16 3.6 -> 5.3, 5x5 C=192 K=32 6.0 -> 7.9 (thin_m); VGG conv1_1
    ** (C=3) 1.6 -> 2.5 (thin_n). */
    {"sm_90", CLDNN_CONV_BWD_FILTER, CLDNN_GEMM_THIN_M, {64, 128, 16, 16, 16, 4, 4, 1, 1, 4, 4, 0}},
    {"sm_90", CLDNN_CONV_BWD_FILTER, CLDNN_GEMM_THIN_N, {128, 64, 16, 32, 8, 4, 4, 1, 1, 4, 4, 0}},
    {"sm_90", CLDNN_CONV_BWD_FILTER, CLDNN_GEMM_SMALL_M, {128, 128, 16, 16, 16, 4, 4, 1, 1, 4, 4, 0}},
    {"sm_90", CLDNN_CONV_BWD_FILTER, CLDNN_GEMM_MEDIUM, {128, 128, 8, 16, 16, 4, 4, 1, 1, 0, 0, 0}},
    {"sm_90", CLDNN_CONV_BWD_FILTER, -1, {128, 128, 16, 16, 16, 4, 4, 1, 1, 4, 4, 0}},
};

int cldnn_conv_params_lookup(const cldnn_conv_problem* p, const cldnn_device_profile* dev, cldnn_gemm_params* out) {
    cldnn_gemm_problem g;
    memset(&g, 0, sizeof g);
    cldnn_conv_gemm_dims(p, &g.m, &g.n, &g.k);
    g.batch = p->groups;
    const int cls = (int)cldnn_gemm_classify(&g);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        const conv_table_row* r = &table[i];
        /* A row keyed by architecture can meet a part with smaller limits (a MIG slice): it must fit. */
        if (r->dir != (int)p->dir || (r->cls >= 0 && r->cls != cls) || !cldnn_device_matches(dev, r->device) ||
            !cldnn_gemm_params_valid(&r->p, dev))
            continue;
        *out = r->p;
        return 1;
    }
    return 0;
}
