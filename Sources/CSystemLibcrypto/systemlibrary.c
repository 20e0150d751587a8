#include "systemlibrary.h"

/* Why the system's library: see csystemscrypt.c (scrypt) and csystemrsa.c (the raw RSA public
   operation), its two users.

   What is loaded: libcrypto.so.3 by absolute path, from the system library directories of this
   architecture only (never by soname: LD_LIBRARY_PATH or a RUNPATH could then pick a planted
   copy), and only a regular file owned by root that neither its group nor others may write, in
   a directory likewise. It is opened once, under pthread_once, with RTLD_LOCAL and
   RTLD_DEEPBIND: its own calls into itself (EVP_KDF_derive, OSSL_LIB_CTX_new, CRYPTO_malloc, …)
   bind to its own definitions, never to another libcrypto the application loaded or
   LD_PRELOAD put first, which would otherwise take them over (a different OpenSSL version, or
   one that derives a wrong key that would then be saved). Under AddressSanitizer, which
   RTLD_DEEPBIND defeats, the system library is not used at all (systemlibrary.h). Each user
   checks known answers of its own functions before it uses them. */

#if defined(CSYSTEMLIBCRYPTO_SUPPORTED)

#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* RTLD_DEEPBIND */
#endif
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static SystemLibrary library;
static int opened;
static char path[PATH_MAX];
static char failure[PATH_MAX + 128];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The system library directories, most specific first. */
static const char *const candidates[] = {
#if defined(__x86_64__)
    "/usr/lib/x86_64-linux-gnu/libcrypto.so.3",
    "/lib/x86_64-linux-gnu/libcrypto.so.3",
    "/usr/lib64/libcrypto.so.3",
    "/lib64/libcrypto.so.3",
#elif defined(__aarch64__)
    "/usr/lib/aarch64-linux-gnu/libcrypto.so.3",
    "/lib/aarch64-linux-gnu/libcrypto.so.3",
    "/usr/lib64/libcrypto.so.3",
    "/lib64/libcrypto.so.3",
#elif defined(__i386__)
    "/usr/lib/i386-linux-gnu/libcrypto.so.3",
    "/lib/i386-linux-gnu/libcrypto.so.3",
#elif defined(__arm__)
    "/usr/lib/arm-linux-gnueabihf/libcrypto.so.3",
    "/lib/arm-linux-gnueabihf/libcrypto.so.3",
#elif defined(__riscv) && __riscv_xlen == 64
    "/usr/lib/riscv64-linux-gnu/libcrypto.so.3",
    "/lib/riscv64-linux-gnu/libcrypto.so.3",
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    "/usr/lib/powerpc64le-linux-gnu/libcrypto.so.3",
    "/usr/lib64/libcrypto.so.3",
#elif defined(__s390x__)
    "/usr/lib/s390x-linux-gnu/libcrypto.so.3",
    "/usr/lib64/libcrypto.so.3",
#endif
    "/usr/lib/libcrypto.so.3",
    "/lib/libcrypto.so.3",
};

/* Owned by root and writable by nobody else. */
static int trusted(const char *candidate, int directory) {
    struct stat status;
    if (stat(candidate, &status) != 0) return 0;
    if (directory ? !S_ISDIR(status.st_mode) : !S_ISREG(status.st_mode)) return 0;
    return status.st_uid == 0 && (status.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

static void load(void) {
    char resolved[PATH_MAX];
    const char *found = NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && found == NULL; i++) {
        if (realpath(candidates[i], resolved) == NULL || !trusted(resolved, 0)) continue;
        char directory[PATH_MAX];
        memcpy(directory, resolved, strlen(resolved) + 1);
        char *slash = strrchr(directory, '/');
        if (slash == NULL || slash == directory) continue;
        *slash = 0;
        if (trusted(directory, 1)) found = resolved;
    }
    if (found == NULL) {
        snprintf(failure, sizeof failure, "no libcrypto.so.3 in the system library directories (Debian: libssl3)");
        return;
    }
    void *handle = dlopen(found, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s could not be loaded: %s", found, reason ? reason : "unknown error");
        return;
    }
    library.setErrorMark = (SystemErrorMark)dlsym(handle, "ERR_set_mark");
    library.popToErrorMark = (SystemErrorMark)dlsym(handle, "ERR_pop_to_mark");
    if (library.setErrorMark == NULL || library.popToErrorMark == NULL) {
        snprintf(failure, sizeof failure, "%s lacks OpenSSL 3's ERR_set_mark", found);
        return;
    }
    snprintf(path, sizeof path, "%s", found);
    library.handle = handle;
    library.path = path;
    opened = 1;
}

const SystemLibrary *systemlibrary_open(void) {
    pthread_once(&once, load);
    return opened ? &library : NULL;
}

const char *systemlibrary_failure(void) {
    pthread_once(&once, load);
    return failure;
}

#endif
