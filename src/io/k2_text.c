// k2_text.c: buffered line input over zlib (plain or gzip files) or memory.
// SPDX-License-Identifier: Apache-2.0
#include "io/k2_text.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/k2_error.h"

// One buffer holds a whole line and its "\r\n": reads of about 1 MiB (the per-read overhead
// vanishes, the block stays in cache), never more memory than the longest line allowed.
#define K2_TEXT_BLOCK (K2_TEXT_LINE_MAX + 2)

static GrB_Info k2_text_alloc(k2_text *t, const char *name, size_t cap) {
  memset(t, 0, sizeof *t);
  t->name = name;
  t->cap = cap;
  t->buf = malloc(t->cap + 1);  // + 1: room for the NUL after an unterminated last line
  if (t->buf == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", name);
  return GrB_SUCCESS;
}

GrB_Info k2_text_open_file(k2_text *t, const char *path) {
  GrB_Info info = k2_text_alloc(t, path, K2_TEXT_BLOCK);
  if (info != GrB_SUCCESS) return info;
  struct stat st;
  if (stat(path, &st) == 0) t->size = (uint64_t)st.st_size;
  errno = 0;
  t->gz = gzopen(path, "rb");
  if (t->gz == NULL) {
    int err = errno;
    k2_text_close(t);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot open: %s", path, err ? strerror(err) : "out of memory");
  }
  gzbuffer(t->gz, 256 * 1024);
  return GrB_SUCCESS;
}

GrB_Info k2_text_open_memory(k2_text *t, const void *data, size_t size, const char *name) {
  // small inputs (tests, fuzzing) get a small buffer: it grows if a line needs more
  GrB_Info info = k2_text_alloc(t, name, size < K2_TEXT_BLOCK ? (size < 64 ? 64 : size) : K2_TEXT_BLOCK);
  if (info != GrB_SUCCESS) return info;
  t->mem = data;
  t->mem_left = size;
  t->size = size;
  return GrB_SUCCESS;
}

void k2_text_close(k2_text *t) {
  if (t->gz != NULL) gzclose_r(t->gz);
  free(t->buf);
  memset(t, 0, sizeof *t);
}

static GrB_Info k2_text_too_long(const k2_text *t) {
  return k2_error_set(GrB_INVALID_VALUE, "%s:%llu: line longer than %zu bytes", t->name,
                      (unsigned long long)t->line + (t->partial ? 0 : 1), K2_TEXT_LINE_MAX);
}

// Move the unread bytes to the front, grow if a single line fills the buffer (up to a line of
// K2_TEXT_LINE_MAX bytes and its "\r\n": a longer one is refused here, before it takes more
// memory), and read more.
static GrB_Info k2_text_fill(k2_text *t) {
  if (t->beg > 0) {
    memmove(t->buf, t->buf + t->beg, t->end - t->beg);
    t->end -= t->beg;
    t->scanned -= t->beg;
    t->beg = 0;
  }
  if (t->end == t->cap) {
    if (t->cap >= K2_TEXT_BLOCK) return k2_text_too_long(t);
    size_t cap = 2 * t->cap < K2_TEXT_BLOCK ? 2 * t->cap : K2_TEXT_BLOCK;
    char *b = realloc(t->buf, cap + 1);
    if (b == NULL) {
      K2_FAIL(GrB_OUT_OF_MEMORY, "%s:%llu: out of memory for a line of %zu bytes", t->name,
              (unsigned long long)t->line + 1, t->end);
    }
    t->buf = b;
    t->cap = cap;
  }
  size_t room = t->cap - t->end;
  size_t got;
  if (t->gz != NULL) {
    unsigned ask = room > (size_t)INT_MAX ? (unsigned)INT_MAX : (unsigned)room;
    int n = gzread(t->gz, t->buf + t->end, ask);
    int err = Z_OK;
    const char *msg = gzerror(t->gz, &err);
    if (n < 0 || err != Z_OK) {
      // A gzip stream cut short reads as Z_BUF_ERROR "unexpected end of file". The bytes that
      // came before the failure are still handed out; the error surfaces where they end.
      t->pending = GrB_INVALID_VALUE;
      size_t k = strlen(t->name);  // zlib prefixes its message with the path
      if (strncmp(msg, t->name, k) == 0 && msg[k] == ':' && msg[k + 1] == ' ') msg += k + 2;
      snprintf(t->pending_msg, sizeof t->pending_msg, "%s: %s",
               gzdirect(t->gz) ? "read error" : "corrupt or truncated gzip data",
               err == Z_ERRNO ? strerror(errno) : msg);
      n = n < 0 ? 0 : n;
    }
    if (t->bytes == 0 && n > 0) t->gzip = !gzdirect(t->gz);
    got = (size_t)n;
    if (got < ask) t->eof = true;  // gzread fills the request unless the input ends
  } else {
    got = room < t->mem_left ? room : t->mem_left;
    memcpy(t->buf + t->end, t->mem, got);
    t->mem += got;
    t->mem_left -= got;
    if (t->mem_left == 0) t->eof = true;
  }
  t->end += got;
  t->bytes += got;
  return GrB_SUCCESS;
}

// The next line, or with pieces, the next piece of it: where a line fills the whole buffer, the
// bytes up to its last blank (*more = true; the line goes on in the next call).
static GrB_Info k2_text_get(k2_text *t, char **line, size_t *len, bool pieces, bool *more) {
  for (;;) {
    char *nl = memchr(t->buf + t->scanned, '\n', t->end - t->scanned);
    char *start = t->buf + t->beg;
    if (nl != NULL || (t->eof && t->pending == GrB_SUCCESS && (t->beg < t->end || t->partial))) {
      // a whole line, the rest of one, or a last line without '\n'
      size_t n = nl != NULL ? (size_t)(nl - start) : t->end - t->beg;
      start[n] = '\0';
      if (n > 0 && start[n - 1] == '\r') start[--n] = '\0';
      if (n > K2_TEXT_LINE_MAX && !pieces) return k2_text_too_long(t);
      t->beg = t->scanned = nl != NULL ? (size_t)(nl - t->buf) + 1 : t->end;
      if (!t->partial) t->line++;
      t->partial = false;
      *line = start;
      *len = n;
      *more = false;
      return GrB_SUCCESS;
    }
    t->scanned = t->end;
    if (t->eof) {
      if (t->pending != GrB_SUCCESS) {  // never hand out the cut-off last line
        return k2_error_set(t->pending, "%s:%llu: %s", t->name,
                            (unsigned long long)t->line + (t->partial ? 0 : 1), t->pending_msg);
      }
      return GrB_NO_VALUE;
    }
    if (pieces && t->end - t->beg == t->cap && t->cap >= K2_TEXT_BLOCK) {
      // the buffer holds nothing but this line: hand out what precedes its last blank
      size_t b = t->end;
      while (b > t->beg && !k2_is_blank(t->buf[b - 1])) b--;
      if (b == t->beg) return k2_text_too_long(t);  // one token fills the buffer
      t->buf[b - 1] = '\0';
      t->beg = t->scanned = b;
      if (!t->partial) t->line++;
      t->partial = true;
      *line = start;
      *len = b - 1 - (size_t)(start - t->buf);
      *more = true;
      return GrB_SUCCESS;
    }
    GrB_Info info = k2_text_fill(t);
    if (info != GrB_SUCCESS) return info;
  }
}

GrB_Info k2_text_next(k2_text *t, char **line, size_t *len) {
  bool more;
  return k2_text_get(t, line, len, false, &more);
}

GrB_Info k2_text_next_piece(k2_text *t, char **piece, size_t *len, bool *more) {
  return k2_text_get(t, piece, len, true, more);
}

GrB_Info k2_text_peek(k2_text *t, const char **data, size_t *n) {
  while (!t->eof && t->end - t->beg < 4096) {
    GrB_Info info = k2_text_fill(t);
    if (info != GrB_SUCCESS) return info;
  }
  *data = t->buf + t->beg;
  *n = t->end - t->beg;
  return GrB_SUCCESS;
}

uint64_t k2_text_reserve_hint(const k2_text *t, uint64_t declared, unsigned min_bytes) {
  uint64_t cap = t->gzip ? ((uint64_t)1 << 24) : t->size / min_bytes + 1;
  return declared < cap ? declared : cap;
}

GrB_Info k2_text_error(const k2_text *t, GrB_Info info, const char *fmt, ...) {
  char what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  for (char *c = what; *c != '\0'; c++) {  // quoted binary input stays printable
    if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) *c = '?';
  }
  return k2_error_set(info, "%s:%llu: %s", t->name, (unsigned long long)t->line, what);
}

bool k2_scan_integer(const char **pp) {
  const char *p = *pp;
  if (*p == '+' || *p == '-') p++;
  if ((unsigned)(*p - '0') > 9) return false;
  while ((unsigned)(*p - '0') <= 9) p++;
  *pp = p;
  return true;
}

static bool k2_scan_word(const char **pp, const char *word) {
  size_t n = strlen(word);
  if (strncasecmp(*pp, word, n) != 0) return false;
  *pp += n;
  return true;
}

bool k2_scan_real(const char **pp) {
  const char *p = *pp;
  if (*p == '+' || *p == '-') p++;
  if (k2_scan_word(&p, "infinity") || k2_scan_word(&p, "inf") || k2_scan_word(&p, "nan")) {
    *pp = p;
    return true;
  }
  size_t digits = 0;
  while ((unsigned)(*p - '0') <= 9) p++, digits++;
  if (*p == '.') {
    p++;
    while ((unsigned)(*p - '0') <= 9) p++, digits++;
  }
  if (digits == 0) return false;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if ((unsigned)(*p - '0') > 9) return false;
    while ((unsigned)(*p - '0') <= 9) p++;
  }
  *pp = p;
  return true;
}
