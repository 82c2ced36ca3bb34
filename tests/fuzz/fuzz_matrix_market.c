// fuzz_matrix_market.c: libFuzzer target for the matrix market reader.
// SPDX-License-Identifier: Apache-2.0
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_text(data, size, K2_FORMAT_MATRIX_MARKET);
}
