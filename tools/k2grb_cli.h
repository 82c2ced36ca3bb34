// k2grb_cli.h: the subcommands of the k2grb tool and what they share (options, loading with
// a progress indicator, result files, JSON, messages).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2GRB_CLI_H
#define K2GRB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <k2grb.h>

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} k2_cli_command;

int k2grb_convert(int argc, char **argv);
int k2grb_info(int argc, char **argv);
int k2grb_bfs(int argc, char **argv);
int k2grb_msbfs(int argc, char **argv);
int k2grb_pagerank(int argc, char **argv);
int k2grb_sssp(int argc, char **argv);
int k2grb_cc(int argc, char **argv);
int k2grb_bench(int argc, char **argv);
int k2grb_demo(int argc, char **argv);

// Exit codes: 0 success, 1 a failure (file, algorithm, disagreement), 2 bad arguments.
#define K2_CLI_FAIL 1
#define K2_CLI_USAGE 2
#define K2_CLI_MAX_FILES 64
#define K2_CLI_MAX_SOURCES 256
#define K2_CLI_MAX_TRIALS 1000
// Largest difference of two FP32 PageRanks (LAGraph or GAP model, tol 1e-4) that agree: a
// tenth of the tolerance. The engines add in other orders than SuiteSparse, and FP32 sums of
// thousands of terms round differently (up to 4.4e-6 on a web-like graph of 26,000 pages).
#define K2_CLI_PAGERANK_AGREE 1e-5

// Every option of every command; each command names the ones it accepts.
typedef struct {
  const char *cmd;                       // "bfs", for messages
  const char *files[K2_CLI_MAX_FILES];   // positional arguments
  int nfiles;
  const char *out;                       // --out F ("-": stdout)
  bool json, parents, symmetrize, transpose, one_based, remap, check, reverse, gap;
  bool locality_order;                   // --locality-order (the algorithm commands)
  bool decoded_level;                    // --decoded-level (the algorithm commands)
  K2_FileFormat format;                  // --format
  bool has_source;
  unsigned long long source;             // --source S
  unsigned long long sources[K2_CLI_MAX_SOURCES];
  int nsources;                          // --sources S1,S2,...
  int top;                               // --top K (10)
  int ldbc_iterations;                   // --ldbc-iterations N (0: LAGraph model)
  double damping, tol;                   // --damping (0.85), --tol (1e-4)
  int itermax;                           // --itermax (100)
  int repeat;                            // --repeat (5)
  const char *mode;                      // --mode auto|push|pull
  unsigned scale;                        // --scale (20)
  double edge_factor;                    // --edge-factor (16)
  unsigned long long seed;               // --seed (1)
  const char *graph;                     // --graph rmat|web|both (demo; "both")
  K2_Engine engine;                      // --engine, else K2GRB_ENGINE (auto)
  const char *engine_word;               // as asked: "auto", "cpu", "cuda", "reference"
  int threads;                           // --threads N (0: OMP_NUM_THREADS or the runtime's)
  bool compress_leaves;                  // --compress-leaves (convert, info)
  bool full_blocks;                      // --full-blocks (convert, info)
  bool bottom_codes;                     // --bottom-codes (convert, info)
  uint32_t leaf_log;                     // --leaf-log N (0: the default)
  int trials;                            // --trials N (1)
  bool has_engine;                       // --engine given
  bool has_damping;                      // --damping given
  // --ldbc: LDBC Graphalytics input and output (k2_cli_ldbc_prepare fills the rest)
  bool ldbc;
  const char *vertices;                  // --vertices FILE (default: FILE's .e -> .v)
  char ldbc_vpath[1024];                 // the vertex file read
  bool ldbc_has_props;                   // <graph>.properties found beside the .e
  char ldbc_ppath[1024];
  bool ldbc_weighted;                    // the .e has a third column
  bool ldbc_has_bfs_source, ldbc_has_sssp_source, ldbc_has_damping;
  unsigned long long ldbc_bfs_source, ldbc_sssp_source;
  double ldbc_damping;
  int ldbc_iterations_prop;              // pr.num-iterations (0: absent)
  bool products;                         // the command runs products (--engine accepted)
} k2_cli_opts;

// The whole command line, kept by main() before any parsing (for the `argv` report key).
void k2_cli_set_argv(int argc, char **argv);

// Parse argv (after the command name) with getopt_long: "--source 5" and "--source=5", options
// and files in any order, "--" ends the options. `allowed` lists the accepted options separated
// by spaces ("--source --out --json"); files between min_files and max_files. A command that
// accepts --engine validates K2GRB_ENGINE too (the flag wins). Returns -1 to go on, else the
// exit code (0 after --help, K2_CLI_USAGE after a one-line error).
int k2_cli_parse(k2_cli_opts *o, const char *cmd, const char *allowed, int min_files, int max_files,
                 const char *usage, int argc, char **argv);

// After K2_init: the engine (--engine / K2GRB_ENGINE) and the threads (--threads) of the
// library and of SuiteSparse; a note on stderr when the CUDA engine is asked for and no device
// is usable (outside strict mode the products then run on the CPU). Returns 0 or an exit code.
int k2_cli_setup(const k2_cli_opts *o);
// Is strict mode on (K2GRB_STRICT=1)?
bool k2_cli_strict(void);

// The report keys every command ends with: threads, version, argv.
typedef struct k2_cli_report k2_cli_report;
void k2_cli_rep_tail(k2_cli_report *r);
// Best and median of n times (sorts t).
void k2_cli_best_median(double *t, int n, double *best, double *median);

// One-line error "k2grb CMD: message" on stderr; returns code.
int k2_cli_error(const k2_cli_opts *o, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
// One-line error after a failed call: "k2grb CMD: what: message (GrB_NAME)", what in words
// (printf-style), then the library's message (left out when NULL or empty), then the code by
// name, once. Returns code.
int k2_cli_fail(const k2_cli_opts *o, int code, GrB_Info info, const char *message, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
// An algorithm's message with its function's name in words ("K2_bfs: computing ..." ->
// "BFS: computing ..."), in buf.
const char *k2_cli_alg_words(const char *msg, char *buf, size_t cap);
// The name of a code of the library or of the algorithms ("GrB_OUT_OF_MEMORY",
// "K2_CONVERGENCE_FAILURE").
const char *k2_cli_info_name(GrB_Info info);

// Does s end with suffix, whatever the case?
bool k2_cli_ends_with(const char *s, const char *suffix);

// Read any supported graph file into a tree (converting on the fly), with a progress line
// on stderr when it is a terminal. *seconds: read + build time. Returns 0 or an exit code.
int k2_cli_load(const k2_cli_opts *o, const char *path, K2_Matrix *A, double *seconds);

// --ldbc, before loading: the vertex file (--vertices, else FILE with .e replaced by .v), the
// .properties beside it (directed = false: the edges are symmetrized; the sources, damping
// and iteration count as defaults), whether the edges carry weights. Returns 0 or an exit
// code. k2_cli_load then numbers the vertices of the vertex file densely in increasing id
// order (isolated ones included) and refuses an edge whose end is not one of them.
int k2_cli_ldbc_prepare(k2_cli_opts *o);

// LDBC Graphalytics result file: one line per vertex, every vertex of the vertex file, in
// increasing id order, `id value`. Kinds: BFS (hops, 9223372036854775807 unreached), SSSP
// (%.15e, `infinity` unreached), WCC (the value is a vertex id), PR (%.15e).
typedef enum { K2_CLI_LDBC_BFS, K2_CLI_LDBC_SSSP, K2_CLI_LDBC_WCC, K2_CLI_LDBC_PR } k2_cli_ldbc_kind;
int k2_cli_write_ldbc(const k2_cli_opts *o, GrB_Vector v, GrB_Index n, k2_cli_ldbc_kind kind);

double k2_cli_now(void);
// "openmp (native CPU)" for the last product of this thread.
const char *k2_cli_engine(void);

// Result file: one "vertex value" line per entry of v (INT64 or FP64 values), sorted by
// vertex, under the file's ids (k2_cli_file_id; values_are_ids: the values too, as parents
// and component labels). fp_format NULL: integers. Returns 0 or an exit code.
int k2_cli_write_vector(const k2_cli_opts *o, GrB_Vector v, const char *fp_format, bool values_are_ids);

// Ids as the user sees them: with --remap the file's own ids (the tree numbers the ids that
// occur densely, in increasing order), with --one-based counted from 1. k2_cli_file_id: the id
// of vertex v of the tree; k2_cli_vertex: the vertex of an id (false: no such vertex).
unsigned long long k2_cli_file_id(const k2_cli_opts *o, GrB_Index v);
bool k2_cli_vertex(const k2_cli_opts *o, unsigned long long id, GrB_Index *v);

// The --out file of a command: stdout for "-", else a K2_OutFile (the old file stays until
// everything is written). close commits when rc is 0, else discards; returns rc or the exit
// code of a failed write (after its one-line message).
typedef struct {
  K2_OutFile file;  // NULL for stdout
  FILE *f;
} k2_cli_out;
int k2_cli_out_open(const k2_cli_opts *o, k2_cli_out *out);
int k2_cli_out_close(const k2_cli_opts *o, k2_cli_out *out, int rc);

// JSON string (escaped) to f.
void k2_cli_json_string(FILE *f, const char *s);

// A command's report: key/value lines as text ("  key   value") or one JSON object.
typedef struct {
  char key[48];
  char text[256];   // shown in text mode
  char *json;       // JSON value (malloc'd)
} k2_cli_item;
struct k2_cli_report {
  k2_cli_item item[64];
  int n;
};
// A string value; a number (the same text for both); a value with its own JSON.
void k2_cli_rep_str(k2_cli_report *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void k2_cli_rep_num(k2_cli_report *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void k2_cli_rep_raw(k2_cli_report *r, const char *key, const char *text, const char *json);
// Print (text or JSON by o->json) to stdout and free the report.
void k2_cli_rep_print(const k2_cli_opts *o, k2_cli_report *r);
// The items as the last members of a JSON object that the caller has opened on stdout
// (", \"key\": value" each), for a command whose object holds more than the report (bench,
// demo); frees them.
void k2_cli_rep_print_items(k2_cli_report *r);

// Dense copy of an integer vector (absent: missing); NULL when out of memory.
int64_t *k2_cli_dense_i64(GrB_Vector v, GrB_Index n, int64_t missing);
double *k2_cli_dense_f64(GrB_Vector v, GrB_Index n, double missing);

#endif
