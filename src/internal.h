/*
** internal.h: the core's header: what every family uses on its way from a public call to an
** enqueued kernel, and nothing of any one family (their headers sit in their folders:
** tensor/tensor.h, tensor/eltwise.h, gemm/gemm.h, conv/conv.h):
**
**   validate descriptors and buffers -> describe the problem (struct + key string)
**   -> pick a solver from the family's table -> get its kernel (program cache) -> enqueue
**
** Naming: public functions are cldnnVerbObject (include/cldnn.h); internal ones are
** cldnn_<family>_<verb> and declared in their family's header; helpers private to a file are static.
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

/* One kernel argument: the bytes of an lvalue (CLDNN_ARG), a scalar, a vector or a cl_mem. */
typedef struct {
    size_t size;
    const void* value;
} cldnn_karg;
#define CLDNN_ARG(v) ((cldnn_karg){sizeof(v), &(v)})
/* Sets arguments first, first + 1, ... of k from args[0..n), in order; the mapped status (naming
** the argument's index) on failure. A NULL k is a kernel whose program is being collected for a
** parallel build (cache.c: only while a Prepare or Find collects, never on a run): nothing to
** set. Families call it once per argument macro of their kernels (BN_ARGS, CONV_GEOMETRY_ARGS,
** ...), through CLDNN_KERNEL_ARGS, with the values in the macro's order. */
cldnnStatus_t cldnn_kernel_args(cl_kernel k, cl_uint first, const cldnn_karg* args, size_t n);
#define CLDNN_KERNEL_ARGS(k, first, ...)                                                             \
    cldnn_kernel_args((k), (first), (const cldnn_karg[]){__VA_ARGS__},                               \
                      sizeof((const cldnn_karg[]){__VA_ARGS__}) / sizeof(cldnn_karg))

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
    cl_uint native_vec_float;   /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: a CPU's SIMD width */
    int has_fp16;               /* cl_khr_fp16 */
    int has_fp64;               /* cl_khr_fp64 */
    int is_cpu;
    int is_nvidia;
    int nv_cc_major, nv_cc_minor; /* cl_nv_device_attribute_query; 0 when absent */
    /* Loop iterations a kernel invocation may run in all before the driver cuts its loops short,
    ** silently (0: no limit; device.c names the drivers). Solvers whose loops grow with the
    ** problem keep each work-item below it. */
    uint32_t loop_limit;
    /* Identity of the find and tuning databases: platform, device, vendor id, compute units and
    ** the extensions solvers decide from (fp16, fp64, NVIDIA compute capability); no driver
    ** version, which keys program binaries only (cache.c). */
    char key[512];
} cldnn_device_profile;

/* 1 when dev runs kernels/common/mma.h's inline PTX (NVIDIA, compute capability 8.0+): the warp
** shuffles of norm.cl's and reduce.cl's row sums whatever CLDNN_TENSOR_CORES says, and the
** tensor-core kernels where it allows them (cldnn_mma_available). */
static inline int cldnn_mma_shfl(const cldnn_device_profile* dev) {
    return dev->is_nvidia && !dev->is_cpu && dev->nv_cc_major >= 8;
}

cldnnStatus_t cldnn_device_profile_read(cl_device_id dev, cldnn_device_profile* p);
/* 1 when a parameter table's device key names dev: "sm_XY" an NVIDIA device of compute capability
** X.Y (parts of one architecture share their SM, so tiles measured on one serve the others: the
** H100's rows serve the H200), any other key a substring of the device's name ("" every device). */
int cldnn_device_matches(const cldnn_device_profile* dev, const char* key);

/* ------------------------------------------------------------------ handle (handle/handle.c) */

struct cldnn_program_set;  /* per-context program cache, handle/cache.c */
struct cldnn_program_list; /* programs collected for a parallel build, handle/cache.c */

typedef struct {
    cl_program program;
    const char* name;  /* static string */
    cl_kernel kernel;
    uint32_t gen;      /* the handle's kernel_gen when filled: a memo naming an evicted slot misses */
} cldnn_kernel_slot;

#define CLDNN_KERNEL_SLOTS 64

/* A kernel named by the bytes its caller derives its options from (cldnn_kernel_memo_get). */
#define CLDNN_KMEMO_SLOTS 16
#define CLDNN_KMEMO_ID 96
typedef struct {
    unsigned char id[CLDNN_KMEMO_ID];
    size_t n;
    int slot;
    uint32_t gen; /* 0: empty */
} cldnn_kernel_memo;

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
    uint32_t kernel_gen;
    cldnn_kernel_memo kmemo[CLDNN_KMEMO_SLOTS];
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
    /* Set once the device's compiler failed attn_mma's two-float reductions (PTX ISA 8.1): failed
    ** builds are not cached, so this keeps later calls from building it again. */
    int attn_no_red2;
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

/* What CLDNN_DEVICE is matched against: one enumerated device. */
typedef struct {
    const char* name;     /* CL_DEVICE_NAME */
    const char* platform; /* CL_PLATFORM_NAME */
    const char* vendor;   /* CL_PLATFORM_VENDOR */
    cl_device_type type;
    int pi, di;           /* platform and device index */
} cldnn_device_ident;
/* 1 when the CLDNN_DEVICE form spec selects d in pass 0 or 1 (cldnnCreateDefault takes the first
** device in enumeration order that matches in pass 0, else in pass 1): "gpu" / "cpu" its type;
** "P:D" its indices; "WORD:gpu" / "WORD:cpu" its type on a platform whose name or vendor contains
** WORD ("intel:cpu", "nvidia:gpu", "pocl:cpu"); any other WORD the device's name (pass 0), else
** its platform's name or vendor (pass 1: "pocl", "nvidia"). Case-insensitive. */
int cldnn_device_spec_matches(const char* spec, const cldnn_device_ident* d, int pass);
/* The index of the device spec selects among ids[0..n) (unset or "": the first GPU, else the first
** device), or -1. */
int cldnn_device_select(const char* spec, const cldnn_device_ident* ids, int n);

/* NULL handle -> BAD_PARAM_NULL_POINTER. */
cldnnStatus_t cldnn_check_handle(cldnnHandle_t h);
/* Checks a (cl_mem, byte offset) pair against the handle's context, the element size and the
** number of bytes the view needs past the offset (CL_MEM_SIZE). what names the argument. */
cldnnStatus_t cldnn_check_buffer(cldnnHandle_t h, cl_mem m, size_t offset, size_t elem_size, uint64_t need_bytes,
                                 const char* what);
/* A scratch buffer (workspace, indices) of which the call needs `need` bytes, `size` declared by the
** caller in its argument size_name: fewer -> SIZE_INSUFFICIENT naming `query`, the call that gives
** the size; none needed -> SUCCESS whatever m is; else m non-NULL and cldnn_check_buffer's checks. */
cldnnStatus_t cldnn_check_scratch(cldnnHandle_t h, cl_mem m, size_t offset, size_t size, size_t need, size_t elem_size,
                                  const char* what, const char* size_name, const char* query);
/* The work-group of a 1-d kernel whose work-items share nothing (no local memory, no barrier, no
** required size): 64 on CPUs, 256 elsewhere, within the device's limit (OpenCL allows 1). */
size_t cldnn_free_group(const cldnn_device_profile* dev);
/* The largest power of two <= want and <= the device's work-group limit: the work-group of a
** kernel whose reduction tree works at any power of two. */
size_t cldnn_pow2_group(const cldnn_device_profile* dev, size_t want);
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
/* The kernel a caller names by id (n <= CLDNN_KMEMO_ID bytes: everything its source, options and
** kernel name are derived from on this handle), found without formatting options or looking the
** program up: the element-wise calls' host work is a few microseconds, and those two steps were a
** third of it. 0 on a miss (also when the kernel was evicted since); the caller then takes
** cldnn_kernel_get's kernel and records it with cldnn_kernel_memo_put. */
int cldnn_kernel_memo_get(cldnnHandle_t h, const void* id, size_t n, cl_kernel* out);
void cldnn_kernel_memo_put(cldnnHandle_t h, const void* id, size_t n, cl_kernel k);
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
** answers NULL kernels and cldnn_kernel_args skips them: a solver run in prepare-only mode
** (h->prepare_only) then names every program it needs without building one. End builds or loads
** the list's programs on cldnn_build_threads() worker threads (the caller when that is 1), each
** program on one thread, through the same cache (memory, disk, source), and returns the status
** of the first failing program in list order with that worker's message as this thread's last
** error; the rest of the list is built all the same. */
cldnnStatus_t cldnn_program_collect_begin(cldnnHandle_t h);
cldnnStatus_t cldnn_program_collect_end(cldnnHandle_t h);
/* Ends a collection without building its list: a dry run that only asks what a call would run
** (tests/test_min_profile.c). */
void cldnn_program_collect_discard(cldnnHandle_t h);
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
** none applies. The path of the families without public algorithms or a tuning db. what only
** labels the call in logs and that message: callers format its shapes and types only when
** cldnn_log_level() > 0 and pass the family's fixed name otherwise, because formatting them costs
** about as much host time as the rest of a small call (measured on the element-wise path). */
cldnnStatus_t cldnn_solver_run_default(cldnnHandle_t h, const cldnn_solver* table, size_t n, const void* problem,
                                       const void* buffers, const char* what);

/* -------------------------------------------------------------------- utilities (handle/util.c) */

/* 64-bit FNV-1a over bytes, continuing from h (start with CLDNN_FNV_OFFSET). */
#define CLDNN_FNV_OFFSET 0xcbf29ce484222325ULL
uint64_t cldnn_fnv1a(uint64_t h, const void* data, size_t n);
/* snprintf that never overflows, returning the bytes written (not counting NUL). */
size_t cldnn_appendf(char* buf, size_t size, size_t at, const char* fmt, ...) __attribute__((format(printf, 4, 5)));

/* Magic numbers for kernels/common/fastdiv.h: (d, magic, s1, s2) dividing 0 <= n < 2^31 by d. */
cl_uint4 cldnn_fastdiv(uint32_t d);
/* The float value of IEEE binary16 bits h (exact; NaN stays NaN): HALF outputs read back by the
** host, as Tune compares them. */
float cldnn_half_to_float(uint16_t h);
/* The float value of bfloat16 bits b (exact: a float's high half). */
float cldnn_bf16_to_float(uint16_t b);

#endif /* CLDNN_INTERNAL_H_ */
