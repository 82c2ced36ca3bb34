// k2_kernels.h: the product kernel, declared once for every engine.
// SPDX-License-Identifier: Apache-2.0
//
// One product description covers every native semiring: A is Boolean with one edge weight w,
// so the multiply of an entry A(r,c) with a vector entry x_s (s = c for a right product, r for
// a left one) only depends on x_s, w and s. The monoid folds the contributions into y.
// The bridge (src/bridge) maps GraphBLAS semirings, types and masks onto this; the engines
// (src/cpu reference and OpenMP, src/cuda) implement it with identical results (bit-exact except
// the order of floating-point sums). Plain C: the CUDA gateway includes it.
#ifndef K2_KERNELS_H
#define K2_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "matrix/k2_view.h"

// Value type of x and y (the semiring's type; the caller typecasts). BOOL is one byte, 0 or 1.
typedef enum { K2_T_BOOL = 0, K2_T_INT32, K2_T_INT64, K2_T_FP32, K2_T_FP64, K2_T_COUNT } k2_type;

typedef enum {
  K2_MON_PLUS = 0,
  K2_MON_MIN,
  K2_MON_MAX,
  K2_MON_LOR,  // BOOL only
  K2_MON_ANY,  // any one contribution (engines may pick any; results are checked for validity)
  K2_MON_COUNT
} k2_monoid;

typedef enum {
  K2_MUL_X = 0,      // x_s            (SECOND in mxv, FIRST in vxm, LAND on BOOL with w true)
  K2_MUL_X_TIMES_W,  // x_s * w        (TIMES)
  K2_MUL_X_PLUS_W,   // x_s + w        (PLUS: the tropical semiring, w = edge length)
  K2_MUL_CONST,      // w              (PAIR/ONEB with w = 1; FIRST in mxv: the edge weight)
  K2_MUL_INDEX,      // s + index_base (SECONDI, FIRSTJ: base 0; SECONDI1: base 1)
  K2_MUL_COUNT
} k2_mult;

typedef struct {
  k2_type type;
  k2_monoid monoid;
  k2_mult mult;
  double w;                  // the constant of the multiply, cast to `type` by the engine
  int64_t index_base;        // for K2_MUL_INDEX
  bool left;                 // false: y = A x (y has nrows), true: y' = x' A (y has ncols)
  uint32_t batch;            // B >= 1 vectors; X and Y are row-major (entry i of vector b at i*B+b)
  const void *x;             // input, (left ? nrows : ncols) * B values of `type`
  const uint8_t *x_present;  // NULL (all present) or one byte per x value: nonzero = present
  void *y;                   // output, (left ? ncols : nrows) * B values, set by the engine:
                             // monoid identity where nothing contributes
  uint8_t *y_present;        // NULL or one byte per y value, set to 1 iff something contributed
  const uint8_t *y_skip;     // NULL or one byte per y value: nonzero = not needed (masked out);
                             // engines may leave such entries at the identity / absent
  // Sparse forms (each optional; an engine that does not use them ignores them). For a batch
  // (B > 1) the lists hold indices, not (index, vector) pairs: an index is listed when any of
  // its B vectors has the entry, and x_present / y_present / y_skip still say which pairs.
  const uint64_t *x_list;    // NULL, or the indices of the present x entries, ascending
  uint64_t x_count;          //   (x_count of them; x_present is given too and agrees)
  bool y_allowed_known;      // with y_skip: y_allowed = how many y values (pairs) are not skipped
  uint64_t y_allowed;
  uint64_t *y_list;          // NULL, or room for every y index: the caller then passes y_present
  uint64_t *y_count;         //   all zero, and the engine either lists the y indices with a
                             //   present value here, ascending, writing y and y_present only
                             //   at them (all B values of a listed index) (*y_count = how
                             //   many), or writes all of y and y_present as without a list
                             //   (*y_count = K2_Y_DENSE)
  struct k2_product_report *report;  // NULL, or where the engine says how it traversed
  struct k2_product_timing *timing;  // NULL (no clock read, no extra wait), or where dispatch
                                     // and the engine add the seconds of their steps
} k2_product;

#define K2_Y_DENSE UINT64_MAX

// How an engine traversed the tree (for the burble): the whole tree, or pruned by the input's
// list, by the mask's allowed outputs, or by both, with the lengths of the lists and the
// internal nodes it expanded.
typedef struct k2_product_report {
  const char *traversal;     // static string; NULL: the engine did not say
  uint64_t inputs, outputs;  // list lengths (0: that side was not pruned)
  uint64_t expanded;
  double estimate;           // the nodes the engine expected to visit (0: no estimate made)
  uint64_t nodes;            // the tree's nodes
} k2_product_report;

// Where a profiled product's time went below the API (K2_Profile, src/api/k2_profile.c), in
// seconds of k2_clock_now, added to what the fields hold. The steps are disjoint spans of the
// dispatch call, so the caller may add them up.
typedef struct k2_product_timing {
  double plan;           // dispatch: pending edits, the engine's choice and per-matrix state (on
                         // a first GPU product the tree's upload); CUDA: plans and workspace
  double h2d, d2h;       // CUDA: the copies to and from the device, waited for
  double kernel;         // a CPU engine's product; CUDA: the kernels, launch to completion
  double kernel_device;  // CUDA, part of kernel: the device's own time between two events
  bool device;           // the engine timed its own steps (the CUDA engine sets it; dispatch
                         // clears it before each engine it tries and otherwise times the
                         // engine's whole product as kernel)
} k2_product_timing;

// Size in bytes of one value of a type.
static inline uint32_t k2_type_size(k2_type t) {
  static const uint32_t size[K2_T_COUNT] = {1, 4, 8, 4, 8};
  return size[t];
}

// Engines return GrB_Info values (as int, to keep this header free of GraphBLAS.h):
// 0 on success, K2_DECLINED when the engine cannot run this product (the dispatcher tries the
// next engine), or a GrB_Info error code.
#define K2_DECLINED 7101

// Every engine implements exactly this signature. `state` is the engine's per-matrix state
// (k2_engine.h), or NULL: an engine then works without it (the reference engine has none).
#define K2_DECLARE_PRODUCT(engine) \
  int k2_##engine##_product(const k2_view *A, void *state, const k2_product *P)

K2_DECLARE_PRODUCT(ref);   // src/cpu: sequential, obviously correct; the oracle
K2_DECLARE_PRODUCT(omp);   // src/cpu: OpenMP, the fast CPU path
K2_DECLARE_PRODUCT(cuda);  // src/cuda (via k2_cuda_gateway.h); declines without a device

// How many of flag[0, n) are nonzero (presence or skip bytes; eight at a time past zero words).
uint64_t k2_flags_count(const uint8_t *flag, uint64_t n);

// The nodes of levels from .. levels-1 that a traversal pruned by k_in present inputs and k_out
// allowed outputs can visit at most: at level t at most min(k, 2^t) of the 2^t stripes of an
// axis hold one of k indices. O(levels), from the counts alone (k = the axis's length: that
// side is not pruned).
double k2_product_visits_bound(const k2_view *A, uint32_t from, uint64_t k_in, uint64_t k_out);

// Checks shared by all engines: supported (type, monoid, mult) combination. Returns true if
// the combination is meaningful (e.g. LOR only on BOOL, INDEX not on BOOL).
bool k2_product_supported(const k2_product *P);

#endif
