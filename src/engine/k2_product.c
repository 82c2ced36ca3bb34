// k2_product.c: what every engine accepts of a product description (k2_kernels.h).
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>

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
