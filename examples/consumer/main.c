// A minimal k2grb program: build a 4-cycle, multiply it by a vector, check the result; with
// K2GRB_CONSUMER_ALGORITHMS, also a BFS from the algorithms library. Built by CMake
// (CMakeLists.txt, find_package) or by hand:
//   cc main.c -DK2GRB_CONSUMER_ALGORITHMS $(pkg-config --cflags --libs k2grb_algorithms)
#include <stdio.h>

#include <k2grb.h>
#ifdef K2GRB_CONSUMER_ALGORITHMS
#include <k2grb_algorithms.h>
#endif

int main(void) {
  int major, minor, patch;
  K2_version(&major, &minor, &patch);
  printf("k2grb %d.%d.%d (headers %s)\n", major, minor, patch, K2GRB_VERSION_STRING);
  if (major != K2GRB_VERSION_MAJOR) return 1;  // a library of another ABI than the headers
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
#ifdef K2GRB_CONSUMER_ALGORITHMS
  // the cycle 0 -> 1 -> 2 -> 3 -> 0 from vertex 0: levels 0 1 2 3
  GrB_Vector level = NULL;
  char msg[K2_MSG_LEN];
  if (K2_bfs(&level, NULL, A, 0, msg) != GrB_SUCCESS) {
    fprintf(stderr, "bfs failed: %s\n", msg);
    return 1;
  }
  int64_t lv[4] = {-1, -1, -1, -1};
  for (GrB_Index i = 0; i < 4; i++) GrB_Vector_extractElement_INT64(&lv[i], level, i);
  int bfs_ok = lv[0] == 0 && lv[1] == 1 && lv[2] == 2 && lv[3] == 3;
  printf("bfs levels %lld %lld %lld %lld: %s\n", (long long)lv[0], (long long)lv[1], (long long)lv[2],
         (long long)lv[3], bfs_ok ? "ok" : "WRONG");
  ok = ok && bfs_ok;
  GrB_Vector_free(&level);
#endif
  K2_Matrix_free(&A);
  K2_finalize();
  return ok ? 0 : 1;
}
