// k2grb/io.h: graph files in and out (Matrix Market, edge lists, METIS, BVGraph, .gz).
// SPDX-License-Identifier: Apache-2.0
//
// Readers produce K2_Edges, a plain list of (row, column) pairs with 32-bit indices, which
// K2_Matrix_build_32 turns into a tree; K2_Matrix_read does both. Every reader reports bad input
// with a GrB_Info code and a message naming the file and the line (or bit offset), and returns
// nothing half-built.
#ifndef K2GRB_IO_H
#define K2GRB_IO_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

#include <stdio.h>

// A list of edges (the pattern of a matrix). I and J are malloc'd; K2_Edges_free frees them.
typedef struct {
  GrB_Index nrows, ncols;  // shape (<= 2^32 each)
  GrB_Index nvals;         // number of pairs (duplicates possible until built)
  GrB_Index capacity;      // allocated pairs
  uint32_t *I, *J;
} K2_Edges;

void K2_Edges_free(K2_Edges *E);

typedef enum {
  K2_FORMAT_AUTO = 0,      // from the file name (and the first line)
  K2_FORMAT_MATRIX_MARKET, // .mtx
  K2_FORMAT_EDGE_LIST,     // SNAP-style "u v" lines, '#'/'%' comments; "u,v" with a header line
  K2_FORMAT_METIS,         // .graph (text, METIS adjacency)
  K2_FORMAT_BVGRAPH,       // LAW WebGraph: basename of .graph + .properties (+ .offsets)
  K2_FORMAT_K2             // a .k2 file (K2_Matrix_save)
} K2_FileFormat;

typedef struct {
  K2_FileFormat format;    // AUTO by default
  bool symmetrize;         // add (j, i) for every (i, j)
  bool transpose;          // swap rows and columns
  bool drop_self_loops;    // remove (i, i)
  bool remap_ids;          // edge lists: renumber the ids that occur densely (in order of size)
  bool one_based;          // edge lists: ids start at 1 (a Matrix Market body without its header,
                           // e.g. luxembourg_osm.edges); LightGraphs "n,m,d,graph" files are
                           // always 1-based
} K2_ReadOptions;

void K2_ReadOptions_default(K2_ReadOptions *opt);

// Read a graph file into an edge list (opt may be NULL: defaults). gzip input (any text format)
// is recognised by its magic bytes. The format (AUTO): .k2 → K2; a .properties file beside →
// BVGRAPH; a %%MatrixMarket first line or .mtx/.mm → MATRIX_MARKET; .graph/.metis → METIS;
// otherwise EDGE_LIST (docs/io.md). *E is overwritten on success only (its old arrays are not
// freed) and left untouched on error. Codes: GrB_NULL_POINTER (E or path NULL),
// GrB_INVALID_VALUE (cannot open or read, corrupt or truncated gzip, empty file, malformed
// line, a line longer than 1 MiB (METIS vertex lines excepted), counts contradicting the header,
// an unsupported or broken header, a writer's temporary file), GrB_INVALID_INDEX (an
// index out of range, below the base, or over 32 bits), GrB_OUT_OF_MEMORY. The message
// (K2_error_string) reads "path:line: what".
GrB_Info K2_Edges_read(K2_Edges *E, const char *path, const K2_ReadOptions *opt);
// The LAW BVGraph reader (basename without .graph/.properties).
GrB_Info K2_Edges_readBVGraph(K2_Edges *E, const char *basename, const K2_ReadOptions *opt);
// Read a graph file straight into a new K2_Matrix (any format, .k2 included).
GrB_Info K2_Matrix_read(K2_Matrix *A, const char *path, const K2_ReadOptions *opt);

// Writers. Matrix Market: "coordinate pattern general", 1-based, with the shape in the size line.
// Edge list: "u v" lines, 0-based, after one '#' comment line giving the shape. A path ending in
// ".gz" is written gzip-compressed. Every writer (K2_Matrix_save too) replaces its target whole
// or not at all, as K2_OutFile below: on any error (GrB_INVALID_VALUE, the message naming the
// path) an existing file is left as it was.
GrB_Info K2_Matrix_writeMatrixMarket(K2_Matrix A, const char *path);
GrB_Info K2_Matrix_writeEdgeList(K2_Matrix A, const char *path);
GrB_Info K2_Edges_writeMatrixMarket(const K2_Edges *E, const char *path);
GrB_Info K2_Edges_writeEdgeList(const K2_Edges *E, const char *path);

// Output files that appear whole or not at all, for a program's own results (the writers above
// use the same code). K2_OutFile_open gives a stdio stream on a temporary in the directory of
// `path`; K2_OutFile_commit flushes it, checks every write, syncs it to disk and renames it over
// `path`; K2_OutFile_discard removes it. Until the commit `path` is untouched, and if the
// process dies the temporary goes with it (or, where the file system needs a named one,
// ".NAME.k2tmp.XXXXXX", which the next write of `path` removes and the readers refuse).
// A new file gets the mode 0666 & ~umask; a replaced one keeps its mode (and its owner and
// group where the user may set them); a file the user may not write is refused; a symbolic
// link is followed and its target replaced. A `path` that is not a regular file (/dev/null, a
// pipe, /dev/stdout) is written directly. The stream belongs to the K2_OutFile: do not fclose
// it. Both calls set *file to NULL. Codes: GrB_NULL_POINTER, GrB_INVALID_VALUE (cannot create,
// not writable, a write, the sync or the rename failed: the message names path and the reason),
// GrB_OUT_OF_MEMORY.
typedef struct K2_OutFile_opaque *K2_OutFile;
GrB_Info K2_OutFile_open(K2_OutFile *file, FILE **stream, const char *path);
GrB_Info K2_OutFile_commit(K2_OutFile *file);
GrB_Info K2_OutFile_discard(K2_OutFile *file);
// Removes the named temporaries of this process's unfinished writes. Async-signal-safe: for a
// SIGINT or SIGTERM handler that then ends the process.
void K2_OutFile_removeTemporaries(void);

#endif
