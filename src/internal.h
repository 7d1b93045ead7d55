/*
** internal.h: the one internal header of cldnn.
**
** Every source file under src/ includes this. It declares the pieces every primitive family
** uses on its way from a public call to an enqueued kernel:
**
**   validate descriptors and buffers -> describe the problem (struct + key string)
**   -> pick a solver from the family's table -> get its kernel (program cache) -> enqueue
**
** Naming: public functions are cldnnVerbObject (include/cldnn.h); internal ones are
** cldnn_<family>_<verb> and declared here; helpers private to a file are static.
** Errors are recorded where they are born, through CLDNN_FAIL, which stores the status's detail
** for cldnnGetLastErrorString and logs it when CLDNN_LOG_LEVEL >= 1.
*/
#ifndef CLDNN_INTERNAL_H_
#define CLDNN_INTERNAL_H_

#include "cldnn.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ errors (handle/status.c) */

/* Records status s with a printf-style detail for this thread and returns s. Every failing path
** in the library goes through it, so one breakpoint on cldnn_error_at sees every origin. */
cldnnStatus_t cldnn_error_at(const char* file, int line, cldnnStatus_t s, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define CLDNN_FAIL(s, ...) cldnn_error_at(__FILE__, __LINE__, (s), __VA_ARGS__)
/* Records text, a last-error string captured on another thread (cldnnGetLastErrorString there:
** "CLDNN_STATUS_...: detail"), as this thread's last error and returns s; logs nothing (the
** failure was logged where it was born). */
cldnnStatus_t cldnn_error_adopt(cldnnStatus_t s, const char* text);
/* Bytes of a last-error string, its terminator included. */
#define CLDNN_ERROR_TEXT_MAX 8192
/* Appends more detail (a build log) to this thread's last error. */
void cldnn_error_append(const char* text);
/* Clears this thread's last error: called on entry to every public function. */
void cldnn_error_clear(void);
/* "CL_OUT_OF_RESOURCES" etc.; "CL_UNKNOWN_ERROR(<n>)" is written into a static per-thread buffer. */
const char* cldnn_cl_error_name(cl_int err);
/* Maps an OpenCL error from call `what` to a status (allocation failures and out-of-resources to
** their own statuses) and records it. err must not be CL_SUCCESS. */
cldnnStatus_t cldnn_cl_fail_at(const char* file, int line, cl_int err, const char* what);
#define CLDNN_CL_FAIL(err, what) cldnn_cl_fail_at(__FILE__, __LINE__, (err), (what))

/* Sets kernel argument i of k to the value of lvalue v, returning the mapped status on failure. A
** NULL k is a kernel whose program is being collected for a parallel build (cache.c: only while a
** Prepare or Find collects, never on a run): nothing to set. */
#define CLDNN_SETARG(k, i, v)                                                  \
    do {                                                                       \
        if ((k) == NULL)                                                       \
            break;                                                             \
        cl_int setarg_e_ = clSetKernelArg((k), (i), sizeof(v), &(v));          \
        if (setarg_e_ != CL_SUCCESS)                                           \
            return CLDNN_CL_FAIL(setarg_e_, "clSetKernelArg");                 \
    } while (0)

/* Propagate a failing status. */
#define CLDNN_TRY(expr)                          \
    do {                                         \
        cldnnStatus_t try_s_ = (expr);           \
        if (try_s_ != CLDNN_STATUS_SUCCESS)      \
            return try_s_;                       \
    } while (0)

/* The body of every cldnnCreate*Descriptor: *out = a zeroed descriptor, or NULL_POINTER when out
** is NULL (naming the argument) / HOST_ALLOCATION_FAILED (naming the kind). Returns from the caller
** on failure. */
#define CLDNN_DESC_NEW(out, argname, kind)                                                          \
    do {                                                                                            \
        if ((out) == NULL)                                                                          \
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s (output pointer) is NULL", argname); \
        *(out) = calloc(1, sizeof **(out));                                                         \
        if (*(out) == NULL)                                                                         \
            return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "%s descriptor allocation", kind); \
    } while (0)

/* ----------------------------------------------------------------- logging (handle/log.c) */

enum { CLDNN_LOG_ERROR = 1, CLDNN_LOG_INFO = 2, CLDNN_LOG_DEBUG = 3 };
/* CLDNN_LOG_LEVEL 0..3, read once. */
int cldnn_log_level(void);
void cldnn_log(int level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* CLDNN_LOG_CMD=1: print the cldnn-bench line reproducing each primitive call. */
int cldnn_log_cmd_enabled(void);
void cldnn_log_cmd(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads an environment variable as an integer; def when unset or malformed. */
int cldnn_env_int(const char* name, int def);

/* ------------------------------------------------------- device profile (handle/device.c) */

/* What solvers decide from: read once per handle from the device. */
typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    cl_uint vendor_id;
    char name[256];
    char vendor[128];
    char platform_name[128];
    char driver[128];
    char version[128];          /* CL_DEVICE_VERSION */
    cl_uint compute_units;
    size_t max_wg_size;
    cl_ulong local_mem;         /* CL_DEVICE_LOCAL_MEM_SIZE as reported */
    cl_ulong global_mem;
    cl_ulong max_alloc;
    cl_uint base_align_bytes;   /* CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8 */
    cl_uint pref_vec_float;
    int has_fp16;               /* cl_khr_fp16 */
    int has_fp64;               /* cl_khr_fp64 */
    int is_cpu;
    int is_nvidia;
    int nv_cc_major, nv_cc_minor; /* cl_nv_device_attribute_query; 0 when absent */
    /* Identity of the find and tuning databases: platform, device, vendor id, compute units and
    ** the extensions solvers decide from (fp16, fp64, NVIDIA compute capability); no driver
    ** version, which keys program binaries only (cache.c). */
    char key[512];
} cldnn_device_profile;

cldnnStatus_t cldnn_device_profile_read(cl_device_id dev, cldnn_device_profile* p);

/* ------------------------------------------------------------------ handle (handle/handle.c) */

struct cldnn_program_set;  /* per-context program cache, handle/cache.c */
struct cldnn_program_list; /* programs collected for a parallel build, handle/cache.c */

typedef struct {
    cl_program program;
    const char* name;  /* static string */
    cl_kernel kernel;
} cldnn_kernel_slot;

#define CLDNN_KERNEL_SLOTS 64

struct cldnnContext {
    cl_context context;
    cl_device_id device;
    cl_command_queue queue;
    int owns_context;              /* created by cldnnCreateDefault */
    cldnn_device_profile prof;
    struct cldnn_program_set* programs;
    /* Kernels are per handle (a cl_kernel's arguments are not thread-safe; a handle is used by
    ** one thread at a time). Small and searched linearly; evicted round-robin when full. */
    cldnn_kernel_slot kernels[CLDNN_KERNEL_SLOTS];
    int nkernels, next_evict;
    /* Small internal scratch (GEMM split-k partial sums), grown on demand, capped by
    ** CLDNN_SCRATCH_MAX; never the data path's buffers. */
    cl_mem scratch;
    size_t scratch_size;
    /* Algorithm selection (db.c): the find mode (CLDNN_FIND_MODE at creation, cldnnSetFindMode)
    ** and the databases' folder (CLDNN_DB_PATH, XDG_CONFIG_HOME or HOME at creation,
    ** cldnnSetDatabasePath; "" keeps results in memory only). */
    cldnnFindMode_t find_mode;
    /* The math type of GEMM calls (cldnnSetGemmMathType; DEFAULT_MATH from calloc). */
    cldnnMathType_t gemm_math;
    char db_dir[1024];
    /* The system tables' folder (db.c: CLDNN_SYSTEM_DB_PATH, else beside the library, else the
    ** source tree's db/; "" none), read-only, consulted after db_dir. */
    char sysdb_dir[1024];
    /* Set while a Prepare call runs a solver: cldnn_enqueue_nd builds and binds kernels but
    ** enqueues nothing. */
    int prepare_only;
    /* Non-NULL between cldnn_program_collect_begin and _end: missing programs are recorded here
    ** instead of built (their kernels are NULL). */
    struct cldnn_program_list* collect;
};

#define CLDNN_SCRATCH_MAX ((size_t)64 << 20)
/* A scratch buffer of at least `bytes` (<= CLDNN_SCRATCH_MAX) owned by the handle. */
cldnnStatus_t cldnn_scratch_get(cldnnHandle_t h, size_t bytes, cl_mem* out);

/* NULL handle -> BAD_PARAM_NULL_POINTER. */
cldnnStatus_t cldnn_check_handle(cldnnHandle_t h);
/* Checks a (cl_mem, byte offset) pair against the handle's context, the element size and the
** number of bytes the view needs past the offset (CL_MEM_SIZE). what names the argument. */
cldnnStatus_t cldnn_check_buffer(cldnnHandle_t h, cl_mem m, size_t offset, size_t elem_size, uint64_t need_bytes,
                                 const char* what);
/* Enqueues a 1-d NDRange of at least `items` work-items with work-groups of `local`. */
cldnnStatus_t cldnn_enqueue_1d(cldnnHandle_t h, cl_kernel k, uint64_t items, size_t local, const char* what);
/* Enqueues an NDRange of `dims` dimensions; global[i] is rounded up to a multiple of local[i]. */
cldnnStatus_t cldnn_enqueue_nd(cldnnHandle_t h, cl_kernel k, cl_uint dims, const uint64_t* global,
                               const size_t* local, const char* what);

/* ---------------------------------------------------------- folders and files (handle/files.c) */

/* A user folder into buf: $override_var, else $xdg_var/cldnn, else $HOME/home_sub/cldnn. 0 (buf
** "") when none of them is set. */
int cldnn_user_dir(char* buf, size_t size, const char* override_var, const char* xdg_var, const char* home_sub);
/* mkdir -p path; 1 when it is a folder afterwards, else 0 with errno set. */
int cldnn_make_dirs(const char* path);
/* Replaces path by the concatenation of nparts byte ranges: written to a temporary file in the
** same folder, then renamed over path (readers see the old file or the new one). 1 on success,
** else 0 with errno set and no temporary file left. */
int cldnn_file_replace(const char* path, const void* const* parts, const size_t* sizes, int nparts);

/* ----------------------------------------------------- find and tuning databases (handle/db.c) */

/* Two databases per device key and folder: the find-db (problem key -> the algorithms Find
** timed, fastest first) and the tuning db (problem key + " " + solver -> a parameter string).
** Keys and values are single words of printable ASCII (no spaces). Lookups and records never
** fail a call: an unreadable, corrupt or foreign file is skipped and an unwritable folder keeps
** records in memory, each with a log line. Thread-safe; safe across processes. */
typedef enum { CLDNN_DB_FIND = 0, CLDNN_DB_TUNE = 1 } cldnn_db_kind;
/* 1 and the value (NUL-terminated, truncated to size) when dir's db of kind for device key dev
** holds key; else 0. dir "" is memory only. */
int cldnn_db_get(const char* dir, const char* dev, cldnn_db_kind kind, const char* key, char* value, size_t size);
/* Records key -> value (the last record of a key wins) in memory and, when dir is not "", as
** one appended line of the db file. */
void cldnn_db_put(const char* dir, const char* dev, cldnn_db_kind kind, const char* key, const char* value);
/* The handle's find mode for this call: HEURISTIC ignores both databases. */
int cldnn_db_enabled(cldnnHandle_t h);
/* The handle's record of key in the databases of kind: the user's (db_dir), else the system
** tables' (sysdb_dir, the file of the nearest device). 1 from the user db, 2 from the system
** tables, 0 none or the mode is HEURISTIC. Never writes. */
int cldnn_db_lookup(cldnnHandle_t h, cldnn_db_kind kind, const char* key, char* value, size_t size);
/* The handle's tuning-db record for (problem key, solver) into value; 0 when absent or the mode
** is HEURISTIC. */
int cldnn_tunedb_get(cldnnHandle_t h, const char* key, const char* solver, char* value, size_t size);
void cldnn_tunedb_put(cldnnHandle_t h, const char* key, const char* solver, const char* value);
/* Folder and find mode of a new handle from the environment (CLDNN_DB_PATH, CLDNN_FIND_MODE). */
void cldnn_db_handle_init(cldnnHandle_t h);
const char* cldnn_find_mode_name(cldnnFindMode_t m);
/* Counters since process start (or the last cldnn_db_reset), for tests and logs. */
typedef struct {
    uint64_t hits, misses, records, lines_read, lines_skipped, files_ignored, write_failures;
    uint64_t system_hits; /* cldnn_db_lookup answers from the system tables */
} cldnn_db_stats;
void cldnn_db_stats_get(cldnn_db_stats* s);
/* Test hook: forgets every in-memory database and zeroes the counters. */
void cldnn_db_reset(void);

/* ------------------------------------------------------------ program cache (handle/cache.c) */

/* A built program for (kernel source file, build options) on the handle's context and device:
** from memory, else from the on-disk binary cache, else built from source and stored. The
** returned program belongs to the cache. Thread-safe. Build failures give
** INTERNAL_ERROR_COMPILATION_FAILED with the build log in the last-error string. */
cldnnStatus_t cldnn_program_get(cldnnHandle_t h, const char* source, const char* options, cl_program* out);
/* The handle's cl_kernel for `name` in (source, options): built or cached. */
cldnnStatus_t cldnn_kernel_get(cldnnHandle_t h, const char* source, const char* options, const char* name,
                               cl_kernel* out);
/* Per-context cache lifetime: attach on handle creation, detach on destroy. */
cldnnStatus_t cldnn_program_set_attach(cldnnHandle_t h);
void cldnn_program_set_detach(cldnnHandle_t h);
/* The disk cache folder in use ("" when disabled), for tests and logs. */
const char* cldnn_cache_dir(void);
/* Counters since process start, for tests and logs. pool_programs: programs a parallel build
** (more than one thread) made ready, built or loaded. */
typedef struct {
    uint64_t memory_hits, disk_hits, builds, disk_writes, disk_rejects;
    uint64_t pool_programs;
} cldnn_cache_stats;
void cldnn_cache_stats_get(cldnn_cache_stats* s);
/* Parallel program builds. Between begin and end, cldnn_program_get answers a program that is not
** ready in memory with NULL and records (source, options) in the handle's list, cldnn_kernel_get
** answers NULL kernels and CLDNN_SETARG skips them: a solver run in prepare-only mode
** (h->prepare_only) then names every program it needs without building one. End builds or loads
** the list's programs on cldnn_build_threads() worker threads (the caller when that is 1), each
** program on one thread, through the same cache (memory, disk, source), and returns the status
** of the first failing program in list order with that worker's message as this thread's last
** error; the rest of the list is built all the same. */
cldnnStatus_t cldnn_program_collect_begin(cldnnHandle_t h);
cldnnStatus_t cldnn_program_collect_end(cldnnHandle_t h);
/* CLDNN_BUILD_THREADS (1 = serial, at most 64), else min(online CPUs, 8). Read on every call. */
int cldnn_build_threads(void);
/* Test hooks. cldnn_cache_test_options: every later program of kernel source `source` ("" or NULL:
** none) is built with `options` appended (a bad option makes its build fail). cldnn_program_set_keys:
** the handle's context's ready programs as "source [options]" lines, sorted, into buf; returns
** their count (0 when out of memory). */
void cldnn_cache_test_options(const char* source, const char* options);
int cldnn_program_set_keys(cldnnHandle_t h, char* buf, size_t size);

/* --------------------------------------------------------- embedded kernels (cldnn_kernels.c) */

typedef struct {
    const char* path;  /* relative to kernels/, e.g. "eltwise/eltwise.cl" */
    const char* text;
    size_t size;
} cldnn_kernel_file;
extern const cldnn_kernel_file cldnn_kernel_files[];
extern const size_t cldnn_kernel_file_count;

/* ------------------------------------------------------------- descriptors (tensor/tensor.c) */

struct cldnnTensorStruct {
    int is_set;
    cldnnDataType_t dtype;
    int nd;
    int64_t dims[CLDNN_DIM_MAX];
    int64_t strides[CLDNN_DIM_MAX];
    int64_t span;     /* elements: 1 + sum (dims-1)*strides */
    int64_t count;    /* elements: product of dims */
};

struct cldnnFilterStruct {
    int is_set;
    cldnnDataType_t dtype;
    cldnnTensorFormat_t format;
    int nd;
    int64_t dims[CLDNN_DIM_MAX];
    int64_t count;
};

/* Size in bytes of one element; 0 for a value outside the enum. */
size_t cldnn_dtype_size(cldnnDataType_t t);
const char* cldnn_dtype_name(cldnnDataType_t t); /* "float", "half", ... */
/* The type's field in problem keys (find-db, tuning db, logs): "f32", "f16", else the name. */
const char* cldnn_dtype_key(cldnnDataType_t t);
/* The kernels' storage build option (kernels/common/helpers.h): " -DDATA_HALF=1" for HALF, else "". */
const char* cldnn_dtype_build_option(cldnnDataType_t t);
/* NULL / never-Set descriptor checks, recording which argument. */
cldnnStatus_t cldnn_check_tensor(const struct cldnnTensorStruct* d, const char* what);
/* Same dims (count and extents) -> SUCCESS, else BAD_PARAM_SHAPE_MISMATCH naming both. */
cldnnStatus_t cldnn_check_same_dims(const struct cldnnTensorStruct* a, const char* an,
                                    const struct cldnnTensorStruct* b, const char* bn);
/* Data types a compute call handles: FLOAT everywhere, HALF as storage. */
cldnnStatus_t cldnn_check_compute_dtype(cldnnDataType_t t, const char* what);
/* Checks a tensor's buffer (alignment, context, CL_MEM_SIZE against the descriptor's span). */
cldnnStatus_t cldnn_check_tensor_buffer(cldnnHandle_t h, const struct cldnnTensorStruct* d, cl_mem m, size_t off,
                                        const char* what);
/* "NCHW" or "NHWC" when d is a packed tensor of that layout (any number of dims for NCHW, 4
** for NHWC), NULL for any other strides. */
const char* cldnn_tensor_layout(const struct cldnnTensorStruct* d);
/* The cldnn-bench flags that describe d's shape: "-D 32x64x56x56 -d float -L NHWC", with a
** shell comment naming the strides when they are not a packed layout the bench can express. */
void cldnn_bench_shape_flags(char* buf, size_t size, const struct cldnnTensorStruct* d);
/* "32x64x56x56" into buf. */
void cldnn_format_dims(char* buf, size_t size, int nd, const int64_t* dims);
/* Reads a host scalar (alpha, beta, value) of the data type's scalar kind as float. */
float cldnn_scalar_as_float(const void* p, cldnnDataType_t t);

/* ------------------------------------------------------------------ solvers (handle/engine.c) */

/* One record per algorithm in a table per family (design notes). Get, Find, Tune and the plain
** run are loops over a table in the engine (handle/engine.h); no family special-cases its
** selection, and nothing asks which function a solver runs: what callers need is a field.
** Problems, parameters and buffers are the family's own structs, passed through void pointers. */

/* What a solver's results are like (flags). */
#define CLDNN_SOLVER_DETERMINISTIC 0x1u /* sums in a fixed order: the same bits on every run */
#define CLDNN_SOLVER_TENSOR_OPS 0x2u    /* runs on tensor cores wherever it applies */
#define CLDNN_SOLVER_GEMM_MATH 0x4u     /* takes its products through the GEMM family: tensor cores
                                        ** where the family record's tensor_ops says so */

/* A tunable parameter space. Parameter structs are arrays of int fields; their text form (the
** tuning db's values, CLDNN_SOLVER_PARAMS, logs) is one format for every family: the values in
** field order, each after the literal text that `text` puts before its %d ("%dx%dx%d-%dx%d-p%d"
** reads "32x32x8-4x4-p4"). A part in [brackets] at the end is optional on reading (its fields
** are 0 when absent) and always written. */
typedef struct cldnn_param_space {
    const char* text;    /* the pattern */
    const char* names;   /* the fields' names, space-separated, in field order */
    const char* db_name; /* the name its tuning-db records go under; NULL: the solver's */
    const char* origin;  /* where the defaults come from, for logs ("table"); NULL: "defaults" */
    /* 1 when the parsed set params runs problem on dev (its constraints). */
    int (*valid)(const void* problem, const cldnn_device_profile* dev, const void* params);
    /* Sets the fields the problem decides (copy widths, split counts) on a valid set that came from
    ** the tuning db, CLDNN_SOLVER_PARAMS or the space; NULL: none. */
    void (*finish)(const void* problem, const cldnn_device_profile* dev, void* params);
    /* The candidates a tuner times for problem on dev, finished and valid: at most max sets into
    ** out (params_size bytes each); returns the number the space holds. */
    size_t (*enumerate)(const void* problem, const cldnn_device_profile* dev, void* out, size_t max);
} cldnn_param_space;

/* Where `when` holds (a subset of the problems the solver applies to) the solver ranks at `rank`
** and its find-db records name it `name` (the name of the table row it was in earlier tables). */
typedef struct {
    int (*when)(const void* problem, const cldnn_device_profile* dev);
    int rank;
    const char* name;
} cldnn_solver_promotion;

typedef struct cldnn_solver {
    const char* name;
    int algo; /* the public algorithm enum value it serves; -1 when the family has none */
    int (*applicable)(const void* problem, const cldnn_device_profile* dev);
    /* Bytes of workspace with parameters params (NULL: its defaults); NULL: none. */
    size_t (*workspace)(const void* problem, const void* params);
    /* The heuristic's parameters (params_size bytes, zeroed before the call); NULL: none. */
    void (*default_params)(const void* problem, const cldnn_device_profile* dev, void* params);
    size_t params_size;
    cldnnStatus_t (*run)(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
    unsigned flags; /* CLDNN_SOLVER_* */
    /* The heuristic order: applicable solvers by rank, ties in table order; a promotion that holds
    ** moves the solver to its rank. Get_v7 lists an algorithm where its first solver stands, and
    ** running an algorithm runs that solver. */
    int rank;
    cldnn_solver_promotion promote[2];
    const cldnn_param_space* space; /* NULL: nothing to tune */
} cldnn_solver;

/* Picks the table's first solver in the heuristic order (CLDNN_SOLVER applies), fills its
** default parameters (CLDNN_SOLVER_PARAMS applies) and runs it; NOT_SUPPORTED naming what when
** none applies. The path of the families without public algorithms or a tuning db. */
cldnnStatus_t cldnn_solver_run_default(cldnnHandle_t h, const cldnn_solver* table, size_t n, const void* problem,
                                       const void* buffers, const char* what);

/* ------------------------------------------------------------ elementwise (tensor/eltwise.c) */

/* The elementwise family: out = alpha * f(a, b) + beta * out over tensors of one logical shape,
** each operand with its own strides (stride 0 broadcasts). Serves activations and tensor ops. */
typedef enum {
    CLDNN_ELT_ACT_FWD = 0,  /* f = act(a)                         a = x            */
    CLDNN_ELT_ACT_BWD = 1,  /* f = act'(a) * b                    a = x or y, b = dy */
    CLDNN_ELT_AXPBY = 2,    /* f = a                              add, transform, scale */
    CLDNN_ELT_SET = 3       /* f = value, alpha = 1, beta = 0    set */
} cldnn_elt_op;

typedef struct {
    cldnn_elt_op op;
    int act_mode;            /* cldnnActivationMode_t */
    int nan_prop;
    float coef, coef2;       /* activation coef and swish beta, or the SET value in coef */
    float alpha, beta;
    cldnnDataType_t dtype;
    int nd;                  /* after collapsing: >= 1 */
    int64_t dims[CLDNN_DIM_MAX];
    int64_t strides[3][CLDNN_DIM_MAX]; /* [0] out, [1] a, [2] b */
    int64_t count;
    int nops;                /* operands in use: 1 (set), 2, or 3 */
    uint64_t offset[3];      /* elements */
    uint64_t span[3];        /* elements each operand's view covers */
} cldnn_elt_problem;

typedef struct {
    cl_mem mem[3];
} cldnn_elt_buffers;

/* Builds a problem from full-rank views (dims of the output, per-operand strides), collapsing
** dimensions that are contiguous in every operand and dropping size-1 ones. */
void cldnn_elt_problem_init(cldnn_elt_problem* p, cldnn_elt_op op, cldnnDataType_t dtype, int nd,
                            const int64_t* dims, int nops, const int64_t* const* strides, const size_t* byte_offsets);
/* Runs the problem through the elementwise solver table. `key` names it in logs and errors. */
cldnnStatus_t cldnn_elt_run(cldnnHandle_t h, const cldnn_elt_problem* p, const cldnn_elt_buffers* b,
                            const char* key);

/* ----------------------------------------------------------------------- GEMM (gemm/gemm.c) */

/* The canonical problem: C (m x n, column-major, ldc) = alpha * op(A) op(B) + beta * C over
** batch products; row-major calls are turned into this form (C^T = op(B)^T op(A)^T). */
typedef struct {
    int64_t m, n, k;
    int trans_a, trans_b;       /* 1: the stored column-major matrix is used transposed */
    int64_t lda, ldb, ldc;
    int64_t stride_a, stride_b, stride_c; /* elements between batch products */
    int64_t batch;
    uint64_t off_a, off_b, off_c;         /* elements */
    float alpha, beta;
    cldnnMathType_t math;       /* TENSOR_OP_MATH lets solvers use TF32 tensor cores */
    cldnnDataType_t dtype;      /* storage of A and B (and of C for public calls): FLOAT or HALF */
    cldnnDataType_t dtype_c;    /* storage of C; FLOAT with HALF A and B for internal callers
                                ** whose C is a float workspace of partial sums */
} cldnn_gemm_problem;

typedef struct {
    cl_mem a, b, c;
} cldnn_gemm_buffers;

/* Tuning parameters of kernels/gemm/gemm.cl (meaning in kernels/common/gemm_tile.h). vwa and
** vwb are upper bounds: the run lowers them to what the problem's alignment allows. */
typedef struct {
    int mwg, nwg, kwg;
    int mdimc, ndimc;
    int vwm, vwn;
    int vwa, vwb;
    int pada, padb;
    int splitk;  /* k splits: 0 chooses from the problem and the device, 1 none, > 1 that many */
} cldnn_gemm_params;

/* 1 when p satisfies the kernel's constraints on device dev (with load widths vwa, vwb). */
int cldnn_gemm_params_valid(const cldnn_gemm_params* p, const cldnn_device_profile* dev);
/* The parameter set for problem pr on dev: the device's table entry for the problem's shape
** class, else the heuristic default of its device type. */
void cldnn_gemm_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev, cldnn_gemm_params* out);
/* The key of pr in the find and tuning databases ("gemm:m..-n..-k..-NN-lda..-ldb..-ldc..-b..-f32",
** "-tf32ok" for TENSOR_OP_MATH with FLOAT data, "-tcok" with HALF data:
** the canonical column-major problem, so a row-major call has the key of its transpose), and
** the solver name its tuning records go under. */
void cldnn_gemm_problem_key(const cldnn_gemm_problem* pr, char* buf, size_t size);
#define CLDNN_GEMM_SOLVER_NAME "gemm_tiled"
/* Runs pr with explicit parameters (the tuner's and the tests' entry). */
cldnnStatus_t cldnn_gemm_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_params* params,
                                    const cldnn_gemm_buffers* b);
/* "64x64x16-16x16-4x4-4x4-0x0-s0": MWG x NWG x KWG - MDIMC x NDIMC - VWM x VWN - VWA x VWB - pads
** - splits (optional on reading) */
#define CLDNN_GEMM_PARAMS_TEXT "%dx%dx%d-%dx%d-%dx%d-%dx%d-%dx%d[-s%d]"
#define CLDNN_GEMM_PARAMS_NAMES "mwg nwg kwg mdimc ndimc vwm vwn vwa vwb pada padb splitk"
void cldnn_gemm_params_format(const cldnn_gemm_params* p, char* buf, size_t size);
int cldnn_gemm_params_parse(const char* s, cldnn_gemm_params* p);
/* A GEMM-shaped kernel with gemm_tiled's argument list, ready to launch: block tile bm x bn of C,
** k step bk (split ranges are multiples of it), splitk as in cldnn_gemm_params, work-group size
** local (the grid is the block count times local in dimensions 0 and 1), and the gemm.cl build
** options whose program holds gemm_splitk_reduce. */
typedef struct {
    cl_kernel kernel;
    const char* name;
    int bm, bn, bk;
    int splitk;
    size_t local[3];
    const char* reduce_opts;
} cldnn_gemm_launch;
cldnnStatus_t cldnn_gemm_launch_run(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_buffers* b,
                                    const cldnn_gemm_launch* L);

/* Runs an internal product through the GEMM family's solver table with default parameters (gemm.c):
** the tensor-core kernel when g->math and the device allow it, else gemm_tiled. */
cldnnStatus_t cldnn_gemm_run_any(cldnnHandle_t h, const cldnn_gemm_problem* g, const cldnn_gemm_buffers* b);

/* Tensor-core GEMM (gemm/gemm_mma.c, kernels/gemm/gemm_mma.cl) on NVIDIA devices of compute
** capability >= 8.0 under TENSOR_OP_MATH: TF32 mma.sync for FLOAT data, FP16 mma.sync for HALF
** data (FP32 accumulation both). Meaning of the fields: the kernel's MMA_* build options. */
typedef struct {
    int bm, bn, bk;
    int wm, wn;
    int stages;
    int vw;      /* elements per copy (FLOAT 4 or 1, HALF 8, 4, 2 or 1): an upper bound, lowered to
                 ** what the problem's alignment allows */
    int splitk;  /* as in cldnn_gemm_params */
} cldnn_gemm_mma_params;
/* 1 when dev has tensor cores reachable from OpenCL (NVIDIA, cl_nv_device_attribute_query
** compute capability >= 8.0: TF32 and FP16 mma.sync) and CLDNN_TENSOR_CORES is not 0. */
int cldnn_mma_available(const cldnn_device_profile* dev);
/* For data type dt (FLOAT or HALF): valid: for every transpose; fit: for the given ones (the
** local tiles' sizes depend on them and on the element size). */
int cldnn_gemm_mma_params_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev,
                                cldnnDataType_t dt);
int cldnn_gemm_mma_params_fit(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev, cldnnDataType_t dt,
                              int trans_a, int trans_b);
/* The default set for pr (its shape, transposes and pr->dtype) on dev. */
void cldnn_gemm_mma_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                                  cldnn_gemm_mma_params* out);
/* "128x128x32-64x64-s3-v4-k0": bm x bn x bk - wm x wn - stages - vw - splitk */
#define CLDNN_GEMM_MMA_PARAMS_TEXT "%dx%dx%d-%dx%d-s%d-v%d-k%d"
#define CLDNN_GEMM_MMA_PARAMS_NAMES "bm bn bk wm wn stages vw splitk"
void cldnn_gemm_mma_params_format(const cldnn_gemm_mma_params* p, char* buf, size_t size);
int cldnn_gemm_mma_params_parse(const char* s, cldnn_gemm_mma_params* p);
/* The tuner's declared space for dt and the given transposes on dev (value lists pruned by the
** validity check): writes at most max sets, returns the number the space holds. */
size_t cldnn_gemm_mma_param_space(const cldnn_device_profile* dev, cldnnDataType_t dt, int trans_a, int trans_b,
                                  cldnn_gemm_mma_params* out, size_t max);
/* Runs pr with explicit parameters (the tuner's and the tests' entry), whatever pr->math says;
** BAD_PARAM where the device has no tensor cores, the data types are not the kernel's or the set
** does not fit. */
cldnnStatus_t cldnn_gemm_mma_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_mma_params* params,
                                        const cldnn_gemm_buffers* b);
/* The solvers' table entry points (gemm.c's table): applicability of gemm_mma_tf32 (FLOAT) and
** gemm_mma_f16 (HALF A and B, C half or float), and of either (what convolution's Get/Find
** answers ask); defaults and run serve both. */
#define CLDNN_GEMM_MMA_TF32_NAME "gemm_mma_tf32"
#define CLDNN_GEMM_MMA_F16_NAME "gemm_mma_f16"
int cldnn_gemm_mma_tf32_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_gemm_mma_f16_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_gemm_mma_applicable(const void* problem, const cldnn_device_profile* dev);
void cldnn_gemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
cldnnStatus_t cldnn_gemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);

/* Shape classes of the parameter tables. */
typedef enum {
    CLDNN_GEMM_LARGE = 0,
    CLDNN_GEMM_MEDIUM = 1,
    CLDNN_GEMM_SMALL_N = 2,
    CLDNN_GEMM_SMALL_M = 3,
    CLDNN_GEMM_THIN_N = 4,
    CLDNN_GEMM_THIN_M = 5,
    CLDNN_GEMM_CLASSES = 6
} cldnn_gemm_class;
cldnn_gemm_class cldnn_gemm_classify(const cldnn_gemm_problem* pr);
const char* cldnn_gemm_class_name(cldnn_gemm_class c);
/* The declared tuning space of gemm_tiled on dev (value lists filtered by the kernel's
** constraints and the pruning rules in gemm_params.c): writes at most max sets, returns the
** number the space holds. */
size_t cldnn_gemm_param_space(const cldnn_device_profile* dev, cldnn_gemm_params* out, size_t max);
/* Every parameter set the shipped tables hold (for the tests): n sets written to out. */
size_t cldnn_gemm_table_params(cldnn_gemm_params* out, size_t max);

/* --------------------------------------------------------------- convolution (conv/conv.c) */

/* Tuning parameters of the fused Winograd kernel (kernels/conv/winograd_fused.cl, whose build
** options of the same names say what they mean): tiles x output channels per work-group, input
** channels per chunk, the work-item's micro-tile (tiles x channels), position groups. */
typedef struct {
    int wg_t, wg_k, wg_c;
    int wi_t, wi_k;
    int pos_groups;
} cldnn_wino_params;

struct cldnnConvolutionStruct {
    int is_set;
    int nd;                    /* spatial dims set (2 is what the calls compute) */
    int pad[CLDNN_DIM_MAX], stride[CLDNN_DIM_MAX], dilation[CLDNN_DIM_MAX];
    cldnnConvolutionMode_t mode;
    cldnnDataType_t compute;
    int groups;
    cldnnMathType_t math;
};

typedef enum { CLDNN_CONV_FWD = 0, CLDNN_CONV_BWD_DATA = 1, CLDNN_CONV_BWD_FILTER = 2 } cldnn_conv_dir;

/* One convolution call, in the forward's names whatever the direction: x (dx for backward-data)
** is n x c x h x w, the filter k x c/groups x r x s, y (dy for the backwards) n x k x p x q. Every
** size and every product the kernels index with (n*h*w, n*p*q, k*c/g*r*s, ...) is below 2^31. */
typedef struct {
    cldnn_conv_dir dir;
    int n, c, h, w, k, r, s, p, q;
    int pad_h, pad_w, u, v, dil_h, dil_w, groups, flip;
    int cg, kg;                  /* channels per group */
    int kord;                    /* filter format: 0 KCRS, 1 KRSC */
    cldnnMathType_t math;
    cldnnDataType_t dtype;       /* x, w and y (dx, dw, dy) alike: FLOAT, or HALF as storage */
    int64_t xs[4], ys[4];        /* element strides of x and y in n, c, h, w order */
    const char* xlayout;         /* "NCHW", "NHWC" or NULL (not packed): cldnn_tensor_layout */
    const char* ylayout;
    uint64_t off_x, off_w, off_y; /* elements */
    float alpha, beta;
    const cldnn_device_profile* dev;
    char key[256];               /* conv-fwd:n32-c64-h56-w56-k64-r3-s3-p1x1-u1x1-d1x1-g1-NCHW-NCHW-KCRS-xcorr-f32-math0 */
} cldnn_conv_problem;

typedef struct {
    cl_mem x, w, y;              /* dx, dy, dw in the backward directions */
    cl_mem ws;
    size_t ws_off, ws_size;      /* bytes */
} cldnn_conv_buffers;

/* The solver tables (conv/gemm/, conv/direct/): entries in preference order; `algo` is the
** direction's public enum value. */
extern const cldnn_solver cldnn_conv_fwd_solvers[];
extern const size_t cldnn_conv_fwd_solver_count;
extern const cldnn_solver cldnn_conv_bwd_data_solvers[];
extern const size_t cldnn_conv_bwd_data_solver_count;
extern const cldnn_solver cldnn_conv_bwd_filter_solvers[];
extern const size_t cldnn_conv_bwd_filter_solver_count;

/* Builds and validates the problem of direction dir from its descriptors (x is dx for
** backward-data, y is dy for the backwards; f is dw for backward-filter); no buffers, alpha 1,
** beta 0, offsets 0. For the tuner and the tests. */
cldnnStatus_t cldnn_conv_problem_init(cldnnHandle_t h, cldnn_conv_dir dir, const struct cldnnTensorStruct* x,
                                      const struct cldnnFilterStruct* f, const struct cldnnConvolutionStruct* cd,
                                      const struct cldnnTensorStruct* y, cldnn_conv_problem* p);
/* The implicit-GEMM parameters of the device's conv table row for p (conv/gemm/conv_params.c):
** 1 and *out filled when a row matches the device, p's direction and p's GEMM class, else 0. */
int cldnn_conv_params_lookup(const cldnn_conv_problem* p, const cldnn_device_profile* dev, cldnn_gemm_params* out);

/* Solver pieces shared across files. */
int cldnn_conv_igemm_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_igemm_workspace(const void* problem, const void* params);
void cldnn_conv_igemm_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
cldnnStatus_t cldnn_conv_igemm_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* Sets the arguments of the implicit-GEMM kernels (conv/conv_igemm.cl and conv/conv_igemm_mma.cl
** share their list) for GEMM sizes M, N, KR, tap divisor tap_div (R*S, C/G or K/G for KRSC, or the
** padded channel run of TAPLOOP), split range ksplit of nsplit splits, partial sums at part. */
cldnnStatus_t cldnn_conv_igemm_args(cl_kernel k, const cldnn_conv_problem* p, const cldnn_conv_buffers* b, int64_t M,
                                    int64_t N, int64_t KR, int tap_div, int ksplit, int nsplit, cl_mem part,
                                    cl_ulong part_off);
/* The tensor-core implicit GEMM (conv/gemm/conv_igemm_mma.c, kernels/conv/conv_igemm_mma.cl):
** every direction under TENSOR_OP_MATH on devices with tensor cores, FLOAT (TF32) and HALF (FP16)
** data; parameters cldnn_gemm_mma_params. */
typedef struct {
    int64_t m, n, kr; /* GEMM sizes; kr = R*S*cpad */
    int ch, cpad;     /* forward, backward-data: the reduction's channels (C/G, K/G) and their run
                      ** rounded up to bk; backward-filter: K/G twice */
    int a_trans, b_trans, avw, bvw; /* the kernel's A_TRANS, B_TRANS, CONV_AVW, CONV_BVW (elements:
                                    ** 16 bytes' worth, or 1) */
} cldnn_conv_mma_plan;
/* How p runs with a k-tile of bk (the build options and GEMM sizes of its kernel). */
void cldnn_conv_igemm_mma_plan(const cldnn_conv_problem* p, int bk, cldnn_conv_mma_plan* pl);
int cldnn_conv_igemm_mma_applicable(const void* problem, const cldnn_device_profile* dev);
void cldnn_conv_igemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
/* Backward-filter's split count for parameters q (1 for the other directions), and the exact
** workspace of the default parameters (splits x K x C/G x R x S floats when split, else 0). */
int cldnn_conv_igemm_mma_splits(const cldnn_conv_problem* p, const cldnn_gemm_mma_params* q);
size_t cldnn_conv_igemm_mma_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_igemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* 1 when the run takes parameter set q for p on dev: the set fits the device (local memory for the
** plan's transposes, copies of the plan's width), the padded reduction fits the kernel's 32-bit
** indices and backward-filter splits at most 64 ways. What the run, the tuning db's reader and the
** tuners check. */
int cldnn_conv_igemm_mma_params_fit(const cldnn_conv_problem* p, const cldnn_gemm_mma_params* q,
                                    const cldnn_device_profile* dev);
/* The tuners' candidates for p on dev: cldnn_gemm_mma_param_space's sets of p's data type for the
** plan's transposes, each with 16-byte copies (4 floats, 8 halves: the run lowers them) and p's
** split count, those that cldnn_conv_igemm_mma_params_fit keeps. At most max sets into out;
** returns the count kept. */
size_t cldnn_conv_igemm_mma_param_space(const cldnn_conv_problem* p, const cldnn_device_profile* dev,
                                        cldnn_gemm_mma_params* out, size_t max);
/* The tensor-core implicit GEMM's solver name in direction dir's table (conv_fwd_igemm_mma, ...):
** the name its tuning records go under. */
const char* cldnn_conv_igemm_mma_solver_name(cldnn_conv_dir dir);
/* Backward-filter's split-k count for tile parameters q (1 for the other directions): its
** partial sums take splits * K * C/G * R * S floats of workspace, at most 256 MiB. */
int cldnn_conv_igemm_splits(const cldnn_conv_problem* p, const cldnn_gemm_params* q);
/* Bytes of the split-k partial sums of backward-filter: splits x K x C/G x R x S floats, 0 for one
** split. */
size_t cldnn_conv_partials_bytes(const cldnn_conv_problem* p, int splits);
int cldnn_conv_is_depthwise(const cldnn_conv_problem* p);
int cldnn_conv_direct_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_direct_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_direct_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* out[out_off + i] = alpha * sum_s part[part_off + s * total + i] + beta * out[...] for i < total
** (a fixed order: deterministic). Offsets in elements; part is float, out of data type out_dt. */
cldnnStatus_t cldnn_conv_reduce_partials(cldnnHandle_t h, cl_mem part, uint64_t part_off, int nparts, int64_t total,
                                         float alpha, float beta, cl_mem out, uint64_t out_off,
                                         cldnnDataType_t out_dt);
int cldnn_conv_gemm1x1_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_gemm1x1_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_gemm1x1_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
int cldnn_conv_im2col_applicable(const void* problem, const cldnn_device_profile* dev);
/* Where backward-data's GEMM + col2im ranks before the implicit GEMMs: C/G < 16, whose N = C/G
** fills a small fraction of their tiles; NCHW at a stride above 1 on GPUs, where most of their
** taps miss. */
int cldnn_conv_col2im_narrow(const void* problem, const cldnn_device_profile* dev);
int cldnn_conv_col2im_strided(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_im2col_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_im2col_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* Non-fused Winograd F(2x2, 3x3) and F(4x4, 3x3), forward and backward-data (conv/winograd). */
int cldnn_conv_wino2_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_conv_wino4_applicable(const void* problem, const cldnn_device_profile* dev);
/* F(4x4), non-fused and fused, where the heuristic ranks it before implicit GEMM: GPUs, 16
** channels and more on both sides (on the H100 it beat implicit GEMM on every 3x3 stride-1 layer
** of ResNet-50 and VGG-16 but the 3-channel stem, perf/results/conv-h100.md). */
int cldnn_conv_wino4_preferred(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_wino2_workspace(const void* problem, const void* params);
size_t cldnn_conv_wino4_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_wino2_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
cldnnStatus_t cldnn_conv_wino4_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* Fused Winograd F(2x2, 3x3) and F(4x4, 3x3), forward and backward-data (conv/winograd): the
** filter transform into the workspace, then one kernel for the rest. */
int cldnn_conv_winof2_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_conv_winof4_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_winof2_workspace(const void* problem, const void* params);
size_t cldnn_conv_winof4_workspace(const void* problem, const void* params);
void cldnn_conv_winof2_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
void cldnn_conv_winof4_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
cldnnStatus_t cldnn_conv_winof2_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
cldnnStatus_t cldnn_conv_winof4_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* The tunable spaces of the convolution solvers: the implicit GEMM's, the tensor-core implicit
** GEMM's and the fused Winograd kernels' (whose records go under one name in every direction). */
extern const cldnn_param_space cldnn_conv_igemm_space, cldnn_conv_igemm_mma_space;
extern const cldnn_param_space cldnn_conv_winof2_space, cldnn_conv_winof4_space;
/* 1 when a block tile of bm x bn is at most twice p's GEMM sizes rounded up to powers of two (the
** tuners skip larger ones). */
int cldnn_conv_tile_fits(const cldnn_conv_problem* p, int bm, int bn);
/* The tuning db's solver name of the fused kernel of tile size wm (2 or 4), in every direction. */
const char* cldnn_wino_fused_solver_name(int wm);
/* 1 when q satisfies the fused kernel's constraints for tile size wm on dev (divisibility, the
** work-group size, local memory, at most 256 accumulators per work-item). */
int cldnn_wino_params_valid(const cldnn_wino_params* q, int wm, const cldnn_device_profile* dev);
/* "32x32x8-4x4-p4": WG_T x WG_K x WG_C - WI_T x WI_K - POS_GROUPS */
#define CLDNN_WINO_PARAMS_TEXT "%dx%dx%d-%dx%d-p%d"
#define CLDNN_WINO_PARAMS_NAMES "wg_t wg_k wg_c wi_t wi_k pos_groups"
void cldnn_wino_params_format(const cldnn_wino_params* q, char* buf, size_t size);
int cldnn_wino_params_parse(const char* s, cldnn_wino_params* q);
/* The declared tuning space of the fused kernel for tile size wm on dev (value lists filtered by
** cldnn_wino_params_valid and the pruning rules of conv_winograd.c): writes at most max sets,
** returns the number the space holds. */
size_t cldnn_wino_param_space(int wm, const cldnn_device_profile* dev, cldnn_wino_params* out, size_t max);
/* Runs the fused solver of tile size wm with explicit parameters (the tuner's entry). */
cldnnStatus_t cldnn_conv_wino_fused_run_params(cldnnHandle_t h, const cldnn_conv_problem* p, int wm,
                                               const cldnn_wino_params* q, const cldnn_conv_buffers* b);
/* db = alpha * sum of dy over n, p, q + beta * db (conv/direct). */
cldnnStatus_t cldnn_conv_bias_run(cldnnHandle_t h, const struct cldnnTensorStruct* dy, cl_mem dym, uint64_t dy_off,
                                  const struct cldnnTensorStruct* db, cl_mem dbm, uint64_t db_off, float alpha,
                                  float beta);

/* Magic numbers for kernels/common/fastdiv.h: (d, magic, s1, s2) dividing 0 <= n < 2^31 by d. */
cl_uint4 cldnn_fastdiv(uint32_t d);
/* The GEMM-equivalent sizes of p's direction (kernels/conv/conv_igemm.cl's table). */
void cldnn_conv_gemm_dims(const cldnn_conv_problem* p, int64_t* m, int64_t* n, int64_t* k);

/* ------------------------------------------------------------------------------ utilities */

/* 64-bit FNV-1a over bytes, continuing from h (start with CLDNN_FNV_OFFSET). */
#define CLDNN_FNV_OFFSET 0xcbf29ce484222325ULL
uint64_t cldnn_fnv1a(uint64_t h, const void* data, size_t n);
/* snprintf that never overflows, returning the bytes written (not counting NUL). */
size_t cldnn_appendf(char* buf, size_t size, size_t at, const char* fmt, ...) __attribute__((format(printf, 4, 5)));

#endif /* CLDNN_INTERNAL_H_ */
