/*
** solver.c: the generic loop over a family's solver table.
**
** A family (elementwise today; GEMM and convolution next) describes each algorithm as a
** cldnn_solver record in a table ordered by preference. Picking is "first applicable", running
** the default is "pick, fill default parameters, run"; Find and Tune will be further loops over
** the same records. No family carries its own selection logic.
*/
#include "internal.h"

#include <string.h>

const cldnn_solver* cldnn_solver_pick(const cldnn_solver* table, size_t n, const void* problem,
                                      const cldnn_device_profile* dev, const char* key) {
    for (size_t i = 0; i < n; ++i)
        if (table[i].applicable(problem, dev))
            return &table[i];
    CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "no solver applies to %s on %s", key, dev->name);
    return NULL;
}

#define CLDNN_PARAMS_MAX 256

cldnnStatus_t cldnn_solver_run_default(cldnnHandle_t h, const cldnn_solver* table, size_t n, const void* problem,
                                       const void* buffers, const char* key) {
    const cldnn_solver* s = cldnn_solver_pick(table, n, problem, &h->prof, key);
    if (s == NULL)
        return CLDNN_STATUS_NOT_SUPPORTED;
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    if (s->params_size > sizeof params)
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "solver %s has %zu bytes of parameters", s->name, s->params_size);
    memset(params, 0, sizeof params);
    if (s->default_params)
        s->default_params(problem, &h->prof, params);
    cldnn_log(CLDNN_LOG_DEBUG, "%s: solver %s", key, s->name);
    return s->run(h, problem, params, buffers);
}
