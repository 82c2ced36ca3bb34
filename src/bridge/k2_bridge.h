// k2_bridge.h: what the files of the GraphBLAS bridge share (internal): the materialized
// GrB_Matrix, the shared front end of the products, GrB_Vector inputs and masks as arrays,
// descriptors, domain checks and the vector products' workspace. The front door's settings
// and burble are in api/k2_api.h.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_BRIDGE_H
#define K2_BRIDGE_H

#include <k2grb.h>

#include "engine/k2_kernels.h"
#include "semiring/k2_semiring.h"

// The materialized GrB_Matrix of A (src/bridge/k2_grb_convert.c): the cached one, or with
// caching off a new one that the caller frees (*temporary = true). For a positional multiply
// (FIRSTI, ...) never hypersparse: SuiteSparse 7.4 computes the row index of a hypersparse
// matrix wrongly there (the position in the list of rows instead of the row).
GrB_Info k2_bridge_grb(GrB_Matrix *G, bool *temporary, K2_Matrix A, bool positional);

// The sparsity control for a matrix handed to SuiteSparse 7.4, which computes correctly with:
// bitmap or full when dense (some masked products on a dense matrix held as sparse storage never
// return), sparse otherwise, hypersparse only for a very sparse matrix of a huge dimension and
// never for a positional multiply (wrong answers there; a full valued mask crashes).
int k2_bridge_sparsity(GrB_Index nrows, GrB_Index ncols, GrB_Index nvals, bool positional);

// A caller's matrix in that storage: *out = M, or a copy (*temporary: the caller frees it).
// Costs a copy of M.
GrB_Info k2_bridge_conform(GrB_Matrix *out, bool *temporary, GrB_Matrix M, bool positional);

// GraphBLAS's domain checks of a product (src/bridge/k2_domains.c), for the products the
// bridge forms itself: the same call on objects of size 1 with these types (mtype NULL: no
// mask). kind 1: w, mask and u are vectors (mxv, or vxm with k2_second); kind 2: C, M and B
// are matrices (C = A*B, or B*A with k2_second). Success or GraphBLAS's code and message.
GrB_Info k2_bridge_check_domains(const char *fn, GrB_Type ctype, GrB_Type mtype,
                                 GrB_BinaryOp accum, GrB_Semiring s, GrB_Type atype,
                                 GrB_Type btype, int kind, GrB_Descriptor desc, bool k2_second);

// The vector products' reusable arrays (src/bridge/k2_workspace.c), the calling thread's own.
// Between calls x_present, y_present and y_skip are all zero; x, x_values, y and the lists hold
// anything. A call that leaves y_present otherwise (an engine wrote all of y, or failed)
// drops y with k2_workspace_drop_y.
typedef struct {
  uint64_t x_cap, y_cap;  // entries of the x and y arrays (values 8 bytes each)
  void *x, *x_values;     // dense input values; the extracted values of u, in list order
  uint8_t *x_present;
  uint64_t *x_list;       // the indices of u's entries
  void *y;
  uint8_t *y_present;
  uint64_t *y_list;       // the indices of the outputs, as an engine lists them
  uint8_t *y_skip;        // skip bytes a call sets at a mask's entries (all zero between calls)
} k2_workspace;
GrB_Info k2_workspace_get(k2_workspace **w, uint64_t nx, uint64_t ny);
void k2_workspace_drop_y(k2_workspace *w);
// y and y_present handed out as a dense result (the lists and skip bytes stay for the next call).
void k2_workspace_take_y(k2_workspace *w);
// A dense result's arrays back from the vector they went into (vbytes and pbytes their sizes):
// the calling thread's workspace takes them as its next y and y_present where it has none and
// they are large enough (no fresh pages to fault in: about 0.5 ms on 3·10^5 outputs), else
// they are freed.
void k2_workspace_recycle_y(void *values, uint64_t vbytes, uint8_t *present, uint64_t pbytes);
void k2_workspace_release(void);  // the calling thread's (K2_finalize)

// One product call as the bridge sees it (src/bridge/k2_call.c): K2_mxv, K2_vxm, K2_mxm and
// K2_mxm_right fill the first part, k2_bridge_call_check the rest. Vectors are n x 1 matrices, and
// in K2_vxm u and w enter as the rows u' and w' (1 x n).
typedef struct {
  const char *fn;
  bool vectors;          // w, mask and u are vectors (K2_mxv, K2_vxm); else matrices
  bool k2_first;         // the K2_Matrix is the multiply's first operand (K2_mxv, K2_mxm)
  GrB_Type ctype, mtype, btype;                       // output, mask, the other input
  GrB_Index crows, ccols, mrows, mcols, brows, bcols; // their shapes (as the product sees them)
  bool has_mask;
  GrB_Info binfo;        // what querying the other input gave (reported in GraphBLAS's order)
  // filled by k2_bridge_call_check
  GrB_Type ztype;        // the accumulator's output type, or NULL
  bool replace, comp, structure, tranA, tranB;
  bool left;             // the engines' direction: y' = x' A
  k2_semiring_class c;
  GrB_Index inner, batch, ylen;  // inner dimension; vectors of the batch and their length
  bool empty;            // nothing to compute: inner dimension 0, or C of 0 rows or columns
} k2_bridge_call;

// The checks every product makes after its output and mask, in GraphBLAS's order: accum,
// semiring, A, the other input, descriptor, dimensions. GrB_SUCCESS or the code and message.
GrB_Info k2_bridge_call_check(k2_bridge_call *call, GrB_BinaryOp accum, GrB_Semiring s, K2_Matrix A,
                           GrB_Descriptor desc);
// Why the product goes to SuiteSparse, in buf ("SEMIRING: reason"), or NULL: it runs on the
// engines. extra: a reason of the caller's own (B not full, say), or NULL.
const char *k2_bridge_call_fallback(const k2_bridge_call *call, const char *extra, char *buf,
                                 size_t len);
// The product with nothing to compute: GraphBLAS's domain checks on objects of size 1, then
// C<M> = accum (C, empty) (a vector passed as the GrB_Matrix it is).
GrB_Info k2_bridge_call_empty(const k2_bridge_call *call, GrB_Matrix C, GrB_Matrix M,
                           GrB_BinaryOp accum, GrB_Semiring s, K2_Matrix A, GrB_Descriptor desc);

// GrB_Matrix_extractTuples_<T> for the five engine types (GraphBLAS typecasts).
GrB_Info k2_bridge_matrix_extract(GrB_Index *I, GrB_Index *J, void *X, GrB_Index *n, GrB_Matrix B,
                               k2_type t);

// K2_mxm / K2_mxm_right with a B that misses entries (src/bridge/k2_mxm_sparse.c): B's entries
// scattered into the thread's workspace with the presence of each (index, vector) pair and
// the list of indices where any vector has one, the mask as skip bytes, and the engine's
// listed outputs packed as a hypersparse T; C<M> = accum (C, T). The call's checks are done
// and the product is native (c, batch, shapes in call).
GrB_Info k2_mxm_sparse(const k2_bridge_call *call, GrB_Matrix C, GrB_Matrix M, GrB_BinaryOp accum,
                       K2_Matrix A, GrB_Matrix B, GrB_Index bnv);

// The return of a public product: a failure that recorded no message gets one naming fn and
// the code (the entry point clears the message first). Returns info.
GrB_Info k2_bridge_done(const char *fn, GrB_Info info);

// The GrB_Type A materializes as: BOOL for weight 1, else FP64.
GrB_Type k2_bridge_grb_type(double weight);

// *out (GxB_Type_size bytes) = weight cast to a built-in type with GraphBLAS's own typecast;
// GrB_DOMAIN_MISMATCH for a user-defined type.
GrB_Info k2_bridge_cast_weight(void *out, GrB_Type type, double weight);

// The predefined descriptor with these output/mask settings and no transpose (NULL = default).
GrB_Descriptor k2_bridge_desc(bool replace, bool comp, bool structure);

// A new descriptor with these settings (the caller frees it), for calls that add their own.
GrB_Info k2_bridge_desc_full(GrB_Descriptor *d, bool replace, bool comp, bool structure,
                             bool tran0, bool tran1);

// Read replace / mask / transpose settings of a descriptor (NULL = defaults).
GrB_Info k2_bridge_desc_read(GrB_Descriptor desc, bool *replace, bool *comp, bool *structure,
                             bool *tran0, bool *tran1);

// *w = a new GrB_Vector of type t and size n >= 1 holding entry i where present[i] != 0, with
// values[i] (k2_type_size(t) bytes each; the rest is never read). The two malloc'd arrays of n
// entries move into *w (the pointers set to NULL) on success and stay the caller's on failure:
// O(1) after the count, for which nvals may be given (UINT64_MAX: counted here, O(n)).
GrB_Info k2_bridge_vector_from_bitmap(GrB_Vector *w, k2_type t, GrB_Index n, void **values,
                                   uint8_t **present, GrB_Index nvals);

// True for the eleven real built-in types (not complex, not user-defined).
bool k2_bridge_real_type(GrB_Type t);

// Vector u as a dense array of type t plus presence bytes (NULL when u is full). With
// values == false only the pattern is read (*x is zeros). Arrays are malloc'd, except with
// *borrowed: then they are u's own (full or bitmap u of type t), valid while u is unchanged,
// and must not be freed or written.
GrB_Info k2_bridge_vector_dense(void **x, uint8_t **present, bool *borrowed, GrB_Vector u,
                                k2_type t, bool values);

// u's entries (at most W->x_cap) into the workspace: their indices in W->x_list, ascending,
// their values (cast to t; with values false none) scattered into W->x, W->x_present set.
// *count entries. k2_bridge_vector_unscatter clears the presence bytes again.
GrB_Info k2_bridge_vector_scatter(k2_workspace *W, GrB_Vector u, k2_type t, bool values,
                               uint64_t *count);
void k2_bridge_vector_unscatter(k2_workspace *W, uint64_t count);

// The skip bytes of a mask without a copy, where it has them: a complemented structural mask
// held as a bitmap skips exactly its presence bytes (valid while the mask is unchanged).
// *allowed: how many entries it lets through. False: build them (k2_bridge_skip_from_mask).
bool k2_bridge_skip_borrow(const uint8_t **skip, uint64_t *allowed, GrB_Vector mask, GrB_Index n,
                        bool comp, bool structure);

// An engine's listed outputs (W->y_list[0, k), values in W->y) as the arrays of a sparse
// vector (malloc'd, for GxB_Vector_pack_CSC), without those skip marks; W->y_present is all
// zero again, even on failure.
GrB_Info k2_bridge_result_compact(k2_workspace *W, uint64_t k, const uint8_t *skip, k2_type t,
                               GrB_Index **I, void **X, uint64_t *nvals);

// A dense result's presence bytes [0, n) cleared where the skip bytes are set (the entries a
// mask excludes), so that with replace and no accumulator it moves into the output as it is.
void k2_bridge_presence_drop(uint8_t *present, const uint8_t *skip, uint64_t n);

// Bytes per entry, 1 = skip (masked out), from a mask of length n (NULL when nothing to skip);
// *allowed: how many entries it lets through.
GrB_Info k2_bridge_skip_from_mask(uint8_t **skip, uint64_t *allowed, GrB_Vector mask, GrB_Index n,
                               bool comp, bool structure);

#endif
