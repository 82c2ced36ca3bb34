// bench_io.c: speed of the text readers in MB/s of uncompressed input, on one core.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: bench_io [-r repeats] [file ...]   (default: the largest text graphs of the data folder)
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

int main(int argc, char **argv) {
  int repeats = 5, first = 1;
  if (argc > 2 && strcmp(argv[1], "-r") == 0) repeats = atoi(argv[2]), first = 3;
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
