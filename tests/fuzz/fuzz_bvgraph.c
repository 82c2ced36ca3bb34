// fuzz_bvgraph.c: libFuzzer target for the BVGraph (LAW WebGraph) reader.
// SPDX-License-Identifier: Apache-2.0
//
// Input: an options byte, then each part with its 4-byte little-endian length (binary .graph data
// may hold any byte), the .offsets last:
//   [options][u32 props_len][props][u32 graph_len][graph][offsets (the rest; none if empty)]
// The three parts are written to a private folder and read back through K2_Edges_readBVGraph:
// the reader must return an error or a consistent edge list, never crash, leak or touch E.
#define _GNU_SOURCE  // mkdtemp
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <k2grb.h>

#include "fuzz_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[256];

static void remove_dir(void) {
  const char *ext[] = {"properties", "graph", "offsets"};
  char path[300];
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s/g.%s", fuzz_dir, ext[k]);
    unlink(path);
  }
  rmdir(fuzz_dir);
}

static int write_part(const char *ext, const uint8_t *p, size_t n) {
  char path[300];
  snprintf(path, sizeof path, "%s/g.%s", fuzz_dir, ext);
  FILE *f = fopen(path, "wb");
  if (f == NULL) return -1;
  size_t w = n ? fwrite(p, 1, n, f) : 0;
  fclose(f);
  return w == n ? 0 : -1;
}

static uint32_t read_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_dir[0] == '\0') {
    snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/k2fuzz-bv-XXXXXX");
    if (mkdtemp(fuzz_dir) == NULL) abort();
    atexit(remove_dir);
  }
  if (size < 9) return 0;
  uint8_t options = data[0];
  size_t at = 1;
  uint32_t plen = read_u32(data + at);
  at += 4;
  if (plen > size - at) return 0;
  const uint8_t *props = data + at;
  at += plen;
  if (size - at < 4) return 0;
  uint32_t glen = read_u32(data + at);
  at += 4;
  if (glen > size - at) return 0;
  const uint8_t *graph = data + at;
  at += glen;
  char path[300];
  snprintf(path, sizeof path, "%s/g.offsets", fuzz_dir);
  unlink(path);
  if (write_part("properties", props, plen) != 0 || write_part("graph", graph, glen) != 0) abort();
  if (size > at && write_part("offsets", data + at, size - at) != 0) abort();

  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.symmetrize = options & 1;
  opt.transpose = options & 2;
  opt.drop_self_loops = options & 4;
  K2_Edges E;
  memset(&E, 0x77, sizeof E);
  K2_Edges before = E;
  snprintf(path, sizeof path, "%s/g", fuzz_dir);
  GrB_Info info = K2_Edges_readBVGraph(&E, path, &opt);
  if (info != GrB_SUCCESS) {
    if (memcmp(&E, &before, sizeof E) != 0) abort();  // touched on error
    return 0;
  }
  fuzz_check_edges(&E, opt.drop_self_loops);
  K2_Edges_free(&E);
  return 0;
}
