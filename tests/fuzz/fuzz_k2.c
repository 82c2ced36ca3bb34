// fuzz_k2.c: libFuzzer target for the .k2 loader (K2_Matrix_deserialize validates everything).
// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>

#include <k2grb.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  return K2_init() == GrB_SUCCESS ? 0 : 1;
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
