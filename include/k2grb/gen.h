// k2grb/gen.h: synthetic graphs (R-MAT / Graph500 Kronecker, 2-D grid, uniform random, web-like).
// SPDX-License-Identifier: Apache-2.0
//
// Every generator fills a K2_Edges (see io.h; the caller frees it with K2_Edges_free) and is
// deterministic: the same parameters and seed give the same edges in the same order, whatever
// the number of OpenMP threads (random numbers come from a counter-based hash of the seed and
// the edge or node number, never from a shared stream). Duplicates and self-loops are kept
// where a model produces them; K2_Matrix_build_32 merges duplicates. docs/generators.md
// describes the models and their k²-tree statistics.
#ifndef K2GRB_GEN_H
#define K2GRB_GEN_H

#ifndef K2GRB_H
#error "include <k2grb.h>"
#endif

// R-MAT (Chakrabarti et al.) as in the Graph500 Kronecker generator: each edge descends `scale`
// levels of the adjacency matrix, choosing quadrant (0,0), (0,1), (1,0), (1,1) with probability
// a, b, c, d = 1-a-b-c. n = 2^scale, m = edge_factor * n edges (duplicates and self-loops kept).
typedef struct {
  uint32_t scale;      // 0..32
  double edge_factor;  // edges per vertex (Graph500: 16)
  double a, b, c;      // quadrant probabilities (Graph500: 0.57, 0.19, 0.19)
  bool permute;        // relabel the vertices by a pseudo-random permutation (Graph500: yes)
  uint64_t seed;
} K2_RmatParams;

// Graph500 defaults for the given scale: edge factor 16, 0.57/0.19/0.19/0.05, permuted, seed 1.
void K2_RmatParams_default(K2_RmatParams *p, uint32_t scale);
GrB_Info K2_Gen_rmat(K2_Edges *E, const K2_RmatParams *p);

// rows x cols grid, vertex (r, c) = r*cols + c, each linked to its (up to 4) neighbours in both
// directions; rows*cols <= 2^32.
GrB_Info K2_Gen_grid2d(K2_Edges *E, uint32_t rows, uint32_t cols);

// m edges with both ends uniform in [0, n) (duplicates and self-loops possible); n <= 2^32.
GrB_Info K2_Gen_uniform(K2_Edges *E, GrB_Index n, GrB_Index m, uint64_t seed);

// A web-crawl-like graph ("host-local copying model", docs/generators.md): nodes are pages in
// lexicographic URL order, grouped into hosts of log-normal size. Each page links to its host's
// navigation pages, copies part of the links of a recent page of its host (its prototype), and
// adds fresh links: runs of nearby pages of its host, and a few links to other hosts (mostly
// nearby ones, mostly their home pages). The result keeps the locality of real crawls: about 3
// to 4 non-zeros per non-empty 4x4 block and 5 to 6 k²-tree bits per edge, like cnr-2000.
typedef struct {
  double avg_degree;      // mean outdegree (10)
  double host_size;       // median host size in pages (64); log-normal, sigma host_sigma
  double host_sigma;      // (1.5)
  uint32_t menu;          // navigation pages of a host that every page links to (6)
  double menu_keep;       // probability of each navigation link (0.8)
  double copy_prob;       // probability that a page has a prototype (0.85)
  double copy_keep;       // probability of copying each link of the prototype (0.9)
  uint32_t window;        // the prototype is one of the `window` previous pages (3)
  double run_mean;        // mean length of a run of consecutive local links (4)
  double local_spread;    // mean distance of a run from the page (8)
  double remote_frac;     // fraction of fresh links that leave the host (0.10)
  uint64_t seed;
} K2_WebParams;

void K2_WebParams_default(K2_WebParams *p);
// n pages (n <= 2^32), about n * avg_degree edges, no duplicates, rows in order.
GrB_Info K2_Gen_web(K2_Edges *E, GrB_Index n, const K2_WebParams *p);

#endif
