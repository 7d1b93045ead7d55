/*
 * activation.h: one definition per activation, forward and derivative, for every kernel that
 * applies one (the standalone activation kernels and, later, fused epilogues).
 *
 * ACT_FWD_<MODE>(x, c, b)   the activation of x; c = the descriptor's coef, b = swish beta
 * ACT_DER_<MODE>(u, c, b)   its derivative, where u is y for SIGMOID and TANH (the derivative is
 *                           a function of the output, as in cuDNN) and x for every other mode
 * Mode numbers are cldnnActivationMode_t's. act_forward / act_derivative dispatch on a runtime
 * mode: activations are bandwidth-bound and a uniform branch costs nothing measurable there,
 * while one program per direction keeps compiles few. A fused epilogue uses the macros directly.
 * NaN: RELU and CLIPPED_RELU use fmax/fmin, which drop a NaN operand; with nanprop != 0 a NaN
 * input is returned as is. Every other mode propagates NaN by its arithmetic.
 */
#ifndef CLDNN_ACTIVATION_H
#define CLDNN_ACTIVATION_H

#define ACT_SIGMOID 0
#define ACT_RELU 1
#define ACT_TANH 2
#define ACT_CLIPPED_RELU 3
#define ACT_ELU 4
#define ACT_IDENTITY 5
#define ACT_SWISH 6
#define ACT_LEAKY_RELU 100
#define ACT_SOFTPLUS 101
#define ACT_ABS 102
#define ACT_GELU 103

#define ACT_SIGMOID_OF(x) (1.0f / (1.0f + exp(-(x))))

#define ACT_FWD_SIGMOID(x, c, b) ACT_SIGMOID_OF(x)
#define ACT_FWD_RELU(x, c, b) fmax((x), 0.0f)
#define ACT_FWD_TANH(x, c, b) tanh(x)
#define ACT_FWD_CLIPPED_RELU(x, c, b) fmin(fmax((x), 0.0f), (c))
#define ACT_FWD_ELU(x, c, b) ((x) > 0.0f ? (x) : (c) * expm1(x))
#define ACT_FWD_IDENTITY(x, c, b) (x)
#define ACT_FWD_SWISH(x, c, b) ((x) * ACT_SIGMOID_OF((b) * (x)))
#define ACT_FWD_LEAKY_RELU(x, c, b) ((x) > 0.0f ? (x) : (c) * (x))
#define ACT_FWD_SOFTPLUS(x, c, b) (fmax((x), 0.0f) + log1p(exp(-fabs(x))))
#define ACT_FWD_ABS(x, c, b) fabs(x)
/* erfc(-x/sqrt2) = 1 + erf(x/sqrt2) without the cancellation of the erf form for x << 0 */
#define ACT_FWD_GELU(x, c, b) (0.5f * (x) * act_erfc((x) * -0.70710678118654752f))

#define ACT_DER_SIGMOID(y, c, b) ((y) * (1.0f - (y)))
#define ACT_DER_RELU(x, c, b) ((x) > 0.0f ? 1.0f : 0.0f)
#define ACT_DER_TANH(y, c, b) (1.0f - (y) * (y))
#define ACT_DER_CLIPPED_RELU(x, c, b) (((x) > 0.0f && (x) < (c)) ? 1.0f : 0.0f)
#define ACT_DER_ELU(x, c, b) ((x) > 0.0f ? 1.0f : (c) * exp(x))
#define ACT_DER_IDENTITY(x, c, b) 1.0f
#define ACT_DER_SWISH(x, c, b) act_swish_derivative((x), (b))
#define ACT_DER_LEAKY_RELU(x, c, b) ((x) > 0.0f ? 1.0f : (c))
#define ACT_DER_SOFTPLUS(x, c, b) ACT_SIGMOID_OF(x)
#define ACT_DER_ABS(x, c, b) ((x) > 0.0f ? 1.0f : ((x) < 0.0f ? -1.0f : 0.0f))
#define ACT_DER_GELU(x, c, b) \
    (0.5f * act_erfc((x) * -0.70710678118654752f) + (x) * exp(-0.5f * (x) * (x)) * 0.39894228040143268f)

/* erfc through one exp and a degree-9 polynomial in t = 1/(1 + |z|/2) (the Chebyshev fit of
 * Numerical Recipes' erfcc, fractional error below 1.2e-7 for every z): several times cheaper
 * than the library erfc on GPUs, which made GELU compute-bound (0.6 of copy bandwidth on the
 * H100, perf/results/). erfc(-z) = 2 - erfc(z) keeps z < 0 free of cancellation. */
inline float act_erfc(float z) {
    float a = fabs(z);
    float t = 1.0f / (1.0f + 0.5f * a);
    float p = 0.17087277f;
    p = fma(t, p, -0.82215223f);
    p = fma(t, p, 1.48851587f);
    p = fma(t, p, -1.13520398f);
    p = fma(t, p, 0.27886807f);
    p = fma(t, p, -0.18628806f);
    p = fma(t, p, 0.09678418f);
    p = fma(t, p, 0.37409196f);
    p = fma(t, p, 1.00002368f);
    p = fma(t, p, -1.26551223f);
    float r = t * exp(p - a * a);
    return z >= 0.0f ? r : 2.0f - r;
}

inline float act_swish_derivative(float x, float b) {
    float s = ACT_SIGMOID_OF(b * x);
    return s + b * x * s * (1.0f - s);
}

#define ACT_CASES(PREFIX, u, c, b)                                \
    case ACT_SIGMOID: return CAT(PREFIX, SIGMOID)(u, c, b);       \
    case ACT_RELU: return CAT(PREFIX, RELU)(u, c, b);             \
    case ACT_TANH: return CAT(PREFIX, TANH)(u, c, b);             \
    case ACT_CLIPPED_RELU: return CAT(PREFIX, CLIPPED_RELU)(u, c, b); \
    case ACT_ELU: return CAT(PREFIX, ELU)(u, c, b);               \
    case ACT_IDENTITY: return CAT(PREFIX, IDENTITY)(u, c, b);     \
    case ACT_SWISH: return CAT(PREFIX, SWISH)(u, c, b);           \
    case ACT_LEAKY_RELU: return CAT(PREFIX, LEAKY_RELU)(u, c, b); \
    case ACT_SOFTPLUS: return CAT(PREFIX, SOFTPLUS)(u, c, b);     \
    case ACT_ABS: return CAT(PREFIX, ABS)(u, c, b);               \
    case ACT_GELU: return CAT(PREFIX, GELU)(u, c, b);

inline float act_forward(int mode, float x, float c, float b, int nanprop) {
    if (nanprop && isnan(x))
        return x;
    switch (mode) {
        ACT_CASES(ACT_FWD_, x, c, b)
    }
    return x;
}

inline float act_derivative(int mode, float u, float c, float b) {
    switch (mode) {
        ACT_CASES(ACT_DER_, u, c, b)
    }
    return 1.0f;
}

#endif
