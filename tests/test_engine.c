/*
** test_engine.c: the selection engine (src/handle/engine.c) on a made-up family and on the
** convolution's.
**
** White-box: links the static library. The made-up family's solvers record what ran and with which
** parameters, so the tests see the engine's choices directly: the heuristic order (applicable
** solvers by rank, ties in table order, a promotion that holds moves a solver to its rank and its
** find-db name), picking by algorithm, CLDNN_SOLVER (only the named solvers, in the list's order,
** and only in a family that holds one of them), CLDNN_SOLVER_PARAMS (a valid set wins over the
** defaults, an invalid one is ignored), and the parameter text format's round trip. On the
** convolution family, CLDNN_SOLVER reorders Get_v7 and makes the unnamed algorithms NOT_SUPPORTED
** for the run. Criterion forks one process per test, so each test's environment is its own.
*/
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "internal.h"
#include "conv/conv.h"
#include "handle/engine.h"

/* The made-up problem: which solvers apply, and whether the promotion's condition holds. */
typedef struct {
    unsigned applies; /* bit i: solver i applies */
    int promote;
} toy_problem;

typedef struct {
    int a, b; /* the text form "a%d-b%d" */
} toy_params;

static int ran = -1;
static toy_params ran_with;

#define TOY_SOLVER(i)                                                                              \
    static int toy_applicable_##i(const void* problem, const cldnn_device_profile* dev) {          \
        (void)dev;                                                                                 \
        return (((const toy_problem*)problem)->applies >> (i)) & 1u;                              \
    }                                                                                              \
    static cldnnStatus_t toy_run_##i(cldnnHandle_t h, const void* problem, const void* params,    \
                                     const void* buffers) {                                        \
        (void)h, (void)problem, (void)buffers;                                                     \
        ran = (i);                                                                                 \
        ran_with = *(const toy_params*)params;                                                     \
        return CLDNN_STATUS_SUCCESS;                                                               \
    }
TOY_SOLVER(0)
TOY_SOLVER(1)
TOY_SOLVER(2)
TOY_SOLVER(3)

static int toy_promoted(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return ((const toy_problem*)problem)->promote;
}

static void toy_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    (void)problem, (void)dev;
    ((toy_params*)params)->a = 1;
    ((toy_params*)params)->b = 2;
}

static int toy_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    (void)problem, (void)dev;
    const toy_params* q = (const toy_params*)params;
    return q->a >= 1 && q->a <= 8 && q->b >= 0;
}

static const cldnn_param_space toy_space = {.text = "a%d-b%d", .names = "a b", .valid = toy_valid};

/* Table order 0..3; ranks 30, 10, 10, 40; solver 3 promoted to 5 where the problem says so; only
** solver 2 has parameters. Algorithms: 0 and 3 serve algo 0, 1 and 2 serve algo 1. */
static const cldnn_solver toy_solvers[] = {
    {.name = "toy_zero", .algo = 0, .applicable = toy_applicable_0, .params_size = sizeof(toy_params),
     .run = toy_run_0, .rank = 30},
    {.name = "toy_one", .algo = 1, .applicable = toy_applicable_1, .params_size = sizeof(toy_params),
     .run = toy_run_1, .rank = 10},
    {.name = "toy_two", .algo = 1, .applicable = toy_applicable_2, .default_params = toy_defaults,
     .params_size = sizeof(toy_params), .run = toy_run_2, .rank = 10, .space = &toy_space},
    {.name = "toy_three", .algo = 0, .applicable = toy_applicable_3, .params_size = sizeof(toy_params),
     .run = toy_run_3, .rank = 40, .promote = {{toy_promoted, 5, "toy_three_promoted"}}},
};
static const char* const toy_algo_names[] = {"zero", "one"};
static const cldnn_family toy = {.name = "toy", .solvers = toy_solvers, .count = 4, .algo_count = 2,
                                 .algo_names = toy_algo_names, .tune_algo = -1};

/* The names of the engine's order for p, space-separated, into buf. */
static const char* order_names(const toy_problem* p, char* buf, size_t size) {
    const cldnn_solver* s[8];
    int n = cldnn_engine_order(&toy, p, &fx_handle()->prof, s, 8);
    buf[0] = '\0';
    for (int i = 0; i < n; ++i) {
        strncat(buf, s[i]->name, size - strlen(buf) - 1);
        if (i + 1 < n)
            strncat(buf, " ", size - strlen(buf) - 1);
    }
    return buf;
}

Test(engine, order_by_rank_ties_in_table_order_and_promotions) {
    unsetenv("CLDNN_SOLVER");
    char b[256];
    toy_problem p = {0xfu, 0};
    cr_assert_str_eq(order_names(&p, b, sizeof b), "toy_one toy_two toy_zero toy_three");
    p.promote = 1;
    cr_assert_str_eq(order_names(&p, b, sizeof b), "toy_three toy_one toy_two toy_zero");
    p.applies = 0x5u; /* 0 and 2 */
    cr_assert_str_eq(order_names(&p, b, sizeof b), "toy_two toy_zero");
    const char* name = NULL;
    cr_assert_eq(cldnn_solver_rank(&toy_solvers[3], &p, &fx_handle()->prof, &name), 5);
    cr_assert_str_eq(name, "toy_three_promoted");
    p.promote = 0;
    cr_assert_eq(cldnn_solver_rank(&toy_solvers[3], &p, &fx_handle()->prof, &name), 40);
    cr_assert_str_eq(name, "toy_three");
}

Test(engine, pick_by_algorithm_and_none) {
    unsetenv("CLDNN_SOLVER");
    const cldnn_device_profile* dev = &fx_handle()->prof;
    toy_problem p = {0xfu, 0};
    cr_assert_eq(cldnn_engine_pick(&toy, &p, dev, 0), &toy_solvers[0]);
    cr_assert_eq(cldnn_engine_pick(&toy, &p, dev, 1), &toy_solvers[1]);
    cr_assert_eq(cldnn_engine_pick(&toy, &p, dev, -1), &toy_solvers[1]);
    p.promote = 1;
    cr_assert_eq(cldnn_engine_pick(&toy, &p, dev, 0), &toy_solvers[3]);
    cr_assert_eq(cldnn_engine_pick(&toy, &p, dev, -1), &toy_solvers[3]);
    p.applies = 0x6u; /* 1 and 2 only */
    cr_assert_null(cldnn_engine_pick(&toy, &p, dev, 0));
    p.applies = 0;
    FX_EXPECT_STATUS(cldnn_engine_run(fx_handle(), &toy, &p, NULL, NULL, "toy problem"),
                     CLDNN_STATUS_NOT_SUPPORTED);
}

Test(engine, solver_restriction) {
    char b[256];
    toy_problem p = {0xfu, 1};
    setenv("CLDNN_SOLVER", "toy_two,toy_zero", 1);
    cr_assert_str_eq(order_names(&p, b, sizeof b), "toy_two toy_zero");
    cr_assert_eq(cldnn_engine_pick(&toy, &p, &fx_handle()->prof, 0), &toy_solvers[0]);
    /* A named solver that does not apply is passed over. */
    p.applies = 0x9u; /* 0 and 3 */
    cr_assert_str_eq(order_names(&p, b, sizeof b), "toy_zero");
    /* A list naming none of the family's solvers leaves the family alone. */
    setenv("CLDNN_SOLVER", "gemm_tiled", 1);
    cr_assert_str_eq(order_names(&p, b, sizeof b), "toy_three toy_zero");
    /* A name must match whole: toy_t is no solver. */
    setenv("CLDNN_SOLVER", "toy_t,toy_zero", 1);
    cr_assert_str_eq(order_names(&p, b, sizeof b), "toy_zero");
    unsetenv("CLDNN_SOLVER");
}

Test(engine, solver_params_override) {
    unsetenv("CLDNN_SOLVER");
    cldnnHandle_t h = fx_handle();
    toy_problem p = {0x4u, 0}; /* toy_two alone */
    unsetenv("CLDNN_SOLVER_PARAMS");
    FX_EXPECT_STATUS(cldnn_engine_run(h, &toy, &p, NULL, NULL, "toy problem"), CLDNN_STATUS_SUCCESS);
    cr_assert(ran == 2 && ran_with.a == 1 && ran_with.b == 2, "defaults: ran %d with a%d-b%d", ran, ran_with.a,
              ran_with.b);
    setenv("CLDNN_SOLVER_PARAMS", "toy_zero:a3-b3;toy_two:a4-b7", 1);
    FX_EXPECT_STATUS(cldnn_engine_run(h, &toy, &p, NULL, NULL, "toy problem"), CLDNN_STATUS_SUCCESS);
    cr_assert(ran == 2 && ran_with.a == 4 && ran_with.b == 7, "override: ran %d with a%d-b%d", ran, ran_with.a,
              ran_with.b);
    /* Not valid (a > 8), then not the format: the defaults, and the call still succeeds. */
    setenv("CLDNN_SOLVER_PARAMS", "toy_two:a9-b7", 1);
    FX_EXPECT_STATUS(cldnn_engine_run(h, &toy, &p, NULL, NULL, "toy problem"), CLDNN_STATUS_SUCCESS);
    cr_assert(ran_with.a == 1 && ran_with.b == 2, "invalid set taken: a%d-b%d", ran_with.a, ran_with.b);
    setenv("CLDNN_SOLVER_PARAMS", "toy_two:a4-b7-c1", 1);
    FX_EXPECT_STATUS(cldnn_engine_run(h, &toy, &p, NULL, NULL, "toy problem"), CLDNN_STATUS_SUCCESS);
    cr_assert(ran_with.a == 1 && ran_with.b == 2, "malformed set taken: a%d-b%d", ran_with.a, ran_with.b);
    unsetenv("CLDNN_SOLVER_PARAMS");
}

Test(engine, params_text_round_trip) {
    toy_params q;
    cr_assert(cldnn_params_parse("a%d-b%d", "a12-b-3", &q, sizeof q));
    cr_assert(q.a == 12 && q.b == -3);
    char buf[32];
    cldnn_params_format("a%d-b%d", &q, buf, sizeof buf);
    cr_assert_str_eq(buf, "a12-b-3");
    cr_assert(!cldnn_params_parse("a%d-b%d", "a12-b", &q, sizeof q));
    cr_assert(!cldnn_params_parse("a%d-b%d", "a12-b3x", &q, sizeof q));
    cr_assert(!cldnn_params_parse("a%d-b%d", "", &q, sizeof q));
}

/* CLDNN_SOLVER on the real convolution family: Get_v7 lists the named solvers' algorithms in the
** list's order and the rest NOT_SUPPORTED, and running an unnamed algorithm is NOT_SUPPORTED. */
Test(engine, conv_get_under_restriction) {
    cldnnHandle_t h = fx_handle();
    cldnnTensorDescriptor_t x, y;
    cldnnFilterDescriptor_t w;
    cldnnConvolutionDescriptor_t c;
    FX_EXPECT_STATUS(cldnnCreateTensorDescriptor(&x), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnCreateTensorDescriptor(&y), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnCreateFilterDescriptor(&w), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnCreateConvolutionDescriptor(&c), CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetTensor4dDescriptor(x, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 16, 12, 12),
                     CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetFilter4dDescriptor(w, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 16, 16, 3, 3),
                     CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetConvolution2dDescriptor(c, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT),
                     CLDNN_STATUS_SUCCESS);
    FX_EXPECT_STATUS(cldnnSetTensor4dDescriptor(y, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 16, 12, 12),
                     CLDNN_STATUS_SUCCESS);
    cldnnConvolutionFwdAlgoPerf_t perf[CLDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int n = 0;
    setenv("CLDNN_SOLVER", "conv_fwd_winograd_f2x2,conv_fwd_im2col_gemm", 1);
    FX_EXPECT_STATUS(cldnnGetConvolutionForwardAlgorithm_v7(h, x, w, c, y, CLDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, perf),
                     CLDNN_STATUS_SUCCESS);
    cr_assert_eq(n, CLDNN_CONVOLUTION_FWD_ALGO_COUNT);
    cr_assert(perf[0].algo == CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED && perf[0].status == CLDNN_STATUS_SUCCESS,
              "first: algo %d status %d", (int)perf[0].algo, (int)perf[0].status);
    cr_assert(perf[1].algo == CLDNN_CONVOLUTION_FWD_ALGO_GEMM && perf[1].status == CLDNN_STATUS_SUCCESS,
              "second: algo %d status %d", (int)perf[1].algo, (int)perf[1].status);
    for (int i = 2; i < n; ++i)
        cr_assert_eq(perf[i].status, CLDNN_STATUS_NOT_SUPPORTED, "algo %d listed as runnable", (int)perf[i].algo);
    size_t ws = 0;
    FX_EXPECT_STATUS(cldnnGetConvolutionForwardWorkspaceSize(h, x, w, c, y, CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
                                                             &ws),
                     CLDNN_STATUS_NOT_SUPPORTED);
    /* Unrestricted, the same problem offers the implicit GEMM again. */
    unsetenv("CLDNN_SOLVER");
    FX_EXPECT_STATUS(cldnnGetConvolutionForwardWorkspaceSize(h, x, w, c, y, CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM,
                                                             &ws),
                     CLDNN_STATUS_SUCCESS);
    cldnnDestroyTensorDescriptor(x);
    cldnnDestroyTensorDescriptor(y);
    cldnnDestroyFilterDescriptor(w);
    cldnnDestroyConvolutionDescriptor(c);
}
