// k2_semiring.c: decompose a GrB_Semiring and look it up in the native table.
// SPDX-License-Identifier: Apache-2.0
#include "semiring/k2_semiring.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/k2_values.h"
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

// GraphBLAS's typecast of a double (k2_values.h for the integers).
void k2_cast_double(void *out, k2_type t, double v) {
  switch (t) {
    case K2_T_BOOL: *(bool *)out = (v != 0); break;
    case K2_T_INT32: *(int32_t *)out = k2_double_to_int32(v); break;
    case K2_T_INT64: *(int64_t *)out = k2_double_to_int64(v); break;
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

// LAND (also MIN and TIMES on BOOL) is recognised, to say why it is not native.
#define K2_MON_LAND K2_MON_COUNT

typedef struct {
  const char *name;
  int monoid;  // k2_monoid, or K2_MON_LAND
  k2_type type;
} k2_monoid_row;

// Which monoid an operator is, and its type (NULL: none the engines know). Boolean renames as
// GrB_Monoid_new does them.
static bool k2_monoid_of(GrB_BinaryOp op, k2_monoid_row *out) {
  const struct { GrB_BinaryOp op; k2_monoid_row row; } tab[] = {
    {GrB_PLUS_INT32, {"PLUS", K2_MON_PLUS, K2_T_INT32}}, {GrB_PLUS_INT64, {"PLUS", K2_MON_PLUS, K2_T_INT64}},
    {GrB_PLUS_FP32, {"PLUS", K2_MON_PLUS, K2_T_FP32}},   {GrB_PLUS_FP64, {"PLUS", K2_MON_PLUS, K2_T_FP64}},
    {GrB_MIN_INT32, {"MIN", K2_MON_MIN, K2_T_INT32}},    {GrB_MIN_INT64, {"MIN", K2_MON_MIN, K2_T_INT64}},
    {GrB_MIN_FP32, {"MIN", K2_MON_MIN, K2_T_FP32}},      {GrB_MIN_FP64, {"MIN", K2_MON_MIN, K2_T_FP64}},
    {GrB_MAX_INT32, {"MAX", K2_MON_MAX, K2_T_INT32}},    {GrB_MAX_INT64, {"MAX", K2_MON_MAX, K2_T_INT64}},
    {GrB_MAX_FP32, {"MAX", K2_MON_MAX, K2_T_FP32}},      {GrB_MAX_FP64, {"MAX", K2_MON_MAX, K2_T_FP64}},
    {GxB_ANY_INT32, {"ANY", K2_MON_ANY, K2_T_INT32}},    {GxB_ANY_INT64, {"ANY", K2_MON_ANY, K2_T_INT64}},
    {GxB_ANY_FP32, {"ANY", K2_MON_ANY, K2_T_FP32}},      {GxB_ANY_FP64, {"ANY", K2_MON_ANY, K2_T_FP64}},
    {GxB_ANY_BOOL, {"ANY", K2_MON_ANY, K2_T_BOOL}},
    {GrB_LOR, {"LOR", K2_MON_LOR, K2_T_BOOL}},           {GxB_LOR_BOOL, {"LOR", K2_MON_LOR, K2_T_BOOL}},
    {GrB_PLUS_BOOL, {"LOR", K2_MON_LOR, K2_T_BOOL}},     {GrB_MAX_BOOL, {"LOR", K2_MON_LOR, K2_T_BOOL}},
    {GrB_LAND, {"LAND", K2_MON_LAND, K2_T_BOOL}},        {GxB_LAND_BOOL, {"LAND", K2_MON_LAND, K2_T_BOOL}},
    {GrB_TIMES_BOOL, {"LAND", K2_MON_LAND, K2_T_BOOL}},  {GrB_MIN_BOOL, {"LAND", K2_MON_LAND, K2_T_BOOL}},
  };
  for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
    if (tab[k].op == op) {
      *out = tab[k].row;
      return true;
    }
  }
  return false;
}

bool k2_semiring_accum_monoid(GrB_BinaryOp op, k2_type t, k2_monoid *m) {
  k2_monoid_row row;
  if (op == NULL || t == K2_T_BOOL || !k2_monoid_of(op, &row) || row.type != t) return false;
  if (row.monoid != K2_MON_PLUS && row.monoid != K2_MON_MIN && row.monoid != K2_MON_MAX) return false;
  *m = (k2_monoid)row.monoid;
  return true;
}

// What a multiply operator computes from the matrix value a (the edge weight) and the vector
// value v, as the engines' multiply (k2_kernels.h), with the matrix as its first operand (mxv)
// and as its second (vxm). K2_MUL_COUNT: an operator the engines do not run (named for the
// message).
#define K2_MUL_NONE K2_MUL_COUNT
#define K2_AUX_WEIGHT 0  // K2_MUL_CONST: the constant is the edge weight (FIRST in mxv)
#define K2_AUX_ONE 1     // K2_MUL_CONST: the constant is 1 (PAIR, ONEB)

typedef struct {
  const char *name;
  k2_type type;
  k2_mult matrix_first, vector_first;
  int aux;  // K2_MUL_CONST: K2_AUX_*; K2_MUL_INDEX: the index base
} k2_mult_row;

static bool k2_mult_of(GrB_BinaryOp op, k2_mult_row *out) {
#define K2_ROW(T, KT)                                                                          \
  {GrB_FIRST_##T, {"FIRST", KT, K2_MUL_CONST, K2_MUL_X, K2_AUX_WEIGHT}},                       \
  {GrB_SECOND_##T, {"SECOND", KT, K2_MUL_X, K2_MUL_CONST, K2_AUX_WEIGHT}},                     \
  {GrB_ONEB_##T, {"PAIR", KT, K2_MUL_CONST, K2_MUL_CONST, K2_AUX_ONE}},                        \
  {GxB_PAIR_##T, {"PAIR", KT, K2_MUL_CONST, K2_MUL_CONST, K2_AUX_ONE}},                        \
  {GrB_TIMES_##T, {"TIMES", KT, K2_MUL_X_TIMES_W, K2_MUL_X_TIMES_W, 0}},                       \
  {GrB_PLUS_##T, {"PLUS", KT, K2_MUL_X_PLUS_W, K2_MUL_X_PLUS_W, 0}},                           \
  {GrB_MIN_##T, {"MIN", KT, K2_MUL_NONE, K2_MUL_NONE, 0}},                                     \
  {GrB_MAX_##T, {"MAX", KT, K2_MUL_NONE, K2_MUL_NONE, 0}}
  const struct { GrB_BinaryOp op; k2_mult_row row; } tab[] = {
    K2_ROW(INT32, K2_T_INT32), K2_ROW(INT64, K2_T_INT64), K2_ROW(FP32, K2_T_FP32),
    K2_ROW(FP64, K2_T_FP64),
    // BOOL: TIMES and MIN are LAND, PLUS and MAX are LOR on {0,1}
    {GrB_FIRST_BOOL, {"FIRST", K2_T_BOOL, K2_MUL_CONST, K2_MUL_X, K2_AUX_WEIGHT}},
    {GrB_SECOND_BOOL, {"SECOND", K2_T_BOOL, K2_MUL_X, K2_MUL_CONST, K2_AUX_WEIGHT}},
    {GrB_ONEB_BOOL, {"PAIR", K2_T_BOOL, K2_MUL_CONST, K2_MUL_CONST, K2_AUX_ONE}},
    {GxB_PAIR_BOOL, {"PAIR", K2_T_BOOL, K2_MUL_CONST, K2_MUL_CONST, K2_AUX_ONE}},
    {GrB_LAND, {"LAND", K2_T_BOOL, K2_MUL_X_TIMES_W, K2_MUL_X_TIMES_W, 0}},
    {GxB_LAND_BOOL, {"LAND", K2_T_BOOL, K2_MUL_X_TIMES_W, K2_MUL_X_TIMES_W, 0}},
    {GrB_TIMES_BOOL, {"LAND", K2_T_BOOL, K2_MUL_X_TIMES_W, K2_MUL_X_TIMES_W, 0}},
    {GrB_MIN_BOOL, {"LAND", K2_T_BOOL, K2_MUL_X_TIMES_W, K2_MUL_X_TIMES_W, 0}},
    {GrB_LOR, {"LOR", K2_T_BOOL, K2_MUL_NONE, K2_MUL_NONE, 0}},
    {GxB_LOR_BOOL, {"LOR", K2_T_BOOL, K2_MUL_NONE, K2_MUL_NONE, 0}},
    {GrB_PLUS_BOOL, {"LOR", K2_T_BOOL, K2_MUL_NONE, K2_MUL_NONE, 0}},
    {GrB_MAX_BOOL, {"LOR", K2_T_BOOL, K2_MUL_NONE, K2_MUL_NONE, 0}},
    // positional: in a product FIRSTJ and SECONDI both give k, the index of the vector entry
    {GxB_SECONDI_INT32, {"SECONDI", K2_T_INT32, K2_MUL_INDEX, K2_MUL_INDEX, 0}},
    {GxB_SECONDI_INT64, {"SECONDI", K2_T_INT64, K2_MUL_INDEX, K2_MUL_INDEX, 0}},
    {GxB_FIRSTJ_INT32, {"SECONDI", K2_T_INT32, K2_MUL_INDEX, K2_MUL_INDEX, 0}},
    {GxB_FIRSTJ_INT64, {"SECONDI", K2_T_INT64, K2_MUL_INDEX, K2_MUL_INDEX, 0}},
    {GxB_SECONDI1_INT32, {"SECONDI1", K2_T_INT32, K2_MUL_INDEX, K2_MUL_INDEX, 1}},
    {GxB_SECONDI1_INT64, {"SECONDI1", K2_T_INT64, K2_MUL_INDEX, K2_MUL_INDEX, 1}},
    {GxB_FIRSTJ1_INT32, {"SECONDI1", K2_T_INT32, K2_MUL_INDEX, K2_MUL_INDEX, 1}},
    {GxB_FIRSTJ1_INT64, {"SECONDI1", K2_T_INT64, K2_MUL_INDEX, K2_MUL_INDEX, 1}},
  };
#undef K2_ROW
  for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
    if (tab[k].op == op) {
      *out = tab[k].row;
      return true;
    }
  }
  return false;
}

// v == w as values of type t (floats: -0 equals 0).
static bool k2_value_equal(const void *v, const void *w, k2_type t) {
  switch (t) {
    case K2_T_BOOL: return (*(const bool *)v != 0) == (*(const uint8_t *)w != 0);
    case K2_T_INT32: return *(const int32_t *)v == *(const int32_t *)w;
    case K2_T_INT64: return *(const int64_t *)v == *(const int64_t *)w;
    case K2_T_FP32: return *(const float *)v == *(const float *)w;
    default: return *(const double *)v == *(const double *)w;
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

  k2_monoid_row monrow;
  const k2_monoid_row *mon = &monrow;
  k2_mult_row mul;
  if (!k2_monoid_of(addop, &monrow)) K2_NOT_NATIVE("monoid operator is not PLUS/MIN/MAX/LOR/ANY of BOOL, INT32, INT64, FP32, FP64");
  if (!k2_mult_of(mult, &mul)) K2_NOT_NATIVE("multiply operator is not FIRST/SECOND/PAIR/ONEB/TIMES/PLUS/LAND/SECONDI/FIRSTJ of BOOL, INT32, INT64, FP32, FP64");
  const k2_type T = mon->type;
  snprintf(c->name, sizeof c->name, "%s_%s_%s", mon->name, mul.name, k2_type_name(T));
  if (mul.type != T) K2_NOT_NATIVE("multiply type %s differs from monoid type %s", k2_type_name(mul.type), k2_type_name(T));
  if (mon->monoid == K2_MON_LAND) K2_NOT_NATIVE("LAND monoid (also MIN/TIMES on BOOL) is not native");
  const k2_monoid m = (k2_monoid)mon->monoid;

  // A user monoid may pair a standard operator with another identity or terminal value: native
  // only with the standard ones (k2_values.h), which the engines assume.
  union { bool b; int32_t i32; int64_t i64; float f; double d; } id, term, want;
  bool has_terminal = false;
  if ((info = GxB_Monoid_identity(&id, add)) != GrB_SUCCESS ||
      (info = GxB_Monoid_terminal(&has_terminal, &term, add)) != GrB_SUCCESS) {
    K2_FAIL(info, "the identity or terminal value of the semiring's monoid cannot be read");
  }
  if (m != K2_MON_ANY) {  // ANY: identity and terminal carry no meaning
    k2_identity_bytes(&want, T, m);
    if (!k2_value_equal(&id, &want, T)) K2_NOT_NATIVE("%s monoid with a non-standard identity", mon->name);
    if (has_terminal && !(k2_terminal_bytes(&want, T, m) && k2_value_equal(&term, &want, T))) {
      K2_NOT_NATIVE("%s monoid with a non-standard terminal value", mon->name);
    }
  }

  // The multiply as the engines run it: vxm swaps the operands.
  const k2_mult g = matrix_first ? mul.matrix_first : mul.vector_first;
  if (g == K2_MUL_NONE) K2_NOT_NATIVE("multiply %s is not native", mul.name);
  const bool one = g == K2_MUL_CONST && mul.aux == K2_AUX_ONE;

  // The native table, on (monoid, multiply, type).
  bool ok = false;
  const bool is_bool = (T == K2_T_BOOL), is_int = (T == K2_T_INT32 || T == K2_T_INT64);
  switch (m) {
    case K2_MON_PLUS:  // never BOOL here: PLUS_BOOL was renamed LOR
      ok = (g == K2_MUL_X || g == K2_MUL_CONST || g == K2_MUL_X_TIMES_W);
      break;
    case K2_MON_LOR:
      ok = is_bool && (g == K2_MUL_X || g == K2_MUL_CONST || g == K2_MUL_X_TIMES_W);
      break;
    case K2_MON_ANY:
      ok = (g == K2_MUL_X || g == K2_MUL_CONST || (is_bool && g == K2_MUL_X_TIMES_W) ||
            (is_int && g == K2_MUL_INDEX));
      break;
    default:  // MIN, MAX
      ok = !is_bool && (g == K2_MUL_X || (g == K2_MUL_CONST && !one) || g == K2_MUL_X_PLUS_W ||
                        (is_int && g == K2_MUL_INDEX));
      break;
  }
  if (!ok) K2_NOT_NATIVE("%s is not in the native table", c->name);

  c->native = true;
  c->type = T;
  c->grb_type = k2_type_grb(T);
  c->monoid = m;
  c->mult = g;
  c->const_one = one;
  c->index_base = g == K2_MUL_INDEX ? mul.aux : 0;
  c->reads_vec = (g == K2_MUL_X || g == K2_MUL_X_TIMES_W || g == K2_MUL_X_PLUS_W);
  return GrB_SUCCESS;
}

void k2_semiring_setup(k2_product *P, const k2_semiring_class *c, double weight) {
  double a = k2_cast_roundtrip(c->type, weight);  // the matrix value, typecast as GraphBLAS does
  P->type = c->type;
  P->monoid = c->monoid;
  P->mult = c->mult;
  P->index_base = c->index_base;
  P->w = 1;
  switch (c->mult) {
    case K2_MUL_CONST: P->w = c->const_one ? 1 : a; break;
    case K2_MUL_X_TIMES_W:
      // a == 1 (the usual unweighted graph): the plain copy is the cheaper kernel
      if (a == 1) P->mult = K2_MUL_X;
      else if (a == 0 && c->type == K2_T_BOOL) { P->mult = K2_MUL_CONST; P->w = 0; }
      else P->w = a;
      break;
    case K2_MUL_X_PLUS_W: P->w = a; break;
    default: break;
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
