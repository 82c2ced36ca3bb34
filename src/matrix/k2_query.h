// k2_query.h: reading entries out of a tree (internal).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_QUERY_H
#define K2_QUERY_H

#include "matrix/k2_matrix.h"

// Entries in row-major order into I, J (either may be NULL); *count receives nvals.
GrB_Info k2_query_tuples_32(const k2_tree *t, uint32_t *I, uint32_t *J, GrB_Index *count);
// Is (i, j) an entry? (in range, unchecked)
bool k2_query_entry(const k2_tree *t, uint64_t i, uint64_t j);
// Columns of row idx (by_col false) or rows of column idx (by_col true), ascending.
// *count: capacity in, number found out; out may be NULL (count only). known: the line's number
// of entries where the caller knows it (a matrix's cached degrees), else K2_LINE_UNKNOWN: the walk
// then ends at the line's last entry instead of covering its whole stripe, and a count alone
// takes no walk.
#define K2_LINE_UNKNOWN UINT64_MAX
GrB_Info k2_query_line(const k2_tree *t, bool by_col, uint64_t idx, GrB_Index *out, GrB_Index *count,
                       uint64_t known);
// The first (at most *count) of them, ascending; *count: capacity in, number written out; *more:
// whether the line holds more. The walk stops one past the capacity (at the capacity or the
// line's last entry where known, as above, says how many there are).
GrB_Info k2_query_line_first(const k2_tree *t, bool by_col, uint64_t idx, GrB_Index *out, GrB_Index *count,
                             bool *more, uint64_t known);

#endif
