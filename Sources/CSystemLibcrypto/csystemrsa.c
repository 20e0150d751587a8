#include "CSystemRSA.h"

/* Why this exists: Apple's raw RSA algorithms, its signature algorithms that take a digest
   (including SHA-224) and OAEP with SHA-224, SHA-384 and SHA-512 need the bare public operation
   x^e mod n, which swift-crypto's public API (`_RSA` of CryptoExtras) does not offer: it pads
   and hashes for itself. The BoringSSL copy inside swift-crypto is not one of its products and
   may change in any release, so the operation comes from the system's OpenSSL 3 libcrypto
   (Debian: libssl3), a declared dependency of this package, opened as systemlibrary.c says.

   Only BIGNUM arithmetic is used (BN_mod_exp_mont on an odd modulus), in its own BN_CTX; no
   RSA object, configuration or provider is involved. Before first use the library must
   reproduce two known answers and refuse an input equal to the modulus; otherwise it is never
   used. The input and the result may be secret (a raw-encrypted plaintext, an OAEP block): the
   numbers holding them are freed with BN_clear_free, which zeroes before freeing. The caller
   wipes `out`. */

#include "systemlibrary.h"

#if defined(CSYSTEMLIBCRYPTO_SUPPORTED)

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct bignum_st BIGNUM;
typedef struct bignum_ctx BN_CTX;
typedef struct bn_mont_ctx_st BN_MONT_CTX;

static struct {
    BN_CTX *(*contextNew)(void);
    void (*contextFree)(BN_CTX *);
    BIGNUM *(*fromBytes)(const unsigned char *, int, BIGNUM *);
    int (*toPaddedBytes)(const BIGNUM *, unsigned char *, int);
    void (*clearFree)(BIGNUM *);
    int (*compare)(const BIGNUM *, const BIGNUM *);
    int (*isOdd)(const BIGNUM *);
    int (*modularExponent)(BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *, BN_CTX *, BN_MONT_CTX *);
    BIGNUM *(*newNumber)(void);
} bn;

static const SystemLibrary *library;
static int available;
static char description[PATH_MAX + 128];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int compute(const uint8_t *modulus, size_t modulusLength, const uint8_t *exponent, size_t exponentLength,
                   const uint8_t *input, size_t inputLength, uint8_t *out) {
    if (modulusLength == 0 || modulusLength > INT_MAX || exponentLength == 0 || exponentLength > INT_MAX || inputLength > INT_MAX) return 0;
    library->setErrorMark();
    int computed = 0;
    BN_CTX *context = bn.contextNew();
    BIGNUM *n = bn.fromBytes(modulus, (int)modulusLength, NULL);
    BIGNUM *e = bn.fromBytes(exponent, (int)exponentLength, NULL);
    BIGNUM *x = bn.fromBytes(input, (int)inputLength, NULL);
    BIGNUM *result = bn.newNumber();
    if (context != NULL && n != NULL && e != NULL && x != NULL && result != NULL
        && bn.isOdd(n) && bn.compare(x, n) < 0
        && bn.modularExponent(result, x, e, n, context, NULL) == 1) {
        computed = bn.toPaddedBytes(result, out, (int)modulusLength) == (int)modulusLength;
    }
    bn.clearFree(result);
    bn.clearFree(x);
    bn.clearFree(e);
    bn.clearFree(n);
    bn.contextFree(context);
    library->popToErrorMark();
    return computed;
}

/* 65^17 mod 3233 = 2790, and 2^65537 mod (2^61 - 1) = 2^(65537 mod 61) = 2^23; an input equal to
   the modulus is refused. */
static int selfCheck(void) {
    static const uint8_t smallModulus[] = {0x0C, 0xA1}, smallExponent[] = {17}, smallInput[] = {0x00, 0x41};
    static const uint8_t smallExpected[] = {0x0A, 0xE6};
    static const uint8_t mersenne[] = {0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, f4[] = {0x01, 0x00, 0x01};
    static const uint8_t two[] = {0, 0, 0, 0, 0, 0, 0, 2}, mersenneExpected[] = {0, 0, 0, 0, 0, 0x80, 0, 0};
    uint8_t out[8];
    return compute(smallModulus, 2, smallExponent, 1, smallInput, 2, out) && memcmp(out, smallExpected, 2) == 0
        && compute(mersenne, 8, f4, 3, two, 8, out) && memcmp(out, mersenneExpected, 8) == 0
        && !compute(smallModulus, 2, smallExponent, 1, smallModulus, 2, out);
}

static void load(void) {
    library = systemlibrary_open();
    if (library == NULL) {
        snprintf(description, sizeof description, "%s", systemlibrary_failure());
        return;
    }
    void *handle = library->handle;
    bn.contextNew = (BN_CTX *(*)(void))dlsym(handle, "BN_CTX_new");
    bn.contextFree = (void (*)(BN_CTX *))dlsym(handle, "BN_CTX_free");
    bn.fromBytes = (BIGNUM *(*)(const unsigned char *, int, BIGNUM *))dlsym(handle, "BN_bin2bn");
    bn.toPaddedBytes = (int (*)(const BIGNUM *, unsigned char *, int))dlsym(handle, "BN_bn2binpad");
    bn.clearFree = (void (*)(BIGNUM *))dlsym(handle, "BN_clear_free");
    bn.compare = (int (*)(const BIGNUM *, const BIGNUM *))dlsym(handle, "BN_cmp");
    bn.isOdd = (int (*)(const BIGNUM *))dlsym(handle, "BN_is_odd");
    bn.modularExponent = (int (*)(BIGNUM *, const BIGNUM *, const BIGNUM *, const BIGNUM *, BN_CTX *, BN_MONT_CTX *))dlsym(handle, "BN_mod_exp_mont");
    bn.newNumber = (BIGNUM *(*)(void))dlsym(handle, "BN_new");
    if (bn.contextNew == NULL || bn.contextFree == NULL || bn.fromBytes == NULL || bn.toPaddedBytes == NULL || bn.clearFree == NULL
        || bn.compare == NULL || bn.isOdd == NULL || bn.modularExponent == NULL || bn.newNumber == NULL) {
        snprintf(description, sizeof description, "%s lacks OpenSSL 3's BIGNUM functions", library->path);
        return;
    }
    if (!selfCheck()) {
        snprintf(description, sizeof description, "%s failed the RSA self-check", library->path);
        return;
    }
    snprintf(description, sizeof description, "%s", library->path);
    available = 1;
}

int csystemrsa_available(void) {
    pthread_once(&once, load);
    return available;
}

const char *csystemrsa_description(void) {
    pthread_once(&once, load);
    return description;
}

int csystemrsa_public_operation(const uint8_t *modulus, size_t modulusLength, const uint8_t *exponent, size_t exponentLength,
                                const uint8_t *input, size_t inputLength, uint8_t *out) {
    if (!csystemrsa_available() || modulus == NULL || exponent == NULL || input == NULL || out == NULL) return 0;
    return compute(modulus, modulusLength, exponent, exponentLength, input, inputLength, out);
}

#else

int csystemrsa_public_operation(const uint8_t *modulus, size_t modulusLength, const uint8_t *exponent, size_t exponentLength,
                                const uint8_t *input, size_t inputLength, uint8_t *out) {
    (void)modulus; (void)modulusLength; (void)exponent; (void)exponentLength; (void)input; (void)inputLength; (void)out;
    return 0;
}

int csystemrsa_available(void) { return 0; }

const char *csystemrsa_description(void) {
#if defined(CSYSTEMLIBCRYPTO_SANITIZED)
    return "the system's libcrypto is not used under AddressSanitizer (RTLD_DEEPBIND would defeat it)";
#else
    return "the system's libcrypto is used on Linux only";
#endif
}

#endif
