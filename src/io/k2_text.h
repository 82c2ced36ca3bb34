// k2_text.h: line-by-line input for the text readers, from a file (plain or gzip, through zlib)
// or from memory, plus the hand-written number scanners they share (internal).
// SPDX-License-Identifier: Apache-2.0
//
// Lines come out of one large buffer, NUL-terminated in place (the '\n' and a '\r' before it are
// overwritten), so the scanners below can stop at the first byte that is not part of a token.
// A NUL inside a line (binary data) ends the scan early and the reader reports a malformed line.
#ifndef K2_TEXT_H
#define K2_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include <k2grb.h>

typedef struct {
  gzFile gz;                 // NULL when reading memory
  const unsigned char *mem;  // the rest of the memory input
  size_t mem_left;
  char *buf;                 // buf[beg .. end) holds bytes not yet returned
  size_t cap, beg, end, scanned;
  bool eof;                  // the source has no more bytes
  bool gzip;                 // the file is gzip-compressed
  bool partial;              // the last piece handed out (k2_text_next_piece) ended mid-line
  uint64_t line;             // number of the last line returned (1-based)
  uint64_t bytes;            // uncompressed bytes read so far
  uint64_t size;             // bytes of the file or memory input (compressed size for gzip)
  const char *name;          // file name for messages
  GrB_Info pending;          // a read error held back until the data before it is used
  char pending_msg[160];
} k2_text;

// Open a file; gzip is recognised by its magic bytes (1f 8b), whatever the name.
// GrB_INVALID_VALUE (cannot open) or GrB_OUT_OF_MEMORY, with a message.
GrB_Info k2_text_open_file(k2_text *t, const char *path);
// Read from memory (not copied; must outlive the reader). `name` is used in messages.
GrB_Info k2_text_open_memory(k2_text *t, const void *data, size_t size, const char *name);
void k2_text_close(k2_text *t);

// The longest line a reader takes (without its '\n'): far beyond any graph line of the edge-list
// and Matrix Market formats, and it bounds the memory a file without newlines can take (a small
// gzip can hold gigabytes of them). METIS lines, which list all neighbours of a vertex, are read
// in pieces (k2_text_next_piece) and may be longer.
#define K2_TEXT_LINE_MAX ((size_t)1 << 20)

// The next line: *line (NUL-terminated, without '\n' or "\r\n") and its length.
// GrB_SUCCESS, GrB_NO_VALUE at the end of the input, or an error (I/O, corrupt or truncated gzip,
// GrB_INVALID_VALUE "name:line: line longer than K2_TEXT_LINE_MAX bytes").
GrB_Info k2_text_next(k2_text *t, char **line, size_t *len);
// The same for lines of blank-separated tokens of any length: a line longer than
// K2_TEXT_LINE_MAX comes in pieces that end at a blank (never inside a token); *more is true
// when the line goes on in the next piece (whose first byte may be a blank). t->line stays the
// line's number throughout. A single token longer than K2_TEXT_LINE_MAX is an error.
GrB_Info k2_text_next_piece(k2_text *t, char **piece, size_t *len, bool *more);
// The first bytes of the input without consuming them (up to one buffer); *n = 0 if empty.
GrB_Info k2_text_peek(k2_text *t, const char **data, size_t *n);

// How many items to reserve for a count declared by a header: the count, unless the input is
// too small to hold that many items of at least min_bytes each (a lying header must not make
// a small input allocate gigabytes). gzip input is capped at 2^24 items instead; arrays grow.
uint64_t k2_text_reserve_hint(const k2_text *t, uint64_t declared, unsigned min_bytes);

// Record "name:line: message" (the current line) as the error; returns info.
GrB_Info k2_text_error(const k2_text *t, GrB_Info info, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

//----------------------------------------------------------------------------------------------
// scanners: each advances *pp past what it accepts
//----------------------------------------------------------------------------------------------

static inline bool k2_is_blank(char c) { return c == ' ' || c == '\t'; }

static inline const char *k2_skip_blanks(const char *p) {
  while (k2_is_blank(*p)) p++;
  return p;
}

// Unsigned decimal. Returns 0 (ok), 1 (no digit), 2 (overflow of 64 bits: all digits consumed).
static inline int k2_scan_u64(const char **pp, uint64_t *value) {
  const char *p = *pp;
  if ((unsigned)(*p - '0') > 9) return 1;
  uint64_t v = 0;
  int status = 0;
  for (unsigned d; (d = (unsigned)(*p - '0')) <= 9; p++) {
    if (v > (UINT64_MAX - d) / 10) status = 2;
    v = v * 10 + d;
  }
  *pp = p;
  *value = v;
  return status;
}

// A token ends at a blank, the end of the line, or (where allowed) a comma.
static inline bool k2_token_end(char c) { return c == '\0' || k2_is_blank(c); }

// [+-]digits (any length: values are checked for form, not range). True if one was scanned.
bool k2_scan_integer(const char **pp);
// A real number: [+-](digits[.digits]|.digits)[(e|E)[+-]digits], or inf, infinity, nan in any
// case. True if one was scanned.
bool k2_scan_real(const char **pp);

#endif
