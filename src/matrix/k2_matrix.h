// k2_matrix.h: the K2_Matrix object behind the public handle (internal).
// SPDX-License-Identifier: Apache-2.0
//
// The object owns the tree arrays (or borrows them from a loaded .k2 image), the pending edits,
// and state derived from the tree in slots (k2_slot.h). The tree is
// read-only after assembly, so products from several threads only take `lock` to assemble
// pending edits or fill a cache.
#ifndef K2_MATRIX_H
#define K2_MATRIX_H

#include <pthread.h>

#include <k2grb.h>

#include "matrix/k2_leafc.h"
#include "matrix/k2_slot.h"
#include "matrix/k2_view.h"

#define K2_MAGIC_LIVE UINT64_C(0x6b32677262214c56)   // "k2grb!LV"
#define K2_MAGIC_FREED UINT64_C(0x6b32677262214652)  // "k2grb!FR"

// The tree arrays: everything a view points to. Owned (malloc) or borrowed (a loaded .k2 image).
typedef struct {
  uint64_t nrows, ncols, nvals;
  uint32_t side_log, levels, leaf_log;
  uint64_t n_internal, n_leaves;
  uint64_t *sig;            // ceil(n_internal / 16) words
  uint64_t *leaves;         // ceil(n_leaves * leaf_bits / 64) words; NULL when compressed
  // Compressed leaves (K2_Format.compress_leaves; k2_leafc.h): the one array of the vocabulary
  // and the codes, and the reader that points into it; NULL, 0 for plain leaves.
  uint64_t *leaf_codes;
  uint64_t leaf_code_words;
  k2_leafc lc;
  uint64_t *level_start;    // levels + 2
  // Full blocks (K2_Format.full_blocks; k2_view.h): whether signature 0 may mark a full node,
  // and how many nodes are so marked.
  bool full_blocks;
  uint64_t n_full;
  // The auxiliary arrays, sized from the tree by k2_tree_derive. Either may be absent (0
  // entries, NULL), which the view makes up for (k2_tree_view): without a directory a
  // first-child lookup counts from node 0, without top codes the traversals start at the root.
  uint32_t dir_log;
  uint64_t dir_len;         // stored samples: ceil(n_internal / 2^dir_log), or 0
  uint64_t *dir;            // k2_dir_words(dir_len, dir_lo != NULL) words (k2_view.h)
  uint16_t *dir_lo;         // compact directory: dir_len offsets; NULL: plain
  uint32_t top_level;       // 0 when no codes are stored
  uint64_t top_count;       // stored codes: the nodes of level top_level, or 0
  uint64_t *top_codes;
  uint64_t *bottom_codes; // NULL unless cached
  bool borrowed;            // sig, leaves (or leaf_codes), level_start point into `map`: not freed one by one
                            // (the derived arrays are always the tree's own)
  void *map;                // the loaded image, munmap'd at the end: a private copy or the
                            // mapped file when it cannot change (or NULL)
  size_t map_len;
} k2_tree;

typedef struct {
  uint64_t i, j;
  bool insert;  // true: setElement, false: removeElement
} k2_pending_edit;

// One slot (k2_slot.h): the state, published with release semantics, and its operations.
typedef struct {
  void *state;
  const k2_slot_ops *ops;
} k2_slot;

struct K2_Matrix_opaque {
  uint64_t magic;
  K2_Format fmt;
  double weight;            // edge weight (iso value)
  k2_tree tree;
  // pending edits, in call order
  k2_pending_edit *pending;
  uint64_t n_pending, cap_pending;
  // what the layers above derive from the tree, freed when it changes (src/matrix/k2_slot.c)
  pthread_mutex_t lock;
  k2_slot slots[K2_SLOT_COUNT];
  bool decoded_level;       // K2_Matrix_setDecodedLevel: not a format choice, never saved
  char error[256];          // last error on this object
};

// ---- tree arrays (src/matrix/k2_tree.c) ----------------------------------------------------

// Sizes in words of the arrays of a tree: the leaves as stored (the plain bitmaps, or the
// vocabulary and codes of compressed leaves).
uint64_t k2_tree_sig_words(const k2_tree *t);
uint64_t k2_tree_leaf_words(const k2_tree *t);
// Words of the plain bitmaps of n_leaves leaves of 4^leaf_log bits.
uint64_t k2_tree_plain_leaf_words(uint64_t n_leaves, uint32_t leaf_log);
// Free the arrays (or unmap) and zero the struct (shape kept).
void k2_tree_clear(k2_tree *t);
// Padded side exponent for a shape and leaf size: at least leaf_log + 1 (one internal level).
uint32_t k2_tree_side_log(uint64_t nrows, uint64_t ncols, uint32_t leaf_log);
// Bytes of the signatures and leaves: what the auxiliary arrays are sized against.
uint64_t k2_tree_core_bytes(const k2_tree *t);
// The auxiliary arrays get at most 1/K2_AUX_SHARE of the core bytes together when K2_Format
// leaves their sizes to the library (directory_log and top_max_log 0); the directory is never
// sampled more densely than every 2^K2_DIR_LOG_DENSEST nodes nor the top level deeper than
// 2^K2_TOP_LOG_DEEPEST nodes, the defaults of format version 1.
#define K2_AUX_SHARE 20
#define K2_DIR_LOG_DENSEST 8
#define K2_TOP_LOG_DEEPEST 16
// Bytes of a directory of `samples` samples, compact or plain.
uint64_t k2_dir_bytes(uint64_t samples, bool compact);
// The directory's sampling exponent and the top level k2_tree_derive picks (dir_len: samples
// it stores, 0 when one sample, the root's, is all there is; compact when dir_log <=
// K2_DIR_LO_MAX_LOG).
void k2_tree_aux_plan(const k2_tree *t, const K2_Format *fmt, uint32_t *dir_log, uint64_t *dir_len,
                      uint32_t *top_level);
// Directory, top codes and (when fmt caches them) the bottom codes from sig/leaves/level_start,
// as k2_tree_aux_plan sizes them. Allocates; on failure nothing derived is left.
GrB_Info k2_tree_derive(k2_tree *t, const K2_Format *fmt);
// Morton codes of every node of level `last` (levels: the leaves), in level order, computed in
// parallel level by level. *codes_out is malloc'd (at least one slot).
GrB_Info k2_tree_expand_codes(const k2_tree *t, uint32_t last, uint64_t **codes_out);
// The bottom codes (level levels - 1) of a tree with internal nodes, from its top codes
// (k2_tree_derive has made them).
GrB_Info k2_tree_bottom_codes(const k2_tree *t, uint64_t **codes_out);
// The same from the codes of level `from` (in level order) down to level `last` >= from: the
// bottom codes of a view that has only its top codes.
GrB_Info k2_codes_expand(const uint64_t *sig, const uint64_t *level_start, uint32_t from,
                         const uint64_t *from_codes, uint32_t last, uint64_t **codes_out);
// A view for the engines: an absent directory is one sample (the root's first child, 1), absent
// top codes are level 0 (the root's code, 0), so that engines always find both.
void k2_tree_view(k2_view *v, const k2_tree *t, double weight);
// Deep copy.
GrB_Info k2_tree_copy(k2_tree *dst, const k2_tree *src);
// Check every structural invariant (used after loading a file). Returns GrB_INVALID_OBJECT
// with a message naming the first violation.
GrB_Info k2_tree_check(const k2_tree *t);
// The same, writing the Morton codes of level levels-1 to bottom_out (one per node of that
// level; unless NULL) as the check's walk meets them: the bottom codes of a tree read without
// them, for the price of a store per node. bottom_out is complete only on success.
GrB_Info k2_tree_check_codes(const k2_tree *t, uint64_t *bottom_out);

// ---- compressed leaves (src/matrix/k2_leafc.c) ---------------------------------------------

// Encode the n_leaves bitmaps of `leaves` (plain packed, leaf_bits each): *words_out receives
// the array (malloc'd; NULL when there are no leaves), *n_words its length. OpenMP inside.
GrB_Info k2_leafc_encode(uint64_t **words_out, uint64_t *n_words, const uint64_t *leaves,
                         uint64_t n_leaves, uint32_t leaf_bits);
// Point c into an array whose header is trusted only as far as this checks it: against
// n_leaves, leaf_bits and n_words (GrB_INVALID_OBJECT naming the first mismatch). Reads nothing
// past the header before the sizes are known to fit.
GrB_Info k2_leafc_open(k2_leafc *c, const uint64_t *words, uint64_t n_words, uint64_t n_leaves,
                       uint32_t leaf_bits);
// Everything the readers rely on, for an array from outside: zero padding bits, the rank
// samples, each level's continuations against the next level's count, no empty pattern and
// every code below V (GrB_INVALID_OBJECT naming the first violation).
GrB_Info k2_leafc_check(const k2_leafc *c);
// Bytes of the vocabulary (the rest of the array is the codes and their header).
uint64_t k2_leafc_vocab_bytes(const k2_leafc *c);
// Turn the plain leaves of t into compressed ones (the plain array is freed), unless the codes
// would take as many words as the bitmaps or more: then t keeps its plain leaves.
GrB_Info k2_tree_compress_leaves(k2_tree *t);

// ---- full blocks (src/matrix/k2_full.c) ---------------------------------------------------

// One full node: its number, level and the origin of its block (row, column).
typedef struct {
  uint64_t node, row, col;
  uint32_t level;
} k2_full_node;
// Mark the full nodes of a plain tree (leaves plain, no derived arrays yet): every internal
// node whose block is all ones and whose parent is not gets signature 0 and loses its
// descendants. Sets t->full_blocks and t->n_full.
GrB_Info k2_tree_mark_full(k2_tree *t);
// The internal nodes with signature 0 (no check of t->full_blocks).
uint64_t k2_tree_count_full(const k2_tree *t);
// Entries (cells) of a full node of level lvl: 4^(side_log - lvl).
static inline uint64_t k2_full_area(uint32_t side_log, uint32_t lvl) {
  return UINT64_C(1) << (2 * (side_log - lvl));
}
// Every full node of v in level order (*out malloc'd, NULL when there are none).
GrB_Info k2_full_list(const k2_view *v, k2_full_node **out, uint64_t *n);
// The bytes of signatures and leaves the marks save: what the same tree takes expanded, minus
// what it takes marked (computed from the level sizes, no expansion).
uint64_t k2_full_saved_bytes(const k2_tree *t);
// Most bytes of signatures and leaves k2_tree_expand_full builds (16 GiB).
#define K2_FULL_EXPAND_MAX_BYTES (UINT64_C(1) << 34)
// *dst = the plain tree of src (its full nodes expanded to all-ones subtrees, leaves plain),
// with the derived arrays fmt asks for (fmt->full_blocks and compress_leaves ignored). Refuses
// (GrB_OUT_OF_MEMORY, saying why) when its signatures and leaves would exceed
// K2_FULL_EXPAND_MAX_BYTES.
GrB_Info k2_tree_expand_full(k2_tree *dst, const k2_tree *src, const K2_Format *fmt);

// ---- construction (src/matrix/k2_build.c) --------------------------------------------------

// Build the tree of the entries (I[k], J[k]) (32-bit indices, < nrows / ncols, unchecked).
GrB_Info k2_tree_build(k2_tree *t, uint64_t nrows, uint64_t ncols, const K2_Format *fmt,
                       const uint32_t *I, const uint32_t *J, uint64_t nvals);

// ---- the object (src/matrix/k2_matrix.c) ---------------------------------------------------
// Behind the public calls (src/api/k2_matrix_api.c), which check the arguments and the handle:
// every K2_Matrix here is a live one.

// Validate a handle: GrB_NULL_POINTER, GrB_UNINITIALIZED_OBJECT (freed/garbage) or success.
GrB_Info k2_matrix_check(K2_Matrix A, const char *where);
// The default tree format (2x2 leaves, a directory sample every 256 nodes, no bottom codes).
void k2_matrix_format_default(K2_Format *fmt);
// Allocate an empty object (fmt NULL: the default format; the format is checked).
GrB_Info k2_matrix_alloc(K2_Matrix *A, uint64_t nrows, uint64_t ncols, const K2_Format *fmt);
// Free a live object and everything derived from it.
void k2_matrix_free(K2_Matrix A);
// Replace A's entries by the pairs (I[k], J[k]), k < nvals (duplicates merged; pending edits
// dropped). A pair outside A is GrB_INVALID_INDEX, naming the first one; A is then unchanged.
GrB_Info k2_matrix_build_32(K2_Matrix A, const uint32_t *I, const uint32_t *J, uint64_t nvals);
GrB_Info k2_matrix_build_64(K2_Matrix A, const uint64_t *I, const uint64_t *J, uint64_t nvals);
// *C = a deep copy of A (pending edits assembled first); *C is written only on success.
GrB_Info k2_matrix_dup(K2_Matrix *C, K2_Matrix A);
// K2_Matrix_setBottomCodes after its checks.
GrB_Info k2_matrix_set_bottom_codes(K2_Matrix A, bool keep);
void k2_matrix_set_decoded_level(K2_Matrix A, bool keep);
// Queue an insertion or removal of (i, j) (in range, unchecked); `where` names the call in
// messages.
GrB_Info k2_matrix_queue(K2_Matrix A, uint64_t i, uint64_t j, bool insert, const char *where);
// Assemble pending edits (takes the lock). Every reader calls it first.
GrB_Info k2_matrix_wait(K2_Matrix A);
// Drop caches derived from the tree (after the tree changes).
void k2_matrix_invalidate(K2_Matrix A);
// The entries of an assembled A in row-major order as 64-bit indices (I or J may be NULL; room
// for nvals checked by the caller); *nvals receives their number.
GrB_Info k2_matrix_tuples_64(K2_Matrix A, GrB_Index *I, GrB_Index *J, GrB_Index *nvals);
// Same pattern and edge weight (A and B assembled).
GrB_Info k2_matrix_equal(bool *equal, K2_Matrix A, K2_Matrix B);
// Set the edge weight; a change drops the state derived from the weight.
void k2_matrix_set_weight(K2_Matrix A, double w);
// Bytes held by A, by part.
void k2_matrix_memory(K2_MemoryUsage *u, K2_Matrix A);

// The view of A's tree for code that reads plain trees of 2x2 leaves only (the CUDA engine):
// the tree's own when it is one, else the view of the same matrix as one (full blocks expanded
// by k2_tree_expand_full, larger or compressed leaves split into 2x2 leaves), made once and
// kept in a slot of A until the tree changes. Takes A's lock when it builds: not under it. The
// error of the expansion (out of memory, over K2_FULL_EXPAND_MAX_BYTES) otherwise.
GrB_Info k2_matrix_plain_view(K2_Matrix A, k2_view *v);

// Record an error on A and the thread; returns info.
#define K2_MATRIX_FAIL(A, info, ...) \
  return k2_error_set_obj(__FILE__, __LINE__, (A) ? (A)->error : NULL, sizeof((A)->error), (info), \
                          __VA_ARGS__)

// ---- slots (src/matrix/k2_slot.c) -----------------------------------------------------------

// The state in slot id, or NULL (readers take no lock).
void *k2_slot_get(K2_Matrix A, k2_slot_id id);
// The state in slot id ready for a use: when ready(state, arg) says it lacks something,
// build(&state, arg) creates or extends it under A's lock (one builder at a time; a new state
// is published for lock-free readers, an extended one publishes its new parts itself).
// Returns build's code (0 when nothing was built); *state receives the slot's state.
int k2_slot_build(K2_Matrix A, k2_slot_id id, const k2_slot_ops *ops,
                  bool (*ready)(const void *state, const void *arg),
                  int (*build)(void **state, const void *arg), const void *arg, void **state);
// Publish a state built outside the lock (by a product, say) unless the slot holds one
// already: the first wins and a later one is released. Returns the slot's state.
void *k2_slot_offer(K2_Matrix A, k2_slot_id id, const k2_slot_ops *ops, void *state);
// Free slot id (takes A's lock).
void k2_slot_drop(K2_Matrix A, k2_slot_id id);
// Free every slot, or those derived from the edge weight; the caller holds A's lock or owns A.
void k2_slots_drop(K2_Matrix A, bool weighted_only);
// Host bytes held by the slots.
uint64_t k2_slots_bytes(K2_Matrix A);
// C's slots get copies of A's states whose operations can copy them (C: a fresh copy of A's tree).
void k2_slots_copy(K2_Matrix C, K2_Matrix A);

#endif
