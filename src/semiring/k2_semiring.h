// k2_semiring.h: map a GrB_Semiring onto the native product of the engines (internal).
// SPDX-License-Identifier: Apache-2.0
//
// A is Boolean with one edge weight, so a product is native when the multiply reads only the
// vector value, the (constant) matrix value or the vector index, and the monoid is one the
// engines fold. Semirings are decomposed (monoid operator, identity, terminal, multiply) rather
// than compared by pointer, so user-created copies of supported semirings (LAGraph's) are
// recognised; Boolean renames and FIRST/SECOND under vxm's operand swap are normalised first.
#ifndef K2_SEMIRING_H
#define K2_SEMIRING_H

#include <k2grb.h>

#include "engine/k2_kernels.h"

typedef struct {
  bool native;
  k2_type type;        // the monoid's (= multiply's output) type
  GrB_Type grb_type;   // the same as a GrB_Type
  k2_monoid monoid;
  k2_mult mult;        // what the engines compute (the multiply with vxm's operands swapped)
  bool const_one;      // K2_MUL_CONST: the constant is 1 (PAIR), not the edge weight
  int64_t index_base;  // K2_MUL_INDEX: 0 or 1
  bool reads_vec;      // the multiply reads u's values (else only u's pattern matters)
  char name[64];       // e.g. "PLUS_SECOND_FP32" (normalised form)
  char why[192];       // when not native: the reason
} k2_semiring_class;

// Classify s for a product where the matrix is the multiply's first operand (mxv) or second
// (vxm). Returns GrB_NULL_POINTER / GrB_UNINITIALIZED_OBJECT for a bad semiring (as
// GraphBLAS); success otherwise, with c->native telling whether the engines can run it.
GrB_Info k2_semiring_classify(k2_semiring_class *c, GrB_Semiring s, bool matrix_first);

// True when the semiring's multiply is a positional operator (FIRSTI, SECONDJ1, ...): its
// value is an index of the entries it multiplies, not their values.
bool k2_semiring_positional(GrB_Semiring s);

// Fill type, monoid, mult, w and index_base of P for a native class and the matrix's edge
// weight (cast to the semiring's type with GraphBLAS's typecasting rules).
void k2_semiring_setup(k2_product *P, const k2_semiring_class *c, double weight);

// The monoid an operator computes when it is PLUS, MIN or MAX of type t (an accumulator the
// API can apply itself); false for any other operator or type.
bool k2_semiring_accum_monoid(GrB_BinaryOp op, k2_type t, k2_monoid *m);

// The GrB_Type of a k2_type and back (-1 if the type is not one of the five).
GrB_Type k2_type_grb(k2_type t);
int k2_type_from_grb(GrB_Type t);
const char *k2_type_name(k2_type t);
// The identity operator of a type (GrB_IDENTITY_<T>).
GrB_UnaryOp k2_type_identity_op(k2_type t);

// GraphBLAS typecast of a double to a type, stored in *out (k2_type_size bytes).
void k2_cast_double(void *out, k2_type t, double v);

#endif
