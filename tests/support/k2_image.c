// k2_image.c: reading and altering serialized .k2 images in the tests (k2_image.h).
// SPDX-License-Identifier: Apache-2.0
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdlib.h>
#include <string.h>

#include "k2_image.h"

uint64_t k2_img_rd64(const uint8_t *b, size_t off) {
  uint64_t v;
  memcpy(&v, b + off, 8);
  return v;
}

uint32_t k2_img_rd32(const uint8_t *b, size_t off) {
  uint32_t v;
  memcpy(&v, b + off, 4);
  return v;
}

void k2_img_wr64(uint8_t *b, size_t off, uint64_t v) { memcpy(b + off, &v, 8); }
void k2_img_wr32(uint8_t *b, size_t off, uint32_t v) { memcpy(b + off, &v, 4); }

void k2_img_rehash(uint8_t *b) {
  for (uint32_t s = 0; s < k2_img_rd32(b, H_NSECT); s++) {
    const size_t e = H_TABLE + 24 * (size_t)s;
    k2_img_wr64(b, e + 16, XXH3_64bits(b + k2_img_rd64(b, e), k2_img_rd64(b, e + 8)));
  }
  k2_img_wr64(b, H_SUM, XXH3_64bits(b, H_SUM));
}

uint8_t *k2_img_of(K2_Matrix A, GrB_Index *size) {
  K2_ASSERT_OK(K2_Matrix_serializeSize(size, A));
  uint8_t *b = malloc(*size);
  assert_non_null(b);
  K2_ASSERT_OK(K2_Matrix_serialize(b, size, A));
  return b;
}
