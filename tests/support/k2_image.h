// k2_image.h: reading and altering serialized .k2 images in the tests (docs/k2-format.md): the
// header's field offsets, little-endian words, the checksums recomputed after a deliberate
// change (so that only the structure is wrong), and a matrix's image.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_IMAGE_H
#define K2_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "k2_test.h"

// ---- the documented header layout ----
#define H_VERSION 8
#define H_ENDIAN 12
#define H_FLAGS 20
#define H_FILE_BYTES 24
#define H_NROWS 32
#define H_NCOLS 40
#define H_NVALS 48
#define H_SIDE_LOG 56
#define H_LEVELS 60
#define H_LEAF_LOG 64
#define H_DIR_LOG 68
#define H_TOP_LEVEL 72
#define H_TOP_MAX_LOG 76
#define H_N_INTERNAL 80
#define H_N_LEAVES 88
#define H_DIR_LEN 96
#define H_TOP_COUNT 104
#define H_WEIGHT 112
#define H_NSECT 120
#define H_TABLE 128  // the section table: 24 bytes per section (offset, bytes, checksum)
#define H_SUM 312
#define H_BYTES 320

uint64_t k2_img_rd64(const uint8_t *b, size_t off);
uint32_t k2_img_rd32(const uint8_t *b, size_t off);
void k2_img_wr64(uint8_t *b, size_t off, uint64_t v);
void k2_img_wr32(uint8_t *b, size_t off, uint32_t v);
// Every section's checksum and the header's, recomputed.
void k2_img_rehash(uint8_t *b);
// The serialized image of A (malloc'd), *size its bytes.
uint8_t *k2_img_of(K2_Matrix A, GrB_Index *size);

#endif
