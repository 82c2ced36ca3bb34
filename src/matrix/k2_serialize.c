// k2_serialize.c: the .k2 file format (docs/k2-format.md): serialize, deserialize, save, load.
// SPDX-License-Identifier: Apache-2.0
//
// A .k2 image is a 320-byte header followed by 64-byte aligned sections holding the tree arrays
// exactly as they lie in memory (little-endian 64-bit words). Version 2, written here, stores
// the signatures, leaves and level offsets only: the directory, the top codes and the bottom
// codes are derived when the image is read (k2_tree_derive, one pass over the signatures and
// the levels down to the ones kept), sized from the tree as a build sizes them. Version 1
// stored those too and is still read: checked with them, then given today's. The signatures,
// leaves and level offsets of a loaded version 2 tree point into one block holding the file
// (tree.borrowed): a private copy, or the file itself mapped when it cannot change (see
// k2_serialize_load). Nothing is trusted before it is
// checked: header checksum, sizes against each other and against the file length (with
// overflow checks), every zero padding byte, section checksums (XXH3-64), then the structure
// (k2_tree_check). Every byte of a valid image is thus covered by a check.
#include "matrix/k2_serialize.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "matrix/k2_matrix.h"
#include "util/k2_atomic_file.h"
#include "util/k2_error.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error ".k2 images are little-endian and mapped in place: k2grb needs a little-endian host"
#endif

// ---- layout (docs/k2-format.md) -------------------------------------------------------------

#define K2F_MAGIC "K2GRB\0\r\n"
#define K2F_VERSION UINT32_C(2)  // written for plain leaves; version 1 is read too
#define K2F_VERSION_LEAF_CODES UINT32_C(3)  // written for compressed leaves
#define K2F_VERSION_FULL UINT32_C(4)  // written for full blocks (any leaves), the newest read
#define K2F_ENDIAN UINT32_C(0x01020304)
#define K2F_ENDIAN_SWAPPED UINT32_C(0x04030201)
#define K2F_HEADER_BYTES 320
#define K2F_ALIGN 64
#define K2F_NSECT 6     // sections of version 1; version 2 has the first K2F_NSECT_V2
#define K2F_NSECT_V2 3
#define K2F_FLAG_BOTTOM UINT32_C(1)
#define K2F_FLAG_LEAF_CODES UINT32_C(2)  // version 3 or 4: section 1 holds compressed leaves
#define K2F_FLAG_FULL UINT32_C(4)  // version 4: signature 0 marks a full node

// header field offsets
enum {
  OFF_MAGIC = 0, OFF_VERSION = 8, OFF_ENDIAN = 12, OFF_HEADER_BYTES = 16, OFF_FLAGS = 20,
  OFF_FILE_BYTES = 24, OFF_NROWS = 32, OFF_NCOLS = 40, OFF_NVALS = 48, OFF_SIDE_LOG = 56,
  OFF_LEVELS = 60, OFF_LEAF_LOG = 64, OFF_DIR_LOG = 68, OFF_TOP_LEVEL = 72,
  OFF_TOP_MAX_LOG = 76, OFF_N_INTERNAL = 80, OFF_N_LEAVES = 88, OFF_DIR_LEN = 96,
  OFF_TOP_COUNT = 104, OFF_WEIGHT = 112, OFF_NSECT = 120, OFF_RESERVED0 = 124,
  OFF_TABLE = 128,        // one entry of 24 bytes per section: offset, bytes, XXH3-64
  OFF_RESERVED1 = 272,    // zeros up to the checksum
  OFF_HEADER_SUM = 312,   // XXH3-64 of bytes 0 .. 311
};
#define K2F_ENTRY_BYTES 24

enum { SEC_SIG, SEC_LEAVES, SEC_LEVEL_START, SEC_DIR, SEC_TOP, SEC_BOTTOM };
static const char *const k2f_section_name[K2F_NSECT] = {
    "sig", "leaves", "level_start", "dir", "top_codes", "bottom_codes"};

typedef struct {
  uint64_t offset, bytes, sum;
} k2f_section;

// Section s's name: version 3 keeps compressed leaves where the others keep the bitmaps.
static const char *section_name(int s, bool leaf_codes) {
  return leaf_codes && s == SEC_LEAVES ? "leaf_codes" : k2f_section_name[s];
}

static uint64_t align_up(uint64_t x) { return (x + (K2F_ALIGN - 1)) & ~(uint64_t)(K2F_ALIGN - 1); }

static uint32_t get32(const uint8_t *p, size_t off) {
  uint32_t v;
  memcpy(&v, p + off, 4);
  return v;
}
static uint64_t get64(const uint8_t *p, size_t off) {
  uint64_t v;
  memcpy(&v, p + off, 8);
  return v;
}
static void put32(uint8_t *p, size_t off, uint32_t v) { memcpy(p + off, &v, 4); }
static void put64(uint8_t *p, size_t off, uint64_t v) { memcpy(p + off, &v, 8); }

// ---- writing ---------------------------------------------------------------------------------

// The arrays of a tree as sections, their sizes and (optionally) checksums, and the header.
typedef struct {
  const void *data[K2F_NSECT_V2];
  k2f_section sec[K2F_NSECT_V2];
  uint64_t file_bytes;
  uint8_t header[K2F_HEADER_BYTES];
} k2f_image;

// A version 2 image: the format options, not the arrays derived from them.
static GrB_Info image_plan(k2f_image *im, K2_Matrix A, bool sums) {
  const k2_tree *t = &A->tree;
  // an in-memory tree is valid, so these products fit; the words counts come from the core
  const bool codes = t->leaf_codes != NULL;
  uint64_t bytes[K2F_NSECT_V2] = {k2_tree_sig_words(t) * 8, k2_tree_leaf_words(t) * 8,
                                  ((uint64_t)t->levels + 2) * 8};
  const void *data[K2F_NSECT_V2] = {t->sig, codes ? t->leaf_codes : t->leaves, t->level_start};
  uint64_t pos = K2F_HEADER_BYTES;
  for (int s = 0; s < K2F_NSECT_V2; s++) {
    im->data[s] = data[s];
    im->sec[s].offset = align_up(pos);
    im->sec[s].bytes = bytes[s];
    if (bytes[s] > 0 && data[s] == NULL)
      K2_MATRIX_FAIL(A, GrB_PANIC, "the tree has no %s array", section_name(s, codes));
    im->sec[s].sum = sums ? XXH3_64bits(bytes[s] ? data[s] : "", (size_t)bytes[s]) : 0;
    pos = im->sec[s].offset + bytes[s];
  }
  im->file_bytes = pos;

  uint8_t *h = im->header;
  memset(h, 0, K2F_HEADER_BYTES);
  memcpy(h + OFF_MAGIC, K2F_MAGIC, 8);
  // plain trees stay version 2, which readers without compressed leaves read; version 4 only
  // for full blocks, so files without them stay readable by readers of version 3
  const bool full = A->fmt.full_blocks;
  put32(h, OFF_VERSION, full ? K2F_VERSION_FULL : codes ? K2F_VERSION_LEAF_CODES : K2F_VERSION);
  put32(h, OFF_ENDIAN, K2F_ENDIAN);
  put32(h, OFF_HEADER_BYTES, K2F_HEADER_BYTES);
  put32(h, OFF_FLAGS, (A->fmt.cache_bottom_codes ? K2F_FLAG_BOTTOM : 0) |
                          (codes ? K2F_FLAG_LEAF_CODES : 0) | (full ? K2F_FLAG_FULL : 0));
  put64(h, OFF_FILE_BYTES, im->file_bytes);
  put64(h, OFF_NROWS, t->nrows);
  put64(h, OFF_NCOLS, t->ncols);
  put64(h, OFF_NVALS, t->nvals);
  put32(h, OFF_SIDE_LOG, t->side_log);
  put32(h, OFF_LEVELS, t->levels);
  put32(h, OFF_LEAF_LOG, t->leaf_log);
  put32(h, OFF_DIR_LOG, A->fmt.directory_log);  // the option (0: sized from the tree)
  put32(h, OFF_TOP_MAX_LOG, A->fmt.top_max_log);
  put64(h, OFF_N_INTERNAL, t->n_internal);
  put64(h, OFF_N_LEAVES, t->n_leaves);
  memcpy(h + OFF_WEIGHT, &A->weight, 8);
  put32(h, OFF_NSECT, K2F_NSECT_V2);
  for (int s = 0; s < K2F_NSECT_V2; s++) {
    size_t e = OFF_TABLE + (size_t)s * K2F_ENTRY_BYTES;
    put64(h, e, im->sec[s].offset);
    put64(h, e + 8, im->sec[s].bytes);
    put64(h, e + 16, im->sec[s].sum);
  }
  put64(h, OFF_HEADER_SUM, XXH3_64bits(h, OFF_HEADER_SUM));
  return GrB_SUCCESS;
}

// Where the image goes: a memory buffer or a file.
typedef struct {
  uint8_t *buf;
  k2_atomic_file *file;
  uint64_t pos;
} k2f_sink;

static bool sink_put(k2f_sink *k, const void *src, uint64_t n) {
  if (k->buf != NULL) {
    if (n) memcpy(k->buf + k->pos, src, (size_t)n);
    k->pos += n;
    return true;
  }
  if (n > SIZE_MAX || !k2_atomic_file_write(k->file, src, (size_t)n)) return false;
  k->pos += n;
  return true;
}

static bool image_write(const k2f_image *im, k2f_sink *k) {
  static const uint8_t zeros[K2F_ALIGN];
  if (!sink_put(k, im->header, K2F_HEADER_BYTES)) return false;
  for (int s = 0; s < K2F_NSECT_V2; s++) {
    if (!sink_put(k, zeros, im->sec[s].offset - k->pos)) return false;
    if (!sink_put(k, im->data[s], im->sec[s].bytes)) return false;
  }
  return true;
}

// ---- reading -----------------------------------------------------------------------------------

// The header of the acubeLab k2 library's .k2 files ("plain depth-first" layout): size_t
// realsize, uint32 (low 16 bits: side of the leaf minimatrices), size_t padded size, size_t
// number of nibbles, packed (28 bytes), then the nibbles, two per byte. Such a file shares the
// .k2 extension but not the magic; it is recognised only when every field is plausible and the
// nibble count matches the file length, so that its reader can be told what it holds.
#define ACUBE_HEADER_BYTES 28
static bool acube_k2_header(const uint8_t *base, uint64_t len, uint64_t *realsize,
                            uint32_t *leaf) {
  if (len < ACUBE_HEADER_BYTES) return false;
  uint64_t real = get64(base, 0), padded = get64(base, 12), nibbles = get64(base, 20);
  uint32_t mm = get32(base, 8) & 0xffff;
  if (mm != 2 && mm != 4 && mm != 8) return false;
  // padded: a power of two, at least two leaves wide, at most 2^40 (their index limit)
  if (padded < 2 * (uint64_t)mm || (padded & (padded - 1)) != 0 || padded > (UINT64_C(1) << 40))
    return false;
  if (real == 0 || real > padded) return false;
  // the nibbles fill ceil(nibbles / 2) bytes; tolerate padding of the last 64-bit word
  if (nibbles > (len - ACUBE_HEADER_BYTES) * 2) return false;
  uint64_t need = (nibbles + 1) / 2, have = len - ACUBE_HEADER_BYTES;
  if (have < need || have > ((need + 7) & ~UINT64_C(7))) return false;
  *realsize = real;
  *leaf = mm;
  return true;
}

// The arrays of a failed read: copies are freed, borrowed ones left to the caller's mapping.
static void image_drop(k2_tree *t, uint64_t **dst[K2F_NSECT], bool borrow) {
  if (!borrow) {
    for (int s = 0; s < K2F_NSECT; s++) free(*dst[s]);
  }
  memset(t, 0, sizeof *t);
}

// Validate an image and fill a tree. borrow: the arrays point into `base` (which must be
// 8-byte aligned and outlive the tree); otherwise they are copied into fresh allocations.
// `name` names the source in messages. On failure t is left empty (nothing allocated).
static GrB_Info image_read(k2_tree *t, K2_Format *fmt, double *weight, const uint8_t *base,
                           uint64_t len, const char *name, bool borrow) {
#define BAD(...) return k2_error_set(GrB_INVALID_OBJECT, "%s: " __VA_ARGS__)
  memset(t, 0, sizeof *t);
  if (len == 0) BAD("empty file, not a .k2 image", name);
  if (len < 8 || memcmp(base, K2F_MAGIC, 8) != 0) {
    uint64_t real;
    uint32_t leaf;
    if (acube_k2_header(base, len, &real, &leaf))
      BAD("this .k2 file was written by another k²-tree library (acubeLab k2, plain depth-first "
          "layout; %llu x %llu, %ux%u leaves), not by k2grb: convert it from its edge list",
          name, (unsigned long long)real, (unsigned long long)real, leaf, leaf);
    BAD("not a .k2 image (its first 8 bytes are not the magic number of k2grb's files, \"K2GRB\\0\\r\\n\")", name);
  }
  if (len < K2F_HEADER_BYTES)
    BAD("truncated: %llu bytes, the header alone needs %d", name, (unsigned long long)len,
        K2F_HEADER_BYTES);
  const uint8_t *h = base;
  uint32_t endian = get32(h, OFF_ENDIAN);
  if (endian == K2F_ENDIAN_SWAPPED)
    BAD("big-endian image (offset %d); only little-endian .k2 files are supported", name,
        OFF_ENDIAN);
  if (endian != K2F_ENDIAN) BAD("bad endianness marker 0x%08x at offset %d", name, endian, OFF_ENDIAN);
  const uint32_t version = get32(h, OFF_VERSION);
  if (version > K2F_VERSION_FULL && version < UINT32_C(1000))
    BAD("format version %u (offset %d) is newer than this library, which reads versions 1 to "
        "%u: a later k2grb wrote it", name, version, OFF_VERSION, K2F_VERSION_FULL);
  if (version < 1 || version > K2F_VERSION_FULL)
    BAD("unsupported format version %u at offset %d (this library reads versions 1 to %u)", name,
        version, OFF_VERSION, K2F_VERSION_FULL);
  const bool v1 = version == 1;
  const int nsect = v1 ? K2F_NSECT : K2F_NSECT_V2;
  if (get32(h, OFF_HEADER_BYTES) != K2F_HEADER_BYTES)
    BAD("header size %u at offset %d, version %u has %d", name, get32(h, OFF_HEADER_BYTES),
        OFF_HEADER_BYTES, version, K2F_HEADER_BYTES);
  if (XXH3_64bits(h, OFF_HEADER_SUM) != get64(h, OFF_HEADER_SUM))
    BAD("header checksum mismatch (header bytes 0..%d)", name, OFF_HEADER_SUM - 1);

  // the header is intact: from here on a mismatch means a buggy writer or a truncated file
  uint64_t file_bytes = get64(h, OFF_FILE_BYTES);
  if (file_bytes != len)
    BAD("%s: the header says %llu bytes, the image has %llu", name,
        len < file_bytes ? "truncated" : "trailing bytes", (unsigned long long)file_bytes,
        (unsigned long long)len);
  uint32_t flags = get32(h, OFF_FLAGS);
  const uint32_t known = K2F_FLAG_BOTTOM | (version >= 3 ? K2F_FLAG_LEAF_CODES : 0) |
                         (version >= 4 ? K2F_FLAG_FULL : 0);
  if (flags & ~known) BAD("unknown flags 0x%x at offset %d", name, flags, OFF_FLAGS);
  // version 4 exists for full blocks: trees without them are written as version 2 or 3
  const bool full = (flags & K2F_FLAG_FULL) != 0;
  if (version == 4 && !full)
    BAD("version 4 image without the full-blocks flag (offset %d)", name, OFF_FLAGS);
  // version 3 exists for compressed leaves: plain trees are written as version 2
  const bool codes = (flags & K2F_FLAG_LEAF_CODES) != 0;
  if (version == 3 && !codes)
    BAD("version 3 image without the compressed-leaves flag (offset %d)", name, OFF_FLAGS);
  if (get32(h, OFF_NSECT) != (uint32_t)nsect)
    BAD("%u sections at offset %d, version %u has %d", name, get32(h, OFF_NSECT), OFF_NSECT,
        version, nsect);
  // version 2: the table's unused entries and the fields of the derived arrays are reserved
  const size_t reserved_from = v1 ? OFF_RESERVED1 : OFF_TABLE + (size_t)nsect * K2F_ENTRY_BYTES;
  for (size_t o = reserved_from; o < OFF_HEADER_SUM; o++) {
    if (h[o] != 0) BAD("reserved header byte %zu is not zero", name, o);
  }
  if (get32(h, OFF_RESERVED0) != 0) BAD("reserved header field at offset %d is not zero", name, OFF_RESERVED0);
  if (!v1) {
    static const int field[3] = {OFF_TOP_LEVEL, OFF_DIR_LEN, OFF_TOP_COUNT};
    for (int f = 0; f < 3; f++) {
      uint64_t v = field[f] == OFF_TOP_LEVEL ? get32(h, OFF_TOP_LEVEL) : get64(h, (size_t)field[f]);
      if (v != 0) BAD("reserved header field at offset %d is not zero (version 2 stores no "
                      "directory or top codes)", name, field[f]);
    }
  }

  t->nrows = get64(h, OFF_NROWS);
  t->ncols = get64(h, OFF_NCOLS);
  t->nvals = get64(h, OFF_NVALS);
  t->side_log = get32(h, OFF_SIDE_LOG);
  t->levels = get32(h, OFF_LEVELS);
  t->leaf_log = get32(h, OFF_LEAF_LOG);
  t->dir_log = get32(h, OFF_DIR_LOG);
  t->top_level = get32(h, OFF_TOP_LEVEL);
  t->n_internal = get64(h, OFF_N_INTERNAL);
  t->n_leaves = get64(h, OFF_N_LEAVES);
  t->dir_len = get64(h, OFF_DIR_LEN);
  t->top_count = get64(h, OFF_TOP_COUNT);
  uint32_t top_max_log = get32(h, OFF_TOP_MAX_LOG);
  memcpy(weight, h + OFF_WEIGHT, 8);

  // scalar fields on their own (k2_tree_check repeats the tree ones on the final tree)
  if (t->nrows > K2_INDEX_MAX || t->ncols > K2_INDEX_MAX)
    BAD("shape %llu x %llu exceeds 2^32 (offset %d)", name, (unsigned long long)t->nrows,
        (unsigned long long)t->ncols, OFF_NROWS);
  if (t->leaf_log < 1 || t->leaf_log > 3)
    BAD("leaf_log %u at offset %d is not 1, 2 or 3", name, t->leaf_log, OFF_LEAF_LOG);
  if (codes && t->leaf_log < 2)
    BAD("compressed leaves with leaf_log %u (offset %d): they need 2 or 3", name, t->leaf_log,
        OFF_LEAF_LOG);
  if (t->side_log != k2_tree_side_log(t->nrows, t->ncols, t->leaf_log) ||
      t->levels != t->side_log - t->leaf_log)
    BAD("side_log %u / levels %u (offsets %d, %d) do not fit a %llu x %llu matrix with "
        "leaf_log %u", name, t->side_log, t->levels, OFF_SIDE_LOG, OFF_LEVELS,
        (unsigned long long)t->nrows, (unsigned long long)t->ncols, t->leaf_log);
  // the ranges K2_Format accepts (version 2: 0 is "sized from the tree")
  if ((t->dir_log < 4 && (v1 || t->dir_log != 0)) || t->dir_log > 30)
    BAD("dir_log %u at offset %d is not in %s4..30", name, t->dir_log, OFF_DIR_LOG,
        v1 ? "" : "0 or ");
  if (top_max_log > 30)
    BAD("top_max_log %u at offset %d is above 30", name, top_max_log, OFF_TOP_MAX_LOG);
  if (t->top_level > t->levels)
    BAD("top level %u at offset %d is below the leaf level %u", name, t->top_level,
        OFF_TOP_LEVEL, t->levels);
  uint64_t cells;
  if (!__builtin_mul_overflow(t->nrows, t->ncols, &cells) && t->nvals > cells)
    BAD("nvals %llu at offset %d exceeds %llu x %llu", name, (unsigned long long)t->nvals,
        OFF_NVALS, (unsigned long long)t->nrows, (unsigned long long)t->ncols);

  // expected section sizes (the bottom codes' depends on level_start, checked once it is read)
  const uint64_t leaf_bits = UINT64_C(1) << (2 * t->leaf_log);
  uint64_t expect[K2F_NSECT], leaf_total_bits;
  bool ovf = false;
  ovf |= __builtin_mul_overflow((t->n_internal + 15) / 16, UINT64_C(8), &expect[SEC_SIG]);
  ovf |= t->n_internal > UINT64_MAX - 15;
  ovf |= __builtin_mul_overflow(t->n_leaves, leaf_bits, &leaf_total_bits);
  ovf |= __builtin_mul_overflow(leaf_total_bits / 64 + (leaf_total_bits % 64 != 0), UINT64_C(8),
                                &expect[SEC_LEAVES]);
  expect[SEC_LEVEL_START] = ((uint64_t)t->levels + 2) * 8;
  ovf |= __builtin_mul_overflow(t->dir_len, UINT64_C(8), &expect[SEC_DIR]);
  ovf |= __builtin_mul_overflow(t->top_count, UINT64_C(8), &expect[SEC_TOP]);
  if (ovf) BAD("node counts in the header overflow 64-bit sizes", name);

  k2f_section sec[K2F_NSECT];
  memset(sec, 0, sizeof sec);
  uint64_t pos = K2F_HEADER_BYTES;
  for (int s = 0; s < nsect; s++) {
    size_t e = OFF_TABLE + (size_t)s * K2F_ENTRY_BYTES;
    sec[s].offset = get64(h, e);
    sec[s].bytes = get64(h, e + 8);
    sec[s].sum = get64(h, e + 16);
    const char *sn = section_name(s, codes);
    if (sec[s].offset != align_up(pos))
      BAD("section %s starts at %llu (table entry at offset %zu), expected %llu", name, sn,
          (unsigned long long)sec[s].offset, e, (unsigned long long)align_up(pos));
    if (s == SEC_BOTTOM) {
      if (!(flags & K2F_FLAG_BOTTOM) && sec[s].bytes != 0)
        BAD("section %s has %llu bytes but the bottom-codes flag is off", name, sn,
            (unsigned long long)sec[s].bytes);
      if (sec[s].bytes % 8 != 0)
        BAD("section %s has %llu bytes, not a multiple of 8", name, sn,
            (unsigned long long)sec[s].bytes);
    } else if (s == SEC_LEAVES && codes) {
      // sized by its own header, checked once read (k2_leafc_open)
      if (sec[s].bytes % 8 != 0 || (sec[s].bytes == 0) != (t->n_leaves == 0))
        BAD("section %s has %llu bytes for %llu leaves", name, sn,
            (unsigned long long)sec[s].bytes, (unsigned long long)t->n_leaves);
    } else if (sec[s].bytes != expect[s]) {
      BAD("section %s has %llu bytes (table entry at offset %zu), the counts need %llu", name,
          sn, (unsigned long long)sec[s].bytes, e, (unsigned long long)expect[s]);
    }
    if (sec[s].offset > len || sec[s].bytes > len - sec[s].offset)
      BAD("section %s (offset %llu, %llu bytes) runs past the end of the %llu-byte image", name,
          sn, (unsigned long long)sec[s].offset, (unsigned long long)sec[s].bytes,
          (unsigned long long)len);
    for (uint64_t o = pos; o < sec[s].offset; o++) {
      if (base[o] != 0) BAD("padding byte at offset %llu (before section %s) is not zero", name,
                            (unsigned long long)o, sn);
    }
    if (XXH3_64bits(base + sec[s].offset, (size_t)sec[s].bytes) != sec[s].sum)
      BAD("section %s (offset %llu, %llu bytes): checksum mismatch", name, sn,
          (unsigned long long)sec[s].offset, (unsigned long long)sec[s].bytes);
    pos = sec[s].offset + sec[s].bytes;
  }
  if (pos != len) BAD("%llu bytes after the last section", name, (unsigned long long)(len - pos));

  if (v1) {
    // the bottom codes hold one code per node of level levels-1
    const uint8_t *lsb = base + sec[SEC_LEVEL_START].offset;
    uint64_t a = get64(lsb, 8 * (size_t)(t->levels - 1)), b = get64(lsb, 8 * (size_t)t->levels);
    uint64_t count = b >= a ? b - a : UINT64_MAX;
    if ((flags & K2F_FLAG_BOTTOM) && sec[SEC_BOTTOM].bytes / 8 != count)
      BAD("section bottom_codes has %llu codes, level %u has %llu nodes", name,
          (unsigned long long)(sec[SEC_BOTTOM].bytes / 8), t->levels - 1,
          (unsigned long long)count);
    // version 1 always stores a directory and the top codes of a non-empty tree
    if (t->n_internal > 0 && (t->dir_len == 0 || t->top_count == 0))
      BAD("%s: a version 1 image stores it for every non-empty tree", name,
          t->dir_len == 0 ? "no directory" : "no top codes");
  } else {
    // derived below, once the tree is known to be sound; until then the tree has none
    t->dir_log = K2_DIR_LOG_DENSEST;
  }

  // the arrays: in place, or copies. Version 1 is always copied: its stored directory and top
  // codes are checked and then replaced by today's (below), and the caller's image released.
  if (v1) borrow = false;
  uint64_t **dst[K2F_NSECT] = {&t->sig, codes ? &t->leaf_codes : &t->leaves, &t->level_start,
                               &t->dir, &t->top_codes, &t->bottom_codes};
  for (int s = 0; s < nsect; s++) {
    // empty arrays are NULL, as k2_tree_derive leaves them
    if (sec[s].bytes == 0) continue;
    if (borrow) {
      *dst[s] = (uint64_t *)(uintptr_t)(base + sec[s].offset);
      continue;
    }
    *dst[s] = malloc((size_t)sec[s].bytes);
    if (*dst[s] == NULL) {
      for (int r = 0; r < s; r++) {
        free(*dst[r]);
        *dst[r] = NULL;
      }
      return k2_error_set(GrB_OUT_OF_MEMORY, "%s: out of memory copying section %s (%llu bytes)",
                          name, section_name(s, codes), (unsigned long long)sec[s].bytes);
    }
    memcpy(*dst[s], base + sec[s].offset, (size_t)sec[s].bytes);
  }
  t->borrowed = borrow;
  if (t->leaf_codes != NULL) {
    t->leaf_code_words = sec[SEC_LEAVES].bytes / 8;
    GrB_Info info = k2_leafc_open(&t->lc, t->leaf_codes, t->leaf_code_words, t->n_leaves,
                                  (uint32_t)leaf_bits);
    if (info != GrB_SUCCESS) {
      char why[400];
      snprintf(why, sizeof why, "%s", k2_error_get());
      image_drop(t, dst, borrow);
      return k2_error_set(info, "%s: section leaf_codes: %s", name, why);
    }
  }

  // version 2 with the bottom codes cached: the check's walk meets every node with its code,
  // so it writes them (cheaper than expanding them level by level afterwards)
  uint64_t *bottom = NULL;
  // (sized from level_start before the check reads it: bounded by the node count, which the
  // section sizes tie to the image's length; a wrong level_start fails the check)
  if (!v1 && (flags & K2F_FLAG_BOTTOM) && t->n_internal > 0 &&
      t->level_start[t->levels] <= t->n_internal &&
      t->level_start[t->levels] > t->level_start[t->levels - 1]) {
    bottom = malloc((size_t)(t->level_start[t->levels] - t->level_start[t->levels - 1]) * 8);
    if (bottom == NULL) {
      image_drop(t, dst, borrow);
      return k2_error_set(GrB_OUT_OF_MEMORY, "%s: out of memory for the bottom codes", name);
    }
  }
  t->full_blocks = full;
  t->n_full = full ? k2_tree_count_full(t) : 0;
  GrB_Info info = k2_tree_check_codes(t, bottom);
  if (info != GrB_SUCCESS) {
    char why[400];
    snprintf(why, sizeof why, "%s", k2_error_get());
    free(bottom);
    image_drop(t, dst, borrow);
    return k2_error_set(info, "%s: structurally invalid tree: %s", name, why);
  }
  fmt->leaf_log = t->leaf_log;
  fmt->cache_bottom_codes = (flags & K2F_FLAG_BOTTOM) != 0;
  fmt->compress_leaves = codes;
  fmt->full_blocks = full;
  if (v1) {
    // the top level is the one its writer picked, the deepest internal level with at most
    // 2^top_max_log nodes (level sizes never shrink downwards)
    uint32_t top = 0;
    for (uint32_t l = 0; t->n_internal > 0 && l < t->levels; l++) {
      if (t->level_start[l + 1] - t->level_start[l] > (UINT64_C(1) << top_max_log)) break;
      top = l;
    }
    if (t->top_level != top) {
      image_drop(t, dst, borrow);
      BAD("top level %u (offset %d), but with top_max_log %u it is level %u", name,
          get32(h, OFF_TOP_LEVEL), OFF_TOP_LEVEL, top_max_log, top);
    }
    // the defaults of version 1 (S = 256, top <= 2^16) read as today's: sized from the tree
    fmt->directory_log = t->dir_log == K2_DIR_LOG_DENSEST ? 0 : t->dir_log;
    fmt->top_max_log = top_max_log == K2_TOP_LOG_DEEPEST ? 0 : top_max_log;
    // the stored directory and top codes are sound but sized by the old rule: made again; the
    // bottom codes, checked, are the ones a build would make
    free(t->dir);
    free(t->top_codes);
    t->dir = t->top_codes = NULL;
    bottom = t->bottom_codes;
    t->bottom_codes = NULL;
  } else {
    fmt->directory_log = get32(h, OFF_DIR_LOG);
    fmt->top_max_log = top_max_log;
  }
  K2_Format rest = *fmt;
  rest.cache_bottom_codes = false;  // the check made or checked them
  info = k2_tree_derive(t, &rest);
  if (info != GrB_SUCCESS) {
    free(bottom);
    image_drop(t, dst, borrow);
    return k2_error_set(info, "%s: out of memory for the directory and the top codes", name);
  }
  t->bottom_codes = bottom;
  return GrB_SUCCESS;
#undef BAD
}

// A new matrix around a validated tree (which it adopts; on failure the tree is released).
static GrB_Info matrix_adopt(K2_Matrix *A, k2_tree *t, const K2_Format *fmt, double weight) {
  K2_Matrix M = NULL;
  GrB_Info info = k2_matrix_alloc(&M, t->nrows, t->ncols, fmt);
  if (info != GrB_SUCCESS) {
    k2_tree_clear(t);
    return info;
  }
  k2_tree_clear(&M->tree);
  M->tree = *t;
  M->weight = weight;
  memset(t, 0, sizeof *t);
  *A = M;
  return GrB_SUCCESS;
}

// ---- entry points (k2_serialize.h) ----------------------------------------------------------

GrB_Info k2_serialize_size(GrB_Index *size, K2_Matrix A) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  k2f_image im;
  if ((info = image_plan(&im, A, false)) != GrB_SUCCESS) return info;
  *size = im.file_bytes;
  return GrB_SUCCESS;
}

GrB_Info k2_serialize_image(void *blob, GrB_Index *size, K2_Matrix A) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  k2f_image im;
  if ((info = image_plan(&im, A, true)) != GrB_SUCCESS) return info;
  if (*size < im.file_bytes)
    K2_MATRIX_FAIL(A, GrB_INSUFFICIENT_SPACE,
                   "K2_Matrix_serialize: the image needs %llu bytes, the blob has %llu "
                   "(see K2_Matrix_serializeSize)",
                   (unsigned long long)im.file_bytes, (unsigned long long)*size);
  k2f_sink k = {blob, NULL, 0};
  image_write(&im, &k);
  *size = im.file_bytes;
  return GrB_SUCCESS;
}

GrB_Info k2_serialize_read(K2_Matrix *A, const void *blob, GrB_Index size) {
  k2_tree t;
  K2_Format fmt;
  double weight;
  GrB_Info info = image_read(&t, &fmt, &weight, blob, size, "K2_Matrix_deserialize: blob", false);
  if (info != GrB_SUCCESS) return info;
  return matrix_adopt(A, &t, &fmt, weight);
}

GrB_Info k2_serialize_save(K2_Matrix A, const char *path) {
  GrB_Info info = k2_matrix_wait(A);
  if (info != GrB_SUCCESS) return info;
  k2f_image im;
  if ((info = image_plan(&im, A, true)) != GrB_SUCCESS) return info;

  // through a temporary renamed over the target at the end (k2_atomic_file.h): a failed or
  // interrupted save leaves an existing file as it was, never a partial one under the name,
  // and readers that loaded the old file keep their copy
  k2_atomic_file file;
  if ((info = k2_atomic_file_open(&file, path)) != GrB_SUCCESS)
    K2_MATRIX_FAIL(A, info, "K2_Matrix_save: %s", k2_error_get());
  k2f_sink k = {NULL, &file, 0};
  image_write(&im, &k);  // a failed write is kept in `file` and reported by the commit
  if ((info = k2_atomic_file_commit(&file)) != GrB_SUCCESS)
    K2_MATRIX_FAIL(A, info, "K2_Matrix_save: %s", k2_error_get());
  return GrB_SUCCESS;
}

// Whether the bytes of an open file cannot change: a memfd sealed against writing and shrinking,
// or a file marked immutable (chattr +i). Only such files are used in place.
static bool file_is_immutable(int fd) {
  int seals = fcntl(fd, F_GET_SEALS);
  if (seals >= 0 && (seals & (F_SEAL_WRITE | F_SEAL_SHRINK)) == (F_SEAL_WRITE | F_SEAL_SHRINK))
    return true;
  int flags = 0;
  return ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL) != 0;
}

// The file's bytes in private memory (an anonymous mapping, read-only once filled). A mapping
// of the file itself would raise SIGBUS in every later product once someone truncates or
// rewrites the file in place (MAP_PRIVATE does not prevent that); a copy cannot be taken away.
// A file that changes while it is read is refused.
static GrB_Info file_copy(void **out, int fd, const struct stat *st, const char *name) {
  size_t len = (size_t)st->st_size;
  uint8_t *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED)
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory for its %zu bytes", name, len);
  for (size_t got = 0; got < len;) {
    size_t chunk = len - got < ((size_t)1 << 30) ? len - got : (size_t)1 << 30;
    ssize_t r = pread(fd, mem + got, chunk, (off_t)got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      int e = errno;
      munmap(mem, len);
      if (r == 0)
        K2_FAIL(GrB_INVALID_VALUE, "%s: the file shrank while it was read (%zu of %zu bytes): "
                "it is being rewritten in place", name, got, len);
      K2_FAIL(GrB_INVALID_VALUE, "%s: cannot read: %s", name, strerror(e));
    }
    got += (size_t)r;
  }
  struct stat now;
  if (fstat(fd, &now) != 0 || now.st_size != st->st_size ||
      now.st_mtim.tv_sec != st->st_mtim.tv_sec || now.st_mtim.tv_nsec != st->st_mtim.tv_nsec) {
    munmap(mem, len);
    K2_FAIL(GrB_INVALID_VALUE, "%s: the file changed while it was read: it is being rewritten "
            "in place", name);
  }
  mprotect(mem, len, PROT_READ);  // the tree is read-only: a stray write faults at once
  *out = mem;
  return GrB_SUCCESS;
}

GrB_Info k2_serialize_load(K2_Matrix *A, const char *path) {
  char name[300];
  snprintf(name, sizeof name, "K2_Matrix_load: %s", path);
  if (k2_atomic_file_is_temporary(path))
    K2_FAIL(GrB_INVALID_VALUE, "%s: an unfinished temporary file of a k2grb writer, not a graph",
            name);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) K2_FAIL(GrB_INVALID_VALUE, "%s: cannot open: %s", name, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot stat: %s", name, strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    K2_FAIL(GrB_INVALID_OBJECT, "%s: not a regular file (a .k2 image is read from a file of known "
            "size)", name);
  }
  uint64_t len = (uint64_t)st.st_size;
  if (len < K2F_HEADER_BYTES || len > SIZE_MAX) {
    // too short to hold a header: read what there is for a precise message
    uint8_t small[K2F_HEADER_BYTES];
    ssize_t n = len < K2F_HEADER_BYTES ? read(fd, small, (size_t)len) : -1;
    close(fd);
    if (len > SIZE_MAX) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: too large for the address space", name);
    if (n != (ssize_t)len) K2_FAIL(GrB_INVALID_VALUE, "%s: cannot read", name);
    k2_tree t;
    K2_Format fmt;
    double w;
    return image_read(&t, &fmt, &w, small, len, name, false);  // always fails
  }
  // an immutable file is used in place; any other is copied (file_copy says why)
  void *map;
  GrB_Info info = GrB_SUCCESS;
  if (file_is_immutable(fd)) {
    map = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED)
      info = k2_error_set(GrB_INVALID_VALUE, "%s: cannot map: %s", name, strerror(errno));
  } else {
    info = file_copy(&map, fd, &st, name);
  }
  close(fd);  // a mapping keeps the file
  if (info != GrB_SUCCESS) return info;
  k2_tree t;
  K2_Format fmt;
  double weight;
  info = image_read(&t, &fmt, &weight, map, len, name, true);
  if (info != GrB_SUCCESS || !t.borrowed) munmap(map, (size_t)len);  // version 1: copied
  if (info != GrB_SUCCESS) return info;
  if (t.borrowed) {
    t.map = map;
    t.map_len = (size_t)len;
  }
  return matrix_adopt(A, &t, &fmt, weight);
}
