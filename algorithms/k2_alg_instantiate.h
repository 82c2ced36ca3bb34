// k2_alg_instantiate.h: an algorithm's two instances from its template (include after defining
// K2A_TEMPLATE as the template's file name): x##_grb over a GrB_Matrix, x##_k2 over a
// K2_Matrix (with K2A_DEVICE defined: a template may hand a whole run to the GPU there). No
// include guard: each algorithm's .c file includes it once.
// SPDX-License-Identifier: Apache-2.0
#include "k2_alg_internal.h"

#define K2A_GRAPH GrB_Matrix
#define K2A_NAME(x) x##_grb
#include K2A_TEMPLATE
#undef K2A_GRAPH
#undef K2A_NAME

#define K2A_GRAPH K2_Matrix
#define K2A_NAME(x) x##_k2
#define K2A_DEVICE 1  // the instance that may run whole on the GPU
#include K2A_TEMPLATE
#undef K2A_DEVICE
#undef K2A_GRAPH
#undef K2A_NAME
