// fuzz_edge_list.c: libFuzzer target for the edge list reader.
// SPDX-License-Identifier: Apache-2.0
#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_text(data, size, K2_FORMAT_EDGE_LIST);
}
