#ifndef CSYSTEMSCRYPT_H
#define CSYSTEMSCRYPT_H

#include <stddef.h>
#include <stdint.h>

/* scrypt (RFC 7914) from the system's OpenSSL 3 libcrypto, which is compiled with optimisation
   whatever the configuration of the build that loads it (csystemscrypt.c says why and how).

   Returns 1 when `out` holds the derived key, 0 when the system's library is unavailable (not
   installed, not in a system library directory, failed its self-check, or failed this call):
   the caller then derives the key with its own scrypt. Linux only; elsewhere always 0. */
int csystemscrypt_derive(const uint8_t *password, size_t passwordLength,
                         const uint8_t *salt, size_t saltLength,
                         uint64_t n, uint32_t r, uint32_t p,
                         uint8_t *out, size_t outLength);

/* Whether the system's library is loaded and passed its self-check (loads it on first call). */
int csystemscrypt_available(void);

/* The path of the loaded library, or why none is used ("" before the first call). */
const char *csystemscrypt_description(void);

#endif
