// k2_omp_product_avx2.c: the OpenMP engine built for x86-64 with AVX2 and BMI2.
// SPDX-License-Identifier: Apache-2.0
//
// The same source as k2_omp_product.c, compiled with -mavx2 -mbmi2 (CMakeLists.txt): BMI2's
// pdep gathers a node's leaves in one instruction and its shifts free the expansion of flag
// dependencies; AVX2 widens the decoding of the cached bottom codes. k2_omp_product calls
// k2_omp_product_avx2 when the CPU has both (cnr-2000, k²+B: 3.1 -> 2.0 ms on the development
// machine). Elsewhere this file is empty.
#if defined(__x86_64__) && defined(__AVX2__) && defined(__BMI2__)
#define K2_OMP_VARIANT
#define K2_OMP_ENTRY k2_omp_product_avx2
#include "k2_omp_product.c"
#else
typedef int k2_omp_product_avx2_not_built;  // ISO C: a translation unit is not empty
#endif
