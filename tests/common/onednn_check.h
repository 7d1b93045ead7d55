/*
** onednn_check.h: what the suites comparing with oneDNN (tests/test_*_onednn.c) share. Header
** only: the fixture library does not link oneDNN.
*/
#ifndef CLDNN_TEST_ONEDNN_CHECK_H_
#define CLDNN_TEST_ONEDNN_CHECK_H_

#include <dnnl.h>
#include <dnnl_debug.h>

#include "fixture.h"

/* Requires a oneDNN call to succeed. */
#define DNNL_OK(call)                                                                             \
    do {                                                                                          \
        dnnl_status_t dk_st_ = (call);                                                            \
        FX_ASSERT(dk_st_ == dnnl_success, "%s:%d: %s\n  returned %s", __FILE__, __LINE__, #call, \
                  dnnl_status2str(dk_st_));                                                       \
    } while (0)

#endif
