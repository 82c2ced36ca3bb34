// k2_native_semirings.h: every semiring the engines run natively, for the tests that go
// through them all.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_NATIVE_SEMIRINGS_H
#define K2_NATIVE_SEMIRINGS_H

#include <k2grb.h>

// ANY monoids: what a contribution is (for a validity check); A_NONE: deterministic, compared
// exactly.
typedef enum { A_NONE = 0, A_FIRST, A_SECOND, A_PAIR, A_LAND, A_INDEX0, A_INDEX1 } any_kind;

typedef struct {
  const char *name;
  GrB_Semiring s;
  GrB_Type type;  // the monoid's
  any_kind any;
} sr_entry;

#define K2_NATIVE_SEMIRINGS_MAX 160

// Fill list (room for K2_NATIVE_SEMIRINGS_MAX) with every native semiring (src/semiring/
// k2_semiring.c): PLUS x FIRST/SECOND/PAIR/TIMES, MIN/MAX x FIRST/SECOND/PLUS and the index
// multiplies, ANY x FIRST/SECOND/PAIR and the index multiplies, LOR and ANY x
// FIRST/SECOND/PAIR/LAND on BOOL, and ONEB through user semirings. Returns their number.
int k2_native_semirings(sr_entry *list);
// Free the user semirings of the last k2_native_semirings.
void k2_native_semirings_free(void);

#endif
