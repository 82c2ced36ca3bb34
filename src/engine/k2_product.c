// k2_product.c: what every engine accepts of a product description (k2_kernels.h).
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>

#include "engine/k2_engine.h"

bool k2_product_supported(const k2_product *P) {
  if ((unsigned)P->type >= K2_T_COUNT || (unsigned)P->monoid >= K2_MON_COUNT ||
      (unsigned)P->mult >= K2_MUL_COUNT || P->batch == 0)
    return false;
  if (P->monoid == K2_MON_LOR && P->type != K2_T_BOOL) return false;
  if (P->mult == K2_MUL_INDEX && P->type == K2_T_BOOL) return false;
  return true;
}

bool k2_engine_accepts_supported(const k2_view *A, const k2_product *P, char *why, size_t len) {
  (void)A;
  if (k2_product_supported(P)) return true;
  snprintf(why, len, "this type, monoid and multiply do not make a product");
  return false;
}

uint64_t k2_flags_count(const uint8_t *flag, uint64_t n) {
  uint64_t k = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, flag + i, 8);
    if (w == 0) continue;
    for (unsigned b = 0; b < 8; b++) k += flag[i + b] != 0;
  }
  for (; i < n; i++) k += flag[i] != 0;
  return k;
}

double k2_product_visits_bound(const k2_view *A, uint32_t from, uint64_t k_in, uint64_t k_out) {
  double visits = 0;
  for (uint32_t t = from; t < A->levels; t++) {
    const double stripes = (double)(UINT64_C(1) << t);
    const double fi = (double)k_in < stripes ? (double)k_in / stripes : 1.0;
    const double fo = (double)k_out < stripes ? (double)k_out / stripes : 1.0;
    visits += (double)(A->level_start[t + 1] - A->level_start[t]) * fi * fo;
  }
  return visits;
}
