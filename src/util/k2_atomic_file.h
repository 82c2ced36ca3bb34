// k2_atomic_file.h: output files that replace their target whole or not at all (internal).
// SPDX-License-Identifier: Apache-2.0
//
// Every writer of the library (.k2, Matrix Market, edge lists, plain or gzip) and the public
// K2_OutFile calls write through this. The bytes go to a temporary in the target's directory:
// an unnamed file (O_TMPFILE) where the file system has them, else a file named
// ".<name>.k2tmp.XXXXXX". Only once every write, the fsync and the close have succeeded is it
// renamed over the target, so a failed, interrupted or killed write leaves the old file as it
// was, never a partial one under the name. An unnamed temporary vanishes with the process; a
// named one is locked (flock) while its writer lives, unlinked on failure, by
// k2_atomic_file_remove_all (for signal handlers), and otherwise by the next write of the same
// target, which removes the unlocked ones (their writers died).
//
// Permissions are those `cp` gives: a new file gets 0666 & ~umask, a replaced file keeps its
// mode (and owner and group where the user may set them); a target the user may not write is
// refused; a symbolic link is followed and its final target replaced (the link stays). A target
// that is not a regular file (a device such as /dev/null, a pipe, /dev/stdout) is written
// directly.
#ifndef K2_ATOMIC_FILE_H
#define K2_ATOMIC_FILE_H

#include <GraphBLAS.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
  int fd;                      // where the bytes go (-1 once closed)
  int dirfd;                   // the target's directory (-1 when writing directly)
  bool direct;                 // not a regular file: written in place, never renamed
  bool unnamed;                // an O_TMPFILE, named only at commit
  int slot;                    // registry slot of the named temporary (signal cleanup), or -1
  int err;                     // errno of the first failed write (0: none)
  const char *path;            // the path as the caller gave it (messages)
  char *target;                // the file replaced: `path` with symlinks followed (malloc'd)
  const char *base;            // its last component (points into target)
  char tmpname[NAME_MAX + 1];  // the temporary's name in the directory ("" while unnamed)
} k2_atomic_file;

// Start writing `path`. GrB_INVALID_VALUE (cannot create, not writable, a directory, ...) or
// GrB_OUT_OF_MEMORY, with a message naming path; on failure nothing is left to release.
GrB_Info k2_atomic_file_open(k2_atomic_file *f, const char *path);
// Append n bytes. False after a failure (the errno is kept in f->err; commit reports it).
bool k2_atomic_file_write(k2_atomic_file *f, const void *data, size_t n);
// Record a failure of a write made through another descriptor of f->fd (e.g. a gzip stream).
void k2_atomic_file_fail(k2_atomic_file *f, int err);
// Finish: fsync, then rename the temporary over the target. Reports a recorded write failure or
// its own (message naming path; the target is then untouched and the temporary removed). f is
// released either way.
GrB_Info k2_atomic_file_commit(k2_atomic_file *f);
// Give up: remove the temporary, leave the target as it was, release f.
void k2_atomic_file_abort(k2_atomic_file *f);

// True if the last component of path has the form of a named temporary (readers refuse those).
bool k2_atomic_file_is_temporary(const char *path);
// Unlink the named temporaries of this process's unfinished writes. Async-signal-safe: for a
// SIGINT/SIGTERM handler that then ends the process.
void k2_atomic_file_remove_all(void);

#endif
