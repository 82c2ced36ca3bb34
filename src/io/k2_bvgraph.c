// k2_bvgraph.c: the LAW WebGraph BVGraph reader (Boldi–Vigna compression, format version 0).
// SPDX-License-Identifier: Apache-2.0
//
// A graph is basename.properties (parameters), basename.graph (a big-endian bit stream of the
// successor lists of the nodes in order) and optionally basename.offsets (n+1 codes: the bit
// offset of each node's record, as deltas). Each record of node x is:
//   outdegree d;  if windowsize > 0: reference r (0 = none, else the list of x-r is the model);
//   if r > 0: block count and blocks (alternately copied / skipped runs of the model list, every
//   block after the first stored minus 1; an even count copies the rest of the model list);
//   if successors remain: interval count (γ), intervals (first left extreme as a zig-zag offset
//   from x, later ones as gaps from the previous right end; lengths minus minintervallength);
//   then residuals (first a zig-zag offset from x, later gaps minus 1).
// The codes of each field come from compressionflags (defaults: γ, unary references, ζ_k
// residuals). Every value is checked; the decoded lists must be strictly increasing, below
// `nodes`, and add up to `arcs`.
//
// With .offsets the nodes are cut into chunks decoded in parallel: a chunk first decodes the
// window of nodes before it by random access (following reference chains through the offsets),
// and every record must end exactly where the next offset says. Without .offsets, one scan.
#include "io/k2_bvgraph.h"

#include <errno.h>
#include <omp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/k2_edges.h"
#include "util/k2_error.h"

#define BV_LIKELY(x) __builtin_expect(!!(x), 1)
#define BV_UNLIKELY(x) __builtin_expect(!!(x), 0)

// Codes, numbered as WebGraph's CompressionFlags.
enum { BV_DELTA = 1, BV_GAMMA = 2, BV_GOLOMB = 3, BV_SKEWED_GOLOMB = 4, BV_UNARY = 5, BV_ZETA = 6,
       BV_NIBBLE = 7 };

// Zero bytes after every loaded file, so that a 64-bit peek never leaves the buffer.
#define BV_PAD 16
// Longest .properties file read (the LAW ones are about 1 KB).
#define BV_PROPS_MAX (1 << 20)

//==============================================================================================
// .properties
//==============================================================================================

typedef struct {
  uint64_t nodes, arcs;
  uint32_t window;       // windowsize
  int64_t maxrefcount;   // longest reference chain (< 0: unbounded)
  uint32_t minint;       // minintervallength (0: no intervals)
  uint32_t zetak;
  // codes of outdegrees, blocks, residuals, references, block counts, offsets
  int c_outdeg, c_blocks, c_resid, c_ref, c_bcount, c_offsets;
} bv_props;

static char *bv_trim(char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\f') s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\f'))
    s[--n] = '\0';
  return s;
}

// Finds key in the parsed lines (keys[k] = values[k]); NULL if absent.
static const char *bv_prop(char **keys, char **values, size_t count, const char *key) {
  const char *found = NULL;
  for (size_t k = 0; k < count; k++)
    if (strcmp(keys[k], key) == 0) found = values[k];  // the last one wins, as in Java
  return found;
}

static GrB_Info bv_prop_u64(uint64_t *out, char **keys, char **values, size_t count,
                            const char *key, uint64_t max, const char *path) {
  const char *v = bv_prop(keys, values, count, key);
  if (v == NULL) K2_FAIL(GrB_INVALID_VALUE, "%s: missing property key '%s'", path, key);
  char *end;
  errno = 0;
  if (*v < '0' || *v > '9') goto bad;
  unsigned long long x = strtoull(v, &end, 10);
  if (errno != 0 || *end != '\0' || x > max) goto bad;
  *out = x;
  return GrB_SUCCESS;
bad:
  K2_FAIL(GrB_INVALID_VALUE, "%s: property '%s' has an invalid value '%s' (expected 0..%llu)", path,
          key, v, (unsigned long long)max);
}

// One flag such as RESIDUALS_ZETA; sets the matching code.
static bool bv_flag(bv_props *P, const char *flag) {
  static const struct { const char *name; size_t off; } fields[] = {
      {"OUTDEGREES_", offsetof(bv_props, c_outdeg)}, {"BLOCKS_", offsetof(bv_props, c_blocks)},
      {"RESIDUALS_", offsetof(bv_props, c_resid)},   {"REFERENCES_", offsetof(bv_props, c_ref)},
      {"BLOCK_COUNT_", offsetof(bv_props, c_bcount)}, {"OFFSETS_", offsetof(bv_props, c_offsets)}};
  static const struct { const char *name; int code; } codes[] = {
      {"DELTA", BV_DELTA}, {"GAMMA", BV_GAMMA}, {"GOLOMB", BV_GOLOMB},
      {"SKEWED_GOLOMB", BV_SKEWED_GOLOMB}, {"UNARY", BV_UNARY}, {"ZETA", BV_ZETA},
      {"NIBBLE", BV_NIBBLE}};
  for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
    size_t len = strlen(fields[f].name);
    if (strncmp(flag, fields[f].name, len) != 0) continue;
    for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++)
      if (strcmp(flag + len, codes[c].name) == 0) {
        *(int *)((char *)P + fields[f].off) = codes[c].code;
        return true;
      }
  }
  return false;
}

static GrB_Info bv_read_props(bv_props *P, const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    K2_FAIL(errno == ENOENT ? GrB_NO_VALUE : GrB_INVALID_VALUE, "%s: cannot open: %s", path,
            strerror(errno));
  char *text = malloc(BV_PROPS_MAX + 1);
  if (text == NULL) {
    fclose(f);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
  }
  size_t len = fread(text, 1, BV_PROPS_MAX + 1, f);
  bool err = ferror(f);
  fclose(f);
  if (err || len > BV_PROPS_MAX) {
    free(text);
    K2_FAIL(GrB_INVALID_VALUE, "%s: %s", path, err ? "read error" : "too large for a .properties");
  }
  text[len] = '\0';
  if (memchr(text, '\0', len) != NULL) {
    free(text);
    K2_FAIL(GrB_INVALID_VALUE, "%s: binary data in a .properties file", path);
  }

  // Split into key/value pairs: "key=value" or "key: value"; '#' and '!' start comments.
  size_t nlines = 1;
  for (size_t k = 0; k < len; k++) nlines += text[k] == '\n';
  char **keys = malloc(2 * nlines * sizeof *keys);
  if (keys == NULL) {
    free(text);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
  }
  char **values = keys + nlines;
  size_t count = 0;
  for (char *line = text; line != NULL;) {
    char *next = strchr(line, '\n');
    if (next != NULL) *next++ = '\0';
    char *s = bv_trim(line);
    line = next;
    if (*s == '\0' || *s == '#' || *s == '!') continue;
    char *sep = strpbrk(s, "=:");
    if (sep == NULL) continue;  // a key without value: nothing we need
    *sep = '\0';
    keys[count] = bv_trim(s);
    values[count] = bv_trim(sep + 1);
    count++;
  }

  GrB_Info info = GrB_SUCCESS;
  memset(P, 0, sizeof *P);
  P->c_outdeg = BV_GAMMA;
  P->c_blocks = BV_GAMMA;
  P->c_resid = BV_ZETA;
  P->c_ref = BV_UNARY;
  P->c_bcount = BV_GAMMA;
  P->c_offsets = BV_GAMMA;
  uint64_t v;
  const char *s;
#define BV_TRY(call)                 \
  do {                               \
    info = (call);                   \
    if (info != GrB_SUCCESS) goto done; \
  } while (0)
  if ((s = bv_prop(keys, values, count, "graphclass")) != NULL && strstr(s, "BVGraph") == NULL) {
    info = k2_error_set(GrB_INVALID_VALUE, "%s: graphclass '%s' is not a BVGraph", path, s);
    goto done;
  }
  if ((s = bv_prop(keys, values, count, "version")) != NULL && strcmp(s, "0") != 0) {
    info = k2_error_set(GrB_INVALID_VALUE, "%s: unsupported BVGraph version '%s' (only 0)", path, s);
    goto done;
  }
  if ((s = bv_prop(keys, values, count, "endianness")) != NULL && strcmp(s, "big") != 0) {
    info = k2_error_set(GrB_INVALID_VALUE, "%s: unsupported endianness '%s' (only big)", path, s);
    goto done;
  }
  BV_TRY(bv_prop_u64(&P->nodes, keys, values, count, "nodes", (uint64_t)1 << 32, path));
  BV_TRY(bv_prop_u64(&P->arcs, keys, values, count, "arcs", UINT64_MAX / 16, path));
  BV_TRY(bv_prop_u64(&v, keys, values, count, "windowsize", 1 << 16, path));
  P->window = (uint32_t)v;
  BV_TRY(bv_prop_u64(&v, keys, values, count, "minintervallength", UINT32_MAX, path));
  P->minint = (uint32_t)v;
  s = bv_prop(keys, values, count, "maxrefcount");
  if (s != NULL && s[0] == '-') {  // negative: unbounded chains
    char *end;
    errno = 0;
    long long m = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || m >= 0) {
      info = k2_error_set(GrB_INVALID_VALUE, "%s: property 'maxrefcount' has an invalid value '%s'",
                          path, s);
      goto done;
    }
    P->maxrefcount = -1;
  } else {
    BV_TRY(bv_prop_u64(&v, keys, values, count, "maxrefcount", INT32_MAX, path));
    P->maxrefcount = (int64_t)v;
  }
  if ((s = bv_prop(keys, values, count, "compressionflags")) != NULL && *s != '\0') {
    char *copy = strdup(s);
    if (copy == NULL) {
      info = k2_error_set(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
      goto done;
    }
    for (char *save = NULL, *tok = strtok_r(copy, "|", &save); tok != NULL;
         tok = strtok_r(NULL, "|", &save)) {
      char *flag = bv_trim(tok);
      if (*flag != '\0' && !bv_flag(P, flag)) {
        info = k2_error_set(GrB_INVALID_VALUE, "%s: property 'compressionflags': unknown flag '%s'",
                            path, flag);
        break;
      }
    }
    free(copy);
    if (info != GrB_SUCCESS) goto done;
  }
  const int used[] = {P->c_outdeg, P->c_blocks, P->c_resid, P->c_ref, P->c_bcount, P->c_offsets};
  for (size_t k = 0; k < sizeof used / sizeof used[0]; k++)
    if (used[k] == BV_GOLOMB || used[k] == BV_SKEWED_GOLOMB) {
      info = k2_error_set(GrB_INVALID_VALUE,
                          "%s: property 'compressionflags': Golomb codes are not supported", path);
      goto done;
    }
  bool zeta = false;  // zetak matters only where a ζ code is used
  for (size_t k = 0; k < sizeof used / sizeof used[0]; k++) zeta |= used[k] == BV_ZETA;
  if (zeta) {
    BV_TRY(bv_prop_u64(&v, keys, values, count, "zetak", 62, path));
    if (v == 0) {
      info = k2_error_set(GrB_INVALID_VALUE, "%s: property 'zetak' must be at least 1", path);
      goto done;
    }
    P->zetak = (uint32_t)v;
  }
#undef BV_TRY
done:
  free(keys);
  free(text);
  return info;
}

//==============================================================================================
// files
//==============================================================================================

// Loads a whole file followed by BV_PAD zero bytes. GrB_NO_VALUE when it does not exist.
static GrB_Info bv_load(uint8_t **buf, uint64_t *bytes, const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    K2_FAIL(errno == ENOENT ? GrB_NO_VALUE : GrB_INVALID_VALUE, "%s: cannot open: %s", path,
            strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: not a regular file", path);
  }
  uint64_t size = (uint64_t)st.st_size;
  uint8_t *b = malloc(size + BV_PAD);
  if (b == NULL) {
    fclose(f);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory (%llu bytes)", path, (unsigned long long)size);
  }
  size_t got = fread(b, 1, size, f);
  fclose(f);
  if (got != size) {
    free(b);
    K2_FAIL(GrB_INVALID_VALUE, "%s: short read", path);
  }
  memset(b + size, 0, BV_PAD);
  *buf = b;
  *bytes = size;
  return GrB_SUCCESS;
}

//==============================================================================================
// bit stream (big-endian: the first bit is the most significant bit of the first byte)
//==============================================================================================

enum { BV_OK = 0, BV_EOF = 1, BV_TOOLONG = 2 };

typedef struct {
  const uint8_t *buf;  // followed by BV_PAD zero bytes
  uint64_t pos, end;   // bit position, length in bits
  int err;             // sticky: BV_EOF (read past the end) or BV_TOOLONG (value beyond 2^63)
} bv_bits;

// The 64 bits from pos on; the top 57 at least are stream bits (or padding zeros).
static inline uint64_t bv_peek(const bv_bits *r) {
  uint64_t w;
  memcpy(&w, r->buf + (r->pos >> 3), 8);
  return __builtin_bswap64(w) << (r->pos & 7);
}

static inline void bv_skip(bv_bits *r, uint64_t n) {
  r->pos += n;
  if (BV_UNLIKELY(r->pos > r->end)) {  // stay inside the padding; the error is sticky
    r->err |= BV_EOF;
    r->pos = r->end;
  }
}

// n <= 56 bits as an unsigned number.
static inline uint64_t bv_read(bv_bits *r, unsigned n) {
  if (n == 0) return 0;
  uint64_t v = bv_peek(r) >> (64 - n);
  bv_skip(r, n);
  return v;
}

// n <= 63 bits.
static inline uint64_t bv_read_long(bv_bits *r, unsigned n) {
  if (n <= 56) return bv_read(r, n);
  uint64_t hi = bv_read(r, n - 32);
  return (hi << 32) | bv_read(r, 32);
}

// Unary: x zeros then a one.
static inline uint64_t bv_unary(bv_bits *r) {
  uint64_t w = bv_peek(r);
  if (BV_LIKELY(w != 0)) {
    unsigned z = (unsigned)__builtin_clzll(w);
    if (BV_LIKELY(z < 57)) {
      bv_skip(r, z + 1);
      return z;
    }
  }
  uint64_t count = 0;
  for (;;) {
    w = bv_peek(r) & ~(uint64_t)0xFF;  // the top 56 bits are stream bits
    if (w == 0) {
      count += 56;
      bv_skip(r, 56);
      if (r->err) return 0;
      continue;
    }
    unsigned z = (unsigned)__builtin_clzll(w);
    bv_skip(r, z + 1);
    return count + z;
  }
}

// γ: unary length of x+1, then its bits below the leading one.
static inline uint64_t bv_gamma(bv_bits *r) {
  uint64_t w = bv_peek(r);
  unsigned z = w ? (unsigned)__builtin_clzll(w) : 64;
  if (BV_LIKELY(z <= 28)) {
    bv_skip(r, 2 * z + 1);
    return (w >> (63 - 2 * z)) - 1;
  }
  uint64_t msb = bv_unary(r);
  if (msb > 62) {
    r->err |= BV_TOOLONG;
    return 0;
  }
  return (((uint64_t)1 << msb) | bv_read_long(r, (unsigned)msb)) - 1;
}

// δ: γ of the length of x+1, then its bits below the leading one.
static inline uint64_t bv_delta(bv_bits *r) {
  uint64_t msb = bv_gamma(r);
  if (msb > 62) {
    r->err |= BV_TOOLONG;
    return 0;
  }
  return (((uint64_t)1 << msb) | bv_read_long(r, (unsigned)msb)) - 1;
}

// ζ_k (Boldi–Vigna): unary h, then x+1 in [2^hk, 2^(h+1)k) as a minimal binary code.
static inline uint64_t bv_zeta(bv_bits *r, unsigned k) {
  uint64_t h = bv_unary(r);
  if (h >= 62 / k || (h + 1) * k > 62) {
    r->err |= BV_TOOLONG;
    return 0;
  }
  uint64_t left = (uint64_t)1 << (h * k);
  uint64_t m = bv_read_long(r, (unsigned)(h * k + k - 1));
  if (m < left) return m + left - 1;
  return ((m << 1) | bv_read(r, 1)) - 1;
}

// Variable-length nibble: groups of 3 bits, each after a stop bit (1 = last group).
static inline uint64_t bv_nibble(bv_bits *r) {
  uint64_t x = 0;
  for (int g = 0; g < 21; g++) {
    uint64_t stop = bv_read(r, 1);
    x = (x << 3) | bv_read(r, 3);
    if (stop) return x;
  }
  r->err |= BV_TOOLONG;
  return 0;
}

static inline uint64_t bv_code(bv_bits *r, int code, unsigned k) {
  switch (code) {
    case BV_GAMMA: return bv_gamma(r);
    case BV_ZETA: return bv_zeta(r, k);
    case BV_UNARY: return bv_unary(r);
    case BV_DELTA: return bv_delta(r);
    default: return bv_nibble(r);
  }
}

// Zig-zag: 0, 1, 2, 3, ... -> 0, -1, 1, -2, ...
static inline int64_t bv_nat2int(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

//==============================================================================================
// decoding one node
//==============================================================================================

typedef struct {
  bv_props P;
  const char *gpath;        // the .graph path, for messages
  const uint8_t *graph;
  uint64_t graph_bits;
  const uint64_t *offsets;  // n+1 bit offsets, or NULL
} bv_graph;

typedef struct {
  uint64_t node;  // UINT64_MAX: empty
  const uint32_t *list;
  uint32_t len;
} bv_slot;

typedef struct {
  const bv_graph *G;
  bv_slot *ring;           // window+1 slots: the lists of the nodes just decoded
  uint32_t **warm;         // per slot: buffer for lists decoded before the chunk
  uint32_t *warm_cap;
  uint32_t *tmp_int, *tmp_res, *tmp_ext;  // intervals, residuals, both merged
  uint64_t tmp_cap;
  GrB_Info info;           // first failure
  uint64_t err_bit, err_node;
  char msg[200];
} bv_worker;

__attribute__((format(printf, 5, 6))) static bool bv_fail(bv_worker *w, GrB_Info info,
                                                           uint64_t bit, uint64_t node,
                                                           const char *fmt, ...) {
  if (w->info == GrB_SUCCESS) {
    w->info = info;
    w->err_bit = bit;
    w->err_node = node;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
  }
  return false;
}

static bool bv_bits_fail(bv_worker *w, const bv_bits *r, uint64_t node) {
  return bv_fail(w, GrB_INVALID_VALUE, r->pos, node, "%s",
                 (r->err & BV_EOF) ? "read beyond the end of the stream (or of the record)"
                                   : "a code longer than 63 bits");
}

static bool bv_tmp_reserve(bv_worker *w, uint64_t n, uint64_t node) {
  if (n <= w->tmp_cap) return true;
  uint64_t cap = w->tmp_cap ? w->tmp_cap : 256;
  while (cap < n) cap *= 2;
  uint32_t *a = realloc(w->tmp_int, cap * sizeof *a);
  if (a != NULL) w->tmp_int = a;
  uint32_t *b = realloc(w->tmp_res, cap * sizeof *b);
  if (b != NULL) w->tmp_res = b;
  uint32_t *c = realloc(w->tmp_ext, cap * sizeof *c);
  if (c != NULL) w->tmp_ext = c;
  if (a == NULL || b == NULL || c == NULL)
    return bv_fail(w, GrB_OUT_OF_MEMORY, 0, node, "out of memory");
  w->tmp_cap = cap;
  return true;
}

static bool bv_node(bv_worker *w, bv_bits *r, uint64_t x, uint32_t *out, uint64_t room,
                    uint32_t *deg, int64_t depth);

// The list of node y, decoded by random access through the offsets into a new buffer.
static bool bv_fetch(bv_worker *w, uint64_t y, int64_t depth, uint32_t **list, uint32_t *len) {
  const bv_graph *G = w->G;
  bv_bits r = {G->graph, G->offsets[y], G->offsets[y + 1], BV_OK};  // the record of y only
  bv_bits peek = r;
  uint64_t d = bv_code(&peek, G->P.c_outdeg, G->P.zetak);
  if (peek.err) return bv_bits_fail(w, &peek, y);
  if (d > G->P.nodes)
    return bv_fail(w, GrB_INVALID_VALUE, r.pos, y, "outdegree %llu exceeds the node count",
                   (unsigned long long)d);
  uint32_t *buf = malloc((d ? d : 1) * sizeof *buf);
  if (buf == NULL) return bv_fail(w, GrB_OUT_OF_MEMORY, r.pos, y, "out of memory");
  if (!bv_node(w, &r, y, buf, d, len, depth)) {
    free(buf);
    return false;
  }
  *list = buf;
  return true;
}

// Backward merge of the sorted a[0..na) (already in out) with e[0..ne) into out[0..na+ne);
// false if both hold the same successor.
static inline bool bv_merge_into(uint32_t *out, uint64_t na, const uint32_t *e, uint64_t ne) {
  uint64_t i = na, j = ne, k = na + ne;
  while (j > 0) {
    if (i > 0 && out[i - 1] > e[j - 1]) {
      out[--k] = out[--i];
    } else {
      if (i > 0 && out[i - 1] == e[j - 1]) return false;
      out[--k] = e[--j];
    }
  }
  return true;
}

// Decodes the record of node x at r->pos into out[0..d) (room >= d required); *deg = d.
// depth: how many references were followed to get here (bounded by maxrefcount).
static bool bv_node(bv_worker *w, bv_bits *r, uint64_t x, uint32_t *out, uint64_t room,
                    uint32_t *deg, int64_t depth) {
  const bv_graph *G = w->G;
  const bv_props *P = &G->P;
  const uint64_t n = P->nodes, start = r->pos;
  uint64_t d = bv_code(r, P->c_outdeg, P->zetak);
  if (BV_UNLIKELY(r->err)) return bv_bits_fail(w, r, x);
  if (BV_UNLIKELY(d > n))
    return bv_fail(w, GrB_INVALID_VALUE, start, x, "outdegree %llu exceeds the node count",
                   (unsigned long long)d);
  if (BV_UNLIKELY(d > room))
    return bv_fail(w, GrB_INVALID_VALUE, start, x,
                   "outdegree %llu: more arcs than the 'arcs' property (or .offsets) allows",
                   (unsigned long long)d);
  *deg = (uint32_t)d;
  if (d == 0) return true;

  // copy list from the reference node
  uint64_t copied = 0;
  uint64_t ref = 0;
  if (P->window > 0) {
    uint64_t at = r->pos;
    ref = bv_code(r, P->c_ref, P->zetak);
    if (BV_UNLIKELY(r->err)) return bv_bits_fail(w, r, x);
    if (BV_UNLIKELY(ref > P->window))
      return bv_fail(w, GrB_INVALID_VALUE, at, x, "reference %llu beyond the window (%u)",
                     (unsigned long long)ref, P->window);
    if (BV_UNLIKELY(ref > x))
      return bv_fail(w, GrB_INVALID_VALUE, at, x, "reference %llu to a node before node 0",
                     (unsigned long long)ref);
  }
  if (ref > 0) {
    const uint64_t y = x - ref;
    const bv_slot *s = &w->ring[y % (P->window + 1)];
    const uint32_t *list;
    uint32_t len;
    uint32_t *owned = NULL;
    if (BV_LIKELY(s->node == y)) {
      list = s->list;
      len = s->len;
    } else {
      if (G->offsets == NULL)
        return bv_fail(w, GrB_INVALID_VALUE, start, x, "reference to node %llu, not decoded",
                       (unsigned long long)y);
      if (P->maxrefcount >= 0 && depth + 1 > P->maxrefcount)
        return bv_fail(w, GrB_INVALID_VALUE, start, x,
                       "reference chain longer than maxrefcount (%lld)",
                       (long long)P->maxrefcount);
      if (!bv_fetch(w, y, depth + 1, &owned, &len)) return false;
      list = owned;
    }
    uint64_t at = r->pos;
    uint64_t blocks = bv_code(r, P->c_bcount, P->zetak);
    if (BV_UNLIKELY(r->err || blocks > (uint64_t)len + 1)) {
      free(owned);
      if (r->err) return bv_bits_fail(w, r, x);
      return bv_fail(w, GrB_INVALID_VALUE, at, x, "%llu copy blocks for a list of %u",
                     (unsigned long long)blocks, len);
    }
    uint64_t p = 0;  // position in the reference list
    for (uint64_t b = 0; b < blocks; b++) {
      at = r->pos;
      uint64_t run = bv_code(r, P->c_blocks, P->zetak) + (b > 0);
      if (BV_UNLIKELY(r->err || run > len - p || ((b & 1) == 0 && copied + run > d))) {
        free(owned);
        if (r->err) return bv_bits_fail(w, r, x);
        return bv_fail(w, GrB_INVALID_VALUE, at, x,
                       "copy block %llu of length %llu overruns the reference list or outdegree",
                       (unsigned long long)b, (unsigned long long)run);
      }
      if ((b & 1) == 0 && run > 0) {
        memcpy(out + copied, list + p, run * sizeof *out);
        copied += run;
      }
      p += run;
    }
    if ((blocks & 1) == 0) {  // an even count copies the rest
      uint64_t run = len - p;
      if (BV_UNLIKELY(copied + run > d)) {
        free(owned);
        return bv_fail(w, GrB_INVALID_VALUE, r->pos, x,
                       "copied %llu successors, more than the outdegree %llu",
                       (unsigned long long)(copied + run), (unsigned long long)d);
      }
      if (run > 0) memcpy(out + copied, list + p, run * sizeof *out);
      copied += run;
    }
    free(owned);
  }

  uint64_t extra = d - copied;
  if (extra == 0) return true;
  if (!bv_tmp_reserve(w, extra, x)) return false;

  // intervals
  uint64_t nint = 0;
  uint32_t *iv = w->tmp_int;
  if (P->minint != 0) {
    uint64_t at = r->pos;
    uint64_t count = bv_gamma(r);
    if (BV_UNLIKELY(r->err)) return bv_bits_fail(w, r, x);
    if (BV_UNLIKELY(count > extra / P->minint))
      return bv_fail(w, GrB_INVALID_VALUE, at, x, "%llu intervals for %llu successors",
                     (unsigned long long)count, (unsigned long long)extra);
    uint64_t prev = 0;  // one past the last interval's right end
    for (uint64_t k = 0; k < count; k++) {
      at = r->pos;
      uint64_t left;
      if (k == 0) {
        int64_t off = bv_nat2int(bv_gamma(r));
        if (BV_UNLIKELY(off < -(int64_t)x || off >= (int64_t)(n - x))) left = UINT64_MAX;
        else left = (uint64_t)((int64_t)x + off);
      } else {
        uint64_t gap = bv_gamma(r);
        left = gap < n ? prev + gap + 1 : UINT64_MAX;
      }
      uint64_t ilen = bv_gamma(r) + P->minint;
      if (BV_UNLIKELY(r->err)) return bv_bits_fail(w, r, x);
      if (BV_UNLIKELY(left >= n || ilen > n - left || ilen > extra - nint))
        return bv_fail(w, GrB_INVALID_VALUE, at, x, "interval %llu out of range",
                       (unsigned long long)k);
      for (uint64_t t = 0; t < ilen; t++) iv[nint + t] = (uint32_t)(left + t);
      nint += ilen;
      prev = left + ilen;
    }
  }

  // residuals
  uint64_t nres = extra - nint;
  uint32_t *rs = w->tmp_res;
  if (nres > 0) {
    uint64_t at = r->pos;
    int64_t off = bv_nat2int(bv_code(r, P->c_resid, P->zetak));
    if (BV_UNLIKELY(r->err)) return bv_bits_fail(w, r, x);
    if (BV_UNLIKELY(off < -(int64_t)x || off >= (int64_t)(n - x)))
      return bv_fail(w, GrB_INVALID_VALUE, at, x, "first residual %lld (from node) out of range",
                     (long long)off);
    uint64_t prev = (uint64_t)((int64_t)x + off);
    rs[0] = (uint32_t)prev;
    for (uint64_t k = 1; k < nres; k++) {
      at = r->pos;
      prev += bv_code(r, P->c_resid, P->zetak) + 1;  // gaps are < 2^63: no wrap-around
      if (BV_UNLIKELY(prev >= n)) {
        if (r->err) return bv_bits_fail(w, r, x);
        return bv_fail(w, GrB_INVALID_VALUE, at, x, "residual %llu beyond the node count",
                       (unsigned long long)k);
      }
      rs[k] = (uint32_t)prev;
    }
    if (BV_UNLIKELY(r->err)) return bv_bits_fail(w, r, x);
  }

  // merge: copied (in out) + intervals + residuals, all strictly increasing on their own
  const uint32_t *ext;
  if (nint == 0) {
    ext = rs;
  } else if (nres == 0) {
    ext = iv;
  } else {
    memcpy(w->tmp_ext, iv, nint * sizeof *iv);
    if (!bv_merge_into(w->tmp_ext, nint, rs, nres))
      return bv_fail(w, GrB_INVALID_VALUE, start, x, "successor list is not strictly increasing");
    ext = w->tmp_ext;
  }
  if (copied == 0) {
    memcpy(out, ext, extra * sizeof *out);
  } else if (!bv_merge_into(out, copied, ext, extra)) {
    return bv_fail(w, GrB_INVALID_VALUE, start, x, "successor list is not strictly increasing");
  }
  return true;
}

//==============================================================================================
// workers
//==============================================================================================

static bool bv_worker_init(bv_worker *w, const bv_graph *G) {
  memset(w, 0, sizeof *w);
  w->G = G;
  uint32_t slots = G->P.window + 1;
  w->ring = malloc(slots * sizeof *w->ring);
  w->warm = calloc(slots, sizeof *w->warm);
  w->warm_cap = calloc(slots, sizeof *w->warm_cap);
  if (w->ring == NULL || w->warm == NULL || w->warm_cap == NULL) return false;
  for (uint32_t s = 0; s < slots; s++) w->ring[s].node = UINT64_MAX;
  return true;
}

static void bv_worker_free(bv_worker *w) {
  if (w->warm != NULL)
    for (uint32_t s = 0; s <= w->G->P.window; s++) free(w->warm[s]);
  free(w->warm);
  free(w->warm_cap);
  free(w->ring);
  free(w->tmp_int);
  free(w->tmp_res);
  free(w->tmp_ext);
}

// Decodes nodes [s, e) whose arcs go to I/J from pos[x] on (pos NULL: sequential scan from
// node 0 writing at a running cursor, up to `arcs` arcs). With offsets, every record must end
// where the next one starts.
static bool bv_decode_range(bv_worker *w, uint64_t s, uint64_t e, const uint64_t *pos, uint32_t *I,
                            uint32_t *J, uint64_t arcs) {
  const bv_graph *G = w->G;
  const uint32_t slots = G->P.window + 1;
  for (uint32_t k = 0; k < slots; k++) w->ring[k].node = UINT64_MAX;

  // the window before s, by random access
  for (uint64_t y = s > G->P.window ? s - G->P.window : 0; y < s; y++) {
    uint32_t slot = (uint32_t)(y % slots);
    bv_bits r = {G->graph, G->offsets[y], G->offsets[y + 1], BV_OK};
    uint64_t d = pos[y + 1] - pos[y];
    if (d > w->warm_cap[slot]) {
      uint32_t *b = realloc(w->warm[slot], d * sizeof *b);
      if (b == NULL) return bv_fail(w, GrB_OUT_OF_MEMORY, r.pos, y, "out of memory");
      w->warm[slot] = b;
      w->warm_cap[slot] = (uint32_t)d;
    }
    uint32_t len;
    if (!bv_node(w, &r, y, w->warm[slot], d, &len, 0)) return false;
    w->ring[slot] = (bv_slot){y, w->warm[slot], len};
  }

  bv_bits r = {G->graph, pos ? G->offsets[s] : 0, G->graph_bits, BV_OK};
  uint64_t cursor = 0;
  for (uint64_t x = s; x < e; x++) {
    uint64_t at = pos ? pos[x] : cursor;
    uint64_t room = pos ? pos[x + 1] - at : arcs - at;
    uint32_t d;
    if (G->offsets != NULL) r.end = G->offsets[x + 1];  // a record may not overrun the next
    if (BV_UNLIKELY(!bv_node(w, &r, x, J + at, room, &d, 0))) return false;
    for (uint32_t k = 0; k < d; k++) I[at + k] = (uint32_t)x;
    w->ring[x % slots] = (bv_slot){x, J + at, d};
    if (pos == NULL) cursor += d;
    if (G->offsets != NULL) {
      if (BV_UNLIKELY(r.pos != G->offsets[x + 1]))
        return bv_fail(w, GrB_INVALID_VALUE, r.pos, x,
                       "record ends at bit %llu but .offsets says %llu",
                       (unsigned long long)r.pos, (unsigned long long)G->offsets[x + 1]);
    }
  }
  if (pos == NULL && cursor != arcs)
    return bv_fail(w, GrB_INVALID_VALUE, r.pos, e, "%llu arcs decoded, the 'arcs' property says %llu",
                   (unsigned long long)cursor, (unsigned long long)arcs);
  return true;
}

static GrB_Info bv_report(const bv_worker *w, const char *gpath) {
  return k2_error_set(w->info, "%s: bit offset %llu (node %llu): %s", gpath,
                      (unsigned long long)w->err_bit, (unsigned long long)w->err_node, w->msg);
}

// Reads .offsets (n+1 delta-coded bit offsets) into a new array, validated against .graph.
static GrB_Info bv_read_offsets(uint64_t **out, const bv_graph *G, const uint8_t *buf,
                                uint64_t bytes, const char *path) {
  uint64_t n = G->P.nodes;
  uint64_t *off = malloc((n + 1) * sizeof *off);
  if (off == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
  bv_bits r = {buf, 0, bytes * 8, BV_OK};
  uint64_t sum = 0;
  for (uint64_t x = 0; x <= n; x++) {
    uint64_t at = r.pos;
    uint64_t delta = bv_code(&r, G->P.c_offsets, G->P.zetak);
    if (r.err) {
      free(off);
      K2_FAIL(GrB_INVALID_VALUE, "%s: bit offset %llu (entry %llu): %s", path,
              (unsigned long long)r.pos, (unsigned long long)x,
              (r.err & BV_EOF) ? "read beyond the end of the stream" : "a code longer than 63 bits");
    }
    // every record holds at least its outdegree (one bit or more)
    if ((x == 0 && delta != 0) || (x > 0 && delta == 0) || delta > G->graph_bits - sum) {
      free(off);
      K2_FAIL(GrB_INVALID_VALUE,
              "%s: bit offset %llu (entry %llu): offset delta %llu inconsistent with %s (%llu bits)",
              path, (unsigned long long)at, (unsigned long long)x, (unsigned long long)delta,
              G->gpath, (unsigned long long)G->graph_bits);
    }
    sum += delta;
    off[x] = sum;
  }
  *out = off;
  return GrB_SUCCESS;
}

static GrB_Info bv_decode_sequential(const bv_graph *G, uint32_t *I, uint32_t *J);

// Parallel decode with offsets: outdegrees first (exact output positions), then chunks.
static GrB_Info bv_decode_parallel(const bv_graph *G, uint32_t *I, uint32_t *J, uint32_t chunks) {
  const uint64_t n = G->P.nodes;
  uint64_t *pos = malloc((n + 1) * sizeof *pos);
  if (pos == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", G->gpath);

  // outdegrees: the first code of every record
  uint64_t bad = UINT64_MAX;  // smallest node whose outdegree is unreadable
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (uint64_t x = 0; x < n; x++) {
    bv_bits r = {G->graph, G->offsets[x], G->offsets[x + 1], BV_OK};
    uint64_t d = bv_code(&r, G->P.c_outdeg, G->P.zetak);
    if (r.err || d > n) {
      if (x < bad) bad = x;
      d = 0;
    }
    pos[x + 1] = d;
  }
  if (bad != UINT64_MAX) {
    free(pos);
    GrB_Info located = bv_decode_sequential(G, I, J);
    if (located != GrB_SUCCESS) return located;
    K2_FAIL(GrB_INVALID_VALUE, "%s: bit offset %llu (node %llu): unreadable outdegree", G->gpath,
            (unsigned long long)G->offsets[bad], (unsigned long long)bad);
  }
  pos[0] = 0;
  for (uint64_t x = 0; x < n; x++) pos[x + 1] += pos[x];
  uint64_t total = pos[n];
  if (total != G->P.arcs) {
    free(pos);
    GrB_Info located = bv_decode_sequential(G, I, J);  // finds the first bad record
    if (located != GrB_SUCCESS) return located;
    K2_FAIL(GrB_INVALID_VALUE, "%s: the outdegrees add up to %llu arcs, the 'arcs' property says %llu",
            G->gpath, (unsigned long long)total, (unsigned long long)G->P.arcs);
  }

  // chunks of about equal bit length
  int threads = omp_get_max_threads();
  uint64_t C = chunks ? chunks : (uint64_t)threads * 8;
  if (C > n) C = n ? n : 1;
  uint64_t *bound = malloc((C + 1) * sizeof *bound);
  bv_worker *workers = calloc((size_t)threads, sizeof *workers);
  GrB_Info info = GrB_SUCCESS;
  if (bound == NULL || workers == NULL) {
    info = k2_error_set(GrB_OUT_OF_MEMORY, "%s: out of memory", G->gpath);
    goto done;
  }
  bound[0] = 0;
  for (uint64_t c = 1; c < C; c++) {
    unsigned __int128 t = (unsigned __int128)G->offsets[n] * c / C;
    uint64_t lo = bound[c - 1], hi = n;  // first node whose offset >= t
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2;
      if (G->offsets[mid] < (uint64_t)t) lo = mid + 1;
      else hi = mid;
    }
    bound[c] = lo;
  }
  bound[C] = n;

  atomic_bool failed = false;
  uint64_t first_bad = UINT64_MAX;  // chunk index of the first failure reported
  bv_worker *bad_worker = NULL;
#pragma omp parallel num_threads(threads)
  {
    bv_worker *w = &workers[omp_get_thread_num()];
    bool ok = bv_worker_init(w, G);
    if (!ok) bv_fail(w, GrB_OUT_OF_MEMORY, 0, 0, "out of memory");
#pragma omp for schedule(dynamic, 1)
    for (uint64_t c = 0; c < C; c++) {
      if (!ok || atomic_load_explicit(&failed, memory_order_relaxed)) continue;
      if (bound[c] == bound[c + 1]) continue;
      if (!bv_decode_range(w, bound[c], bound[c + 1], pos, I, J, G->P.arcs)) {
        ok = false;
        atomic_store(&failed, true);
#pragma omp critical(k2_bvgraph_err)
        if (c < first_bad) {
          first_bad = c;
          bad_worker = w;
        }
      }
    }
    if (!ok && bad_worker == NULL) {  // allocation failure outside a chunk
#pragma omp critical(k2_bvgraph_err)
      if (bad_worker == NULL) bad_worker = w;
    }
  }
  if (bad_worker != NULL) info = bv_report(bad_worker, G->gpath);
  // every worker, also one whose setup failed halfway (calloc'd: its unset arrays are NULL)
  for (int t = 0; t < threads; t++) bv_worker_free(&workers[t]);
done:
  free(workers);
  free(bound);
  free(pos);
  return info;
}

static GrB_Info bv_decode_sequential(const bv_graph *G, uint32_t *I, uint32_t *J) {
  bv_worker w;
  GrB_Info info = GrB_SUCCESS;
  if (!bv_worker_init(&w, G)) {
    info = k2_error_set(GrB_OUT_OF_MEMORY, "%s: out of memory", G->gpath);
  } else if (!bv_decode_range(&w, 0, G->P.nodes, NULL, I, J, G->P.arcs)) {
    info = bv_report(&w, G->gpath);
  }
  bv_worker_free(&w);
  return info;
}

//==============================================================================================
// entry point
//==============================================================================================

GrB_Info k2_bvgraph_read(K2_Edges *E, const char *basename, const K2_ReadOptions *opt,
                         const k2_bvgraph_config *cfg) {
  if (E == NULL || basename == NULL)
    K2_FAIL(GrB_NULL_POINTER, "K2_Edges_readBVGraph: %s is NULL", E == NULL ? "E" : "basename");
  k2_bvgraph_config defaults = {.use_offsets = true, .chunks = 0};
  if (cfg == NULL) cfg = &defaults;

  size_t blen = strlen(basename);
  char *ppath = malloc(3 * (blen + 16));
  if (ppath == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "K2_Edges_readBVGraph: out of memory");
  char *gpath = ppath + blen + 16, *opath = gpath + blen + 16;
  snprintf(ppath, blen + 16, "%s.properties", basename);
  snprintf(gpath, blen + 16, "%s.graph", basename);
  snprintf(opath, blen + 16, "%s.offsets", basename);

  bv_graph G = {.gpath = gpath};
  uint8_t *graph = NULL, *obuf = NULL;
  uint64_t *offsets = NULL;
  uint32_t *I = NULL, *J = NULL;
  uint64_t gbytes = 0, obytes = 0;
  GrB_Info info = bv_read_props(&G.P, ppath);
  if (info != GrB_SUCCESS) goto fail;
  info = bv_load(&graph, &gbytes, gpath);
  if (info != GrB_SUCCESS) goto fail;
  G.graph = graph;
  G.graph_bits = gbytes * 8;
  if (G.P.nodes > G.graph_bits) {  // every record holds at least one bit
    info = k2_error_set(GrB_INVALID_VALUE, "%s: %llu bits cannot hold %llu nodes (property 'nodes')",
                        gpath, (unsigned long long)G.graph_bits, (unsigned long long)G.P.nodes);
    goto fail;
  }
  if (G.P.nodes > 0 && G.P.arcs / G.P.nodes > G.P.nodes) {
    info = k2_error_set(GrB_INVALID_VALUE, "%s: property 'arcs' = %llu exceeds nodes^2", ppath,
                        (unsigned long long)G.P.arcs);
    goto fail;
  }
  if (G.P.nodes == 0 && G.P.arcs != 0) {
    info = k2_error_set(GrB_INVALID_VALUE, "%s: property 'arcs' = %llu with no nodes", ppath,
                        (unsigned long long)G.P.arcs);
    goto fail;
  }
  if (cfg->use_offsets && G.P.nodes > 0) {
    info = bv_load(&obuf, &obytes, opath);
    if (info == GrB_NO_VALUE) {
      info = GrB_SUCCESS;  // no .offsets: sequential scan
      k2_error_clear();
    } else if (info != GrB_SUCCESS) {
      goto fail;
    } else {
      info = bv_read_offsets(&offsets, &G, obuf, obytes, opath);
      free(obuf);
      obuf = NULL;
      if (info != GrB_SUCCESS) goto fail;
      G.offsets = offsets;
    }
  }

  size_t alloc = (size_t)(G.P.arcs ? G.P.arcs : 1);
  I = malloc(alloc * sizeof *I);
  J = malloc(alloc * sizeof *J);
  if (I == NULL || J == NULL) {
    info = k2_error_set(GrB_OUT_OF_MEMORY, "%s: out of memory for %llu arcs", gpath,
                        (unsigned long long)G.P.arcs);
    goto fail;
  }
  // chains deeper than this are decoded by one sequential scan (recursion depth)
  bool parallel = G.offsets != NULL && G.P.maxrefcount >= 0 && G.P.maxrefcount <= 1024;
  info = parallel ? bv_decode_parallel(&G, I, J, cfg->chunks) : bv_decode_sequential(&G, I, J);
  if (info != GrB_SUCCESS) goto fail;
  free(offsets);
  offsets = NULL;
  free(graph);
  graph = NULL;

  K2_Edges out = {.nrows = G.P.nodes, .ncols = G.P.nodes, .nvals = G.P.arcs, .capacity = alloc,
                  .I = I, .J = J};
  I = J = NULL;
  info = k2_edges_apply_options(&out, opt);
  if (info != GrB_SUCCESS) {
    k2_edges_free(&out);
    if (info == GrB_OUT_OF_MEMORY) k2_error_set(info, "%s: out of memory", gpath);
    goto fail;
  }
  free(ppath);
  *E = out;
  return GrB_SUCCESS;

fail:
  free(I);
  free(J);
  free(offsets);
  free(obuf);
  free(graph);
  free(ppath);
  return info;
}
