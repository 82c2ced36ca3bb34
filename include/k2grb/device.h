// k2grb/device.h: the CUDA engine's settings (residency, configuration, memory budget). Its
// tuning knobs (tile size, offsets source, CUDA graphs, fused levels) are in experimental.h.
// SPDX-License-Identifier: Apache-2.0
//
// A matrix is copied to the GPU once (K2_Matrix_upload, or lazily by its first GPU product) and
// stays there until it is freed or changes. Every device byte of a product is known before it
// runs (K2_Matrix_deviceBytes): the resident matrix, the scratch of its tile plan and the
// device copies of the vectors. A product that would exceed the budget is declined: it runs on
// the CPU, or fails in strict mode (K2_set_strict). Without a CUDA build or a GPU every call
// here still answers: K2_Device_available says false and uploads return GrB_NOT_IMPLEMENTED.
#ifndef K2GRB_DEVICE_H
#define K2GRB_DEVICE_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

// How much of the traversal a matrix keeps on the device.
typedef enum {
  K2_DEVICE_AUTO = -1,     // the default configuration (K2_Device_setConfig); unless set,
                           // BOTTOM if the matrix's format caches the bottom codes or the last
                           // internal level fits in one tile (K2_Device_setTileSize), else TREE_ONLY
  K2_DEVICE_TREE_ONLY = 0, // tree + directory + top codes ("k²"); the scratch is per product
  K2_DEVICE_BOTTOM = 1,    // also the bottom codes, the Morton codes of the last internal level
                           // ("k²+B", 8 bytes per node of that level): a single-vector product
                           // is one kernel
  K2_DEVICE_ROWS = 2       // only the last internal level, decoded into its 4x4 blocks and
                           // sorted by block row ("k²+R", 10 bytes per node of that level, no
                           // tree on the device): right products sum each row in registers
                           // instead of one atomic per block; left products scatter to the
                           // columns. Trees with 2x2 leaves (the default) only; others decline.
} K2_DeviceConfig;

// true if the library was built with CUDA and a GPU is usable.
GrB_Info K2_Device_available(bool *present);

// Device bytes one product may hold (matrix + scratch + vectors); 0 = no limit (default).
GrB_Info K2_Device_setBudget(GrB_Index bytes);
GrB_Info K2_Device_getBudget(GrB_Index *bytes);
// The configuration a matrix gets when its first GPU product uploads it (or K2_Matrix_upload(A,
// K2_DEVICE_AUTO) does): K2_DEVICE_AUTO (the default: BOTTOM if the format caches the
// bottom codes or the last internal level fits in one tile, where a tree-only copy's scratch
// would hold those codes anyway; else TREE_ONLY) or a configuration. ROWS applies to trees with 2x2 leaves; others
// get the AUTO rule. Matrices already on the device keep their copy. The environment variable
// K2GRB_DEVICE_CONFIG (tree, bottom, rows or auto; "frontier", the old name of bottom, is
// still read) sets it at K2_init.
GrB_Info K2_Device_setConfig(K2_DeviceConfig config);
GrB_Info K2_Device_getConfig(K2_DeviceConfig *config);

// Copy A to the device in a configuration (replacing a copy in another configuration).
GrB_Info K2_Matrix_upload(K2_Matrix A, K2_DeviceConfig config);
// Drop A's device copy (the next GPU product uploads it again).
GrB_Info K2_Matrix_deviceRelease(K2_Matrix A);

// Flags of K2_Matrix_deviceBytes: which optional byte arrays the product carries.
#define K2_DEVICE_X_PRESENT 1u  // a sparse input vector (presence bytes)
#define K2_DEVICE_Y_PRESENT 2u  // the output's presence bytes
#define K2_DEVICE_Y_SKIP 4u     // a mask (rows not needed)

typedef struct {
  uint64_t matrix;   // the resident copy of A
  uint64_t scratch;  // level buffers, scan offsets and CUB temporary of the tile plan
  uint64_t vectors;  // x, y (batch columns each) and the flagged byte arrays
  uint64_t total;    // matrix + scratch + vectors
  uint64_t tiles;    // launches of the traversal (after the initialisation of y)
} K2_DeviceBytes;

// The exact device bytes of one product of A, before it runs: configuration, value type
// (GrB_BOOL, GrB_INT32, GrB_INT64, GrB_FP32, GrB_FP64), batch width B (1..256), right (y = A x)
// or left (y' = x' A), flags as above. Uses the current tile size, offsets source and fusion
// (experimental.h).
GrB_Info K2_Matrix_deviceBytes(K2_DeviceBytes *bytes, K2_Matrix A, K2_DeviceConfig config,
                               GrB_Type type, GrB_Index batch, bool left, unsigned flags);

// What the engine holds on the device now (resident matrices + the shared workspace), the peak
// since K2_Device_resetPeak, and the number of live allocations (0 once all is freed).
typedef struct {
  uint64_t allocated;
  uint64_t peak;
  uint64_t allocations;
} K2_DeviceMemory;
GrB_Info K2_Device_memory(K2_DeviceMemory *memory);
GrB_Info K2_Device_resetPeak(void);
// Free the shared workspace (scratch and vector buffers; the next product allocates it again).
GrB_Info K2_Device_trim(void);

// ---- device-resident vectors ------------------------------------------------------------------
// A vector that lives on the GPU (values and one presence byte per entry), for loops that keep
// their state on the device between products: a BFS's frontier, visited set, levels and parents
// never travel to the host; each product returns only its count of entries. The operations are
// the few such loops need; a GrB_Vector goes in or out with one copy (import / export). Without
// a GPU (or a CUDA build) K2_DeviceVector_new returns GrB_NOT_IMPLEMENTED.
typedef struct K2_DeviceVector_opaque *K2_DeviceVector;

// A vector of n entries of type (GrB_BOOL, GrB_INT32, GrB_INT64, GrB_FP32 or GrB_FP64), empty.
GrB_Info K2_DeviceVector_new(K2_DeviceVector *v, GrB_Type type, GrB_Index n);
GrB_Info K2_DeviceVector_free(K2_DeviceVector *v);
GrB_Info K2_DeviceVector_size(GrB_Index *n, const K2_DeviceVector v);
// Entries present: known on the host after a product, a clear or a full assignment; otherwise
// counted on the device (one wait).
GrB_Info K2_DeviceVector_nvals(GrB_Index *nvals, const K2_DeviceVector v);
GrB_Info K2_DeviceVector_clear(K2_DeviceVector v);
// v(i) = x, cast to v's type as GraphBLAS casts.
GrB_Info K2_DeviceVector_setElement_INT64(K2_DeviceVector v, int64_t x, GrB_Index i);
GrB_Info K2_DeviceVector_setElement_FP64(K2_DeviceVector v, double x, GrB_Index i);
// v = u: the entries of a GrB_Vector of the same size and type, one copy to the device.
GrB_Info K2_DeviceVector_import(K2_DeviceVector v, GrB_Vector u);
// *u = a new GrB_Vector with v's type and entries, one copy from the device.
GrB_Info K2_DeviceVector_export(GrB_Vector *u, const K2_DeviceVector v);
// v<s(m)> = w (GrB_assign with a structural mask, no accumulator): where m has an entry, v
// takes w's entry, or loses its own where w has none. m NULL: everywhere (v = w).
GrB_Info K2_DeviceVector_assign(K2_DeviceVector v, const K2_DeviceVector m, const K2_DeviceVector w);
// v<s(m)> = x (m NULL: every entry).
GrB_Info K2_DeviceVector_assign_INT64(K2_DeviceVector v, const K2_DeviceVector m, int64_t x);
GrB_Info K2_DeviceVector_assign_FP64(K2_DeviceVector v, const K2_DeviceVector m, double x);
// w = u op v where both have an entry (eWiseMult) or where either has (eWiseAdd: the one
// entry), as GrB_eWiseMult / GrB_eWiseAdd without mask or accumulator; w may be u or v. op:
// PLUS, MINUS, TIMES, DIV (floats only), MIN or MAX of the vectors' type (INT32, INT64, FP32,
// FP64), all three vectors of that type.
GrB_Info K2_DeviceVector_eWiseAdd(K2_DeviceVector w, const GrB_BinaryOp op, const K2_DeviceVector u,
                                  const K2_DeviceVector v);
GrB_Info K2_DeviceVector_eWiseMult(K2_DeviceVector w, const GrB_BinaryOp op, const K2_DeviceVector u,
                                   const K2_DeviceVector v);
// w = op(u) (GrB_apply): IDENTITY, AINV or ABS of the vectors' type.
GrB_Info K2_DeviceVector_apply(K2_DeviceVector w, const GrB_UnaryOp op, const K2_DeviceVector u);
// w = u(I) (GrB_Vector_extract with the indices in a vector, as GxB_Vector_extract_Vector):
// w(k) = u(I(k)) where I(k) is present and u has that entry, no entry elsewhere. I is INT32 or
// INT64 of w's size, u of w's type and any size; w may be u or I. GrB_INDEX_OUT_OF_BOUNDS
// (w unchanged) if a present I(k) is outside 0 .. size(u)-1. Waits (the entry count comes back).
GrB_Info K2_DeviceVector_extract(K2_DeviceVector w, const K2_DeviceVector u, const K2_DeviceVector I);
// The sum of v's entries (exact for BOOL and the integers).
GrB_Info K2_DeviceVector_reduce_INT64(int64_t *sum, const K2_DeviceVector v);
GrB_Info K2_DeviceVector_reduce_FP64(double *sum, const K2_DeviceVector v);

// w<mask> = A u and w'<mask> = u' A on device vectors: GrB_mxv / GrB_vxm without an
// accumulator, for the semirings the engines run natively (others: GrB_NOT_IMPLEMENTED, naming
// the reason). w and u have the semiring's type (device vectors are not typecast). The descriptor's mask settings (structure, complement) and the transpose of A are
// honoured; a mask requires GrB_REPLACE (the result replaces w). w may be u or the mask. A is
// uploaded at its first such product (K2_Matrix_upload). w is unchanged on any error. A product
// that prunes the tree waits for it (and knows w's entry count); one that traverses it whole
// does not wait, and w's entries are counted when asked (K2_DeviceVector_nvals).
GrB_Info K2_mxv_device(K2_DeviceVector w, const K2_DeviceVector mask, const GrB_Semiring semiring,
                       const K2_Matrix A, const K2_DeviceVector u, const GrB_Descriptor desc);
GrB_Info K2_vxm_device(K2_DeviceVector w, const K2_DeviceVector mask, const GrB_Semiring semiring,
                       const K2_DeviceVector u, const K2_Matrix A, const GrB_Descriptor desc);

// ---- batches: several device vectors side by side ---------------------------------------------
// A batch of `width` vectors of n entries each, the columns of an n x width matrix, for products
// with many right-hand sides (a multi-source BFS's frontiers): K2_mxm_device runs one traversal
// of A for all of them. Stored row by row (entry (i, b) after the `width` entries of row i-1),
// GraphBLAS's BitmapR layout. Every element-wise call above (clear, nvals, assign, eWiseAdd /
// Mult, apply, reduce) takes batches entry by entry, all operands of the same size and width;
// K2_DeviceVector_size gives n. setElement, import, export, extract, K2_mxv_device and
// K2_vxm_device take plain vectors (width 1) only.
#define K2_DEVICE_BATCH_MAX 256
GrB_Info K2_DeviceVector_newBatch(K2_DeviceVector *v, GrB_Type type, GrB_Index n, GrB_Index width);
GrB_Info K2_DeviceVector_width(GrB_Index *width, const K2_DeviceVector v);
// v = U, an n x width GrB_Matrix of v's type (one copy to the device); *U = a new n x width
// GrB_Matrix with v's entries (one copy from the device).
GrB_Info K2_DeviceVector_importMatrix(K2_DeviceVector v, GrB_Matrix U);
GrB_Info K2_DeviceVector_exportMatrix(GrB_Matrix *U, const K2_DeviceVector v);
// C<mask> = A B (GrB_mxm with A a K2_Matrix and B, C and the mask batches of one width), as
// K2_mxv_device for each vector: GrB_INP0 transposes A (C = A' B, a left product of the same
// tree); B is not transposed. The traversal is always the full one; the product waits once and
// knows C's entry count.
GrB_Info K2_mxm_device(K2_DeviceVector C, const K2_DeviceVector mask, const GrB_Semiring semiring,
                       const K2_Matrix A, const K2_DeviceVector B, const GrB_Descriptor desc);

// The levels of a multi-source BFS, whole on the device: dist(i, b) = the number of edges on a
// shortest path from sources[b] to i, absent where sources[b] does not reach i; dist an INT32
// batch of n x nsources, A square (n x n). With GrB_INP0 transposed (GrB_DESC_T0) the paths
// follow A's out-edges (i -> j where A(i, j)), otherwise its in-edges. The frontiers and visited
// sets are words of bits, one bit per source: 1 to 64 sources (GrB_NOT_IMPLEMENTED for more, or
// where the device cannot run it: K2_mxm_device per level is the general way). One traversal,
// one kernel and one wait per level. dist is written in place (no second n x nsources copy on
// the device): it is unchanged by an argument error, a decline or a lack of device memory, and
// left empty by a device fault during the run.
GrB_Info K2_Device_bfsLevels(K2_DeviceVector dist, K2_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                             const GrB_Descriptor desc);
// The same search with its result on the host: *dist = a new n x nsources INT32 GrB_Matrix of
// the levels. On the device the levels take one byte per (vertex, source) instead of a batch's
// five (an INT32 and its presence), so the search needs 24 + nsources bytes per vertex beside
// the tree; every 254 levels, and at the end, those bytes come back and are cleared (a search of
// L levels copies n x nsources bytes ceil(L / 254) times). Arguments as K2_Device_bfsLevels;
// *dist is unchanged by any failure.
GrB_Info K2_Device_bfsLevelsMatrix(GrB_Matrix *dist, K2_Matrix A, const GrB_Index *sources, GrB_Index nsources,
                                   const GrB_Descriptor desc);

// A BFS from one vertex, whole on the device (LAGraph's BFS: levels and parents): level(i) = the
// number of edges on a shortest path from source to i, parent(i) = the vertex before i on one
// such path (any of them: results are valid, not unique), parent(source) = source; absent where
// source does not reach i. Either result may be NULL (not both); each is a plain INT32 or INT64
// vector of A's size. With GrB_INP0 transposed (GrB_DESC_T0) the paths follow A's out-edges,
// otherwise its in-edges. Per level one traversal of the tree, pruned by the frontier, by the
// vertices not yet reached, or both where that costs less, and one wait. The results are written
// in place: unchanged by an argument error, a decline (GrB_NOT_IMPLEMENTED: no device, the row-
// block configuration) or a lack of device memory, left empty by a device fault during the run.
GrB_Info K2_Device_bfs(K2_DeviceVector level, K2_DeviceVector parent, K2_Matrix A, GrB_Index source,
                       const GrB_Descriptor desc);
// The same search, at most `depth` levels: level and parent hold the vertices within depth edges
// of the source (a k-hop neighbourhood), and *complete says whether the search ended by itself
// (false: it stopped with vertices at distance depth whose edges it did not follow, so there
// may be more). Arguments and failures as K2_Device_bfs; GrB_NULL_POINTER where complete is NULL.
GrB_Info K2_Device_bfsWithin(K2_DeviceVector level, K2_DeviceVector parent, K2_Matrix A, GrB_Index source,
                             GrB_Index depth, bool *complete, const GrB_Descriptor desc);

// PageRank's iterations whole on the device (LAGraph's model: LAGr_PageRank; with sinks NULL,
// GAP's): rank (FP32, n) starts at 1/n and each iteration sets t = rank and
//   rank = teleport + (t ./ d)' A,  teleport = (1 - damping)/n + damping/n * sum of t over sinks,
// until sum |t - rank| <= tol or itermax iterations; *iters and *rdiff (the last change) say
// which. d (FP32, full) is the out-degrees scaled as the caller's model wants (LAGraph: max(out-
// degree / damping, 1 / damping)); sinks (any type: its structure) the vertices without out-edges. A is
// square. One recorded CUDA graph per iteration and one wait, for the change. rank is written in
// place: unchanged by an argument error or a decline (GrB_NOT_IMPLEMENTED: no device, the row
// blocks), left empty by a device fault during the run. Convergence is the caller's to judge.
GrB_Info K2_Device_pagerank(K2_DeviceVector rank, K2_Matrix A, const K2_DeviceVector d, const K2_DeviceVector sinks,
                            float damping, float tol, int itermax, int *iters, float *rdiff);

// Whether products of A run on the GPU under the current engine choice: the CUDA engine chosen
// and a device present, or AUTO with a device and A large enough that a full product costs the
// host more than one call to the device. Algorithms use it to keep a whole run on the device.
GrB_Info K2_Matrix_deviceServes(bool *serves, K2_Matrix A);

#endif
