// fuzz_k2.c: libFuzzer target for the .k2 loader (K2_Matrix_deserialize validates everything).
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <stdlib.h>

#include <k2grb.h>

// With K2_FUZZ_WRITE_SEEDS=<dir>, write a few small valid .k2 images there and exit: the seed
// corpus (.ci/fuzz.sh), made by the library under test so it follows the format as it is.
// Seeds 4 and 5 have compressed leaves (format version 3), 4x4 and 8x8; seed 6 full blocks (a
// 16 x 16 clique and noise; format version 4).
static void write_seeds(const char *dir) {
  const GrB_Index shapes[7][3] = {{0, 0, 0},      {5, 5, 5},       {100, 100, 300},
                                  {3, 70000, 50}, {100, 100, 300}, {200, 90, 300}, {40, 40, 300}};
  uint64_t s = 12345;
  for (int k = 0; k < 7; k++) {
    K2_Matrix A = NULL;
    K2_Format fmt;
    K2_Format_default(&fmt);
    fmt.compress_leaves = k == 4 || k == 5;
    fmt.full_blocks = k == 6;
    fmt.leaf_log = k == 4 ? 2 : k == 5 ? 3 : 1;
    if (K2_Matrix_new_format(&A, shapes[k][0], shapes[k][1], &fmt) != GrB_SUCCESS) exit(1);
    GrB_Index n = shapes[k][2];
    uint32_t I[300], J[300];
    for (GrB_Index e = 0; e < n; e++) {
      s = s * 6364136223846793005u + 1442695040888963407u;
      I[e] = k == 1 ? (uint32_t)e : (uint32_t)((s >> 33) % shapes[k][0]);
      J[e] = k == 1 ? (uint32_t)e : (uint32_t)((s >> 13) % shapes[k][1]);
      if (k == 6 && e < 256) {
        I[e] = (uint32_t)(16 + e / 16);
        J[e] = (uint32_t)(16 + e % 16);
      }
    }
    GrB_Index size = 0;
    if (K2_Matrix_build_32(A, I, J, n) != GrB_SUCCESS || K2_Matrix_serializeSize(&size, A) != GrB_SUCCESS) exit(1);
    void *blob = malloc(size);
    if (blob == NULL || K2_Matrix_serialize(blob, &size, A) != GrB_SUCCESS) exit(1);
    char path[4096];
    snprintf(path, sizeof path, "%s/seed%d.k2", dir, k);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(blob, 1, size, f) != size || fclose(f) != 0) exit(1);
    free(blob);
    K2_Matrix_free(&A);
  }
  exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (K2_init() != GrB_SUCCESS) return 1;
  if (getenv("K2_FUZZ_WRITE_SEEDS") != NULL) write_seeds(getenv("K2_FUZZ_WRITE_SEEDS"));
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  K2_Matrix A = NULL;
  GrB_Info info = K2_Matrix_deserialize(&A, data, size);
  if (info == GrB_SUCCESS) {
    // a loaded matrix must answer queries consistently
    GrB_Index nrows, ncols, nvals;
    if (K2_Matrix_nrows(&nrows, A) != GrB_SUCCESS || K2_Matrix_ncols(&ncols, A) != GrB_SUCCESS ||
        K2_Matrix_nvals(&nvals, A) != GrB_SUCCESS) {
      abort();
    }
    if (nvals > 0 && nvals < (1u << 20)) {
      uint32_t *I = malloc(nvals * sizeof(uint32_t)), *J = malloc(nvals * sizeof(uint32_t));
      GrB_Index got = nvals;
      if (I != NULL && J != NULL && K2_Matrix_extractTuples_32(I, J, &got, A) == GrB_SUCCESS) {
        for (GrB_Index e = 0; e < got; e++) {
          if (I[e] >= nrows || J[e] >= ncols) abort();
        }
      }
      free(I);
      free(J);
    }
    K2_Matrix_free(&A);
  } else if (A != NULL) {
    abort();  // nothing half-built
  }
  return 0;
}
