/*
 * fastdiv.h: division by a runtime divisor through a host-computed magic number.
 *
 * Kernels that decode linear indices into tensor coordinates divide by sizes that are kernel
 * arguments (shapes are never build options). An integer division costs tens of instructions on
 * GPUs; with dv = (d, magic, s1, s2) prepared by the host (cldnn_fastdiv in src/conv/conv.c,
 * the round-up method of Granlund and Montgomery), n / d is one mul_hi, a subtraction, an add and
 * two shifts. Valid for 0 <= n < 2^31 and 1 <= d < 2^31.
 */
#ifndef CLDNN_FASTDIV_H
#define CLDNN_FASTDIV_H

inline int fdiv(int n, uint4 dv) {
    const uint t = mul_hi((uint)n, dv.y);
    return (int)((t + (((uint)n - t) >> dv.z)) >> dv.w);
}

#endif
