#include "CSystemScrypt.h"

/* Why this exists: a passphrase unlock runs scrypt with N = 2^17, r = 8 (128 MiB). swift-crypto
   compiles BoringSSL's scrypt as part of the package that depends on it, so in a debug build
   (`swift build`, SwiftPM's default) it runs at -O0 and one derivation takes 2 to 3 s instead of
   0.3 to 0.5 s. A package cannot raise the optimisation of its C code in its dependants' debug
   builds (unsafeFlags are refused in versioned dependencies, and clang ignores per-function
   optimisation attributes), so the keychain asks the system's OpenSSL 3 libcrypto, which is a
   shared library built optimised, and uses BoringSSL only when that is unavailable. Both
   implement RFC 7914, so the keys are the same bytes (KeychainCoreTests' SystemScryptTests
   compares them).

   What is loaded, and how (by absolute path, with RTLD_DEEPBIND, never under AddressSanitizer):
   systemlibrary.c, shared with the raw RSA public operation (csystemrsa.c). This file gets its
   own OpenSSL library context, so no configuration file is read for it and the process's
   default context is left as it was. Before first use it must reproduce two known answers (the
   first test vector of RFC 7914 §12 and one with r = 8, p = 2); otherwise it is never used.

   Secrets: OpenSSL copies the password into its KDF context and frees that copy, the scrypt
   work area (128 · N · r bytes) and its PBKDF2 state with OPENSSL_clear_free, which zeroes
   before freeing, as BoringSSL does with its copies. The caller wipes `out`. */

#include "systemlibrary.h"

#if defined(CSYSTEMLIBCRYPTO_SUPPORTED)

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct ossl_lib_ctx_st OSSL_LIB_CTX;
typedef OSSL_LIB_CTX *(*LibraryContextNew)(void);
typedef int (*PBEScrypt)(const char *pass, size_t passlen, const unsigned char *salt, size_t saltlen,
                         uint64_t N, uint64_t r, uint64_t p, uint64_t maxmem,
                         unsigned char *key, size_t keylen, OSSL_LIB_CTX *ctx, const char *propq);

static PBEScrypt scryptFunction;
static const SystemLibrary *library;
static OSSL_LIB_CTX *libraryContext;
static int available;
static char description[PATH_MAX + 128];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int hexEqual(const uint8_t *bytes, size_t length, const char *hex) {
    static const char digits[] = "0123456789abcdef";
    if (strlen(hex) != 2 * length) return 0;
    int equal = 1;
    for (size_t i = 0; i < length; i++) {
        equal &= hex[2 * i] == digits[bytes[i] >> 4];
        equal &= hex[2 * i + 1] == digits[bytes[i] & 15];
    }
    return equal;
}

static int knownAnswer(const char *password, const char *salt, uint64_t n, uint64_t r, uint64_t p, const char *expected) {
    uint8_t out[64];
    size_t length = strlen(expected) / 2;
    if (length > sizeof out) return 0;
    library->setErrorMark();
    int derived = scryptFunction(password, strlen(password), (const unsigned char *)salt, strlen(salt), n, r, p,
                                 (uint64_t)1 << 20, out, length, libraryContext, NULL) == 1;
    library->popToErrorMark();
    return derived && hexEqual(out, length, expected);
}

static void load(void) {
    library = systemlibrary_open();
    if (library == NULL) {
        snprintf(description, sizeof description, "%s", systemlibrary_failure());
        return;
    }
    const char *found = library->path;
    LibraryContextNew newContext = (LibraryContextNew)dlsym(library->handle, "OSSL_LIB_CTX_new");
    scryptFunction = (PBEScrypt)dlsym(library->handle, "EVP_PBE_scrypt_ex");
    if (newContext == NULL || scryptFunction == NULL || (libraryContext = newContext()) == NULL) {
        snprintf(description, sizeof description, "%s lacks OpenSSL 3's EVP_PBE_scrypt_ex", found);
        return;
    }
    /* RFC 7914 §12, first vector; then r = 8, p = 2 (the same bytes as BoringSSL's, SystemScryptTests). */
    if (!knownAnswer("", "", 16, 1, 1, "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
        || !knownAnswer("SecureStorage", "scrypt self-check", 16, 8, 2, "5f6e3189604a2b8c81434d490573d2818e95f90a483abac07a4a4f56adb617ef")) {
        snprintf(description, sizeof description, "%s failed the scrypt self-check", found);
        return;
    }
    snprintf(description, sizeof description, "%s", found);
    available = 1;
}

int csystemscrypt_available(void) {
    pthread_once(&once, load);
    return available;
}

const char *csystemscrypt_description(void) {
    pthread_once(&once, load);
    return description;
}

int csystemscrypt_derive(const uint8_t *password, size_t passwordLength, const uint8_t *salt, size_t saltLength,
                         uint64_t n, uint32_t r, uint32_t p, uint8_t *out, size_t outLength) {
    if (!csystemscrypt_available()) return 0;
    /* OpenSSL refuses derivations above maxmem (32 MiB by default): allow exactly what these
       parameters need, the work area of 128 · r · (N + 2) bytes and the 128 · r · p of B, plus slack. */
    if (n == 0 || r == 0 || p == 0 || n > ((uint64_t)1 << 32) || (uint64_t)r * p >= ((uint64_t)1 << 30)) return 0;
    uint64_t maxmem = 128 * (uint64_t)r * (n + 2) + 128 * (uint64_t)r * p + 4096;
    static const char empty[1] = {0};
    library->setErrorMark();
    int derived = scryptFunction(password != NULL ? (const char *)password : empty, passwordLength,
                                 salt != NULL ? salt : (const uint8_t *)empty, saltLength,
                                 n, r, p, maxmem, out, outLength, libraryContext, NULL) == 1;
    library->popToErrorMark();
    return derived;
}

#else

int csystemscrypt_derive(const uint8_t *password, size_t passwordLength, const uint8_t *salt, size_t saltLength,
                         uint64_t n, uint32_t r, uint32_t p, uint8_t *out, size_t outLength) {
    (void)password; (void)passwordLength; (void)salt; (void)saltLength; (void)n; (void)r; (void)p; (void)out; (void)outLength;
    return 0;
}

int csystemscrypt_available(void) { return 0; }

const char *csystemscrypt_description(void) {
#if defined(CSYSTEMLIBCRYPTO_SANITIZED)
    return "the system's libcrypto is not used under AddressSanitizer (RTLD_DEEPBIND would defeat it)";
#else
    return "the system's libcrypto is used on Linux only";
#endif
}

#endif
