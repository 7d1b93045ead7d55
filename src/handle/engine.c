/*
** engine.c: the selection engine (engine.h): one implementation of the heuristic order, the
** override pair, parameter lookup, Get_v7, Find and its find modes, the find-db records and the
** TUNE search, for every family.
**
** Workload: the order and the parameter lookup run on every primitive call; Get on every Get_v7;
** Find and Tune rarely (each runs kernels many times). Tables hold at most CLDNN_ORDER_MAX
** solvers and public enums at most CLDNN_PERF_MAX algorithms.
**
** Find-db values: "name,algo,time,memory,deterministic" entries joined by ';', fastest first,
** where name is the solver's find-db name (cldnn_solver_rank). A recorded entry is used only
** while the algorithm still runs the solver it names. Tuning-db values: a parameter set's text
** form under (problem key, the space's db name).
*/
#include "engine.h"
#include "tensor/tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CLDNN_ORDER_MAX 32

/* ------------------------------------------------------------------ order and overrides */

int cldnn_solver_rank(const cldnn_solver* s, const void* problem, const cldnn_device_profile* dev, const char** name) {
    for (size_t i = 0; i < sizeof s->promote / sizeof s->promote[0]; ++i)
        if (s->promote[i].when != NULL && s->promote[i].when(problem, dev)) {
            if (name)
                *name = s->promote[i].name ? s->promote[i].name : s->name;
            return s->promote[i].rank;
        }
    if (name)
        *name = s->name;
    return s->rank;
}

/* 1 when the word of length n equals s's name or one of its find-db names. */
static int names_solver(const char* word, size_t n, const cldnn_solver* s) {
    if (strlen(s->name) == n && strncmp(word, s->name, n) == 0)
        return 1;
    for (size_t i = 0; i < sizeof s->promote / sizeof s->promote[0]; ++i) {
        const char* a = s->promote[i].name;
        if (a != NULL && strlen(a) == n && strncmp(word, a, n) == 0)
            return 1;
    }
    return 0;
}

/* The position of s in the comma-separated list, or -1. */
static int list_position(const char* list, const cldnn_solver* s) {
    int pos = 0;
    for (const char* w = list; *w;) {
        const size_t n = strcspn(w, ",");
        if (n > 0 && names_solver(w, n, s))
            return pos;
        pos++;
        w += n;
        if (*w == ',')
            w++;
    }
    return -1;
}

/* CLDNN_SOLVER when it names a solver of fam, else NULL. */
static const char* restriction(const cldnn_family* fam) {
    const char* only = getenv("CLDNN_SOLVER");
    if (only == NULL || only[0] == '\0')
        return NULL;
    for (size_t i = 0; i < fam->count; ++i)
        if (list_position(only, &fam->solvers[i]) >= 0)
            return only;
    return NULL;
}

/* The applicable solvers serving algo (-1: any) in the heuristic order; see cldnn_engine_order. */
static int order_of(const cldnn_family* fam, const void* problem, const cldnn_device_profile* dev, int algo,
                    const cldnn_solver** out, int max) {
    const char* only = restriction(fam);
    int key[CLDNN_ORDER_MAX], n = 0;
    const cldnn_solver* got[CLDNN_ORDER_MAX];
    for (size_t i = 0; i < fam->count && n < CLDNN_ORDER_MAX; ++i) {
        const cldnn_solver* s = &fam->solvers[i];
        const int pos = only ? list_position(only, s) : 0;
        if ((algo >= 0 && s->algo != algo) || pos < 0 || !s->applicable(problem, dev))
            continue;
        const int k = only ? pos : cldnn_solver_rank(s, problem, dev, NULL);
        int j = n++; /* insertion keeps table order among equal keys */
        while (j > 0 && key[j - 1] > k) {
            key[j] = key[j - 1];
            got[j] = got[j - 1];
            --j;
        }
        key[j] = k;
        got[j] = s;
    }
    if (n > max)
        n = max;
    memcpy(out, got, (size_t)n * sizeof *out);
    return n;
}

int cldnn_engine_order(const cldnn_family* fam, const void* problem, const cldnn_device_profile* dev,
                       const cldnn_solver** out, int max) {
    return order_of(fam, problem, dev, -1, out, max);
}

/* The lowest rank s can take: its own or a promotion's. */
static int rank_bound(const cldnn_solver* s) {
    int r = s->rank;
    for (size_t i = 0; i < sizeof s->promote / sizeof s->promote[0]; ++i)
        if (s->promote[i].when != NULL && s->promote[i].rank < r)
            r = s->promote[i].rank;
    return r;
}

const cldnn_solver* cldnn_engine_solver(const cldnn_family* fam, const char* name) {
    for (size_t i = 0; name != NULL && i < fam->count; ++i)
        if (names_solver(name, strlen(name), &fam->solvers[i]))
            return &fam->solvers[i];
    return NULL;
}

const cldnn_solver* cldnn_engine_pick(const cldnn_family* fam, const void* problem, const cldnn_device_profile* dev,
                                      int algo) {
    if (restriction(fam) != NULL) {
        const cldnn_solver* first = NULL;
        return order_of(fam, problem, dev, algo, &first, 1) == 1 ? first : NULL;
    }
    /* The per-call path: a solver that cannot rank before the best so far (ties go to the earlier
    ** row) is not asked whether it applies, so a table in rank order costs what "first applicable"
    ** did. */
    const cldnn_solver* best = NULL;
    int best_rank = 0;
    for (size_t i = 0; i < fam->count; ++i) {
        const cldnn_solver* s = &fam->solvers[i];
        if ((algo >= 0 && s->algo != algo) || (best != NULL && rank_bound(s) >= best_rank) ||
            !s->applicable(problem, dev))
            continue;
        const int r = cldnn_solver_rank(s, problem, dev, NULL);
        if (best == NULL || r < best_rank) {
            best = s;
            best_rank = r;
        }
    }
    return best;
}

/* ------------------------------------------------------------------ parameter sets */

int cldnn_params_parse(const char* pattern, const char* text, void* params, size_t size) {
    int* f = (int*)params;
    const size_t nf = size / sizeof(int);
    size_t i = 0;
    const char* t = text;
    memset(params, 0, size);
    if (t == NULL)
        return 0;
    for (const char* p = pattern; *p; ++p) {
        if (*p == '[') {
            if (*t == '\0') /* the optional tail is absent: its fields stay 0 */
                return 1;
            continue;
        }
        if (*p == ']')
            continue;
        if (p[0] == '%' && p[1] == 'd') {
            char* end;
            const long v = strtol(t, &end, 10);
            if (end == t || i >= nf || v < -0x7fffffffL || v > 0x7fffffffL)
                return 0;
            f[i++] = (int)v;
            t = end;
            ++p;
            continue;
        }
        if (*t++ != *p)
            return 0;
    }
    return *t == '\0';
}

void cldnn_params_format(const char* pattern, const void* params, char* buf, size_t size) {
    const int* f = (const int*)params;
    size_t at = 0, i = 0;
    if (size > 0)
        buf[0] = '\0';
    for (const char* p = pattern; *p; ++p) {
        if (*p == '[' || *p == ']')
            continue;
        if (p[0] == '%' && p[1] == 'd') {
            at = cldnn_appendf(buf, size, at, "%d", f[i++]);
            ++p;
        } else {
            at = cldnn_appendf(buf, size, at, "%c", *p);
        }
    }
}

/* The entry for s in CLDNN_SOLVER_PARAMS ("name:params;name:params") into buf; 0 when none. */
static int override_text(const cldnn_solver* s, char* buf, size_t size) {
    const char* env = getenv("CLDNN_SOLVER_PARAMS");
    if (env == NULL)
        return 0;
    for (const char* e = env; *e;) {
        const size_t n = strcspn(e, ";");
        const char* colon = memchr(e, ':', n);
        if (colon != NULL && names_solver(e, (size_t)(colon - e), s)) {
            const size_t v = n - (size_t)(colon + 1 - e);
            if (v >= size)
                return 0;
            memcpy(buf, colon + 1, v);
            buf[v] = '\0';
            return 1;
        }
        e += n;
        if (*e == ';')
            e++;
    }
    return 0;
}

/* 1 and the finished set in params when text parses and is valid for problem on dev. */
static int take_text(const cldnn_solver* s, const void* problem, const cldnn_device_profile* dev, const char* text,
                     void* params) {
    _Alignas(16) unsigned char q[CLDNN_PARAMS_MAX];
    if (!cldnn_params_parse(s->space->text, text, q, s->params_size) || !s->space->valid(problem, dev, q))
        return 0;
    if (s->space->finish)
        s->space->finish(problem, dev, q);
    memcpy(params, q, s->params_size);
    return 1;
}

/* cldnn_engine_params with its log lines naming `label`: the plain run's callers pass no key (no
** tuning db) but still name their problem, so the log says which call took which parameters. */
static const char* params_of(cldnnHandle_t h, const cldnn_solver* s, const void* problem, const char* key,
                             const char* label, void* params) {
    const cldnn_device_profile* dev = &h->prof;
    memset(params, 0, CLDNN_PARAMS_MAX);
    if (s->default_params)
        s->default_params(problem, dev, params);
    if (s->space == NULL)
        return "defaults";
    const char* const defaults = s->space->origin ? s->space->origin : "defaults";
    const char* from = defaults;
    char v[128];
    if (override_text(s, v, sizeof v)) {
        if (take_text(s, problem, dev, v, params))
            from = "CLDNN_SOLVER_PARAMS";
        else
            cldnn_log(CLDNN_LOG_ERROR, "CLDNN_SOLVER_PARAMS: \"%s\" is not a valid parameter set of %s for %s; ignored",
                      v, s->name, label ? label : "this problem");
    }
    if (key != NULL && from == defaults &&
        cldnn_tunedb_get(h, key, s->space->db_name ? s->space->db_name : s->name, v, sizeof v)) {
        if (take_text(s, problem, dev, v, params))
            from = "tuning db";
        else
            cldnn_log(CLDNN_LOG_INFO, "tune-db: %s: the record \"%s\" for %s is not valid here: ignored", s->name, v,
                      key);
    }
    if (cldnn_log_level() >= CLDNN_LOG_DEBUG) {
        char ps[96];
        cldnn_params_format(s->space->text, params, ps, sizeof ps);
        cldnn_log(CLDNN_LOG_DEBUG, "%s: solver %s, parameters %s (%s)", label ? label : "internal", s->name, ps,
                  from);
    }
    return from;
}

const char* cldnn_engine_params(cldnnHandle_t h, const cldnn_solver* s, const void* problem, const char* key,
                                void* params) {
    return params_of(h, s, problem, key, key, params);
}

size_t cldnn_engine_workspace(const cldnn_solver* s, const void* problem, const void* params) {
    return s->workspace ? s->workspace(problem, params) : 0;
}

cldnnStatus_t cldnn_engine_select(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key,
                                  const char* what, const cldnn_solver** solver, void* params) {
    const cldnn_solver* s = cldnn_engine_pick(fam, problem, &h->prof, -1);
    *solver = s;
    if (s == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "no solver applies to %s on %s", what, h->prof.name);
    params_of(h, s, problem, key, key ? key : what, params);
    if (s->space == NULL)
        cldnn_log(CLDNN_LOG_DEBUG, "%s: solver %s", what, s->name);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_engine_run(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const void* buffers,
                               const char* key, const char* what) {
    const cldnn_solver* s;
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    CLDNN_TRY(cldnn_engine_select(h, fam, problem, key, what, &s, params));
    return s->run(h, problem, params, buffers);
}

cldnnStatus_t cldnn_engine_prebuild(cldnnHandle_t h, const void* problem, const char* key, const cldnn_solver* const* s,
                                    int n, const void* buffers) {
    CLDNN_TRY(cldnn_program_collect_begin(h));
    const int was = h->prepare_only;
    h->prepare_only = 1;
    for (int i = 0; i < n; ++i) {
        _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
        cldnn_engine_params(h, s[i], problem, key, params);
        if (s[i]->run(h, problem, params, buffers) != CLDNN_STATUS_SUCCESS)
            cldnn_error_clear();
    }
    h->prepare_only = was;
    return cldnn_program_collect_end(h);
}

/* ------------------------------------------------------------------ Get */

static void perf_of(cldnnHandle_t h, const cldnn_family* fam, const cldnn_solver* s, const void* problem,
                    const char* key, cldnn_perf* e) {
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    const void* q = NULL;
    if (s->space != NULL) { /* the workspace of the parameters the run takes */
        cldnn_engine_params(h, s, problem, key, params);
        q = params;
    }
    e->algo = s->algo;
    e->status = CLDNN_STATUS_SUCCESS;
    e->time = -1.0f;
    e->memory = cldnn_engine_workspace(s, problem, q);
    e->deterministic = (s->flags & CLDNN_SOLVER_DETERMINISTIC) != 0;
    e->tensor_ops = (s->flags & CLDNN_SOLVER_TENSOR_OPS) != 0 ||
                    ((s->flags & CLDNN_SOLVER_GEMM_MATH) != 0 && fam->gemm_tensor_ops != NULL &&
                     fam->gemm_tensor_ops(problem, &h->prof));
}

/* The heuristic's answer: algorithms where their first solver stands in the order, then the rest
** NOT_SUPPORTED. Returns the count (algo_count). */
static int heuristic(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key, cldnn_perf* out) {
    const cldnn_solver* order[CLDNN_ORDER_MAX];
    const int ns = cldnn_engine_order(fam, problem, &h->prof, order, CLDNN_ORDER_MAX);
    int listed[CLDNN_PERF_MAX] = {0}, n = 0;
    for (int i = 0; i < ns; ++i) {
        const int a = order[i]->algo;
        if (a < 0 || a >= fam->algo_count || listed[a])
            continue;
        listed[a] = 1;
        perf_of(h, fam, order[i], problem, key, &out[n++]);
    }
    for (int a = 0; a < fam->algo_count; ++a)
        if (!listed[a]) {
            memset(&out[n], 0, sizeof out[n]);
            out[n].algo = a;
            out[n].status = CLDNN_STATUS_NOT_SUPPORTED;
            out[n].time = -1.0f;
            out[n].deterministic = 1;
            ++n;
        }
    return n;
}

static int status_class(cldnnStatus_t s) {
    return s == CLDNN_STATUS_SUCCESS ? 0 : s == CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT ? 1 : 2;
}

static int perf_cmp(const void* a, const void* b) {
    const cldnn_perf* x = (const cldnn_perf*)a;
    const cldnn_perf* y = (const cldnn_perf*)b;
    const int rx = status_class(x->status), ry = status_class(y->status);
    if (rx != ry)
        return rx - ry;
    if (rx == 0 && x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->algo - y->algo;
}

/* The find-db's answer for key, still valid: each recorded algorithm whose solver is still the
** recorded one (a record made before the tables changed is dropped), fastest first, with its
** recorded time and today's workspace. Returns the count (0: no record). Runs nothing. */
static int finddb_read(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key,
                       cldnn_perf* out) {
    char v[2048];
    if (!cldnn_db_lookup(h, CLDNN_DB_FIND, key, v, sizeof v))
        return 0;
    int n = 0, seen[CLDNN_PERF_MAX] = {0}, bad = 0;
    char* save = NULL;
    for (char* tok = strtok_r(v, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char name[64], tail;
        int algo, det;
        float t;
        size_t mem;
        if (sscanf(tok, "%63[^,],%d,%f,%zu,%d%c", name, &algo, &t, &mem, &det, &tail) != 5 || algo < 0 ||
            algo >= fam->algo_count || seen[algo] || !(t >= 0.0f)) {
            bad++;
            continue;
        }
        const cldnn_solver* s = cldnn_engine_pick(fam, problem, &h->prof, algo);
        const char* now = NULL;
        if (s != NULL)
            cldnn_solver_rank(s, problem, &h->prof, &now);
        if (s == NULL || strcmp(now, name) != 0) {
            bad++;
            continue;
        }
        seen[algo] = 1;
        perf_of(h, fam, s, problem, key, &out[n]);
        out[n].time = t;
        out[n].deterministic = det != 0;
        ++n;
    }
    if (bad)
        cldnn_log(CLDNN_LOG_INFO, "find-db: %d stale or damaged entries for %s ignored", bad, key);
    qsort(out, (size_t)n, sizeof *out, perf_cmp);
    return n;
}

/* Records a Find answer (SUCCESS entries) merged with the record's entries for algorithms this
** Find could not time (workspace too small), fastest first. */
static void finddb_record(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key,
                          const cldnn_perf* e, int n) {
    cldnn_perf all[2 * CLDNN_PERF_MAX];
    int m = 0, have[CLDNN_PERF_MAX] = {0};
    for (int i = 0; i < n; ++i)
        if (e[i].status == CLDNN_STATUS_SUCCESS && e[i].time >= 0.0f) {
            all[m++] = e[i];
            have[e[i].algo] = 1;
        }
    if (m == 0)
        return;
    cldnn_perf old[CLDNN_PERF_MAX];
    const int no = finddb_read(h, fam, problem, key, old);
    for (int i = 0; i < no; ++i)
        for (int j = 0; j < n; ++j)
            if (e[j].algo == old[i].algo && e[j].status == CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT &&
                !have[old[i].algo]) {
                all[m++] = old[i];
                have[old[i].algo] = 1;
            }
    qsort(all, (size_t)m, sizeof *all, perf_cmp);
    char v[2048];
    size_t at = 0;
    for (int i = 0; i < m; ++i) {
        const cldnn_solver* s = cldnn_engine_pick(fam, problem, &h->prof, all[i].algo);
        const char* name;
        if (s == NULL)
            continue;
        cldnn_solver_rank(s, problem, &h->prof, &name);
        at = cldnn_appendf(v, sizeof v, at, "%s%s,%d,%.6g,%zu,%d", at ? ";" : "", name, all[i].algo,
                           (double)all[i].time, all[i].memory, all[i].deterministic);
    }
    if (at > 0) {
        cldnn_db_put(h->db_dir, h->prof.key, CLDNN_DB_FIND, key, v);
        cldnn_log(CLDNN_LOG_INFO, "find-db: recorded %s -> %s", key, v);
    }
}

int cldnn_engine_get(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key, cldnn_perf* out) {
    cldnn_perf heur[CLDNN_PERF_MAX];
    const int nh = heuristic(h, fam, problem, key, heur);
    int n = finddb_read(h, fam, problem, key, out);
    if (n > 0)
        cldnn_log(CLDNN_LOG_INFO, "find-db: %s answered from the find-db (%d algorithms, best %d at %.4g ms)", key, n,
                  out[0].algo, (double)out[0].time);
    int listed[CLDNN_PERF_MAX] = {0};
    for (int i = 0; i < n; ++i) {
        listed[out[i].algo] = 1;
        out[i].time = -1.0f; /* Get runs nothing: its times are -1 whatever ranked them */
    }
    for (int i = 0; i < nh; ++i)
        if (!listed[heur[i].algo])
            out[n++] = heur[i];
    return n;
}

/* ------------------------------------------------------------------ Find */

static double clock_ms(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

/* Waits for the queue; the status of a failing clFinish. */
static cldnnStatus_t finish_queue(cldnnHandle_t h) {
    const cl_int e = clFinish(h->queue);
    return e == CL_SUCCESS ? CLDNN_STATUS_SUCCESS : CLDNN_CL_FAIL(e, "clFinish");
}

/* Orders entries: SUCCESS first, then SIZE_INSUFFICIENT, then the rest, each group keeping its order. */
static void partition_by_status(cldnn_perf* e, int n) {
    cldnn_perf tmp[CLDNN_PERF_MAX];
    int m = 0;
    for (int pass = 0; pass < 3; ++pass)
        for (int i = 0; i < n; ++i)
            if (status_class(e[i].status) == pass)
                tmp[m++] = e[i];
    memcpy(e, tmp, (size_t)n * sizeof *e);
}

/* Runs the first entry once and waits (Find leaves a correct output, whichever way it answered). */
static cldnnStatus_t run_best_once(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const void* buffers,
                                   const cldnn_perf* e, int n) {
    if (n < 1 || e[0].status != CLDNN_STATUS_SUCCESS)
        return CLDNN_STATUS_SUCCESS;
    CLDNN_TRY(fam->run_algo(h, problem, e[0].algo, buffers));
    return finish_queue(h);
}

/* Benchmarks every algorithm the heuristic lists as applicable (and whose workspace fits): their
** programs are built together, then each runs once (binding its kernels) and is timed as the best
** of a few runs (host clock around enqueue + clFinish); sorted fastest first. */
static cldnnStatus_t benchmark(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key,
                               const void* buffers, size_t ws_size, cldnn_perf* out, int* count) {
    const int n = heuristic(h, fam, problem, key, out);
    CLDNN_TRY(finish_queue(h));
    const cldnn_solver* cand[CLDNN_PERF_MAX] = {0};
    int ncand = 0;
    for (int i = 0; i < n; ++i) {
        const cldnn_solver* s = NULL;
        if (out[i].status == CLDNN_STATUS_SUCCESS && out[i].memory <= ws_size &&
            (s = cldnn_engine_pick(fam, problem, &h->prof, out[i].algo)) != NULL)
            cand[ncand++] = s;
    }
    if (cldnn_engine_prebuild(h, problem, key, cand, ncand, buffers) != CLDNN_STATUS_SUCCESS)
        cldnn_error_clear(); /* each algorithm's own run below reports its failure */
    for (int i = 0; i < n; ++i) {
        if (out[i].status != CLDNN_STATUS_SUCCESS)
            continue;
        if (out[i].memory > ws_size) {
            out[i].status = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
            continue;
        }
        cldnnStatus_t st = fam->run_algo(h, problem, out[i].algo, buffers);
        if (st == CLDNN_STATUS_SUCCESS)
            st = finish_queue(h);
        double best = INFINITY, spent = 0.0;
        for (int rep = 0; st == CLDNN_STATUS_SUCCESS && rep < 10 && (rep < 3 || spent < 50.0); ++rep) {
            const double t0 = now_ms();
            st = fam->run_algo(h, problem, out[i].algo, buffers);
            if (st == CLDNN_STATUS_SUCCESS)
                st = finish_queue(h);
            const double dt = now_ms() - t0;
            spent += dt;
            if (dt < best)
                best = dt;
        }
        out[i].status = st;
        out[i].time = st == CLDNN_STATUS_SUCCESS ? (float)best : -1.0f;
        cldnn_error_clear();
    }
    qsort(out, (size_t)n, sizeof *out, perf_cmp);
    *count = n;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_engine_find(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key,
                                const void* buffers, size_t ws_size, cldnn_perf* out, int* count) {
    const cldnnFindMode_t mode = h->find_mode;
    if (mode == CLDNN_FIND_MODE_HEURISTIC) {
        const int n = heuristic(h, fam, problem, key, out);
        for (int i = 0; i < n; ++i)
            if (out[i].status == CLDNN_STATUS_SUCCESS && out[i].memory > ws_size)
                out[i].status = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
        partition_by_status(out, n);
        cldnn_log(CLDNN_LOG_INFO, "find mode HEURISTIC: %s not benchmarked; heuristic choice %d", key, out[0].algo);
        *count = n;
        return run_best_once(h, fam, problem, buffers, out, n);
    }
    if (mode == CLDNN_FIND_MODE_DB_OR_BENCHMARK) {
        cldnn_perf db[CLDNN_PERF_MAX], heur[CLDNN_PERF_MAX];
        const int nd = finddb_read(h, fam, problem, key, db), nh = heuristic(h, fam, problem, key, heur);
        int covered = nd > 0, n = 0, listed[CLDNN_PERF_MAX] = {0};
        for (int i = 0; i < nh && covered; ++i)
            if (heur[i].status == CLDNN_STATUS_SUCCESS && heur[i].memory <= ws_size) {
                int found = 0;
                for (int j = 0; j < nd; ++j)
                    found |= db[j].algo == heur[i].algo;
                covered = found;
            }
        if (covered) {
            for (int j = 0; j < nd; ++j)
                if (db[j].memory <= ws_size) {
                    out[n++] = db[j];
                    listed[db[j].algo] = 1;
                }
            for (int i = 0; i < nh; ++i)
                if (!listed[heur[i].algo]) {
                    out[n] = heur[i];
                    if (out[n].status == CLDNN_STATUS_SUCCESS)
                        out[n].status = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
                    ++n;
                }
            partition_by_status(out, n);
            cldnn_log(CLDNN_LOG_INFO, "find-db: %s answered from the find-db without benchmarking (best %d at %.4g ms)",
                      key, out[0].algo, (double)out[0].time);
            *count = n;
            return run_best_once(h, fam, problem, buffers, out, n);
        }
        cldnn_log(CLDNN_LOG_INFO, "find-db: no complete record for %s; benchmarking", key);
    }
    if (mode == CLDNN_FIND_MODE_TUNE) {
        const cldnn_solver* s = fam->tune_algo >= 0 ? cldnn_engine_pick(fam, problem, &h->prof, fam->tune_algo) : NULL;
        CLDNN_TRY(cldnn_engine_tune(h, fam, s, problem, key, buffers, ws_size, cldnn_env_int("CLDNN_TUNE_BUDGET", 60),
                                    NULL));
    }
    CLDNN_TRY(benchmark(h, fam, problem, key, buffers, ws_size, out, count));
    cldnn_log(CLDNN_LOG_INFO, "find mode %s: %s benchmarked, best %d at %.4g ms", cldnn_find_mode_name(mode), key,
              out[0].algo, (double)out[0].time);
    finddb_record(h, fam, problem, key, out, *count);
    return CLDNN_STATUS_SUCCESS; /* the output holds the last timed algorithm's (correct) result */
}

/* ------------------------------------------------------------------ Tune */

double cldnn_engine_time(cldnnHandle_t h, const cldnn_solver* s, const void* problem, const void* params,
                         const void* buffers) {
    /* CLDNN_TUNE_CLOCK=cpu: the process's CPU time, every thread's (a CPU runtime's workers are this
    ** process's threads), which other processes on a shared machine disturb far less than the
    ** wall clock; it counts work, not how evenly the cores share it. */
    const char* clk = getenv("CLDNN_TUNE_CLOCK");
    const clockid_t id = clk != NULL && strcmp(clk, "cpu") == 0 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC;
    double best = -1.0;
    for (int rep = 0; rep < 4; ++rep) {
        const double t0 = clock_ms(id);
        if (s->run(h, problem, params, buffers) != CLDNN_STATUS_SUCCESS || clFinish(h->queue) != CL_SUCCESS)
            return -1.0;
        const double dt = clock_ms(id) - t0;
        if (rep > 0 && (best < 0 || dt < best))
            best = dt;
    }
    return best;
}

/* The tuned output: its buffer, element type and count, and a host copy widened to float. */
typedef struct {
    cl_mem mem;
    cldnnDataType_t dtype;
    size_t count, esize;
    uint16_t* bits; /* HALF, BFLOAT16: the raw elements before widening */
} tune_output;

/* Reads o into dst (o->count floats). */
static cldnnStatus_t output_read(cldnnHandle_t h, const tune_output* o, float* dst) {
    void* raw = o->bits != NULL ? (void*)o->bits : (void*)dst;
    const cl_int err = clEnqueueReadBuffer(h->queue, o->mem, CL_TRUE, 0, o->count * o->esize, raw, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clEnqueueReadBuffer");
    for (size_t i = 0; o->bits != NULL && i < o->count; ++i)
        dst[i] = o->dtype == CLDNN_DATA_HALF ? cldnn_half_to_float(o->bits[i]) : cldnn_bf16_to_float(o->bits[i]);
    return CLDNN_STATUS_SUCCESS;
}

/* Fills o with NaN, so that what a run leaves unwritten cannot pass for the reference. */
static cldnnStatus_t output_poison(cldnnHandle_t h, const tune_output* o) {
    const cl_float nan32 = NAN;
    const cl_ushort nan16 = o->dtype == CLDNN_DATA_HALF ? 0x7e00u : 0x7fc0u; /* a quiet NaN of 16 bits */
    const void* pattern = o->esize == 2 ? (const void*)&nan16 : (const void*)&nan32;
    const cl_int err =
        clEnqueueFillBuffer(h->queue, o->mem, pattern, o->esize, 0, o->count * o->esize, 0, NULL, NULL);
    return err == CL_SUCCESS ? CLDNN_STATUS_SUCCESS : CLDNN_CL_FAIL(err, "clEnqueueFillBuffer");
}

/* Tells the caller's progress hook about candidate c of r's space. */
static void tune_step(cldnn_tune_report* r, size_t c, const char* text, cldnn_tune_outcome outcome, double diff,
                      double tol, double ms) {
    if (r->progress == NULL)
        return;
    const cldnn_tune_step st = {c, r->candidates, text, outcome, diff, tol, ms, r->t_best};
    r->progress(&st, r->progress_arg);
}

cldnnStatus_t cldnn_engine_tune(cldnnHandle_t h, const cldnn_family* fam, const cldnn_solver* s, const void* problem,
                                const char* key, const void* buffers, size_t ws_size, double budget,
                                cldnn_tune_report* r) {
    cldnn_tune_report local = {0};
    if (r == NULL)
        r = &local;
    const cldnn_tune_report in = *r; /* the caller's fields */
    memset(r, 0, sizeof *r);
    r->progress = in.progress;
    r->progress_arg = in.progress_arg;
    r->poison = in.poison;
    tune_output o = {0};
    o.dtype = CLDNN_DATA_FLOAT;
    o.mem = fam->output ? fam->output(problem, buffers, &o.dtype) : NULL;
    o.esize = cldnn_dtype_size(o.dtype);
    if (o.mem == NULL || (o.dtype != CLDNN_DATA_FLOAT && o.dtype != CLDNN_DATA_HALF && o.dtype != CLDNN_DATA_BFLOAT16)) {
        cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: %s has no float, half or bfloat16 output to compare; "
                  "benchmarking as BENCHMARK", key);
        return CLDNN_STATUS_SUCCESS;
    }
    if (s == NULL || s->space == NULL || s->space->enumerate == NULL) {
        cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: no solver with a tuning space runs %s; benchmarking as BENCHMARK",
                  key);
        return CLDNN_STATUS_SUCCESS;
    }
    size_t bytes = 0;
    cl_int err = clGetMemObjectInfo(o.mem, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    if (err != CL_SUCCESS)
        return CLDNN_CL_FAIL(err, "clGetMemObjectInfo(CL_MEM_SIZE)");
    o.count = bytes / o.esize;
    const size_t cap = 4096, ps = s->params_size;
    float* ref = (float*)malloc(o.count * 4);
    float* got = (float*)malloc(o.count * 4);
    o.bits = o.esize == 2 ? (uint16_t*)malloc(o.count * 2) : NULL;
    unsigned char* space = (unsigned char*)malloc(cap * ps);
    cldnnStatus_t st = CLDNN_STATUS_SUCCESS;
    _Alignas(16) unsigned char def[CLDNN_PARAMS_MAX], best[CLDNN_PARAMS_MAX];
    if (ref == NULL || got == NULL || space == NULL || (o.esize == 2 && o.bits == NULL)) {
        st = CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "TUNE buffers of %zu bytes", bytes);
        goto out;
    }
    cldnn_engine_params(h, s, problem, key, def);
    r->t_default = r->t_best = cldnn_engine_time(h, s, problem, def, buffers);
    if (r->t_default < 0) {
        cldnn_error_clear();
        cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: the current parameters of %s fail on %s; not tuning", s->name, key);
        goto out;
    }
    if ((st = output_read(h, &o, ref)) != CLDNN_STATUS_SUCCESS)
        goto out;
    r->solver = s->name;
    r->db_name = s->space->db_name ? s->space->db_name : s->name;
    memcpy(best, def, sizeof best);
    double range = 0.0;
    for (size_t i = 0; i < o.count; ++i)
        range = fmax(range, fabs((double)ref[i]));
    const double tol = fam->tolerance(problem) * (range > 0.0 ? range : 1.0);
    size_t ns = s->space->enumerate(problem, &h->prof, space, cap);
    r->candidates = ns = ns > cap ? cap : ns;
    const double start = now_ms();
    size_t c = 0;
    for (; c < ns && now_ms() - start < budget * 1e3; ++c) {
        const void* q = space + c * ps;
        char text[96];
        cldnn_params_format(s->space->text, q, text, sizeof text);
        if (cldnn_engine_workspace(s, problem, q) > ws_size) {
            r->skipped++;
            tune_step(r, c, text, CLDNN_TUNE_SKIPPED, 0.0, tol, -1.0);
            continue;
        }
        r->tried++;
        if ((r->poison && output_poison(h, &o) != CLDNN_STATUS_SUCCESS) ||
            s->run(h, problem, q, buffers) != CLDNN_STATUS_SUCCESS ||
            output_read(h, &o, got) != CLDNN_STATUS_SUCCESS) {
            cldnn_error_clear();
            r->failed++;
            tune_step(r, c, text, CLDNN_TUNE_FAILED, 0.0, tol, -1.0);
            continue;
        }
        double worst = 0.0;
        for (size_t i = 0; i < o.count && worst <= tol; ++i) {
            const double d = fabs((double)got[i] - (double)ref[i]);
            worst = d == d ? fmax(worst, d) : INFINITY;
        }
        if (!(worst <= tol)) {
            r->rejected++;
            tune_step(r, c, text, CLDNN_TUNE_REJECTED, worst, tol, -1.0);
            continue;
        }
        const double t = cldnn_engine_time(h, s, problem, q, buffers);
        if (t < 0) {
            cldnn_error_clear();
            r->failed++;
            tune_step(r, c, text, CLDNN_TUNE_FAILED, worst, tol, -1.0);
            continue;
        }
        if (t < r->t_best) {
            r->t_best = t;
            memcpy(best, q, ps);
        }
        tune_step(r, c, text, CLDNN_TUNE_TIMED, worst, tol, t);
    }
    r->out_of_time = c < ns;
    r->seconds = (now_ms() - start) * 1e-3;
    cldnn_params_format(s->space->text, best, r->best_text, sizeof r->best_text);
    cldnn_params_format(s->space->text, def, r->default_text, sizeof r->default_text);
    cldnn_log(CLDNN_LOG_INFO, "find mode TUNE: %s %s: %zu of %zu candidates in %.1f s (%zu rejected, %zu failed), "
              "best %s %.4g ms, previous %s %.4g ms", key, s->name, r->tried, ns, r->seconds, r->rejected, r->failed,
              r->best_text, r->t_best, r->default_text, r->t_default);
    cldnn_tunedb_put(h, key, r->db_name, r->best_text);
out:
    free(ref);
    free(got);
    free(o.bits);
    free(space);
    return st;
}

cldnnStatus_t cldnn_solver_run_default(cldnnHandle_t h, const cldnn_solver* table, size_t n, const void* problem,
                                       const void* buffers, const char* what) {
    const cldnn_family fam = {.name = what, .solvers = table, .count = n, .tune_algo = -1};
    return cldnn_engine_run(h, &fam, problem, buffers, NULL, what);
}
