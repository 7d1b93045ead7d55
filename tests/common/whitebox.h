/*
** whitebox.h: pieces shared by the white-box suites (those that include internal.h): profiles of
** devices the test machine does not have, and the distinct layer shapes of ResNet-50 and VGG-16.
*/
#ifndef CLDNN_TEST_WHITEBOX_H_
#define CLDNN_TEST_WHITEBOX_H_

#include <stdio.h>
#include <string.h>

#include "internal.h"

/* A profile of an NVIDIA GPU of compute capability major.minor with 132 compute units. */
static inline cldnn_device_profile wb_nv_profile(int major, int minor) {
    cldnn_device_profile p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "NVIDIA cc %d.%d", major, minor);
    p.type = CL_DEVICE_TYPE_GPU;
    p.vendor_id = 0x10de;
    p.is_nvidia = 1;
    p.nv_cc_major = major;
    p.nv_cc_minor = minor;
    p.compute_units = 132;
    p.max_wg_size = 1024;
    p.local_mem = 49152;
    return p;
}

/* n c h w k r s pad stride: the distinct layer shapes of ResNet-50 and VGG-16 (batch 32); not
** every suite that includes this reads it. */
static const int wb_net_layers[][9] __attribute__((unused)) = {
    {32, 3, 224, 224, 64, 7, 7, 3, 2},   {32, 64, 56, 56, 64, 1, 1, 0, 1},    {32, 64, 56, 56, 64, 3, 3, 1, 1},
    {32, 64, 56, 56, 256, 1, 1, 0, 1},   {32, 256, 56, 56, 64, 1, 1, 0, 1},   {32, 256, 56, 56, 128, 1, 1, 0, 1},
    {32, 128, 56, 56, 128, 3, 3, 1, 2},  {32, 128, 28, 28, 512, 1, 1, 0, 1},  {32, 256, 56, 56, 512, 1, 1, 0, 2},
    {32, 512, 28, 28, 128, 1, 1, 0, 1},  {32, 128, 28, 28, 128, 3, 3, 1, 1},  {32, 512, 28, 28, 256, 1, 1, 0, 1},
    {32, 256, 28, 28, 256, 3, 3, 1, 2},  {32, 256, 14, 14, 1024, 1, 1, 0, 1}, {32, 512, 28, 28, 1024, 1, 1, 0, 2},
    {32, 1024, 14, 14, 256, 1, 1, 0, 1}, {32, 256, 14, 14, 256, 3, 3, 1, 1},  {32, 1024, 14, 14, 512, 1, 1, 0, 1},
    {32, 512, 14, 14, 512, 3, 3, 1, 2},  {32, 512, 7, 7, 2048, 1, 1, 0, 1},   {32, 1024, 14, 14, 2048, 1, 1, 0, 2},
    {32, 2048, 7, 7, 512, 1, 1, 0, 1},   {32, 512, 7, 7, 512, 3, 3, 1, 1},    {32, 3, 224, 224, 64, 3, 3, 1, 1},
    {32, 64, 224, 224, 64, 3, 3, 1, 1},  {32, 64, 112, 112, 128, 3, 3, 1, 1}, {32, 128, 112, 112, 128, 3, 3, 1, 1},
    {32, 128, 56, 56, 256, 3, 3, 1, 1},  {32, 256, 56, 56, 256, 3, 3, 1, 1},  {32, 256, 28, 28, 512, 3, 3, 1, 1},
    {32, 512, 28, 28, 512, 3, 3, 1, 1},  {32, 512, 14, 14, 512, 3, 3, 1, 1},
};

#endif
