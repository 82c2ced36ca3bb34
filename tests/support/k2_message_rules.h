// k2_message_rules.h: what an error message of the library, the algorithms and the k2grb tool
// may not contain. Messages are for users: words, the argument or the input file and line;
// never C source text, a source path or the numeric GrB_Info code (the caller gets the code).
// SPDX-License-Identifier: Apache-2.0
#ifndef K2_MESSAGE_RULES_H
#define K2_MESSAGE_RULES_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <GraphBLAS.h>

// Is `s[at..at+len)` a whole number token (no digit or '-' right before, no digit after)?
static inline bool k2_msg_number_at(const char *s, size_t at, size_t len) {
  if (at > 0 && (isdigit((unsigned char)s[at - 1]) || s[at - 1] == '-')) return false;
  return !isdigit((unsigned char)s[at + len]);
}

// Check msg; info is the code the call returned (0: unknown). On a breach writes why (cap
// bytes) and returns false.
static inline bool k2_message_ok(const char *msg, GrB_Info info, char *why, size_t cap) {
  if (msg == NULL || msg[0] == '\0') {
    snprintf(why, cap, "empty message");
    return false;
  }
  if (strstr(msg, "(GrB_Info") != NULL || strstr(msg, "GrB_Info -") != NULL) {
    snprintf(why, cap, "a numeric GrB_Info in '%s'", msg);
    return false;
  }
  if (strstr(msg, "src/") != NULL) {
    snprintf(why, cap, "a source path in '%s'", msg);
    return false;
  }
  static const char *const ops[] = {"->", "==", "!=", "&&", "||", "#call"};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    if (strstr(msg, ops[k]) != NULL) {
      snprintf(why, cap, "C text '%s' in '%s'", ops[k], msg);
      return false;
    }
  }
  for (size_t i = 0; msg[i]; i++) {
    // "file.c:", "file.cu:", "file.h:" followed by a line number: a source location
    if (msg[i] == '.' && (strncmp(msg + i, ".c:", 3) == 0 || strncmp(msg + i, ".cu:", 4) == 0 ||
                          strncmp(msg + i, ".h:", 3) == 0 || strncmp(msg + i, ".inc:", 5) == 0)) {
      snprintf(why, cap, "a source location in '%s'", msg);
      return false;
    }
    // a C call: an identifier with an underscore right before '(' ("GrB_mxv(", "k2_read(")
    if (msg[i] == '(' && i > 0 && (isalnum((unsigned char)msg[i - 1]) || msg[i - 1] == '_')) {
      size_t b = i;
      bool underscore = false;
      while (b > 0 && (isalnum((unsigned char)msg[b - 1]) || msg[b - 1] == '_')) {
        underscore = underscore || msg[b - 1] == '_';
        b--;
      }
      if (underscore) {
        snprintf(why, cap, "C call text at '%.*s' in '%s'", (int)(i - b + 1), msg + b, msg);
        return false;
      }
    }
    // "(-8)" or "error -8": a negative number alone is a GrB_Info code
    if (msg[i] == '-' && isdigit((unsigned char)msg[i + 1]) && i > 0 &&
        (msg[i - 1] == '(' || msg[i - 1] == ' ')) {
      size_t e = i + 1;
      while (isdigit((unsigned char)msg[e])) e++;
      if (msg[i - 1] == '(' ? msg[e] == ')' : (msg[e] == '\0' || msg[e] == ':' || msg[e] == ' ')) {
        snprintf(why, cap, "a negative number (a code?) in '%s'", msg);
        return false;
      }
    }
    // every colon is followed by something
    if (msg[i] == ':') {
      size_t e = i + 1;
      while (msg[e] == ' ') e++;
      if (msg[e] == '\0' || msg[e] == ':' || msg[e] == ',' || msg[e] == ')') {
        snprintf(why, cap, "nothing after a colon in '%s'", msg);
        return false;
      }
    }
  }
  if (info != GrB_SUCCESS) {
    char code[16];
    int len = snprintf(code, sizeof code, "%d", (int)info);
    for (const char *p = strstr(msg, code); p != NULL; p = strstr(p + 1, code)) {
      if (k2_msg_number_at(msg, (size_t)(p - msg), (size_t)len)) {
        snprintf(why, cap, "the code %s in '%s'", code, msg);
        return false;
      }
    }
  }
  return true;
}

#endif
