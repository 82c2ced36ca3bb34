// k2_api.h: shared pieces of the front door (internal): the settings and the burble, the
// matrix check of the public calls, and the row summaries cached on a K2_Matrix. What the
// GraphBLAS bridge shares is in bridge/k2_bridge.h.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_API_H
#define K2_API_H

#include <k2grb.h>

// Settings (src/api/k2_settings.c).
bool k2_api_burble(void);
bool k2_api_cache_enabled(void);
bool k2_api_force_fallback(void);
void k2_api_set_path(K2_Path path);
// One burble line on stderr: "k2grb: <fn>: <path>: <details>".
void k2_api_say(const char *fn, K2_Path path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// k2_matrix_check plus cheap consistency checks of the object: GrB_INVALID_OBJECT when a
// live handle holds an inconsistent tree (e.g. memory overwritten by the caller).
GrB_Info k2_api_check_matrix(K2_Matrix A, const char *fn);

// The row summaries (src/api/k2_occupancy.c), for the products and K2_Matrix_print.
// How many entries each row (left: column) of A holds, cached like the occupancy: with every
// u(j) present, a PLUS product with a constant multiply (PLUS_PAIR: LAGraph's degrees) is the
// constant times the degree, so it needs no traversal after the first.
GrB_Info k2_api_degrees(const int64_t **deg, uint64_t *occupied, K2_Matrix A, bool left);

// Occupancy of A's rows (left: columns): one byte each, 1 iff it holds an entry, and their
// number; computed by one engine product on first use and cached on the matrix until it changes.
// The bytes stay valid while A is unchanged.
GrB_Info k2_api_occupancy(const uint8_t **occ, uint64_t *count, K2_Matrix A, bool left);

// The number of entries of row idx (by_col: column idx) of A where the degrees or the occupancy
// already cached on A tell it (computed by neither), else K2_LINE_UNKNOWN: a tree's line query
// walks every node of the line's stripe that holds an entry, even for an empty line (hundreds of
// microseconds for a row of R-MAT 22), and with the count it stops at the line's last entry.
// The caller assembles A's pending edits first: the caches describe the assembled tree and go
// with the next assembly.
uint64_t k2_api_line_count(K2_Matrix A, bool by_col, uint64_t idx);

#endif
