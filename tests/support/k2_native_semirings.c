// k2_native_semirings.c: every semiring the engines run natively (k2_native_semirings.h).
// SPDX-License-Identifier: Apache-2.0
#include "k2_native_semirings.h"

#include <stdlib.h>

static GrB_Semiring user_sr[8];
static int n_user_sr = 0;

static void add_sr(sr_entry *list, int *n, const char *name, GrB_Semiring s, GrB_Type t, any_kind any) {
  if (*n >= K2_NATIVE_SEMIRINGS_MAX) abort();
  list[(*n)++] = (sr_entry){name, s, t, any};
}

static GrB_Semiring user_semiring(GrB_Monoid m, GrB_BinaryOp op) {
  GrB_Semiring s = NULL;
  if (GrB_Semiring_new(&s, m, op) != GrB_SUCCESS) abort();
  user_sr[n_user_sr++] = s;
  return s;
}

int k2_native_semirings(sr_entry *list) {
  int n = 0;
#define S1(M, OP, T, ANY) add_sr(list, &n, #M "_" #OP "_" #T, GxB_##M##_##OP##_##T, GrB_##T, ANY)
#define S4(M, OP, ANY) S1(M, OP, INT32, ANY); S1(M, OP, INT64, ANY); S1(M, OP, FP32, ANY); \
                       S1(M, OP, FP64, ANY)
#define SI(M, ANY0, ANY1) S1(M, SECONDI, INT32, ANY0); S1(M, SECONDI, INT64, ANY0);   \
                          S1(M, FIRSTJ, INT32, ANY0);  S1(M, FIRSTJ, INT64, ANY0);    \
                          S1(M, SECONDI1, INT32, ANY1); S1(M, SECONDI1, INT64, ANY1); \
                          S1(M, FIRSTJ1, INT32, ANY1); S1(M, FIRSTJ1, INT64, ANY1)
  S4(PLUS, TIMES, A_NONE);
  S4(PLUS, FIRST, A_NONE);
  S4(PLUS, SECOND, A_NONE);
  S4(PLUS, PAIR, A_NONE);
  S4(MIN, FIRST, A_NONE);
  S4(MIN, SECOND, A_NONE);
  S4(MIN, PLUS, A_NONE);
  S4(MAX, FIRST, A_NONE);
  S4(MAX, SECOND, A_NONE);
  S4(MAX, PLUS, A_NONE);
  SI(MIN, A_NONE, A_NONE);
  SI(MAX, A_NONE, A_NONE);
  S4(ANY, FIRST, A_FIRST);
  S4(ANY, SECOND, A_SECOND);
  S4(ANY, PAIR, A_PAIR);
  SI(ANY, A_INDEX0, A_INDEX1);
  S1(LOR, FIRST, BOOL, A_NONE);
  S1(LOR, SECOND, BOOL, A_NONE);
  S1(LOR, PAIR, BOOL, A_NONE);
  S1(LOR, LAND, BOOL, A_NONE);
  S1(ANY, FIRST, BOOL, A_FIRST);
  S1(ANY, SECOND, BOOL, A_SECOND);
  S1(ANY, PAIR, BOOL, A_PAIR);
  S1(ANY, LAND, BOOL, A_LAND);
#undef SI
#undef S4
#undef S1
  add_sr(list, &n, "LOR_ONEB_BOOL (user)", user_semiring(GrB_LOR_MONOID_BOOL, GrB_ONEB_BOOL), GrB_BOOL, A_NONE);
  add_sr(list, &n, "PLUS_ONEB_INT64 (user)", user_semiring(GrB_PLUS_MONOID_INT64, GrB_ONEB_INT64), GrB_INT64, A_NONE);
  add_sr(list, &n, "PLUS_ONEB_FP32 (user)", user_semiring(GrB_PLUS_MONOID_FP32, GrB_ONEB_FP32), GrB_FP32, A_NONE);
  add_sr(list, &n, "ANY_ONEB_INT32 (user)", user_semiring(GxB_ANY_INT32_MONOID, GrB_ONEB_INT32), GrB_INT32, A_PAIR);
  return n;
}

void k2_native_semirings_free(void) {
  for (int k = 0; k < n_user_sr; k++) GrB_Semiring_free(&user_sr[k]);
  n_user_sr = 0;
}
