#ifndef CSYSTEMRSA_H
#define CSYSTEMRSA_H

#include <stddef.h>
#include <stdint.h>

/* The raw RSA public operation, `input^exponent mod modulus`, computed by the system's OpenSSL 3
   libcrypto (csystemrsa.c says why). Numbers are unsigned big-endian bytes.

   Returns 1 when `out` holds the result, left-padded with zeros to exactly `modulusLength`
   bytes; 0 when `input` is not smaller than the modulus, the modulus is even or zero, or the
   system's library is unavailable (csystemrsa_available). Linux only; elsewhere always 0.
   The caller checks the key itself (KeychainServices' RSAKeyDER). */
int csystemrsa_public_operation(const uint8_t *modulus, size_t modulusLength,
                                const uint8_t *exponent, size_t exponentLength,
                                const uint8_t *input, size_t inputLength,
                                uint8_t *out);

/* Whether the system's library is loaded and its RSA arithmetic passed its self-check (loads it
   on first call). */
int csystemrsa_available(void);

/* The path of the loaded library, or why none is used. */
const char *csystemrsa_description(void);

#endif
