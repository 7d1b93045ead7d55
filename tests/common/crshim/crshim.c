/*
** crshim.c: the registry and main() of crshim, the Criterion stand-in of the CLDNN_TSAN_SUITES build
** (criterion/criterion.h says why it exists and which API it covers).
**
**   test_<suite> [--filter GLOB] [--jobs N | -jN] [--verbose] [--list]
**
** The parent stays single-threaded and touches no OpenCL: it sorts the registered tests by suite
** and name, keeps those whose "suite/name" matches GLOB (fnmatch), and forks one child per test, at
** most N at a time. Each child runs suite init, test init, body, test fini, suite fini with its
** stdout and stderr in a temporary file, then exits with CRS_EXIT_BASE plus its result bits; any
** other end (a sanitizer's exit code, a signal, exit() from the body, the timeout) fails the test.
** The parent prints each finished test's captured output and result line, then a synthesis.
** Exit status: 0 when every test passed or was skipped and nothing logged a warning; 1 otherwise;
** 2 on a usage error.
*/
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "criterion/criterion.h"
#include "criterion/logging.h"

/* A child's exit status: CRS_EXIT_BASE | result bits. The base keeps clear of 0, 1 and of the
** sanitizers' exit codes (TSan 66, ASan/UBSan 1), which then read as failures. */
#define CRS_EXIT_BASE 0x50
#define CRS_FAILED 1
#define CRS_SKIPPED 2
#define CRS_WARNED 4

/* ------------------------------------------------------------------------------ registry */

static const struct crs_test** g_tests;
static size_t g_ntests, g_captests;
static const struct crs_suite** g_suites;
static size_t g_nsuites, g_capsuites;

static void* grow(void* p, size_t* cap, size_t need, size_t elem) {
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 64;
    void* q = realloc(p, c * elem);
    if (q == NULL) {
        fputs("crshim: out of memory registering tests\n", stderr);
        abort();
    }
    *cap = c;
    return q;
}

void crs_register_test(const struct crs_test* t) {
    g_tests = grow(g_tests, &g_captests, g_ntests + 1, sizeof *g_tests);
    g_tests[g_ntests++] = t;
}

void crs_register_suite(const struct crs_suite* s) {
    g_suites = grow(g_suites, &g_capsuites, g_nsuites + 1, sizeof *g_suites);
    g_suites[g_nsuites++] = s;
}

static const struct crs_suite* suite_of(const struct crs_test* t) {
    for (size_t i = 0; i < g_nsuites; ++i)
        if (strcmp(g_suites[i]->name, t->suite) == 0)
            return g_suites[i];
    return NULL;
}

static int by_suite_and_name(const void* a, const void* b) {
    const struct crs_test* x = *(const struct crs_test* const*)a;
    const struct crs_test* y = *(const struct crs_test* const*)b;
    int c = strcmp(x->suite, y->suite);
    return c ? c : strcmp(x->name, y->name);
}

/* ------------------------------------------------------------------- inside a test's child */

static int g_verbose;
static int g_report_fd = 2;   /* the capture file, kept apart from fd 2 (a test may redirect that) */
static int g_result;          /* CRS_* bits */
static int g_in_test;
static pthread_t g_test_thread;
static jmp_buf g_jump;

/* Writes one formatted block to the capture file, each line prefixed with `tag`. */
static void emitv(const char* tag, const char* fmt, va_list ap) {
    char text[8192], out[12288];
    vsnprintf(text, sizeof text, fmt, ap);
    size_t n = 0;
    const char* line = text;
    for (;;) {
        const char* nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        int w = snprintf(out + n, sizeof out - n, "%s%.*s\n", tag, (int)len, line);
        if (w < 0 || (size_t)w >= sizeof out - n)
            break;
        n += (size_t)w;
        if (nl == NULL)
            break;
        line = nl + 1;
    }
    for (size_t off = 0; off < n;) {
        ssize_t w = write(g_report_fd, out + off, n - off);
        if (w <= 0 && errno != EINTR)
            break;
        if (w > 0)
            off += (size_t)w;
    }
}

static void emit(const char* tag, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(const char* tag, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emitv(tag, fmt, ap);
    va_end(ap);
}

/* Leaves the current stage of the test (body or a fini). From another thread than the test's,
** jumping is impossible: the child ends at once with the result so far. */
static _Noreturn void leave(void) {
    if (!g_in_test || !pthread_equal(pthread_self(), g_test_thread))
        exit(CRS_EXIT_BASE | g_result);
    longjmp(g_jump, 1);
}

/* Prints the failed assertion: file:line, what, and msg (formatted from CRS_MSG_'s format, so its
** first character is the space that format added), then ends the stage as failed. */
static _Noreturn void fail_msg(const char* file, int line, const char* what, const char* msg) {
    emit("[----] ", "%s:%d: Assertion Failed", file, line);
    emit("[----]   ", "%s", what);
    if (msg[0] != '\0' && msg[1] != '\0')
        emit("[----]   ", "%s", msg + 1);
    g_result |= CRS_FAILED;
    leave();
}

void crs_fail_(const char* file, int line, const char* what, const char* fmt, ...) {
    char msg[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_msg(file, line, what, msg);
}

void crs_skip_(const char* fmt, ...) {
    char msg[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    emit("[----] ", "skipped:%s", msg);
    g_result |= CRS_SKIPPED;
    leave();
}

void crs_str_eq_(const char* file, int line, const char* a, const char* b, const char* a_text, const char* b_text,
                 const char* fmt, ...) {
    if (a != NULL && b != NULL && strcmp(a, b) == 0)
        return;
    char what[8192], msg[8192];
    snprintf(what, sizeof what, "The expression (as strings) (%s) == (%s) is false: actual=`%s` expected=`%s`.", a_text,
             b_text, a ? a : "(null)", b ? b : "(null)");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_msg(file, line, what, msg);
}

void crs_log_(enum crs_log_level level, const char* fmt, ...) {
    if (level == CRS_LOG_INFO && !g_verbose)
        return;
    if (level == CRS_LOG_WARN)
        g_result |= CRS_WARNED;
    va_list ap;
    va_start(ap, fmt);
    emitv(level == CRS_LOG_INFO ? "[----] " : "[WARN] ", fmt, ap);
    va_end(ap);
}

/* Runs one hook or body unless the test already failed or was skipped; a failure or skip inside
** it jumps back here. */
static void stage(void (*fn)(void), int always) {
    if (fn == NULL || (!always && g_result & (CRS_FAILED | CRS_SKIPPED)))
        return;
    if (setjmp(g_jump) == 0)
        fn();
}

static _Noreturn void run_child(const struct crs_test* t, int out_fd, pid_t parent) {
    /* a runner killed from outside (ctest's timeout) takes its running tests with it */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
        _exit(3);
    if (dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
        _exit(3);
    g_report_fd = fcntl(out_fd, F_DUPFD_CLOEXEC, 3);
    if (g_report_fd < 0)
        _exit(3);
    close(out_fd);
    const struct crs_suite* s = suite_of(t);
    g_test_thread = pthread_self();
    g_in_test = 1;
    stage(s ? s->opts.init : NULL, 0);
    stage(t->opts.init, 0);
    stage(t->body, 0);
    stage(t->opts.fini, 1);
    stage(s ? s->opts.fini : NULL, 1);
    g_in_test = 0;
    fflush(NULL);
    /* exit, not _exit: atexit handlers and the sanitizers' end-of-process checks run, and a
    ** sanitizer that reported replaces this status with its own. */
    exit(CRS_EXIT_BASE | g_result);
}

/* ------------------------------------------------------------------------------ the parent */

typedef struct {
    pid_t pid;
    const struct crs_test* test;
    int out_fd;
    double start, deadline;
} slot;

typedef struct {
    int tested, passed, failed, crashed, skipped, warned;
} tally;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double timeout_of(const struct crs_test* t) {
    const struct crs_suite* s = suite_of(t);
    return t->opts.timeout > 0 ? t->opts.timeout : s ? s->opts.timeout : 0.0;
}

static int disabled(const struct crs_test* t) {
    const struct crs_suite* s = suite_of(t);
    return t->opts.disabled || (s != NULL && s->opts.disabled);
}

/* Copies the child's captured output to stderr. */
static void dump_capture(int fd) {
    char buf[65536];
    off_t off = 0;
    for (;;) {
        ssize_t n = pread(fd, buf, sizeof buf, off);
        if (n <= 0)
            break;
        fwrite(buf, 1, (size_t)n, stderr);
        off += n;
    }
}

static void finish(slot* sl, int status, int timed_out, tally* tl) {
    const struct crs_test* t = sl->test;
    double secs = now_s() - sl->start;
    dump_capture(sl->out_fd);
    close(sl->out_fd);
    if (timed_out) {
        tl->tested++, tl->failed++;
        fprintf(stderr, "[FAIL] %s::%s: Timed out. (%.2fs)\n", t->suite, t->name, secs);
    } else if (WIFSIGNALED(status)) {
        tl->tested++, tl->crashed++;
        fprintf(stderr, "[CRASH] %s::%s: killed by signal %d (%s) (%.2fs)\n", t->suite, t->name, WTERMSIG(status),
                strsignal(WTERMSIG(status)), secs);
    } else if (!WIFEXITED(status) || (WEXITSTATUS(status) & ~7) != CRS_EXIT_BASE) {
        tl->tested++, tl->failed++;
        fprintf(stderr, "[FAIL] %s::%s: the test process exited with status %d before the test ended (a "
                        "sanitizer report, exit() in the test or a crash in a hook) (%.2fs)\n",
                t->suite, t->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1, secs);
    } else {
        int bits = WEXITSTATUS(status) & 7;
        if (bits & CRS_WARNED)
            tl->warned++;
        if (bits & CRS_FAILED) {
            tl->tested++, tl->failed++;
            fprintf(stderr, "[FAIL] %s::%s: (%.2fs)\n", t->suite, t->name, secs);
        } else if (bits & CRS_SKIPPED) {
            tl->skipped++;
            fprintf(stderr, "[SKIP] %s::%s: (%.2fs)\n", t->suite, t->name, secs);
        } else {
            tl->tested++, tl->passed++;
            if (g_verbose)
                fprintf(stderr, "[PASS] %s::%s: (%.2fs)\n", t->suite, t->name, secs);
        }
    }
    fflush(stderr);
    sl->pid = 0;
}

/* Forks the child of test t into sl; returns 0, or -1 when no child could be started. */
static int start(slot* sl, const struct crs_test* t) {
    FILE* f = tmpfile();
    if (f == NULL) {
        perror("crshim: tmpfile");
        return -1;
    }
    int fd = dup(fileno(f));
    fclose(f);
    if (fd < 0) {
        perror("crshim: dup");
        return -1;
    }
    if (g_verbose)
        fprintf(stderr, "[RUN ] %s::%s\n", t->suite, t->name);
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        perror("crshim: fork");
        close(fd);
        return -1;
    }
    if (pid == 0)
        run_child(t, fd, parent);
    double limit = timeout_of(t);
    *sl = (slot){.pid = pid, .test = t, .out_fd = fd, .start = now_s()};
    sl->deadline = limit > 0 ? sl->start + limit : 0.0;
    return 0;
}

static int usage(const char* argv0) {
    fprintf(stderr, "usage: %s [--filter GLOB] [--jobs N | -jN] [--verbose] [--list]\n", argv0);
    return 2;
}

/* "--name value", "--name=value" or (short != NULL) "-jvalue" / "-j value" at argv[*i]. */
static const char* option(int argc, char** argv, int* i, const char* name, const char* short_name) {
    const char* a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) == 0 && a[n] == '=')
        return a + n + 1;
    if (strcmp(a, name) == 0 || (short_name && strcmp(a, short_name) == 0))
        return *i + 1 < argc ? argv[++*i] : NULL;
    if (short_name && strncmp(a, short_name, strlen(short_name)) == 0)
        return a + strlen(short_name);
    return NULL;
}

int main(int argc, char** argv) {
    const char* filter = NULL;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    int list = 0;
    for (int i = 1; i < argc; ++i) {
        const char* v;
        if (strcmp(argv[i], "--verbose") == 0 || strncmp(argv[i], "--verbose=", 10) == 0)
            g_verbose = 1;
        else if (strcmp(argv[i], "--list") == 0 || strcmp(argv[i], "-l") == 0)
            list = 1;
        else if ((v = option(argc, argv, &i, "--filter", NULL)) != NULL)
            filter = v;
        else if ((v = option(argc, argv, &i, "--jobs", "-j")) != NULL) {
            char* end = NULL;
            jobs = strtol(v, &end, 10);
            if (end == v || *end != '\0' || jobs < 1 || jobs > 256)
                return usage(argv[0]);
        } else
            return usage(argv[0]);
    }
    if (jobs < 1)
        jobs = 1;
    qsort(g_tests, g_ntests, sizeof *g_tests, by_suite_and_name);

    const struct crs_test** todo = calloc(g_ntests + 1, sizeof *todo);
    slot* slots = calloc((size_t)jobs, sizeof *slots);
    if (todo == NULL || slots == NULL)
        return 2;
    size_t ntodo = 0;
    tally tl = {0};
    for (size_t i = 0; i < g_ntests; ++i) {
        char full[512];
        snprintf(full, sizeof full, "%s/%s", g_tests[i]->suite, g_tests[i]->name);
        if (filter != NULL && fnmatch(filter, full, 0) != 0)
            continue;
        if (list)
            printf("%s\n", full);
        else if (disabled(g_tests[i])) {
            tl.skipped++;
            fprintf(stderr, "[SKIP] %s::%s: Test is disabled\n", g_tests[i]->suite, g_tests[i]->name);
        } else
            todo[ntodo++] = g_tests[i];
    }
    if (list)
        return 0;

    double t0 = now_s();
    size_t next = 0, running = 0;
    while (next < ntodo || running > 0) {
        for (long j = 0; j < jobs && next < ntodo; ++j) {
            if (slots[j].pid != 0)
                continue;
            if (start(&slots[j], todo[next]) != 0)
                return 1;
            ++next, ++running;
        }
        int progressed = 0;
        for (long j = 0; j < jobs; ++j) {
            slot* sl = &slots[j];
            if (sl->pid == 0)
                continue;
            int status = 0;
            pid_t r = waitpid(sl->pid, &status, WNOHANG);
            if (r == sl->pid) {
                finish(sl, status, 0, &tl);
                --running, progressed = 1;
            } else if (r == 0 && sl->deadline > 0 && now_s() > sl->deadline) {
                kill(sl->pid, SIGKILL);
                waitpid(sl->pid, &status, 0);
                finish(sl, status, 1, &tl);
                --running, progressed = 1;
            } else if (r < 0 && errno != EINTR) {
                perror("crshim: waitpid");
                return 1;
            }
        }
        if (!progressed) {
            struct timespec nap = {0, 5 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    fprintf(stderr, "[====] Synthesis: Tested: %d | Passing: %d | Failing: %d | Crashing: %d | Skipped: %d (%.1fs)\n",
            tl.tested, tl.passed, tl.failed, tl.crashed, tl.skipped, now_s() - t0);
    free(todo);
    free(slots);
    return tl.failed || tl.crashed || tl.warned ? 1 : 0;
}
