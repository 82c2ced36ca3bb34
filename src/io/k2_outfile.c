// k2_outfile.c: K2_OutFile, a stdio stream on a file that replaces its target whole or not at
// all (the public face of k2_atomic_file, for programs' result files; the public calls are in
// src/api/k2_files.c).
// SPDX-License-Identifier: Apache-2.0
#include "io/k2_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/k2_atomic_file.h"
#include "util/k2_error.h"

struct K2_OutFile_opaque {
  k2_atomic_file file;
  FILE *stream;  // on its own descriptor of the temporary: fclose leaves file.fd open
};

GrB_Info k2_outfile_open(K2_OutFile *file, FILE **stream, const char *path) {
  struct K2_OutFile_opaque *f = malloc(sizeof *f);
  if (f == NULL) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
  GrB_Info info = k2_atomic_file_open(&f->file, path);
  if (info != GrB_SUCCESS) {
    free(f);
    return info;
  }
  int fd = fcntl(f->file.fd, F_DUPFD_CLOEXEC, 0);
  f->stream = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f->stream == NULL) {
    int e = errno;
    if (fd >= 0) close(fd);
    k2_atomic_file_abort(&f->file);
    free(f);
    K2_FAIL(GrB_OUT_OF_MEMORY, "%s: cannot open a stream: %s", path, strerror(e));
  }
  *file = f;
  *stream = f->stream;
  return GrB_SUCCESS;
}

GrB_Info k2_outfile_commit(K2_OutFile f) {
  // a failed fprintf leaves only the error flag; the flush and close report their own errno
  errno = 0;
  bool bad = fflush(f->stream) != 0 || ferror(f->stream);
  int e = errno;
  if (fclose(f->stream) != 0 && !bad) {
    bad = true;
    e = errno;
  }
  if (bad) k2_atomic_file_fail(&f->file, e);
  GrB_Info info = k2_atomic_file_commit(&f->file);
  free(f);
  return info;
}

void k2_outfile_discard(K2_OutFile f) {
  fclose(f->stream);
  k2_atomic_file_abort(&f->file);
  free(f);
}
