#ifndef CSYSTEMLIBCRYPTO_SYSTEMLIBRARY_H
#define CSYSTEMLIBCRYPTO_SYSTEMLIBRARY_H

/* The system's OpenSSL 3 libcrypto, found and opened once for every user in this target
   (systemlibrary.c says where it is looked for and how it is opened). Internal to the target. */

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CSYSTEMLIBCRYPTO_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CSYSTEMLIBCRYPTO_SANITIZED 1
#endif

#if defined(__linux__) && !defined(CSYSTEMLIBCRYPTO_SANITIZED)
#define CSYSTEMLIBCRYPTO_SUPPORTED 1

typedef int (*SystemErrorMark)(void);

/* The opened library: its dlopen handle, its absolute path, and ERR_set_mark/ERR_pop_to_mark,
   which every call brackets itself with: a refused call leaves errors in the thread's queue,
   which may be the application's own OpenSSL queue; only the errors of this call are removed. */
typedef struct {
    void *handle;
    const char *path;
    SystemErrorMark setErrorMark;
    SystemErrorMark popToErrorMark;
} SystemLibrary;

/* The library, opened on first call; NULL when there is none usable, and then
   `systemlibrary_failure()` says why. */
const SystemLibrary *systemlibrary_open(void);

/* Why `systemlibrary_open()` returned NULL. */
const char *systemlibrary_failure(void);

#endif
#endif
