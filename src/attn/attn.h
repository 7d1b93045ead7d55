/*
** attn.h: the attention family's declarations for the core's tools (cldnn-tune, tests).
*/
#ifndef CLDNN_ATTN_H_
#define CLDNN_ATTN_H_

#include "internal.h"

struct cldnn_family;
/* The family record of attention (engine.h): its solver table, the output a tuner compares. */
const struct cldnn_family* cldnn_attn_family(void);

#endif /* CLDNN_ATTN_H_ */
