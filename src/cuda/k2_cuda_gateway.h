// k2_cuda_gateway.h: the only header the C side includes to reach the CUDA engine.
// SPDX-License-Identifier: Apache-2.0
//
// Plain C (no GraphBLAS.h, no CUDA headers), so the core builds without nvcc: with CUDA off,
// k2_cuda_stub.c implements every call here (no device, every product declined).
//
// Life of a matrix on the device: the engine's state per matrix (k2_cuda_table.c) is the handle
// of its resident copy, made by k2_cuda_upload at the first GPU product (or K2_Matrix_upload)
// and kept in the matrix's CUDA slot, which frees it with k2_cuda_release. k2_cuda_product
// (declared in k2_kernels.h) runs on that handle; with none it uploads a temporary copy for
// that one product.
//
// Memory: a product holds the matrix copy (per matrix, resident), the scratch of its tile plan
// and the device copies of its vectors; the last two live in one engine-wide workspace that is
// reallocated to exactly what a product needs when it is too small (K2_Device_trim frees it).
// k2_cuda_product_bytes predicts all three before anything runs.
#ifndef K2_CUDA_GATEWAY_H
#define K2_CUDA_GATEWAY_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// k2_kernels.h is plain C without linkage guards: C linkage for its declarations here.
#include "engine/k2_kernels.h"

// Device configuration of one matrix (K2_DeviceConfig in include/k2grb/device.h).
#define K2_CUDA_CONFIG_AUTO (-1)  // BOTTOM if the view has bottom codes, else TREE
#define K2_CUDA_CONFIG_TREE 0     // tree + directory + top codes; scratch per product
#define K2_CUDA_CONFIG_BOTTOM 1 // also the Morton codes of the last internal level
#define K2_CUDA_CONFIG_ROWS 2     // the last internal level as 4x4 blocks in row order, alone
                                  // (src/matrix/k2_rows.h; 2x2 leaves only)

// Offsets source (K2_DeviceOffsets).
#define K2_CUDA_OFFSETS_AUTO 0       // directory for single vectors, scan for batches
#define K2_CUDA_OFFSETS_DIRECTORY 1
#define K2_CUDA_OFFSETS_SCAN 2

// Pruned traversal (K2_DevicePruning).
#define K2_CUDA_PRUNE_AUTO 0    // chosen per product from the input's and the mask's counts
#define K2_CUDA_PRUNE_NEVER 1   // always the full traversal
#define K2_CUDA_PRUNE_ALWAYS 2  // pruned whenever the product has an input presence or a mask

// Engine-wide settings.
typedef struct {
  uint64_t tile;      // M: at most this many children per tile (>= 16, <= 2^30; default 2^20)
  int offsets;        // K2_CUDA_OFFSETS_*
  uint64_t budget;    // bytes a product may hold on the device (matrix + scratch + vectors);
                      // 0 = no limit. A product over it is declined.
  bool graphs;        // record single-vector launch sequences as CUDA graphs (default true)
  bool fast_leaf;     // the specialised plus kernel for single vectors on floats (default
                      // true; false: the generic leaf kernel everywhere, for comparisons)
  bool fuse_levels;   // tree-only plans with directory offsets expand two levels per launch
                      // (the level between is staged in shared memory, never stored): fewer
                      // launches and less scratch (default true; false: one level per
                      // launch, for comparisons)
  int prune;          // K2_CUDA_PRUNE_*: whether single-vector products may take the traversal
                      // pruned by the input and the mask (default AUTO: by a cost estimate)
  int config;         // what an AUTO upload (lazy, or K2_Matrix_upload(A, AUTO)) becomes:
                      // K2_CUDA_CONFIG_AUTO (default: BOTTOM if the view caches its bottom codes
                      // codes, else TREE) or a configuration; ROWS falls back to the default
                      // rule for a tree it cannot hold (leaves other than 2x2)
} k2_cuda_settings;

void k2_cuda_settings_get(k2_cuda_settings *s);
// 0 or GrB_INVALID_VALUE (as int) for a tile outside [16, 2^30], a bad offsets value or a bad
// configuration.
int k2_cuda_settings_set(const k2_cuda_settings *s);

// 1 if a CUDA device is usable (first call initialises the runtime), else 0.
int k2_cuda_available(void);

// Copy the tree of A to the device in the given configuration; *device receives the handle.
// Returns 0, K2_DECLINED (no device, over budget, allocation failed: message recorded) or a
// GrB_Info error code (GrB_PANIC naming the CUDA call).
int k2_cuda_upload(const k2_view *A, int config, void **device);
// Free a handle from k2_cuda_upload (NULL is fine).
void k2_cuda_release(void *device);
// Configuration of a resident handle (K2_CUDA_CONFIG_TREE / _BOTTOM / _ROWS).
int k2_cuda_device_config(const void *device);
// The configuration an upload of A in `config` gets: config itself, or for K2_CUDA_CONFIG_AUTO
// the settings' default configuration (see k2_cuda_settings.config).
int k2_cuda_resolve_config(const k2_view *A, int config);

// Exact device bytes of a product, by part. P supplies type, batch, left and which of
// x_present / y_present / y_skip are non-NULL (the pointers are not read).
typedef struct {
  uint64_t matrix;   // resident copy of the tree (+ bottom codes in BOTTOM)
  uint64_t scratch;  // level buffers of the tile plan, scan offsets and CUB temporary
  uint64_t vectors;  // x, y and the presence / skip bytes
  uint64_t total;    // the sum
  uint64_t tiles;    // kernel launches of the traversal (tiles), for reports
} k2_cuda_bytes;
// device: A's resident handle or NULL; config K2_CUDA_CONFIG_AUTO: the handle's configuration
// if there is one, else as in upload. Returns 0, K2_DECLINED (no device) or an error code.
int k2_cuda_product_bytes(const k2_view *A, const void *device, int config, const k2_product *P,
                          k2_cuda_bytes *out);

// Device bytes held by the engine right now (matrices + workspace) and the peak since the last
// k2_cuda_reset_peak; counted at every cudaMalloc/cudaFree of the engine.
uint64_t k2_cuda_allocated_bytes(void);
uint64_t k2_cuda_peak_bytes(void);
void k2_cuda_reset_peak(void);
// Number of live device allocations of the engine (leak tests: back to the start value).
uint64_t k2_cuda_live_allocations(void);
// Free the shared workspace (scratch + vector buffers) and the recorded graphs' workspace use.
void k2_cuda_trim(void);

// ---- device-resident vectors (K2_DeviceVector, src/api/k2_device_vector.c) --------------------
// A vector on the device is its values (k2_type_size bytes each) and one presence byte per entry.
// Every call below works on the engine's stream and returns 0 or a GrB_Info code (as int), with
// K2_DECLINED when there is no device; the ones that return a number wait for it.

// A mask on the device: entry i allows output i when present[i] is nonzero and (structural, or
// its value, of `type`, is nonzero), negated by `complement`.
typedef struct {
  const uint8_t *present;
  const void *values;  // may be NULL when structural
  k2_type type;
  bool structural, complement;
} k2_cuda_mask;

// A product whose vectors are device pointers (x, x_present, y, y_present; y_present required),
// on the resident matrix `device`, for one vector. x_count: the present inputs (with x_present);
// y_allowed_known / y_allowed: the outputs the mask allows, when the caller knows them. The
// engine prunes or takes the full traversal by its cost estimate. A pruned traversal waits (its
// frontier may have overflowed) and sets *y_nvals to the present outputs; the full traversal
// does not wait and sets *y_nvals to K2_CUDA_NVALS_UNKNOWN (the caller counts when asked).
// P->y_skip is ignored: the mask comes as `mask` (NULL: none).
#define K2_CUDA_NVALS_UNKNOWN UINT64_MAX
int k2_cuda_product_resident(const k2_view *A, void *device, const k2_product *P,
                             const k2_cuda_mask *mask, uint64_t *y_nvals);
// Device memory through the engine's counters; NULL with a message when there is none.
void *k2_cuda_vector_alloc(uint64_t bytes);
void k2_cuda_vector_free(void *p, uint64_t bytes);
#define K2_CUDA_COPY_UP 0    // host to device
#define K2_CUDA_COPY_DOWN 1  // device to host
#define K2_CUDA_COPY_ON 2    // device to device
// A copy, waited for.
int k2_cuda_vector_copy(void *dst, const void *src, uint64_t bytes, int kind);
// memset on the device (not waited for: later calls on the stream see it).
int k2_cuda_vector_fill(void *p, int byte, uint64_t bytes);
// Where m[i] is nonzero: v[i] = w[i] and vp[i] = wp[i] (w != NULL), or v[i] = the scalar (ts
// bytes) and vp[i] = 1. Not waited for.
int k2_cuda_vector_assign(void *v, uint8_t *vp, const uint8_t *m, const void *w, const uint8_t *wp,
                          const void *scalar, uint32_t ts, uint64_t n);
// How many of p[0, n) are nonzero.
int k2_cuda_vector_count(const uint8_t *p, uint64_t n, uint64_t *count);
// The sum of the present values of x (type t): exact in *isum for BOOL and the integers, in
// *fsum (double) for the floats.
int k2_cuda_vector_sum(const void *x, const uint8_t *p, k2_type t, uint64_t n, int64_t *isum,
                       double *fsum);

// Element-wise operators of device vectors (K2_DeviceVector_eWiseAdd / eWiseMult / apply).
#define K2_CUDA_OP_PLUS 0
#define K2_CUDA_OP_MINUS 1
#define K2_CUDA_OP_TIMES 2
#define K2_CUDA_OP_DIV 3
#define K2_CUDA_OP_MIN 4
#define K2_CUDA_OP_MAX 5
#define K2_CUDA_UOP_IDENTITY 0
#define K2_CUDA_UOP_AINV 1
#define K2_CUDA_UOP_ABS 2
// z = x op y on type t (INT32, INT64, FP32, FP64) where x and y are both present, and with
// `add` where either is (the present one's value); z absent elsewhere. z may be x or y. Not
// waited for.
int k2_cuda_vector_ewise(void *z, uint8_t *zp, const void *x, const uint8_t *xp, const void *y,
                         const uint8_t *yp, k2_type t, int op, bool add, uint64_t n);
// z = op(x) where x is present, z absent elsewhere (z may be x). Not waited for.
int k2_cuda_vector_apply(void *z, uint8_t *zp, const void *x, const uint8_t *xp, k2_type t, int op,
                         uint64_t n);

// As k2_cuda_product_resident for a batch of P->batch vectors side by side (x and y row-major:
// entry (i, b) at i*B + b; the mask per pair), always with the full traversal (the pruned one
// is for single vectors); *y_nvals counts the present (index, vector) pairs. One wait.
int k2_cuda_product_resident_batch(const k2_view *A, void *device, const k2_product *P,
                                   const k2_cuda_mask *mask, uint64_t *y_nvals);
// A multi-source BFS whole on the device: dist (n x nsources int32, row-major, and its presence
// bytes dist_present; device pointers) = the level at which each source reaches each vertex, along
// the out-edges of the row-major adjacency when `left` (x' A per level), along the in-edges
// otherwise; absent where unreached. 1 to 64 sources (each < n) on a square matrix; K2_DECLINED
// otherwise or where the engine cannot (no device, row blocks). *reached = the entries. Waits
// once per level. dist is written in place: on a failure *reached is K2_CUDA_NVALS_UNKNOWN if
// dist was not touched (every check and allocation comes first), else 0 (dist emptied).
int k2_cuda_bfs_levels(const k2_view *A, void *device, bool left, const uint64_t *sources, uint32_t nsources,
                       int32_t *dist, uint8_t *dist_present, uint64_t *reached);
// The same search with its levels as one byte per (vertex, source) in the engine's workspace
// instead of dist (n x nsources bytes on the device, not 5 x that): after every 254 levels and at
// the end they come to the host, a chunk at a time, and each chunk is handed to span(ctx, levels,
// first, count, base): levels[k] is pair first + k of the row-major n x nsources result, byte
// 0xFF a pair not reached in that span, byte v the level base + v (a source's level 0 is byte 0
// of the first span, base 0); each pair is reached in one span only. `levels` is valid during
// the call only. *reached = the entries; on a failure K2_CUDA_NVALS_UNKNOWN where nothing ran,
// else 0 (the spans handed over are then incomplete).
typedef void (*k2_cuda_levels_span)(void *ctx, const uint8_t *levels, uint64_t first, uint64_t count, int32_t base);
int k2_cuda_bfs_levels_bytes(const k2_view *A, void *device, bool left, const uint64_t *sources, uint32_t nsources,
                             k2_cuda_levels_span span, void *ctx, uint64_t *reached);
// A single-source BFS whole on the device: level (level_bytes 4 or 8 per entry, and its
// presence; or NULL) = the edges on a shortest path from `source`, parent (parent_bytes 4 or 8,
// presence; or NULL) = a vertex before it on such a path (the source's own is itself); along the
// out-edges when `left`, the in-edges otherwise; absent where unreached. Each level one traversal,
// pruned where the estimate says so, and one wait. At most max_depth levels: *complete false
// where the search stopped there with vertices still to expand (the results then hold the
// vertices within max_depth edges). Written in place: on a failure *reached is
// K2_CUDA_NVALS_UNKNOWN if nothing was touched, else 0 (both results emptied). K2_DECLINED where
// the engine cannot (no device, row blocks, the budget).
int k2_cuda_bfs_one(const k2_view *A, void *device, bool left, uint64_t source, void *level, uint8_t *level_present,
                    uint32_t level_bytes, void *parent, uint8_t *parent_present, uint32_t parent_bytes,
                    uint64_t max_depth, bool *complete, uint64_t *reached);
// One level of the last k2_cuda_bfs_one, for the burble: its traversal (0 full, 1 pruned by the
// frontier, 2 by the unvisited vertices, 3 by both), the frontier it expanded, the vertices it
// found, the nodes a pruned traversal expanded, whether that overflowed its frontier (the level
// then runs again in full: a second entry), and the host's time from its launches to the end of
// its wait.
typedef struct {
  uint64_t frontier, found, expanded;
  double seconds;
  int mode;
  bool overflow;
} k2_cuda_bfs_level;
// The levels of the last k2_cuda_bfs_one (of any thread): the first cap into out; returns how
// many there were.
uint64_t k2_cuda_bfs_report(k2_cuda_bfs_level *out, uint64_t cap);
// PageRank's iterations whole on the device (as K2_Device_pagerank): rank (n floats and its
// presence, device pointers) from 1/n, each iteration t = rank, rank = teleport + (t ./ d)' A,
// until sum |t - rank| <= tol or itermax iterations; d (n floats, device) the scaled out-degrees,
// sink (presence bytes, device) the vertices without out-edges or NULL (no sink term). Waits once
// per iteration. *touched: whether rank was written (on a failure it is then left empty).
int k2_cuda_pagerank(const k2_view *A, void *device, const float *d, const uint8_t *sink, float damping, float tol,
                     int itermax, float *rank, uint8_t *rank_present, int *iters, float *rdiff, bool *touched);
// The nvals present entries of x (n values of ts bytes, presence xp; device pointers), ascending:
// their indices into list and values into vals (host arrays of nvals entries). One wait; an
// error if x holds another number of entries.
int k2_cuda_vector_list(const void *x, const uint8_t *xp, uint64_t n, uint32_t ts, uint64_t nvals, uint64_t *list,
                        void *vals);
// w[i] = u[I[i]] where I[i] is present (I of INT32 or INT64 values: index64), u[I[i]] is
// present and 0 <= I[i] < nu; w absent elsewhere (w must not be u: the caller writes a spare).
// Waits: *bad = the present indices outside [0, nu), *w_nvals = the entries of w.
int k2_cuda_vector_extract(void *w, uint8_t *wp, const void *u, const uint8_t *up, uint64_t nu,
                           const void *I, const uint8_t *Ip, bool index64, uint32_t ts, uint64_t n,
                           uint64_t *bad, uint64_t *w_nvals);

// Error glue for the .cu files: record a message as the thread's last error and return info.
int k2_cuda_fail(int info, const char *message);

#ifdef __cplusplus
}
#endif

#endif
