// A minimal k2grb program: build a 4-cycle, multiply it by a vector, check the result.
#include <stdio.h>

#include <k2grb.h>

int main(void) {
  if (K2_init() != GrB_SUCCESS) return 1;
  uint32_t I[4] = {0, 1, 2, 3}, J[4] = {1, 2, 3, 0};
  K2_Matrix A = NULL;
  if (K2_Matrix_new(&A, 4, 4) != GrB_SUCCESS || K2_Matrix_build_32(A, I, J, 4) != GrB_SUCCESS) {
    fprintf(stderr, "build failed: %s\n", K2_error_string());
    return 1;
  }
  float x[4] = {1, 2, 3, 4}, y[4];
  if (K2_dense_mxv(y, A, x, K2_PLUS_TIMES, GrB_FP32) != GrB_SUCCESS) return 1;
  int ok = y[0] == 2 && y[1] == 3 && y[2] == 4 && y[3] == 1;
  printf("y = %g %g %g %g: %s\n", y[0], y[1], y[2], y[3], ok ? "ok" : "WRONG");
  K2_Matrix_free(&A);
  K2_finalize();
  return ok ? 0 : 1;
}
