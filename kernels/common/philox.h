/*
 * philox.h: the Philox4x32-10 counter-based generator (Salmon et al., SC'11; Random123's
 * constants), and the dropout mask built on it. Shared by every kernel that drops elements
 * (eltwise dropout, attention) and compiled as host C by the tests' reference, so a mask is the
 * same bits on every device and on the host.
 *
 * The dropout stream: key = the 64-bit seed; counter = (g low, g high, offset low, offset high)
 * where g = element index / 4; the element takes word (index % 4) of the block. An element is
 * kept when that word is >= threshold = floor(p * 2^32) (an integer test: no float rounding can
 * differ between devices), so the kept fraction is 1 - threshold / 2^32. The element index and
 * the offset own separate counter words, so two offsets never share a block (up to 2^66
 * elements): a caller moves the offset on by anything, 1 per call is enough.
 */
#ifndef CLDNN_PHILOX_H
#define CLDNN_PHILOX_H

#ifdef __OPENCL_VERSION__
#define PHILOX_U32 uint
#define PHILOX_U64 ulong
#define PHILOX_FN inline
#define PHILOX_MULHI(a, b) mul_hi((a), (b))
#else
#include <stdint.h>
#define PHILOX_U32 uint32_t
#define PHILOX_U64 uint64_t
#define PHILOX_FN static inline
#define PHILOX_MULHI(a, b) ((PHILOX_U32)(((uint64_t)(a) * (uint64_t)(b)) >> 32))
#endif

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

/* ctr (4 words) becomes the generator's output block for key (k0, k1). */
PHILOX_FN void philox4x32_10(PHILOX_U32* ctr, PHILOX_U32 k0, PHILOX_U32 k1) {
    for (int r = 0; r < 10; ++r) {
        PHILOX_U32 hi0 = PHILOX_MULHI(PHILOX_M0, ctr[0]), lo0 = PHILOX_M0 * ctr[0];
        PHILOX_U32 hi1 = PHILOX_MULHI(PHILOX_M1, ctr[2]), lo1 = PHILOX_M1 * ctr[2];
        PHILOX_U32 c1 = ctr[1], c3 = ctr[3];
        ctr[0] = hi1 ^ c1 ^ k0;
        ctr[1] = lo1;
        ctr[2] = hi0 ^ c3 ^ k1;
        ctr[3] = lo0;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
}

/* The dropout block of element group g (= element index / 4): gen = {seed low, seed high,
** offset low, offset high}. */
PHILOX_FN void philox_dropout_block(PHILOX_U32* out, const PHILOX_U32* gen, PHILOX_U64 g) {
    out[0] = (PHILOX_U32)g;
    out[1] = (PHILOX_U32)(g >> 32);
    out[2] = gen[2];
    out[3] = gen[3];
    philox4x32_10(out, gen[0], gen[1]);
}

/* Word w (0..3) of a block: a select chain rather than an indexed load, so that a kernel's block
** stays in registers (a dynamically indexed private array goes to memory on GPUs). */
PHILOX_FN PHILOX_U32 philox_word(const PHILOX_U32* blk, PHILOX_U32 w) {
    return w == 0 ? blk[0] : w == 1 ? blk[1] : w == 2 ? blk[2] : blk[3];
}

/* Whether element `index` is kept, reusing the block in blk when *cached_g already names its
** group (start *cached_g at ~0: no group). Sequential indices cost one block per 4 elements. */
PHILOX_FN int philox_dropout_keep(PHILOX_U32* blk, PHILOX_U64* cached_g, const PHILOX_U32* gen, PHILOX_U32 threshold,
                                  PHILOX_U64 index) {
    PHILOX_U64 g = index >> 2;
    if (g != *cached_g) {
        philox_dropout_block(blk, gen, g);
        *cached_g = g;
    }
    return philox_word(blk, (PHILOX_U32)(index & 3)) >= threshold;
}

#endif
