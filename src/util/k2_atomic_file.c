// k2_atomic_file.c: write a temporary beside the target, rename it over the target at the end
// (see k2_atomic_file.h for what is guaranteed).
// SPDX-License-Identifier: Apache-2.0
#include "util/k2_atomic_file.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/k2_error.h"

// ".<target name>.k2tmp.XXXXXX": hidden, and ending in none of the suffixes that pick a format
// (.k2, .mtx, .gz, ...), so neither globs nor the readers' format detection take it for a graph.
#define K2_TMP_TAG ".k2tmp."
#define K2_TMP_TAG_LEN (sizeof K2_TMP_TAG - 1)
#define K2_TMP_RANDOM 6
// the target's name is cut in the temporary's name so that the whole fits in NAME_MAX
#define K2_TMP_BASE_MAX (NAME_MAX - 1 - K2_TMP_TAG_LEN - K2_TMP_RANDOM)

//----------------------------------------------------------------------------------------------
// the named temporaries in flight, for signal handlers (fixed slots: nothing to allocate or lock)
//----------------------------------------------------------------------------------------------

// A name is registered before the file is created, so a removal from any thread finds every
// file that exists; one that runs while a file is being created bumps the generation, and the
// creator, seeing it changed, removes the file itself.
#define K2_TMP_SLOTS 32
static struct {
  atomic_int state;  // 0 free, 1 being filled, 2 holds the path of a (possible) temporary
  char path[PATH_MAX];
} k2_tmp_slots[K2_TMP_SLOTS];
static atomic_uint k2_tmp_generation;  // removals so far

static int k2_tmp_register(const k2_atomic_file *f) {
  size_t dlen = (size_t)(f->base - f->target), nlen = strlen(f->tmpname);
  if (dlen + nlen + 1 > PATH_MAX) return -1;  // not registered: the next write cleans it
  for (int s = 0; s < K2_TMP_SLOTS; s++) {
    int expect = 0;
    if (atomic_compare_exchange_strong(&k2_tmp_slots[s].state, &expect, 1)) {
      memcpy(k2_tmp_slots[s].path, f->target, dlen);
      memcpy(k2_tmp_slots[s].path + dlen, f->tmpname, nlen + 1);
      atomic_store(&k2_tmp_slots[s].state, 2);
      return s;
    }
  }
  return -1;
}

static void k2_tmp_unregister(int slot) {
  if (slot >= 0) atomic_store(&k2_tmp_slots[slot].state, 0);
}

void k2_atomic_file_remove_all(void) {
  atomic_fetch_add(&k2_tmp_generation, 1);
  for (int s = 0; s < K2_TMP_SLOTS; s++) {
    if (atomic_load(&k2_tmp_slots[s].state) == 2) unlink(k2_tmp_slots[s].path);
  }
}

//----------------------------------------------------------------------------------------------
// names
//----------------------------------------------------------------------------------------------

static void k2_tmp_name(k2_atomic_file *f) {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char r[K2_TMP_RANDOM];
  if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
    // no entropy yet (early boot): time, process and a counter; O_EXCL retries a collision
    static atomic_uint counter;
    uint64_t x = ((uint64_t)time(NULL) << 24) ^ (uint64_t)getpid() ^
                 (uint64_t)atomic_fetch_add(&counter, 1) * UINT64_C(0x9E3779B97F4A7C15);
    for (int i = 0; i < K2_TMP_RANDOM; i++) r[i] = (unsigned char)(x >> (8 * i));
  }
  size_t blen = strlen(f->base);
  if (blen > K2_TMP_BASE_MAX) blen = K2_TMP_BASE_MAX;
  char *p = f->tmpname;
  *p++ = '.';
  memcpy(p, f->base, blen);
  p += blen;
  memcpy(p, K2_TMP_TAG, K2_TMP_TAG_LEN);
  p += K2_TMP_TAG_LEN;
  for (int i = 0; i < K2_TMP_RANDOM; i++) *p++ = alphabet[r[i] % (sizeof alphabet - 1)];
  *p = '\0';
}

// Is `name` (one path component) a temporary's name; with base, one written for target base.
static bool k2_tmp_match(const char *name, const char *base) {
  size_t n = strlen(name);
  if (name[0] != '.' || n < 2 + K2_TMP_TAG_LEN + K2_TMP_RANDOM) return false;
  const char *tag = name + n - K2_TMP_RANDOM - K2_TMP_TAG_LEN;
  if (memcmp(tag, K2_TMP_TAG, K2_TMP_TAG_LEN) != 0) return false;
  for (int i = 0; i < K2_TMP_RANDOM; i++) {
    if (!isalnum((unsigned char)tag[K2_TMP_TAG_LEN + i])) return false;
  }
  if (base == NULL) return true;
  size_t blen = strlen(base);
  if (blen > K2_TMP_BASE_MAX) blen = K2_TMP_BASE_MAX;
  return (size_t)(tag - name - 1) == blen && memcmp(name + 1, base, blen) == 0;
}

bool k2_atomic_file_is_temporary(const char *path) {
  const char *slash = strrchr(path, '/');
  return k2_tmp_match(slash != NULL ? slash + 1 : path, NULL);
}

// `path` with its symbolic links followed to the final target, as the kernel follows them (a
// dangling link gives the file it names, which is then created). *magic: the path names an open
// file (/dev/stdout, /dev/fd/N, /proc/...: in /proc, or a link leads there), written in place.
static char *k2_resolve(const char *path, bool *magic, int *err) {
  *magic = strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/dev/fd/", 8) == 0;
  char *cur = strdup(path);
  if (cur == NULL) {
    *err = ENOMEM;
    return NULL;
  }
  for (int hops = 0; !*magic; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break;  // open reports other problems
    char link[PATH_MAX];
    ssize_t n = readlink(cur, link, sizeof link);
    if (hops == 40 || n < 0 || n == (ssize_t)sizeof link) {
      *err = hops == 40 ? ELOOP : n < 0 ? errno : ENAMETOOLONG;
      free(cur);
      return NULL;
    }
    link[n] = '\0';
    *magic = strncmp(link, "/proc/", 6) == 0;
    const char *slash = strrchr(cur, '/');
    size_t keep = link[0] == '/' || slash == NULL ? 0 : (size_t)(slash - cur) + 1;
    char *next = malloc(keep + (size_t)n + 1);
    if (next == NULL) {
      free(cur);
      *err = ENOMEM;
      return NULL;
    }
    memcpy(next, cur, keep);
    memcpy(next + keep, link, (size_t)n + 1);
    free(cur);
    cur = next;
  }
  return cur;
}

//----------------------------------------------------------------------------------------------
// temporaries
//----------------------------------------------------------------------------------------------

// Unlink the temporaries of this target whose writers died (a live writer holds its lock).
static void k2_remove_stale(const k2_atomic_file *f) {
  int fd = openat(f->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // an unreadable directory: nothing to list
  DIR *d = fdopendir(fd);
  if (d == NULL) {
    close(fd);
    return;
  }
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!k2_tmp_match(e->d_name, f->base)) continue;
    int t = openat(f->dirfd, e->d_name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (t < 0) continue;
    struct stat a, b;
    if (flock(t, LOCK_EX | LOCK_NB) == 0 && fstat(t, &a) == 0 && S_ISREG(a.st_mode) &&
        fstatat(f->dirfd, e->d_name, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_ino == b.st_ino &&
        a.st_dev == b.st_dev) {
      unlinkat(f->dirfd, e->d_name, 0);
    }
    close(t);
  }
  closedir(d);
}

// An unnamed file in the directory, if the file system has them and /proc can name it later.
static int k2_create_unnamed(const k2_atomic_file *f) {
  const char *named = getenv("K2GRB_WRITE_NAMED_TEMP");  // tests force the other path
  if (named != NULL && named[0] != '\0' && strcmp(named, "0") != 0) return -1;
  int fd = openat(f->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0) return -1;
  char proc[64];
  struct stat st;
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  if (lstat(proc, &st) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Give the temporary a fresh name: openat (O_CREAT | O_EXCL) or linkat, registered first
// (see the registry). Returns what make returned (-1 and errno on failure).
static int k2_make_named(k2_atomic_file *f, int (*make)(k2_atomic_file *f)) {
  int rc = -1, e = EEXIST;
  for (int attempt = 0; attempt < 100 && e == EEXIST; attempt++) {
    k2_tmp_name(f);
    unsigned gen = atomic_load(&k2_tmp_generation);
    f->slot = k2_tmp_register(f);
    rc = make(f);
    e = errno;
    if (rc >= 0 && atomic_load(&k2_tmp_generation) != gen) {
      unlinkat(f->dirfd, f->tmpname, 0);  // a removal ran meanwhile: the process is going
      if (f->unnamed == false) close(rc);
      rc = -1;
      e = EINTR;
    }
    if (rc >= 0) return rc;
    k2_tmp_unregister(f->slot);
    f->slot = -1;
  }
  f->tmpname[0] = '\0';
  errno = e;
  return -1;
}

static int k2_open_named(k2_atomic_file *f) {
  return openat(f->dirfd, f->tmpname, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

static int k2_link_unnamed(k2_atomic_file *f) {
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", f->fd);
  return linkat(AT_FDCWD, proc, f->dirfd, f->tmpname, AT_SYMLINK_FOLLOW);
}

static void k2_release(k2_atomic_file *f) {
  if (f->fd >= 0) close(f->fd);
  if (f->dirfd >= 0) close(f->dirfd);
  k2_tmp_unregister(f->slot);
  free(f->target);
  f->fd = f->dirfd = f->slot = -1;
  f->target = NULL;
  f->base = NULL;
  f->tmpname[0] = '\0';
}

void k2_atomic_file_abort(k2_atomic_file *f) {
  // unlinked before the close: the lock still keeps other writers' cleanup away from it
  if (!f->direct && f->tmpname[0] != '\0') unlinkat(f->dirfd, f->tmpname, 0);
  k2_release(f);
}

//----------------------------------------------------------------------------------------------
// open, write, commit
//----------------------------------------------------------------------------------------------

static GrB_Info k2_open_direct(k2_atomic_file *f) {
  f->direct = true;
  f->fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
  if (f->fd < 0) {
    int e = errno;
    k2_release(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot write: %s", f->path, strerror(e));
  }
  return GrB_SUCCESS;
}

GrB_Info k2_atomic_file_open(k2_atomic_file *f, const char *path) {
  memset(f, 0, sizeof *f);
  f->fd = f->dirfd = f->slot = -1;
  f->path = path;
  bool magic;
  int e = 0;
  f->target = k2_resolve(path, &magic, &e);
  if (f->target == NULL) {
    if (e == ENOMEM) K2_FAIL(GrB_OUT_OF_MEMORY, "%s: out of memory", path);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot follow the symbolic link: %s", path, strerror(e));
  }
  struct stat old;
  bool exists = stat(f->target, &old) == 0;
  e = errno;
  if (magic || (exists && !S_ISREG(old.st_mode))) return k2_open_direct(f);
  if (!exists && e != ENOENT) {
    k2_release(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot write: %s", path, strerror(e));
  }
  if (exists && faccessat(AT_FDCWD, f->target, W_OK, AT_EACCESS) != 0) {
    e = errno;
    k2_release(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot replace the file: it is not writable (%s)", path,
            strerror(e));
  }
  char *slash = strrchr(f->target, '/');
  f->base = slash != NULL ? slash + 1 : f->target;
  if (f->base[0] == '\0') {
    k2_release(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: not a file name (it ends in '/')", path);
  }
  if (slash != NULL) *slash = '\0';  // the directory, for a moment
  const char *dir = slash == NULL ? "." : slash == f->target ? "/" : f->target;
  f->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (f->dirfd < 0 && errno == EACCES) f->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  e = errno;
  if (slash != NULL) *slash = '/';
  if (f->dirfd < 0) {
    k2_release(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot create the file: %s", path, strerror(e));
  }
  k2_remove_stale(f);

  f->fd = k2_create_unnamed(f);
  f->unnamed = f->fd >= 0;
  if (!f->unnamed) {
    f->fd = k2_make_named(f, k2_open_named);
    e = errno;
    if (f->fd < 0) {
      k2_release(f);
      K2_FAIL(GrB_INVALID_VALUE, "%s: cannot create a temporary file beside it: %s", path,
              strerror(e));
    }
  }
  // the lock tells the cleanup of other writes that this temporary is alive (best effort: a file
  // system without locks keeps stale temporaries instead)
  (void)flock(f->fd, LOCK_EX | LOCK_NB);
  if (exists) {
    // the old file's owner and group where this user may give them (as cp -p), then its mode,
    // without set-id bits that would now belong to someone else
    mode_t mode = old.st_mode & 07777;
    bool uid_ok = fchown(f->fd, old.st_uid, old.st_gid) == 0;
    bool gid_ok = uid_ok || fchown(f->fd, (uid_t)-1, old.st_gid) == 0;
    if (!uid_ok) mode &= ~(mode_t)S_ISUID;
    if (!gid_ok) mode &= ~(mode_t)S_ISGID;
    if (fchmod(f->fd, mode) != 0) {
      e = errno;
      k2_atomic_file_abort(f);
      K2_FAIL(GrB_INVALID_VALUE, "%s: cannot give the new file the mode of the old one: %s", path,
              strerror(e));
    }
  }
  return GrB_SUCCESS;
}

bool k2_atomic_file_write(k2_atomic_file *f, const void *data, size_t n) {
  const char *p = data;
  while (n > 0 && f->err == 0) {
    size_t chunk = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
    ssize_t w = write(f->fd, p, chunk);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      f->err = w < 0 ? errno : EIO;
    } else {
      p += w;
      n -= (size_t)w;
    }
  }
  return f->err == 0;
}

void k2_atomic_file_fail(k2_atomic_file *f, int err) {
  if (f->err == 0) f->err = err != 0 ? err : EIO;
}

GrB_Info k2_atomic_file_commit(k2_atomic_file *f) {
  const char *path = f->path;
  int e = f->err;
  if (e == 0 && f->direct) {
    // devices, pipes and terminals have nothing to sync
    if (fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP) e = errno;
    if (close(f->fd) != 0 && errno != EINTR && e == 0) e = errno;
    f->fd = -1;
  } else if (e == 0 && fsync(f->fd) != 0) {
    e = errno;  // write-back errors (a full disk with delayed allocation) surface here
  }
  if (e != 0) {
    k2_atomic_file_abort(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: write failed: %s", path, strerror(e));
  }
  if (f->direct) {
    k2_release(f);
    return GrB_SUCCESS;
  }
  if (f->unnamed && k2_make_named(f, k2_link_unnamed) != 0) {
    e = errno;
    k2_atomic_file_abort(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot give the written file a name: %s", path, strerror(e));
  }
  if (renameat(f->dirfd, f->tmpname, f->dirfd, f->base) != 0) {
    e = errno;
    k2_atomic_file_abort(f);
    K2_FAIL(GrB_INVALID_VALUE, "%s: cannot replace the file: %s", path, strerror(e));
  }
  f->tmpname[0] = '\0';
  // the data is on disk (fsync above): a late close error changes nothing; the directory's
  // fsync makes the new name durable (an O_PATH directory cannot be synced: skipped)
  (void)fsync(f->dirfd);
  k2_release(f);
  return GrB_SUCCESS;
}
