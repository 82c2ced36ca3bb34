// k2_read_mm.c: Matrix Market reader (coordinate and array; the pattern is the matrix).
// SPDX-License-Identifier: Apache-2.0
//
// The format (Boisvert, Pozo, Remington, "The Matrix Market Exchange Formats: Initial Design",
// NIST 1996): a banner "%%MatrixMarket matrix <coordinate|array> <field> <symmetry>" (words in
// any case), '%' comment lines, a size line ("M N NZ" for coordinate, "M N" for array), then the
// entries, 1-based, with 0 (pattern), 1 (real, integer) or 2 (complex) values each. Values are
// checked for form and then ignored: every listed entry is part of the pattern, explicit zeros
// included (as in GraphBLAS). Policy where the format leaves room:
//  - symmetric / hermitian: off-diagonal entries are mirrored, the diagonal kept once; entries
//    above the diagonal are accepted and mirrored too (the pattern stays symmetric);
//  - skew-symmetric: a diagonal entry is an error (it must be zero, so it cannot be stored);
//  - hermitian needs the complex field; symmetric kinds need a square matrix; "array pattern"
//    does not exist;
//  - duplicate entries are kept in the list and merged when a tree is built (a pattern has no
//    values to combine, so nothing is ambiguous);
//  - array format: a dense pattern (every stored value is an entry), column by column; for the
//    symmetric kinds the stored lower triangle is mirrored, skew-symmetric has no diagonal;
//  - blank lines and '%' lines are skipped anywhere after the banner;
//  - integer values must be integers (any length), real values decimal numbers or inf/nan;
//    LAGraph's "%%GraphBLAS type float|double" comment makes an integer file's values real.
#include <string.h>
#include <strings.h>

#include "io/k2_edges.h"
#include "io/k2_io.h"
#include "util/k2_error.h"

typedef enum { MM_PATTERN, MM_REAL, MM_INTEGER, MM_COMPLEX } mm_field;
typedef enum { MM_GENERAL, MM_SYMMETRIC, MM_SKEW, MM_HERMITIAN } mm_symmetry;

// The next blank-separated word of the banner (lower-cased into w); false if none.
static bool mm_word(const char **pp, char *w, size_t cap) {
  const char *p = k2_skip_blanks(*pp);
  size_t n = 0;
  while (*p != '\0' && !k2_is_blank(*p)) {
    if (n + 1 < cap) w[n++] = (char)((*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p);
    p++;
  }
  w[n] = '\0';
  *pp = p;
  return n > 0;
}

// Length of the token at p, for quoting it in a message.
static int mm_token_len(const char *p) {
  int n = 0;
  while (p[n] != '\0' && !k2_is_blank(p[n]) && n < 40) n++;
  return n;
}

static bool mm_skip_line(const char *line) {
  const char *p = k2_skip_blanks(line);
  return *p == '\0' || *p == '%';
}

// Next line that is neither blank nor a comment; GrB_NO_VALUE at the end.
static GrB_Info mm_next_data(k2_text *t, char **line, size_t *len) {
  for (;;) {
    GrB_Info info = k2_text_next(t, line, len);
    if (info != GrB_SUCCESS) return info;
    if (!mm_skip_line(*line)) return GrB_SUCCESS;
  }
}

// A 1-based index in 1..limit, converted to 0-based.
static GrB_Info mm_index(k2_text *t, const char **pp, uint64_t limit, const char *what,
                         uint32_t *out) {
  const char *p = k2_skip_blanks(*pp);
  uint64_t v;
  int status = k2_scan_u64(&p, &v);
  if (status == 1 || !k2_token_end(*p)) {
    const char *q = k2_skip_blanks(*pp);
    if (*q == '\0') return k2_text_error(t, GrB_INVALID_VALUE, "malformed entry: missing %s index", what);
    return k2_text_error(t, GrB_INVALID_VALUE, "malformed entry: %s index '%.*s' is not a number",
                         what, mm_token_len(q), q);
  }
  if (status == 2 || v > limit) {
    return k2_text_error(t, GrB_INVALID_INDEX, "%s index %.*s out of range 1..%llu", what,
                         mm_token_len(k2_skip_blanks(*pp)), k2_skip_blanks(*pp),
                         (unsigned long long)limit);
  }
  if (v == 0) return k2_text_error(t, GrB_INVALID_INDEX, "%s index 0 is below the base 1", what);
  *out = (uint32_t)(v - 1);
  *pp = p;
  return GrB_SUCCESS;
}

// The values of one entry (checked, ignored), then the end of the line.
static GrB_Info mm_values(k2_text *t, const char *p, const char *end, mm_field field) {
  int count = field == MM_PATTERN ? 0 : field == MM_COMPLEX ? 2 : 1;
  static const char *names[] = {"pattern", "real", "integer", "complex"};
  for (int k = 0; k < count; k++) {
    p = k2_skip_blanks(p);
    if (*p == '\0' && p == end) {
      return k2_text_error(t, GrB_INVALID_VALUE, "malformed entry: %s field needs %d value%s, found %d",
                           names[field], count, count > 1 ? "s" : "", k);
    }
    const char *q = p;
    bool ok = field == MM_INTEGER ? k2_scan_integer(&q) : k2_scan_real(&q);
    if (!ok || !k2_token_end(*q)) {
      return k2_text_error(t, GrB_INVALID_VALUE, "malformed entry: '%.*s' is not a%s %s value",
                           mm_token_len(p), p, field == MM_INTEGER ? "n" : "",
                           field == MM_INTEGER ? "integer" : "real");
    }
    p = q;
  }
  p = k2_skip_blanks(p);
  if (p != end) {
    if (*p == '\0') return k2_text_error(t, GrB_INVALID_VALUE, "binary data (a NUL byte) in the line");
    return k2_text_error(t, GrB_INVALID_VALUE, "malformed entry: unexpected '%.*s' after %d value%s (%s field)",
                         mm_token_len(p), p, count, count == 1 ? "" : "s", names[field]);
  }
  return GrB_SUCCESS;
}

// Numbers of the size line: exactly `want` of them.
static GrB_Info mm_size_line(k2_text *t, const char *line, const char *end, int want,
                             uint64_t *v) {
  const char *p = line;
  for (int k = 0; k < want; k++) {
    p = k2_skip_blanks(p);
    int status = k2_scan_u64(&p, &v[k]);
    if (status != 0 || !k2_token_end(*p)) {
      return k2_text_error(t, GrB_INVALID_VALUE, "size line must be %s, found '%s'",
                           want == 3 ? "'rows columns entries'" : "'rows columns'", line);
    }
  }
  p = k2_skip_blanks(p);
  if (p != end) {
    return k2_text_error(t, GrB_INVALID_VALUE, "size line must be %s, found '%s'",
                         want == 3 ? "'rows columns entries'" : "'rows columns' (array format)", line);
  }
  for (int k = 0; k < 2; k++) {
    if (v[k] > K2_INDEX_MAX) {
      return k2_text_error(t, GrB_INVALID_VALUE, "dimension %llu exceeds 2^32",
                           (unsigned long long)v[k]);
    }
  }
  return GrB_SUCCESS;
}

static GrB_Info mm_push(K2_Edges *E, uint32_t i, uint32_t j, mm_symmetry sym) {
  GrB_Info info = k2_edges_push(E, i, j);
  if (info == GrB_SUCCESS && sym != MM_GENERAL && i != j) info = k2_edges_push(E, j, i);
  return info;
}

static GrB_Info mm_coordinate(K2_Edges *E, k2_text *t, mm_field field, mm_symmetry sym,
                              uint64_t nz) {
  uint64_t reserve = k2_text_reserve_hint(t, nz, 4);  // "i j\n" at least
  GrB_Info info = k2_edges_reserve(E, sym == MM_GENERAL ? reserve : 2 * reserve);
  if (info != GrB_SUCCESS) return info;
  uint64_t seen = 0;
  char *line;
  size_t len;
  while ((info = mm_next_data(t, &line, &len)) == GrB_SUCCESS) {
    if (seen == nz) {
      return k2_text_error(t, GrB_INVALID_VALUE,
                           "more entries than the %llu declared in the size line",
                           (unsigned long long)nz);
    }
    const char *p = line;
    uint32_t i, j;
    if ((info = mm_index(t, &p, E->nrows, "row", &i)) != GrB_SUCCESS) return info;
    if (!k2_is_blank(*p)) return k2_text_error(t, GrB_INVALID_VALUE, "malformed entry: missing column index");
    if ((info = mm_index(t, &p, E->ncols, "column", &j)) != GrB_SUCCESS) return info;
    if ((info = mm_values(t, p, line + len, field)) != GrB_SUCCESS) return info;
    if (sym == MM_SKEW && i == j) {
      return k2_text_error(t, GrB_INVALID_VALUE,
                           "diagonal entry (%u,%u) in a skew-symmetric matrix", i + 1, j + 1);
    }
    if ((info = mm_push(E, i, j, sym)) != GrB_SUCCESS) return info;
    seen++;
  }
  if (info != GrB_NO_VALUE) return info;
  if (seen < nz) {
    return k2_text_error(t, GrB_INVALID_VALUE, "file ends after %llu of the %llu declared entries",
                         (unsigned long long)seen, (unsigned long long)nz);
  }
  return GrB_SUCCESS;
}

static GrB_Info mm_array(K2_Edges *E, k2_text *t, mm_field field, mm_symmetry sym) {
  uint64_t m = E->nrows, n = E->ncols, want;
  // Every cell of the array is an entry (the symmetric kinds mirrored): their number must fit in
  // 64 bits. A 2^32 x 2^32 array has 2^64; then also n (n + 1) overflows.
  uint64_t cells;
  if (__builtin_mul_overflow(m, n, &cells)) {
    return k2_text_error(t, GrB_INVALID_VALUE, "a %llu x %llu array is too large: 2^64 cells or more",
                         (unsigned long long)m, (unsigned long long)n);
  }
  if (sym == MM_GENERAL) {
    want = cells;
  } else {
    // the stored triangle: n (n + 1) / 2 values, n (n - 1) / 2 without the diagonal (skew);
    // the even factor is halved first, and the product is at most n n = cells
    uint64_t a = sym == MM_SKEW ? (n ? n - 1 : 0) : n + 1, b = n;
    if (a % 2 == 0) a /= 2;
    else b /= 2;
    want = a * b;
  }
  uint64_t i = sym == MM_SKEW ? 1 : 0, j = 0, seen = 0;
  char *line;
  size_t len;
  GrB_Info info;
  while ((info = mm_next_data(t, &line, &len)) == GrB_SUCCESS) {
    if (seen == want) {
      return k2_text_error(t, GrB_INVALID_VALUE, "more values than the %llu of a %llu x %llu array",
                           (unsigned long long)want, (unsigned long long)m, (unsigned long long)n);
    }
    if ((info = mm_values(t, line, line + len, field)) != GrB_SUCCESS) return info;
    while (i >= m) {  // column-major; the symmetric kinds store rows j (or j+1) .. m-1
      j++;
      i = sym == MM_GENERAL ? 0 : sym == MM_SKEW ? j + 1 : j;
    }
    if ((info = mm_push(E, (uint32_t)i, (uint32_t)j, sym)) != GrB_SUCCESS) return info;
    i++;
    seen++;
  }
  if (info != GrB_NO_VALUE) return info;
  if (seen < want) {
    return k2_text_error(t, GrB_INVALID_VALUE, "file ends after %llu of the %llu values of the array",
                         (unsigned long long)seen, (unsigned long long)want);
  }
  return GrB_SUCCESS;
}

GrB_Info k2_read_matrix_market(K2_Edges *E, k2_text *t) {
  char *line;
  size_t len;
  GrB_Info info = k2_text_next(t, &line, &len);
  if (info == GrB_NO_VALUE) return k2_error_set(GrB_INVALID_VALUE, "%s:1: empty file", t->name);
  if (info != GrB_SUCCESS) return info;

  // banner
  const char *p = line;
  if (strncasecmp(p, "%%MatrixMarket", 14) != 0 || !k2_token_end(p[14])) {
    return k2_text_error(t, GrB_INVALID_VALUE,
                         "not a Matrix Market file: the first line must start with %%%%MatrixMarket");
  }
  p += 14;
  char object[32], format[32], fieldw[32], symw[32], extra[32];
  if (!mm_word(&p, object, sizeof object) || !mm_word(&p, format, sizeof format) ||
      !mm_word(&p, fieldw, sizeof fieldw) || !mm_word(&p, symw, sizeof symw)) {
    return k2_text_error(t, GrB_INVALID_VALUE,
                         "incomplete banner: expected '%%%%MatrixMarket matrix <format> <field> <symmetry>'");
  }
  if (mm_word(&p, extra, sizeof extra) || p != line + len) {
    return k2_text_error(t, GrB_INVALID_VALUE, "unexpected '%s' after the banner's symmetry", extra);
  }
  if (strcmp(object, "matrix") != 0) {
    return k2_text_error(t, GrB_INVALID_VALUE, "object '%s' is not supported (only 'matrix')", object);
  }
  bool coordinate = strcmp(format, "coordinate") == 0;
  if (!coordinate && strcmp(format, "array") != 0) {
    return k2_text_error(t, GrB_INVALID_VALUE, "unknown format '%s' (coordinate or array)", format);
  }
  mm_field field;
  if (strcmp(fieldw, "pattern") == 0) field = MM_PATTERN;
  else if (strcmp(fieldw, "real") == 0) field = MM_REAL;
  else if (strcmp(fieldw, "integer") == 0) field = MM_INTEGER;
  else if (strcmp(fieldw, "complex") == 0) field = MM_COMPLEX;
  else {
    return k2_text_error(t, GrB_INVALID_VALUE,
                         "unknown field '%s' (pattern, real, integer or complex)", fieldw);
  }
  mm_symmetry sym;
  if (strcmp(symw, "general") == 0) sym = MM_GENERAL;
  else if (strcmp(symw, "symmetric") == 0) sym = MM_SYMMETRIC;
  else if (strcmp(symw, "skew-symmetric") == 0) sym = MM_SKEW;
  else if (strcmp(symw, "hermitian") == 0) sym = MM_HERMITIAN;
  else {
    return k2_text_error(t, GrB_INVALID_VALUE,
                         "unknown symmetry '%s' (general, symmetric, skew-symmetric or hermitian)", symw);
  }
  if (sym == MM_HERMITIAN && field != MM_COMPLEX) {
    return k2_text_error(t, GrB_INVALID_VALUE, "hermitian needs the complex field, not '%s'", fieldw);
  }
  if (!coordinate && field == MM_PATTERN) {
    return k2_text_error(t, GrB_INVALID_VALUE, "'array pattern' is not a Matrix Market combination");
  }

  // size line; on the way, LAGraph's "%%GraphBLAS type float|double" comment says that an
  // "integer" file holds floating-point values (LAGraph's matrix_fp32.mtx has -inf): accept them
  for (;;) {
    info = k2_text_next(t, &line, &len);
    if (info != GrB_SUCCESS || !mm_skip_line(line)) break;
    const char *c = k2_skip_blanks(line);
    if (field == MM_INTEGER && strncmp(c, "%%GraphBLAS type ", 17) == 0) {
      const char *ty = k2_skip_blanks(c + 17);
      if (strncmp(ty, "float", 5) == 0 || strncmp(ty, "double", 6) == 0) field = MM_REAL;
    }
  }
  if (info == GrB_NO_VALUE) {
    return k2_text_error(t, GrB_INVALID_VALUE, "file ends before the size line");
  }
  if (info != GrB_SUCCESS) return info;
  uint64_t size[3] = {0, 0, 0};
  if ((info = mm_size_line(t, line, line + len, coordinate ? 3 : 2, size)) != GrB_SUCCESS) return info;
  if (sym != MM_GENERAL && size[0] != size[1]) {
    return k2_text_error(t, GrB_INVALID_VALUE, "a %s matrix must be square, not %llu x %llu", symw,
                         (unsigned long long)size[0], (unsigned long long)size[1]);
  }
  E->nrows = size[0];
  E->ncols = size[1];
  return coordinate ? mm_coordinate(E, t, field, sym, size[2]) : mm_array(E, t, field, sym);
}
