// k2grb/matrix.h: the K2_Matrix object (a Boolean matrix stored as a k²-tree).
// SPDX-License-Identifier: Apache-2.0
//
// A K2_Matrix is an opaque handle. Its pattern is a Boolean matrix of up to 2^32 x 2^32; every
// entry carries the same value, the matrix's edge weight (an iso value, 1 by default). The tree
// is immutable once assembled: setElement/removeElement queue pending edits that the next
// operation assembles, as GraphBLAS does with pending tuples.
#ifndef K2GRB_MATRIX_H
#define K2GRB_MATRIX_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

typedef struct K2_Matrix_opaque *K2_Matrix;

// Largest dimension: row and column indices must fit in 32 bits (64-bit Morton codes).
#define K2_INDEX_MAX ((GrB_Index)1 << 32)

//==============================================================================================
// library
//==============================================================================================

// Initialize k2grb (and SuiteSparse:GraphBLAS in non-blocking mode if the caller has not).
// Safe to call more than once; K2_finalize undoes the last call.
GrB_Info K2_init(void);
GrB_Info K2_finalize(void);
// The version of the library the program runs with (K2GRB_VERSION_* in k2grb/version.h are
// those of the headers it was compiled with). Any argument may be NULL. Needs no K2_init.
GrB_Info K2_version(int *major, int *minor, int *patch);

// Last error message of the library (thread-local; never NULL). Messages are written for
// users: what was wrong, naming the argument or the file and line of the input; the code is
// the GrB_Info the call returned, never part of the message.
const char *K2_error_string(void);
// Forget the calling thread's last message (K2_error_string() is then ""). A caller that
// reports a failure of a sequence of calls, some of them to GraphBLAS (which leaves the message
// alone), clears it first so that the message it shows belongs to that failure.
void K2_error_clear(void);
// The name of a GrB_Info code of SuiteSparse:GraphBLAS 7.4 ("GrB_OUT_OF_MEMORY", "GxB_EXHAUSTED",
// ...): a static string. Any other value gives "unknown GrB_Info N", in a buffer of the
// calling thread kept until its next call with an unknown value.
const char *K2_info_name(GrB_Info info);

//==============================================================================================
// format options, fixed when a tree is built
//==============================================================================================

typedef struct {
  uint32_t leaf_log;        // leaves are 2^leaf_log x 2^leaf_log cells: 1 (2x2), 2 (4x4), 3 (8x8).
                            // The CUDA engine holds every tree with 2x2 leaves (larger ones
                            // split once, kept in K2_Matrix_memoryUsage's cache): its products
                            // from 4x4 leaves took 1.2-3.4x longer (docs/benchmarks.md)
  uint32_t directory_log;   // 0 (default): the directory of first-child offsets sized from the
                            // tree; 4..30: a sample every 2^directory_log internal nodes
  uint32_t top_max_log;     // 0 (default): the top level sized from the tree; 1..30: the
                            // deepest level with at most 2^top_max_log nodes
                            // Sized from the tree, the directory and the top level's Morton
                            // codes take at most 5% of the bytes of the signatures and leaves
                            // together: a sample every 256 nodes where it fits in 2.5% (16-bit
                            // offsets between 64-bit samples, about 2% of the signatures), and
                            // the deepest level whose codes fit in the rest, 2^16 nodes at most.
                            // A tree too small for a word gets none: lookups then count from the
                            // root. Explicit values are kept whatever they cost.
  bool cache_bottom_codes;  // keep the bottom codes, the Morton codes of the last internal
                            // level, the parents of the leaves (k²+B): 8 bytes per
                            // node of that level (about 3x the tree on web graphs); products skip
                            // the descent. With 2x2 leaves the OpenMP engine's first plus product
                            // also decodes that level (8 more bytes per node, in
                            // K2_Matrix_memoryUsage's cache). Measured: GPU right products
                            // 1.7-3.8x faster, OpenMP right products 2-4x faster on cnr-2000,
                            // uk-2007-05, R-MAT 20 and a 30 M-edge web-like graph
                            // (docs/benchmarks.md)
  bool compress_leaves;     // store the leaves through a vocabulary of their distinct bitmaps,
                            // sorted by frequency, each leaf the rank of its bitmap as a
                            // directly addressable code (the compressed-leaf k²-tree of
                            // Brisaboa, Ladra and Navarro), where that takes fewer words than
                            // the bitmaps (else they stay plain): needs leaf_log 2 or 3. A file then
                            // has format version 3 (docs/k2-format.md). With 4x4 leaves
                            // cnr-2000 and uk-2007-05@100000 take 26% and 31% less than with
                            // plain 2x2 leaves (docs/graphs.md); the OpenMP engine's products
                            // take 0.86-1.01x the plain 2x2 tree's time there (their runs of
                            // leaves decoded eight at a time with AVX2 and BMI2, a few rank
                            // steps a leaf without). The CUDA engine holds them decoded,
                            // split into 2x2 leaves
  bool full_blocks;         // mark an internal node whose whole block is ones (cliques, dense
                            // blocks) as full, with signature 0, and store nothing below it. A
                            // block that crosses the matrix's border is never full. A file then
                            // has format version 4 (docs/k2-format.md). Every engine, query and
                            // extraction reads the marks; the CUDA engine holds the tree
                            // expanded to plain nodes of 2x2 leaves
} K2_Format;

// The defaults: 2x2 leaves, directory and top level sized from the tree, no cached bottom codes,
// plain leaves, no full blocks.
void K2_Format_default(K2_Format *fmt);

//==============================================================================================
// construction and lifetime
//==============================================================================================

// An empty nrows x ncols matrix (both <= 2^32).
GrB_Info K2_Matrix_new(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols);
// Like K2_Matrix_new with explicit format options (NULL: the defaults).
GrB_Info K2_Matrix_new_format(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols, const K2_Format *fmt);
// Frees the matrix and sets *A to NULL. Accepts NULL and *A == NULL.
GrB_Info K2_Matrix_free(K2_Matrix *A);

// Replace the pattern of A by the entries (I[k], J[k]), k < nvals: unsorted, duplicates merged,
// self-loops kept. On error A is unchanged. Parallel (OpenMP).
GrB_Info K2_Matrix_build_32(K2_Matrix A, const uint32_t *I, const uint32_t *J, GrB_Index nvals);
GrB_Info K2_Matrix_build_64(K2_Matrix A, const uint64_t *I, const uint64_t *J, GrB_Index nvals);
// GraphBLAS-shaped name: 64-bit indices (GrB_Index).
GrB_Info K2_Matrix_build(K2_Matrix A, const GrB_Index *I, const GrB_Index *J, GrB_Index nvals);

// A new K2_Matrix with the pattern of G (explicit zeros are entries, as in GraphBLAS).
GrB_Info K2_Matrix_fromGrB(K2_Matrix *A, GrB_Matrix G);
// A new GrB_Matrix of type GrB_BOOL (iso true, or the edge weight as FP64 if type is GrB_FP64...)
// holding the pattern of A; `type` NULL means GrB_BOOL. Entries carry the edge weight cast to type.
GrB_Info K2_Matrix_toGrB(GrB_Matrix *G, K2_Matrix A, GrB_Type type);

// *C = a copy of A (its tree, format, edge weight and K2_Matrix_setDecodedLevel request), with
// copies of A's cached row and column degrees and occupancy (which the products and the row
// queries read); A's engine state (the OpenMP plans and decoded level, a device copy) is not
// copied.
GrB_Info K2_Matrix_dup(K2_Matrix *C, K2_Matrix A);

// Keep A's bottom codes in memory from now on (keep = true: built here in one pass over the
// internal levels, as K2_Format.cache_bottom_codes builds them) or drop them (false). A's
// format follows (K2_Matrix_save and K2_Matrix_serialize record the choice), and its engines'
// state is rebuilt at the next product (the OpenMP plans and decoded level, the device copy).
// For a loop of many full products on the CPU, K2_Matrix_setDecodedLevel (below) brings the
// same decoded level for half the bytes. This changes A: not while another thread uses it. On
// error (GrB_OUT_OF_MEMORY) A is unchanged.
GrB_Info K2_Matrix_setBottomCodes(K2_Matrix A, bool keep);

// Let the CPU engine keep the last internal level of A's tree decoded (keep = true), without the
// bottom codes: 8 bytes per node of that level (3.5 to 4.7 times the tree on the graphs
// measured: 1.3-1.6 bytes per edge on web crawls, 7-7.6 on scattered graphs, more than a Boolean
// CSR there; counted in K2_Matrix_memoryUsage's cache), built by one descent of the tree in the first product that
// reads it — the full plus-times, integer min/max and single-vector ANY products on trees of
// 2x2 leaves without full blocks (other trees ignore the request) — and read by those products
// instead of the internal levels. false drops it. A request, not a format: K2_Matrix_save does
// not record it; K2_Matrix_dup copies it. For a loop of many full products on the CPU: PageRank
// and WCC run on a copy with it (docs/algorithms.md). Not while another thread uses A.
GrB_Info K2_Matrix_setDecodedLevel(K2_Matrix A, bool keep);

//==============================================================================================
// queries
//==============================================================================================

GrB_Info K2_Matrix_nrows(GrB_Index *nrows, K2_Matrix A);
GrB_Info K2_Matrix_ncols(GrB_Index *ncols, K2_Matrix A);
GrB_Info K2_Matrix_nvals(GrB_Index *nvals, K2_Matrix A);

// All entries in row-major order (as GraphBLAS returns them). *nvals holds the capacity of I and
// J on input (GrB_INSUFFICIENT_SPACE if too small) and the count on output. I or J may be NULL.
GrB_Info K2_Matrix_extractTuples(GrB_Index *I, GrB_Index *J, GrB_Index *nvals, K2_Matrix A);
GrB_Info K2_Matrix_extractTuples_32(uint32_t *I, uint32_t *J, GrB_Index *nvals, K2_Matrix A);

// GrB_SUCCESS and *present = true if A(i,j) is an entry; GrB_INVALID_INDEX if out of range.
GrB_Info K2_Matrix_isEntry(bool *present, K2_Matrix A, GrB_Index i, GrB_Index j);
// GraphBLAS-shaped: GrB_SUCCESS with *x = the edge weight, or GrB_NO_VALUE if absent.
GrB_Info K2_Matrix_extractElement_BOOL(bool *x, K2_Matrix A, GrB_Index i, GrB_Index j);
GrB_Info K2_Matrix_extractElement_FP64(double *x, K2_Matrix A, GrB_Index i, GrB_Index j);

// Direct and reverse neighbour queries: the columns of row i (ascending), the rows of column j
// (ascending). *count holds the capacity on input and the number found on output; with
// out == NULL only the count is returned. A query walks the nodes of its line's stripe at every
// level, even for an empty line (hundreds of microseconds on R-MAT 22). Where the matrix holds
// its line degrees from a product that computed them (a PLUS_PAIR product of a full vector, as
// LAGraph's out-degrees; or the occupancy, for empty lines), an empty line and a count alone
// answer at once and a walk ends at the line's last entry.
GrB_Info K2_Matrix_rowNeighbors(GrB_Index *out, GrB_Index *count, K2_Matrix A, GrB_Index i);
GrB_Info K2_Matrix_colNeighbors(GrB_Index *out, GrB_Index *count, K2_Matrix A, GrB_Index j);
// The first neighbours of a vertex only: at most *count of them (ascending) into out, *count the
// number written, *more whether there are others. The walk stops there: its cost is that of
// the neighbours written, where the two calls above walk the whole row or column (a hub's
// thousands) whatever the capacity.
GrB_Info K2_Matrix_rowNeighborsFirst(GrB_Index *out, GrB_Index *count, bool *more, K2_Matrix A, GrB_Index i);
GrB_Info K2_Matrix_colNeighborsFirst(GrB_Index *out, GrB_Index *count, bool *more, K2_Matrix A, GrB_Index j);

// *equal = same dimensions and same pattern (the edge weight is compared too).
GrB_Info K2_Matrix_isEqual(bool *equal, K2_Matrix A, K2_Matrix B);

// The per-matrix edge weight (iso value), default 1.
GrB_Info K2_Matrix_setEdgeWeight(K2_Matrix A, double w);
GrB_Info K2_Matrix_getEdgeWeight(double *w, K2_Matrix A);

// Pending edits: assembled into the tree by the next operation that reads A (or K2_Matrix_wait).
GrB_Info K2_Matrix_setElement(K2_Matrix A, GrB_Index i, GrB_Index j);
GrB_Info K2_Matrix_removeElement(K2_Matrix A, GrB_Index i, GrB_Index j);
GrB_Info K2_Matrix_wait(K2_Matrix A);

// Last error message on A (like GrB_error); never NULL, "" when none.
GrB_Info K2_Matrix_error(const char **message, K2_Matrix A);

//==============================================================================================
// CSR and CSC import and export
//==============================================================================================
// The compressed forms of GraphBLAS (GrB_CSR_FORMAT, GrB_CSC_FORMAT) without values: a
// K2_Matrix holds a pattern and one edge weight (1 after an import). CSR: row i holds the
// columns Aj[Ap[i] .. Ap[i+1]); CSC: column j holds the rows Ai[Ap[j] .. Ap[j+1]). Pointers and
// indices are both 32-bit (_32) or both 64-bit (_64, GrB_Index as GraphBLAS's own arrays).
//
// Import: a new matrix built from the arrays, which stay the caller's (they are read, never
// kept or freed). Ap_len and Aj_len (Ai_len) are the entries the arrays hold, checked as
// GrB_Matrix_import checks them. The indices of a line may come in any order; an index twice
// in one line is an error. Costs O(nrows + nvals) plus the tree's build. fmt NULL: the default
// format. On error *A is not written. Errors, each with a message naming the argument:
//   GrB_NULL_POINTER         A, Ap, or Aj (Ai) with entries, is NULL
//   GrB_INVALID_VALUE        a dimension over 2^32; Ap_len < nrows + 1 (CSC: ncols + 1);
//                            Ap[0] != 0; Ap decreasing; Ap[nrows] > Aj_len; an index twice
//                            in one line; an invalid fmt
//   GrB_INDEX_OUT_OF_BOUNDS  an index of Aj outside the columns (of Ai outside the rows)
GrB_Info K2_Matrix_import_CSR_64(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint64_t *Ap, const uint64_t *Aj, GrB_Index Ap_len,
                                 GrB_Index Aj_len, const K2_Format *fmt);
GrB_Info K2_Matrix_import_CSR_32(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint32_t *Ap, const uint32_t *Aj, GrB_Index Ap_len,
                                 GrB_Index Aj_len, const K2_Format *fmt);
GrB_Info K2_Matrix_import_CSC_64(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint64_t *Ap, const uint64_t *Ai, GrB_Index Ap_len,
                                 GrB_Index Ai_len, const K2_Format *fmt);
GrB_Info K2_Matrix_import_CSC_32(K2_Matrix *A, GrB_Index nrows, GrB_Index ncols,
                                 const uint32_t *Ap, const uint32_t *Ai, GrB_Index Ap_len,
                                 GrB_Index Ai_len, const K2_Format *fmt);

// Export, GrB_Matrix_export's convention: the caller asks the sizes (exportSize: nrows + 1
// (CSC: ncols + 1) pointers and nvals indices), allocates the arrays however it likes, and
// passes their room in *Ap_len and *Aj_len, which receive the entries written. A is left as it
// was (pending edits assembled). Each line's indices ascending. Errors: GrB_NULL_POINTER (an
// argument NULL; Aj may be NULL when A has no entries), GrB_INSUFFICIENT_SPACE (an array too
// small), GrB_INVALID_VALUE (_32 with nvals >= 2^32), GrB_OUT_OF_MEMORY (the export takes 24
// bytes per entry while it runs); on error the arrays and lengths are not written.
GrB_Info K2_Matrix_exportSize_CSR(GrB_Index *Ap_len, GrB_Index *Aj_len, K2_Matrix A);
GrB_Info K2_Matrix_exportSize_CSC(GrB_Index *Ap_len, GrB_Index *Ai_len, K2_Matrix A);
GrB_Info K2_Matrix_export_CSR_64(uint64_t *Ap, uint64_t *Aj, GrB_Index *Ap_len, GrB_Index *Aj_len,
                                 K2_Matrix A);
GrB_Info K2_Matrix_export_CSR_32(uint32_t *Ap, uint32_t *Aj, GrB_Index *Ap_len, GrB_Index *Aj_len,
                                 K2_Matrix A);
GrB_Info K2_Matrix_export_CSC_64(uint64_t *Ap, uint64_t *Ai, GrB_Index *Ap_len, GrB_Index *Ai_len,
                                 K2_Matrix A);
GrB_Info K2_Matrix_export_CSC_32(uint32_t *Ap, uint32_t *Ai, GrB_Index *Ap_len, GrB_Index *Ai_len,
                                 K2_Matrix A);

//==============================================================================================
// printing
//==============================================================================================

// Check A and describe it on f (NULL: stdout), as GxB_Matrix_fprint does a GrB_Matrix, at a
// GraphBLAS print level: GxB_SILENT checks only; GxB_SUMMARY prints the header, two lines:
//
//     K2_Matrix A: 4 x 5, 6 entries, edge weight 1
//     k2-tree: 2 levels, 2x2 leaves, 3 internal nodes, 4 leaves, 520 bytes
//
// (the name, dimensions, entries, edge weight; the tree's internal levels, leaf size, nodes and
// K2_Matrix_memoryUsage's total bytes); GxB_SHORT adds the first 30 entries in row-major
// order, one "    (i,j)" a line, and "    ..." when there are more; GxB_COMPLETE all of them.
// The _VERBOSE levels print the edge weight with 15 digits. Pending edits are assembled first.
// Errors: GrB_NULL_POINTER, GrB_UNINITIALIZED_OBJECT, GrB_INVALID_OBJECT (A's checks),
// GrB_INVALID_VALUE (a level outside 0..5, or writing to f failed). name may be NULL.
GrB_Info K2_Matrix_fprint(K2_Matrix A, const char *name, GxB_Print_Level level, FILE *f);
// The same without a name. The overlay's GxB_print (A, level) and GxB_fprint (A, level, f)
// call K2_Matrix_fprint with the variable's name.
GrB_Info K2_Matrix_print(K2_Matrix A, GxB_Print_Level level, FILE *f);

//==============================================================================================
// memory accounting (exact bytes held, per part)
//==============================================================================================

typedef struct {
  uint64_t tree;        // internal signatures + leaves (as stored) + per-level offsets
  uint64_t directory;   // sampled first-child offsets (0 when the tree is too small for one)
  uint64_t top;         // Morton codes of the top level (0 when it is the root)
  uint64_t bottom_codes;  // cached Morton codes of the last internal level (0 if not cached)
  uint64_t pending;     // queued setElement/removeElement edits
  uint64_t cache;       // cached GrB_Matrix of the bridge and other derived data
  uint64_t total;       // everything above plus the object header
  // shape of the tree, for reports
  uint32_t levels;      // internal levels (the leaf level not counted)
  uint32_t leaf_log;
  uint64_t internal_nodes;
  uint64_t leaves;
  // the leaves' part of `tree`: the bitmaps, or with compressed leaves (K2_Format) the
  // vocabulary of distinct bitmaps (leaf_vocabulary bytes, leaf_patterns of them) and the codes
  uint64_t leaf_bytes;
  uint64_t leaf_vocabulary;
  uint64_t leaf_patterns;
  // full blocks (K2_Format.full_blocks): the nodes marked full, and the bytes of signatures and
  // plain leaves that the same tree would take more without the marks
  uint64_t full_nodes;
  uint64_t full_saved;
} K2_MemoryUsage;

GrB_Info K2_Matrix_memoryUsage(K2_MemoryUsage *usage, K2_Matrix A);

// Bytes of a CSR of A with 64-bit row pointers and 32-bit column indices, with FP32 values
// (values = true) or without (a Boolean CSR).
uint64_t K2_csr_bytes(GrB_Index nrows, GrB_Index nvals, bool values);

//==============================================================================================
// serialization: the .k2 format (docs/k2-format.md)
//==============================================================================================

// Bytes needed by K2_Matrix_serialize.
GrB_Info K2_Matrix_serializeSize(GrB_Index *size, K2_Matrix A);
// Writes the .k2 image of A into blob[0 .. *size); *size holds the capacity on input.
GrB_Info K2_Matrix_serialize(void *blob, GrB_Index *size, K2_Matrix A);
// A new matrix from a .k2 image, fully validated (checksums, structure).
GrB_Info K2_Matrix_deserialize(K2_Matrix *A, const void *blob, GrB_Index size);
// Save to a file: replaced whole or not at all (a temporary renamed over it, as every writer of
// include/k2grb/io.h): on error an existing file is left as it was; never rewritten in place.
GrB_Info K2_Matrix_save(K2_Matrix A, const char *path);
// Load and validate a file. The matrix holds its own copy of the file's bytes (one block, the
// arrays point into it), so it is unaffected by whatever happens to the file later: deleted,
// replaced, even truncated or rewritten in place (a mapping of the file would raise SIGBUS in
// the next product). A file whose bytes cannot change (a sealed memfd, a file marked immutable)
// is mapped and used in place instead. A file that changes while it is read is refused
// (GrB_INVALID_VALUE).
GrB_Info K2_Matrix_load(K2_Matrix *A, const char *path);

#endif
