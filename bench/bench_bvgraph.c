// bench_bvgraph.c: BVGraph decoding speed (arcs per second), sequential scan vs parallel decode.
// SPDX-License-Identifier: Apache-2.0
//
// Usage: bench_bvgraph [reps] [basename...]   (default: the LAW graphs of ../shared/data)
// Threads: OMP_NUM_THREADS. Each time covers the whole read (files, decode, output arrays);
// the best of `reps` runs is reported (the files are in the page cache after the first).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <k2grb.h>
#include "io/k2_bvgraph.h"

static double best_time(const char *base, bool offsets, int reps, GrB_Index *arcs, bool *ok) {
  double best = 1e30;
  *ok = true;
  for (int r = 0; r < reps; r++) {
    K2_Edges E;
    memset(&E, 0, sizeof E);
    k2_bvgraph_config cfg = {.use_offsets = offsets};
    double t = omp_get_wtime();
    GrB_Info info = k2_bvgraph_read(&E, base, NULL, &cfg);
    t = omp_get_wtime() - t;
    if (info != GrB_SUCCESS) {
      fprintf(stderr, "%s: %s\n", base, K2_error_string());
      *ok = false;
      return 0;
    }
    *arcs = E.nvals;
    K2_Edges_free(&E);
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  if (reps < 1) reps = 1;
  const char *defaults[] = {"cnr-2000/cnr-2000", "cnr-2000/cnr-2000-t",
                            "uk-2007-05@100000/uk-2007-05@100000"};
  int count = argc > 2 ? argc - 2 : 3;
  printf("threads %d, best of %d\n", omp_get_max_threads(), reps);
  printf("%-40s %10s %12s %12s %12s\n", "graph", "arcs", "seq Marcs/s", "par Marcs/s", "offsets");
  for (int g = 0; g < count; g++) {
    char base[4096];
    if (argc > 2) snprintf(base, sizeof base, "%s", argv[g + 2]);
    else snprintf(base, sizeof base, "%s/%s", K2_DATA_DIR, defaults[g]);
    char path[4200];
    snprintf(path, sizeof path, "%s.offsets", base);
    FILE *f = fopen(path, "rb");
    bool has_offsets = f != NULL;
    if (f) fclose(f);
    GrB_Index arcs = 0;
    bool ok1, ok2 = true;
    double ts = best_time(base, false, reps, &arcs, &ok1);
    double tp = has_offsets ? best_time(base, true, reps, &arcs, &ok2) : 0;
    if (!ok1 || !ok2) return 1;
    const char *name = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
    printf("%-40s %10llu %12.1f ", name, (unsigned long long)arcs, arcs / ts / 1e6);
    if (has_offsets) printf("%12.1f %12s\n", arcs / tp / 1e6, "yes");
    else printf("%12s %12s\n", "-", "no");
  }
  return 0;
}
