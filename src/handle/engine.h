/*
** engine.h: the selection engine: Get, Find, Tune, the find-db and the tuning db over any family.
**
** A family (convolution per direction, GEMM, pooling, ...) describes itself once in a
** cldnn_family record: its solver table (internal.h's cldnn_solver records), its public algorithm
** enum, and the few hooks only it can answer (the run of a public algorithm with its checks, the
** output a tuner compares, the tolerance of that comparison). Everything that chooses among
** solvers is here and nowhere else: the heuristic order (rank, then table order), the override
** pair CLDNN_SOLVER / CLDNN_SOLVER_PARAMS, the parameters a run takes (defaults, tuning db,
** override), Get_v7's ranked answer, Find under the handle's find mode with its find-db record,
** and the TUNE search.
**
** Cost on the per-call path: picking a run's solver is one pass over the table that asks only the
** solvers of the algorithm that could still rank first whether they apply (a table in rank order
** costs what "first applicable" did); the tuning db is read only for the solver that runs and only
** when it declares a tunable space; the override variables are read with one getenv each.
*/
#ifndef CLDNN_ENGINE_H_
#define CLDNN_ENGINE_H_

#include "internal.h"

/* A family record: a direction of convolution, GEMM, ... Hooks that a family lacks are NULL. */
typedef struct cldnn_family {
    const char* name;              /* "conv-fwd", "gemm": logs */
    const cldnn_solver* solvers;
    size_t count;
    int algo_count;                /* values of the public algorithm enum; 0: none */
    const char* const* algo_names; /* algo_count names */
    /* 1 when the GEMM family runs problem's products on tensor cores (CLDNN_SOLVER_GEMM_MATH). */
    int (*gemm_tensor_ops)(const void* problem, const cldnn_device_profile* dev);
    /* Runs public algorithm algo on problem with the family's checks (workspace, buffers). */
    cldnnStatus_t (*run_algo)(cldnnHandle_t h, const void* problem, int algo, const void* buffers);
    /* Tune: the output buffer the candidates are compared on and its element type in *dtype (FLOAT
    ** HALF or BFLOAT16; NULL: nothing to compare), and the largest difference from the reference a
    ** candidate may show per unit of the reference's largest magnitude (16-bit outputs included:
    ** their rounding is the family's to allow for). */
    cl_mem (*output)(const void* problem, const void* buffers, cldnnDataType_t* dtype);
    double (*tolerance)(const void* problem);
    int tune_algo;                 /* the algorithm whose solver a TUNE-mode Find searches; -1 none */
} cldnn_family;

/* The rank of s for problem on dev (its first promotion that holds, else its own), and in *name
** (when not NULL) the name its find-db records use there. */
int cldnn_solver_rank(const cldnn_solver* s, const void* problem, const cldnn_device_profile* dev, const char** name);

/* The solvers of fam that apply to problem on dev, in the heuristic order, at most max into out;
** returns their count. Under CLDNN_SOLVER=name[,name...] (read on every call) a family that holds
** a named solver takes only the named ones, in the list's order. */
int cldnn_engine_order(const cldnn_family* fam, const void* problem, const cldnn_device_profile* dev,
                       const cldnn_solver** out, int max);
/* The solver of fam named name (its own name or one of its find-db names), applicable or not;
** NULL when fam has none of that name. For tools that search one solver's space (cldnn-tune). */
const cldnn_solver* cldnn_engine_solver(const cldnn_family* fam, const char* name);
/* The solver that runs algorithm algo (-1: any) for problem on dev: the first of the order that
** serves it; NULL when none does. */
const cldnn_solver* cldnn_engine_pick(const cldnn_family* fam, const void* problem, const cldnn_device_profile* dev,
                                      int algo);

/* Fills params (CLDNN_PARAMS_MAX bytes) with what s runs problem with: CLDNN_SOLVER_PARAMS's set
** for s when it parses and is valid, else the tuning db's record for (key, s) when key is not NULL,
** s has a space, the find mode reads the databases and the record is valid, else s's defaults. A
** set that is not valid is ignored with a log line. Returns where the set came from, for logs. */
#define CLDNN_PARAMS_MAX 256
const char* cldnn_engine_params(cldnnHandle_t h, const cldnn_solver* s, const void* problem, const char* key,
                                void* params);
/* Bytes of workspace s needs for problem with params (NULL: its defaults). */
size_t cldnn_engine_workspace(const cldnn_solver* s, const void* problem, const void* params);
/* What the plain run below takes: the solver in *solver and its parameters in params
** (CLDNN_PARAMS_MAX bytes; the tuning db only when key names the problem); NOT_SUPPORTED naming
** what, *solver NULL, when no solver applies. For a family whose workspace depends on them, so
** that sizing and running select once. */
cldnnStatus_t cldnn_engine_select(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key,
                                  const char* what, const cldnn_solver** solver, void* params);
/* The plain run of a family without public algorithms: picks, takes the parameters (the tuning db
** only when key names the problem: internal callers pass NULL) and runs; NOT_SUPPORTED naming what
** when no solver applies. The parameter log lines name key, else what. */
cldnnStatus_t cldnn_engine_run(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const void* buffers,
                               const char* key, const char* what);

/* Builds the programs that solvers s[0..n) need for problem together (cache.c's parallel
** builds): each runs once in prepare-only mode while the handle collects the programs it lacks.
** Returns the build's status; a solver that fails while collecting is left to its real run. */
cldnnStatus_t cldnn_engine_prebuild(cldnnHandle_t h, const void* problem, const char* key, const cldnn_solver* const* s,
                                    int n, const void* buffers);

/* Text form of parameter sets (internal.h's cldnn_param_space) after pattern. Parse: 1 and the
** set in params (size bytes, zeroed first) when text matches the pattern entirely, else 0. */
int cldnn_params_parse(const char* pattern, const char* text, void* params, size_t size);
void cldnn_params_format(const char* pattern, const void* params, char* buf, size_t size);

/* One entry of a Get or Find answer. */
typedef struct {
    int algo;
    cldnnStatus_t status;
    float time;
    size_t memory;
    int deterministic;
    int tensor_ops; /* runs on tensor cores (mathType TENSOR_OP_MATH in the answer) */
} cldnn_perf;
#define CLDNN_PERF_MAX 16

/* Get_v7's answer for problem (key its database key): the find-db's entries first, fastest first
** (unless the mode is HEURISTIC), then the heuristic's remaining algorithms in order, then the
** inapplicable ones NOT_SUPPORTED; times -1. Returns the count (algo_count). */
int cldnn_engine_get(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key, cldnn_perf* out);
/* Find under the handle's mode: HEURISTIC answers with the heuristic's order and times nothing;
** DB_OR_BENCHMARK answers from the find-db when its record covers every applicable algorithm that
** fits ws_size bytes of workspace; TUNE tunes first (cldnn_engine_tune); every benchmark is
** recorded. Whichever way it answers, the best entry has run once on the buffers. */
cldnnStatus_t cldnn_engine_find(cldnnHandle_t h, const cldnn_family* fam, const void* problem, const char* key,
                                const void* buffers, size_t ws_size, cldnn_perf* out, int* count);

/* Milliseconds one run of s with params takes on problem: the best of 3 timed runs (host clock
** around the enqueue and clFinish; with CLDNN_TUNE_CLOCK=cpu the process's CPU time) after an
** untimed one; -1 when a run fails. Tune's timing, for tools that report against it. */
double cldnn_engine_time(cldnnHandle_t h, const cldnn_solver* s, const void* problem, const void* params,
                         const void* buffers);

/* One candidate of a tuning search, as it is done (cldnn_tune_report's progress). */
typedef enum {
    CLDNN_TUNE_TIMED = 0,    /* matched the reference and was timed */
    CLDNN_TUNE_REJECTED = 1, /* its output differs from the reference's by more than the tolerance */
    CLDNN_TUNE_FAILED = 2,   /* its run (or its timing) failed */
    CLDNN_TUNE_SKIPPED = 3   /* it needs more workspace than given */
} cldnn_tune_outcome;
typedef struct {
    size_t index, count;   /* its position in the space (from 0), and the space's size */
    const char* text;      /* its parameters */
    cldnn_tune_outcome outcome;
    double diff, tol;      /* its largest difference from the reference (INFINITY: NaN), the limit */
    double ms, best_ms;    /* its time (TIMED), and the best so far */
} cldnn_tune_step;

/* What a tuning search did, for the caller's report. The first three fields are the caller's
** (kept by cldnn_engine_tune); the rest is filled by it. */
typedef struct {
    void (*progress)(const cldnn_tune_step* step, void* arg); /* NULL: none */
    void* progress_arg;
    /* 1: the output buffer holds nothing but the output (a tool's own buffers): it is filled with
    ** NaN before each candidate's checked run, so a candidate that leaves an element unwritten is
    ** rejected. 0 (Find, on the caller's buffers, which may hold other data): not touched. */
    int poison;
    const char* solver;      /* the solver searched; NULL when none was */
    const char* db_name;     /* the name its tuning-db record went under */
    size_t candidates;       /* the space's size for the problem */
    size_t tried, rejected, failed, skipped; /* run; outside the tolerance; failing; workspace too large */
    int out_of_time;         /* the budget ended the search before the space did */
    double seconds;
    double t_default, t_best; /* ms: the current parameters' and the best's */
    char default_text[96], best_text[96];
} cldnn_tune_report;
/* Searches s's space for problem on the buffers within budget seconds, the current parameters
** (cldnn_engine_params) first as the reference; the problem must overwrite its output (beta 0).
** A candidate whose output differs from the reference's by more than fam->tolerance times the
** reference's largest magnitude is rejected (and one that leaves an element unwritten, where
** r->poison says so); one whose workspace exceeds ws_size is skipped. Records the fastest (the
** reference when nothing beat it) in the tuning db under key and the space's name; with the
** handle's database path "" the record stays in memory.
** r (when not NULL) reports. SUCCESS also when nothing could be searched (the report's solver
** NULL, a log line saying why). */
cldnnStatus_t cldnn_engine_tune(cldnnHandle_t h, const cldnn_family* fam, const cldnn_solver* s, const void* problem,
                                const char* key, const void* buffers, size_t ws_size, double budget,
                                cldnn_tune_report* r);

#endif /* CLDNN_ENGINE_H_ */
