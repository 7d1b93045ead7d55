/*
** criterion/criterion.h (crshim): the part of Criterion's API that cldnn's suites use, for builds
** in which libcriterion cannot run. Under ThreadSanitizer, Criterion 2.4's runner (BoxFort) maps
** its inheritable arena at a random fixed address in [0x2000'0000'0000, 0x7f00'0000'0000), which is
** TSan's shadow on x86-64, and aborts before any test ("Could not initialize inheritable arena").
** CMake's CLDNN_TSAN_SUITES puts this directory first on the include path of every suite and links
** tests/common/crshim/crshim.c (the registry and main()) instead of libcriterion.
**
** What it implements, with Criterion's meaning:
**   TestSuite(suite, .init = f, .fini = g, .timeout = s, .disabled = b)
**   Test(suite, name, .init, .fini, .timeout, .disabled) { body }
**       registered by a constructor; main() runs each selected test in a forked child of a
**       single-threaded parent (as Criterion does: environment, library globals and stderr stay
**       per test): suite init, test init, body, test fini, suite fini.
**   cr_assert(cond[, fmt, ...]), cr_assert_eq/_gt/_geq/_lt(a, b[, fmt, ...]),
**   cr_assert_null/_not_null(p[, fmt, ...]), cr_assert_str_eq(a, b[, fmt, ...]),
**   cr_assert_str_empty(s[, fmt, ...]), cr_assert_fail([fmt, ...]): a false condition prints the
**       file, line, the expression and the message, and ends the test as failed (fini still runs).
**       The message, when given, must be a string literal.
**   cr_skip_test([fmt, ...]): ends the test as skipped.
**   cr_log_info / cr_log_warn (criterion/logging.h).
** Anything else is left undefined on purpose, so a suite that starts using more fails to build here.
*/
#ifndef CLDNN_CRSHIM_CRITERION_H_
#define CLDNN_CRSHIM_CRITERION_H_

#include <stddef.h>

/* Options of a test or a suite (designated initializers, as in Criterion). */
struct crs_opts {
    int crs_unused_;       /* lets an empty option list initialize the struct */
    void (*init)(void);    /* before the body */
    void (*fini)(void);    /* after the body, also after a failed assertion */
    double timeout;        /* seconds; 0: none (a test's own value wins over its suite's) */
    int disabled;          /* not run, reported as skipped */
};

struct crs_test {
    const char* suite;
    const char* name;
    void (*body)(void);
    struct crs_opts opts;
    const char* file;
    int line;
};

struct crs_suite {
    const char* name;
    struct crs_opts opts;
};

void crs_register_test(const struct crs_test* t);
void crs_register_suite(const struct crs_suite* s);

/* Ends the running test as failed after printing file:line, `what` and the message (the format
** starts with one space that is not printed: see CRS_MSG_). */
_Noreturn void crs_fail_(const char* file, int line, const char* what, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Ends the running test as skipped, with the reason. */
_Noreturn void crs_skip_(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
/* cr_assert_str_eq's comparison (each argument evaluated once, NULL compares unequal). */
void crs_str_eq_(const char* file, int line, const char* a, const char* b, const char* a_text, const char* b_text,
                 const char* fmt, ...) __attribute__((format(printf, 7, 8)));

/* The optional message of an assertion as a format that starts with " " (empty message: " "), so that
** no message and a message both make a valid, checked printf format. */
#define CRS_MSG_(...) " " __VA_ARGS__

#define CRS_CHECK_(cond, what, ...)                                         \
    do {                                                                    \
        if (!(cond))                                                        \
            crs_fail_(__FILE__, __LINE__, what, CRS_MSG_(__VA_ARGS__));     \
    } while (0)

#define CRS_CMP_(a, op, b, ...) \
    CRS_CHECK_((a) op (b), "The expression (" #a ") " #op " (" #b ") is false.", __VA_ARGS__)

#define cr_assert(cond, ...) CRS_CHECK_(cond, "The expression " #cond " is false.", __VA_ARGS__)
#define cr_assert_eq(a, b, ...) CRS_CMP_(a, ==, b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...) CRS_CMP_(a, >, b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...) CRS_CMP_(a, >=, b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...) CRS_CMP_(a, <, b, __VA_ARGS__)
#define cr_assert_null(p, ...) CRS_CHECK_((p) == NULL, "The expression (" #p ") == NULL is false.", __VA_ARGS__)
#define cr_assert_not_null(p, ...) CRS_CHECK_((p) != NULL, "The expression (" #p ") != NULL is false.", __VA_ARGS__)
#define cr_assert_str_empty(s, ...) \
    CRS_CHECK_(((const char*)(s))[0] == '\0', "The string (" #s ") is not empty.", __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...) crs_str_eq_(__FILE__, __LINE__, (a), (b), #a, #b, CRS_MSG_(__VA_ARGS__))
#define cr_assert_fail(...) crs_fail_(__FILE__, __LINE__, "The assertion failed.", CRS_MSG_(__VA_ARGS__))
#define cr_skip_test(...) crs_skip_(CRS_MSG_(__VA_ARGS__))

#define TestSuite(suite, ...)                                                                      \
    static const struct crs_suite crs_suite_##suite = {#suite, {.crs_unused_ = 0, __VA_ARGS__}};  \
    __attribute__((constructor)) static void crs_register_suite_##suite(void) {                    \
        crs_register_suite(&crs_suite_##suite);                                                    \
    }                                                                                              \
    struct crs_swallow_semicolon_

#define Test(suite, name, ...)                                                                    \
    static void crs_body_##suite##__##name(void);                                                 \
    static const struct crs_test crs_test_##suite##__##name = {                                   \
        #suite, #name, crs_body_##suite##__##name, {.crs_unused_ = 0, __VA_ARGS__}, __FILE__, __LINE__}; \
    __attribute__((constructor)) static void crs_register_##suite##__##name(void) {               \
        crs_register_test(&crs_test_##suite##__##name);                                           \
    }                                                                                             \
    static void crs_body_##suite##__##name(void)

#endif /* CLDNN_CRSHIM_CRITERION_H_ */
