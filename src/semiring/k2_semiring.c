// k2_semiring.c: decompose a GrB_Semiring and look it up in the native table.
// SPDX-License-Identifier: Apache-2.0
#include "semiring/k2_semiring.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/k2_error.h"

GrB_Type k2_type_grb(k2_type t) {
  switch (t) {
    case K2_T_BOOL: return GrB_BOOL;
    case K2_T_INT32: return GrB_INT32;
    case K2_T_INT64: return GrB_INT64;
    case K2_T_FP32: return GrB_FP32;
    default: return GrB_FP64;
  }
}

int k2_type_from_grb(GrB_Type t) {
  if (t == GrB_BOOL) return K2_T_BOOL;
  if (t == GrB_INT32) return K2_T_INT32;
  if (t == GrB_INT64) return K2_T_INT64;
  if (t == GrB_FP32) return K2_T_FP32;
  if (t == GrB_FP64) return K2_T_FP64;
  return -1;
}

const char *k2_type_name(k2_type t) {
  static const char *name[K2_T_COUNT] = {"BOOL", "INT32", "INT64", "FP32", "FP64"};
  return t < K2_T_COUNT ? name[t] : "?";
}

GrB_UnaryOp k2_type_identity_op(k2_type t) {
  switch (t) {
    case K2_T_BOOL: return GrB_IDENTITY_BOOL;
    case K2_T_INT32: return GrB_IDENTITY_INT32;
    case K2_T_INT64: return GrB_IDENTITY_INT64;
    case K2_T_FP32: return GrB_IDENTITY_FP32;
    default: return GrB_IDENTITY_FP64;
  }
}

// GraphBLAS's double -> integer rule (GB_cast_to_int*): NaN -> 0, saturate, else truncate.
void k2_cast_double(void *out, k2_type t, double v) {
  switch (t) {
    case K2_T_BOOL: *(bool *)out = (v != 0); break;
    case K2_T_INT32: {
      int32_t r = isnan(v) ? 0 : v <= (double)INT32_MIN ? INT32_MIN
                : v >= (double)INT32_MAX ? INT32_MAX : (int32_t)v;
      *(int32_t *)out = r;
      break;
    }
    case K2_T_INT64: {
      int64_t r = isnan(v) ? 0 : v <= (double)INT64_MIN ? INT64_MIN
                : v >= (double)INT64_MAX ? INT64_MAX : (int64_t)v;
      *(int64_t *)out = r;
      break;
    }
    case K2_T_FP32: *(float *)out = (float)v; break;
    default: *(double *)out = v; break;
  }
}

static double k2_cast_roundtrip(k2_type t, double v) {
  union { bool b; int32_t i32; int64_t i64; float f; double d; } u;
  k2_cast_double(&u, t, v);
  switch (t) {
    case K2_T_BOOL: return u.b ? 1.0 : 0.0;
    case K2_T_INT32: return (double)u.i32;
    case K2_T_INT64: return (double)u.i64;
    case K2_T_FP32: return (double)u.f;
    default: return u.d;
  }
}

//----------------------------------------------------------------------------------------------
// operator tables: built at first use (GrB_* operators are run-time globals)
//----------------------------------------------------------------------------------------------

typedef enum { MON_PLUS, MON_MIN, MON_MAX, MON_LOR, MON_LAND, MON_ANY, MON_OTHER } k2_mon_kind;
typedef enum {
  MUL_FIRST, MUL_SECOND, MUL_PAIR, MUL_TIMES, MUL_PLUS, MUL_LAND, MUL_LOR, MUL_MIN, MUL_MAX,
  MUL_INDEX0, MUL_INDEX1, MUL_OTHER
} k2_mul_kind;

// Which monoid an operator is, and its type. Boolean renames as GrB_Monoid_new does them.
static k2_mon_kind k2_monoid_kind(GrB_BinaryOp op, int *type) {
  struct { GrB_BinaryOp op; k2_mon_kind kind; k2_type type; } tab[] = {
    {GrB_PLUS_INT32, MON_PLUS, K2_T_INT32}, {GrB_PLUS_INT64, MON_PLUS, K2_T_INT64},
    {GrB_PLUS_FP32, MON_PLUS, K2_T_FP32},   {GrB_PLUS_FP64, MON_PLUS, K2_T_FP64},
    {GrB_MIN_INT32, MON_MIN, K2_T_INT32},   {GrB_MIN_INT64, MON_MIN, K2_T_INT64},
    {GrB_MIN_FP32, MON_MIN, K2_T_FP32},     {GrB_MIN_FP64, MON_MIN, K2_T_FP64},
    {GrB_MAX_INT32, MON_MAX, K2_T_INT32},   {GrB_MAX_INT64, MON_MAX, K2_T_INT64},
    {GrB_MAX_FP32, MON_MAX, K2_T_FP32},     {GrB_MAX_FP64, MON_MAX, K2_T_FP64},
    {GxB_ANY_INT32, MON_ANY, K2_T_INT32},   {GxB_ANY_INT64, MON_ANY, K2_T_INT64},
    {GxB_ANY_FP32, MON_ANY, K2_T_FP32},     {GxB_ANY_FP64, MON_ANY, K2_T_FP64},
    {GxB_ANY_BOOL, MON_ANY, K2_T_BOOL},
    {GrB_LOR, MON_LOR, K2_T_BOOL},          {GxB_LOR_BOOL, MON_LOR, K2_T_BOOL},
    {GrB_PLUS_BOOL, MON_LOR, K2_T_BOOL},    {GrB_MAX_BOOL, MON_LOR, K2_T_BOOL},
    {GrB_LAND, MON_LAND, K2_T_BOOL},        {GxB_LAND_BOOL, MON_LAND, K2_T_BOOL},
    {GrB_TIMES_BOOL, MON_LAND, K2_T_BOOL},  {GrB_MIN_BOOL, MON_LAND, K2_T_BOOL},
  };
  for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
    if (tab[k].op == op) {
      *type = (int)tab[k].type;
      return tab[k].kind;
    }
  }
  *type = -1;
  return MON_OTHER;
}

// Which multiply an operator is, and its output type (the index ops: INT32/INT64).
static k2_mul_kind k2_mult_kind(GrB_BinaryOp op, int *type) {
#define K2_ROW(T, KT)                                                                   \
  {GrB_FIRST_##T, MUL_FIRST, KT}, {GrB_SECOND_##T, MUL_SECOND, KT},                      \
  {GrB_ONEB_##T, MUL_PAIR, KT}, {GxB_PAIR_##T, MUL_PAIR, KT},                            \
  {GrB_TIMES_##T, MUL_TIMES, KT}, {GrB_PLUS_##T, MUL_PLUS, KT},                          \
  {GrB_MIN_##T, MUL_MIN, KT}, {GrB_MAX_##T, MUL_MAX, KT}
  struct { GrB_BinaryOp op; k2_mul_kind kind; k2_type type; } tab[] = {
    K2_ROW(INT32, K2_T_INT32), K2_ROW(INT64, K2_T_INT64), K2_ROW(FP32, K2_T_FP32),
    K2_ROW(FP64, K2_T_FP64),
    // BOOL: TIMES and MIN are LAND, PLUS and MAX are LOR on {0,1}
    {GrB_FIRST_BOOL, MUL_FIRST, K2_T_BOOL}, {GrB_SECOND_BOOL, MUL_SECOND, K2_T_BOOL},
    {GrB_ONEB_BOOL, MUL_PAIR, K2_T_BOOL},   {GxB_PAIR_BOOL, MUL_PAIR, K2_T_BOOL},
    {GrB_LAND, MUL_LAND, K2_T_BOOL},        {GxB_LAND_BOOL, MUL_LAND, K2_T_BOOL},
    {GrB_TIMES_BOOL, MUL_LAND, K2_T_BOOL},  {GrB_MIN_BOOL, MUL_LAND, K2_T_BOOL},
    {GrB_LOR, MUL_LOR, K2_T_BOOL},          {GxB_LOR_BOOL, MUL_LOR, K2_T_BOOL},
    {GrB_PLUS_BOOL, MUL_LOR, K2_T_BOOL},    {GrB_MAX_BOOL, MUL_LOR, K2_T_BOOL},
    // positional: in a product FIRSTJ and SECONDI both give k, the index of the vector entry
    {GxB_SECONDI_INT32, MUL_INDEX0, K2_T_INT32},  {GxB_SECONDI_INT64, MUL_INDEX0, K2_T_INT64},
    {GxB_FIRSTJ_INT32, MUL_INDEX0, K2_T_INT32},   {GxB_FIRSTJ_INT64, MUL_INDEX0, K2_T_INT64},
    {GxB_SECONDI1_INT32, MUL_INDEX1, K2_T_INT32}, {GxB_SECONDI1_INT64, MUL_INDEX1, K2_T_INT64},
    {GxB_FIRSTJ1_INT32, MUL_INDEX1, K2_T_INT32},  {GxB_FIRSTJ1_INT64, MUL_INDEX1, K2_T_INT64},
  };
#undef K2_ROW
  for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
    if (tab[k].op == op) {
      *type = (int)tab[k].type;
      return tab[k].kind;
    }
  }
  *type = -1;
  return MUL_OTHER;
}

static const char *k2_mon_name(k2_mon_kind m) {
  static const char *name[] = {"PLUS", "MIN", "MAX", "LOR", "LAND", "ANY", "user"};
  return name[m];
}
static const char *k2_mul_name(k2_mul_kind m) {
  static const char *name[] = {"FIRST", "SECOND", "PAIR", "TIMES", "PLUS", "LAND", "LOR",
                               "MIN", "MAX", "SECONDI", "SECONDI1", "user"};
  return name[m];
}

// The identity (and terminal) a monoid must have to be the standard one.
static bool k2_value_is(const void *val, k2_type t, int which /* 0 zero, -1 lowest, +1 highest, 2 true */) {
  switch (t) {
    case K2_T_BOOL: {
      bool b = *(const bool *)val;
      return which == 2 ? b : which == 0 ? !b : false;
    }
    case K2_T_INT32: {
      int32_t v = *(const int32_t *)val;
      return which == 0 ? v == 0 : which < 0 ? v == INT32_MIN : v == INT32_MAX;
    }
    case K2_T_INT64: {
      int64_t v = *(const int64_t *)val;
      return which == 0 ? v == 0 : which < 0 ? v == INT64_MIN : v == INT64_MAX;
    }
    case K2_T_FP32: {
      float v = *(const float *)val;
      return which == 0 ? v == 0 : which < 0 ? (isinf(v) && v < 0) : (isinf(v) && v > 0);
    }
    default: {
      double v = *(const double *)val;
      return which == 0 ? v == 0 : which < 0 ? (isinf(v) && v < 0) : (isinf(v) && v > 0);
    }
  }
}

#define K2_NOT_NATIVE(...)                                     \
  do {                                                         \
    c->native = false;                                         \
    snprintf(c->why, sizeof c->why, __VA_ARGS__);              \
    return GrB_SUCCESS;                                        \
  } while (0)

GrB_Info k2_semiring_classify(k2_semiring_class *c, GrB_Semiring s, bool matrix_first) {
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "user-defined");
  if (s == NULL) K2_FAIL(GrB_NULL_POINTER, "semiring is NULL");
  GrB_Monoid add = NULL;
  GrB_BinaryOp mult = NULL, addop = NULL;
  GrB_Info info = GxB_Semiring_add(&add, s);
  if (info != GrB_SUCCESS) {
    K2_FAIL(info, "semiring is not a valid GrB_Semiring");
  }
  if ((info = GxB_Semiring_multiply(&mult, s)) != GrB_SUCCESS ||
      (info = GxB_Monoid_operator(&addop, add)) != GrB_SUCCESS) {
    K2_FAIL(info, "semiring cannot be taken apart into its monoid and multiply operator");
  }

  int mtype = -1, xtype = -1;
  k2_mon_kind mon = k2_monoid_kind(addop, &mtype);
  k2_mul_kind mul = k2_mult_kind(mult, &xtype);
  if (mon == MON_OTHER) K2_NOT_NATIVE("monoid operator is not PLUS/MIN/MAX/LOR/ANY of BOOL, INT32, INT64, FP32, FP64");
  if (mul == MUL_OTHER) K2_NOT_NATIVE("multiply operator is not FIRST/SECOND/PAIR/ONEB/TIMES/PLUS/LAND/SECONDI/FIRSTJ of BOOL, INT32, INT64, FP32, FP64");
  k2_type T = (k2_type)mtype;
  snprintf(c->name, sizeof c->name, "%s_%s_%s", k2_mon_name(mon), k2_mul_name(mul),
           k2_type_name(T));
  if (xtype != mtype) K2_NOT_NATIVE("multiply type %s differs from monoid type %s", k2_type_name((k2_type)xtype), k2_type_name(T));

  // A user monoid may pair a standard operator with another identity or terminal value.
  union { bool b; int32_t i32; int64_t i64; float f; double d; } id, term;
  bool has_terminal = false;
  if ((info = GxB_Monoid_identity(&id, add)) != GrB_SUCCESS ||
      (info = GxB_Monoid_terminal(&has_terminal, &term, add)) != GrB_SUCCESS) {
    K2_FAIL(info, "the identity or terminal value of the semiring's monoid cannot be read");
  }
  switch (mon) {
    case MON_PLUS:
      if (!k2_value_is(&id, T, 0)) K2_NOT_NATIVE("PLUS monoid with a non-zero identity");
      if (has_terminal) K2_NOT_NATIVE("PLUS monoid with a terminal value");
      break;
    case MON_MIN:
      if (!k2_value_is(&id, T, +1)) K2_NOT_NATIVE("MIN monoid with a non-standard identity");
      if (has_terminal && !k2_value_is(&term, T, -1)) K2_NOT_NATIVE("MIN monoid with a non-standard terminal");
      break;
    case MON_MAX:
      if (!k2_value_is(&id, T, -1)) K2_NOT_NATIVE("MAX monoid with a non-standard identity");
      if (has_terminal && !k2_value_is(&term, T, +1)) K2_NOT_NATIVE("MAX monoid with a non-standard terminal");
      break;
    case MON_LOR:
      if (!k2_value_is(&id, T, 0)) K2_NOT_NATIVE("LOR monoid with identity true");
      if (has_terminal && !k2_value_is(&term, T, 2)) K2_NOT_NATIVE("LOR monoid with terminal false");
      break;
    case MON_LAND:
      K2_NOT_NATIVE("LAND monoid (also MIN/TIMES on BOOL) is not native");
    default:
      break;  // ANY: identity and terminal carry no meaning
  }

  // The multiply as g(a = matrix value, v = vector value): vxm swaps the operands.
  k2_gmult g;
  switch (mul) {
    case MUL_FIRST: g = matrix_first ? K2_G_MAT : K2_G_VEC; break;
    case MUL_SECOND: g = matrix_first ? K2_G_VEC : K2_G_MAT; break;
    case MUL_PAIR: g = K2_G_ONE; break;
    case MUL_TIMES: case MUL_LAND: g = K2_G_TIMES; break;
    case MUL_PLUS: g = K2_G_PLUS; break;
    case MUL_INDEX0: case MUL_INDEX1: g = K2_G_INDEX; c->index_base = (mul == MUL_INDEX1); break;
    default: K2_NOT_NATIVE("multiply %s is not native", k2_mul_name(mul));
  }

  // The native table (issue 4 §3), on the normalised (monoid, g, type).
  bool ok = false;
  bool is_bool = (T == K2_T_BOOL), is_int = (T == K2_T_INT32 || T == K2_T_INT64);
  switch (mon) {
    case MON_PLUS:  // never BOOL here: PLUS_BOOL was renamed LOR
      ok = (g == K2_G_VEC || g == K2_G_MAT || g == K2_G_ONE || g == K2_G_TIMES);
      break;
    case MON_LOR:
      ok = is_bool && (g == K2_G_VEC || g == K2_G_MAT || g == K2_G_ONE || g == K2_G_TIMES);
      break;
    case MON_ANY:
      ok = (g == K2_G_VEC || g == K2_G_MAT || g == K2_G_ONE || (is_bool && g == K2_G_TIMES) ||
            (is_int && g == K2_G_INDEX));
      break;
    case MON_MIN: case MON_MAX:
      ok = !is_bool && (g == K2_G_VEC || g == K2_G_MAT || g == K2_G_PLUS ||
                        (is_int && g == K2_G_INDEX));
      break;
    default:
      break;
  }
  if (!ok) K2_NOT_NATIVE("%s is not in the native table", c->name);

  c->native = true;
  c->type = T;
  c->grb_type = k2_type_grb(T);
  c->monoid = mon == MON_PLUS ? K2_MON_PLUS : mon == MON_MIN ? K2_MON_MIN
            : mon == MON_MAX ? K2_MON_MAX : mon == MON_LOR ? K2_MON_LOR : K2_MON_ANY;
  c->g = g;
  c->reads_vec = (g == K2_G_VEC || g == K2_G_TIMES || g == K2_G_PLUS);
  return GrB_SUCCESS;
}

void k2_semiring_setup(k2_product *P, const k2_semiring_class *c, double weight) {
  double a = k2_cast_roundtrip(c->type, weight);  // the matrix value, typecast as GraphBLAS does
  P->type = c->type;
  P->monoid = c->monoid;
  P->index_base = 0;
  P->w = 1;
  switch (c->g) {
    case K2_G_VEC: P->mult = K2_MUL_X; break;
    case K2_G_MAT: P->mult = K2_MUL_CONST; P->w = a; break;
    case K2_G_ONE: P->mult = K2_MUL_CONST; P->w = 1; break;
    case K2_G_TIMES:
      // a == 1 (the usual unweighted graph): the plain copy is the cheaper kernel
      if (a == 1) P->mult = K2_MUL_X;
      else if (a == 0 && c->type == K2_T_BOOL) { P->mult = K2_MUL_CONST; P->w = 0; }
      else { P->mult = K2_MUL_X_TIMES_W; P->w = a; }
      break;
    case K2_G_PLUS: P->mult = K2_MUL_X_PLUS_W; P->w = a; break;
    default: P->mult = K2_MUL_INDEX; P->index_base = c->index_base; break;
  }
}

bool k2_semiring_positional(GrB_Semiring s) {
  GrB_BinaryOp mult = NULL;
  if (s == NULL || GxB_Semiring_multiply(&mult, s) != GrB_SUCCESS) return false;
  const GrB_BinaryOp positional[] = {
      GxB_FIRSTI_INT32,   GxB_FIRSTI_INT64,   GxB_FIRSTI1_INT32,  GxB_FIRSTI1_INT64,
      GxB_FIRSTJ_INT32,   GxB_FIRSTJ_INT64,   GxB_FIRSTJ1_INT32,  GxB_FIRSTJ1_INT64,
      GxB_SECONDI_INT32,  GxB_SECONDI_INT64,  GxB_SECONDI1_INT32, GxB_SECONDI1_INT64,
      GxB_SECONDJ_INT32,  GxB_SECONDJ_INT64,  GxB_SECONDJ1_INT32, GxB_SECONDJ1_INT64};
  for (size_t k = 0; k < sizeof positional / sizeof positional[0]; k++) {
    if (mult == positional[k]) return true;
  }
  return false;
}
