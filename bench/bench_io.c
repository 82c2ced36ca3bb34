// bench_io.c: speed of the text readers in MB/s of uncompressed input, on one core.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: bench_io [-r repeats] [file ...]   (default: the largest text graphs of the data folder)
//        bench_io -t [file ...]             (default: every text graph of the data folder)
//        bench_io -k repeats file.k2 ...    (K2_Matrix_load and K2_Matrix_save times)
// -t prints, per graph, nodes, edges (distinct, as built), tree bytes and bits per edge instead.
// -k prints the fastest and the median of the repeats, wall-clock and CPU time, of loading each
// .k2 file and of saving it again (to a file in /tmp, removed afterwards).
// A name ending in .edges is read as a 1-based edge list (luxembourg_osm.edges).
// For each file it prints the uncompressed size and rates in MB of uncompressed input per second
// of CPU time (one core: the readers are sequential), best of the repeats:
//   parse   k2_io_read_buffer on the bytes already in memory (the parser alone)
//   plain   K2_Edges_read on an uncompressed copy in the page cache (read + parse)
//   file    K2_Edges_read on the file as given (gunzip + parse for .gz)
//   wall    the same as "file" in wall-clock time
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <k2grb.h>

#include "io/k2_io.h"

// CPU time of the process: the rate per core, and robust to a machine shared with other jobs
// (wall-clock time is printed too, for the "file" column).
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

// The whole (decompressed) file in memory.
static char *slurp(const char *path, size_t *size) {
  gzFile f = gzopen(path, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 24, n = 0;
  char *buf = malloc(cap);
  for (int got; buf != NULL && (got = gzread(f, buf + n, (unsigned)(cap - n))) > 0;) {
    n += (size_t)got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  gzclose(f);
  *size = n;
  return buf;
}

static double time_read(const char *path, const K2_ReadOptions *opt, int repeats, GrB_Index *nvals,
                        double *best_wall) {
  double best = 1e30;
  *best_wall = 1e30;
  for (int r = 0; r < repeats; r++) {
    K2_Edges E;
    double t0 = now(), w0 = wall();
    GrB_Info info = K2_Edges_read(&E, path, opt);
    double t = now() - t0, w = wall() - w0;
    if (w < *best_wall) *best_wall = w;
    if (info != GrB_SUCCESS) {
      fprintf(stderr, "%s: %s\n", path, K2_error_string());
      exit(1);
    }
    *nvals = E.nvals;
    K2_Edges_free(&E);
    if (t < best) best = t;
  }
  return best;
}

static const char *all_text[] = {
    "snap-wiki-Vote/wiki-Vote.txt", "snap-p2p-Gnutella/p2p-Gnutella05.txt",
    "snap-p2p-Gnutella/p2p-Gnutella06.txt", "snap-ca-CondMat/CA-CondMat.txt",
    "snap-email-Enron/email-Enron.txt.gz", "snap-email-Eu-core/email-Eu-core.txt",
    "snap-ca-GrQc-lcc/ca-GrQc-lcc.txt", "snap-ca-HepTh-lcc/ca-HepTh-lcc.txt",
    "snap-ca-HepPh-lcc/ca-HepPh-lcc.txt", "snap-cit-HepPh/cit-HepPh.jlg.gz",
    "snap-cit-HepTh/cit-HepTh.jlg.gz", "snap-soc-Slashdot0902/soc-Slashdot0902-directed.jlg.gz",
    "snap-ego-Twitter/ego-twitter-undirected.jlg.gz", "snap-ego-Facebook/facebook-combined.jlg.gz",
    "snap-as-caida/as-caida20071105.jlg.gz", "snap-ca-AstroPh-cc1/ca-AstroPh-cc1.jlg.gz",
    "networkit-misc/MIT8.edgelist", "networkit-misc/power.graph",
    "networkit-misc/PGPgiantcompo.graph", "networkit-misc/polblogs.graph",
    "networkit-misc/astro-ph.graph", "luxembourg_osm/luxembourg_osm.edges",
    "lagraph/karate.mtx", "lagraph/west0067.mtx", "lagraph/bcsstk13.mtx", "lagraph/pushpull.mtx"};

// nodes, edges, tree bytes and bits per edge of each graph, as built by K2_Matrix_read
static int tree_table(int nfiles, char **files) {
  printf("| graph | nodes | edges (file) | edges (tree) | tree bytes | bits/edge |\n|---|---|---|---|---|---|\n");
  for (int k = 0; k < nfiles; k++) {
    K2_ReadOptions opt;
    K2_ReadOptions_default(&opt);
    if (ends_with(files[k], ".edges")) opt.format = K2_FORMAT_EDGE_LIST, opt.one_based = true;
    K2_Edges E;
    K2_Matrix A = NULL;
    if (K2_Edges_read(&E, files[k], &opt) != GrB_SUCCESS || K2_Matrix_read(&A, files[k], &opt) != GrB_SUCCESS) {
      fprintf(stderr, "%s: %s\n", files[k], K2_error_string());
      return 1;
    }
    GrB_Index nvals;
    K2_MemoryUsage u;
    K2_Matrix_nvals(&nvals, A);
    K2_Matrix_memoryUsage(&u, A);
    const char *name = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
    printf("| %s | %llu | %llu | %llu | %llu | %.2f |\n", name, (unsigned long long)E.nrows,
           (unsigned long long)E.nvals, (unsigned long long)nvals, (unsigned long long)u.tree,
           nvals ? 8.0 * (double)u.tree / (double)nvals : 0.0);
    K2_Edges_free(&E);
    K2_Matrix_free(&A);
  }
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// K2_Matrix_load, then K2_Matrix_save, `repeats` times each: fastest and median, wall and CPU.
static int k2_times(int repeats, int nfiles, char **files) {
  if (K2_init() != GrB_SUCCESS || repeats < 1) return 1;
  double *t = malloc(4 * (size_t)repeats * sizeof(double));
  if (t == NULL) return 1;
  double *tw = t, *tc = t + repeats, *sw = t + 2 * repeats, *sc = t + 3 * repeats;
  printf("%-32s %10s %21s %21s %21s %21s\n", "file", "bytes", "load wall min/med ms",
         "load cpu min/med ms", "save wall min/med ms", "save cpu min/med ms");
  for (int k = 0; k < nfiles; k++) {
    char out[] = "/tmp/bench_io_save.XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0) return 1;
    close(fd);
    K2_Matrix A = NULL;
    for (int r = 0; r < repeats; r++) {
      K2_Matrix_free(&A);
      double w0 = wall(), c0 = now();
      if (K2_Matrix_load(&A, files[k]) != GrB_SUCCESS) {
        fprintf(stderr, "%s\n", K2_error_string());
        return 1;
      }
      tw[r] = wall() - w0, tc[r] = now() - c0;
    }
    for (int r = 0; r < repeats; r++) {
      double w0 = wall(), c0 = now();
      if (K2_Matrix_save(A, out) != GrB_SUCCESS) {
        fprintf(stderr, "%s\n", K2_error_string());
        return 1;
      }
      sw[r] = wall() - w0, sc[r] = now() - c0;
    }
    GrB_Index bytes = 0;
    K2_Matrix_serializeSize(&bytes, A);
    K2_Matrix_free(&A);
    unlink(out);
    for (int q = 0; q < 4; q++) qsort(t + q * repeats, (size_t)repeats, sizeof(double), cmp_double);
    const char *name = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
    printf("%-32s %10llu", name, (unsigned long long)bytes);
    for (int q = 0; q < 4; q++) printf(" %10.2f/%10.2f", 1e3 * t[q * repeats], 1e3 * t[q * repeats + repeats / 2]);
    printf("\n");
  }
  free(t);
  K2_finalize();
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 3 && strcmp(argv[1], "-k") == 0) return k2_times(atoi(argv[2]), argc - 3, argv + 3);
  int repeats = 5, first = 1;
  bool table = false;
  if (argc > 1 && strcmp(argv[1], "-t") == 0) table = true, first = 2;
  if (argc > 2 && strcmp(argv[1], "-r") == 0) repeats = atoi(argv[2]), first = 3;
  if (table) {
    if (K2_init() != GrB_SUCCESS) return 1;
    if (argc > first) return tree_table(argc - first, argv + first);
    const char *root = getenv("K2GRB_DATA_DIR") ? getenv("K2GRB_DATA_DIR") : K2_DATA_DIR;
    int n = (int)(sizeof all_text / sizeof all_text[0]);
    char **paths = malloc((size_t)n * sizeof(char *));
    for (int k = 0; k < n; k++) {
      paths[k] = malloc(strlen(root) + strlen(all_text[k]) + 2);
      sprintf(paths[k], "%s/%s", root, all_text[k]);
    }
    int rc = tree_table(n, paths);
    for (int k = 0; k < n; k++) free(paths[k]);
    free(paths);
    K2_finalize();
    return rc;
  }
  const char *defaults[] = {"snap-ego-Twitter/ego-twitter-undirected.jlg.gz",
                            "snap-soc-Slashdot0902/soc-Slashdot0902-directed.jlg.gz",
                            "networkit-misc/MIT8.edgelist", "snap-ca-CondMat/CA-CondMat.txt",
                            "networkit-misc/astro-ph.graph", "lagraph/bcsstk13.mtx"};
  int nfiles = argc - first;
  char **files = argv + first;
  char *owned[6];
  if (nfiles == 0) {
    const char *root = getenv("K2GRB_DATA_DIR") ? getenv("K2GRB_DATA_DIR") : K2_DATA_DIR;
    for (int k = 0; k < 6; k++) {
      owned[k] = malloc(strlen(root) + strlen(defaults[k]) + 2);
      sprintf(owned[k], "%s/%s", root, defaults[k]);
    }
    files = owned;
    nfiles = 6;
  }
  printf("%-42s %8s %10s %8s %8s %8s %8s\n", "file", "MB", "pairs", "parse", "plain", "file", "wall");
  for (int k = 0; k < nfiles; k++) {
    const char *path = files[k];
    size_t size;
    char *data = slurp(path, &size);
    if (data == NULL) {
      fprintf(stderr, "%s: cannot read\n", path);
      return 1;
    }
    K2_ReadOptions opt;
    K2_ReadOptions_default(&opt);
    const char *base = ends_with(path, ".gz") ? "" : path;
    if (ends_with(base, ".graph")) opt.format = K2_FORMAT_METIS;
    else if (ends_with(base, ".mtx")) opt.format = K2_FORMAT_MATRIX_MARKET;
    else opt.format = K2_FORMAT_EDGE_LIST;

    double parse = 1e30;
    GrB_Index nvals = 0;
    for (int r = 0; r < repeats; r++) {
      K2_Edges E;
      double t0 = now();
      GrB_Info info = k2_io_read_buffer(&E, data, size, path, &opt);
      double t = now() - t0;
      if (info != GrB_SUCCESS) {
        fprintf(stderr, "%s: %s\n", path, K2_error_string());
        return 1;
      }
      nvals = E.nvals;
      K2_Edges_free(&E);
      if (t < parse) parse = t;
    }
    // an uncompressed copy, to time file reading without gunzip
    char tmp[] = "/tmp/bench_io.XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) return 1;
    close(fd);
    double w;
    double plain = time_read(tmp, &opt, repeats, &nvals, &w);
    unlink(tmp);
    double file = time_read(path, &opt, repeats, &nvals, &w);
    double mb = (double)size / 1e6;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("%-42s %8.2f %10llu %8.0f %8.0f %8.0f %8.0f  MB/s\n", name, mb,
           (unsigned long long)nvals, mb / parse, mb / plain, mb / file, mb / w);
    free(data);
  }
  if (files == owned) for (int k = 0; k < 6; k++) free(owned[k]);
  return 0;
}
