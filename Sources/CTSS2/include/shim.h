#ifndef CTSS2_SHIM_H
#define CTSS2_SHIM_H
/* Linux only: KeychainCore depends on this target on Linux alone. */
#if defined(__linux__)
/* tpm2-tss (Debian's libtss2-dev): the Enhanced System API, the TCTI loader, marshalling and
   response-code decoding, for KeychainCore's TPM 2.0 binding. The functions are not linked:
   ctss2_loader.c opens the libraries on first use (see there). */
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_rc.h>

/* Swift does not import macros of the form ((T)(A + B)); these constants carry the response
   codes the binding checks for. */
static const TPM2_RC CTSS2_RC_INITIALIZE = TPM2_RC_INITIALIZE;
static const TPM2_RC CTSS2_RC_INTEGRITY = TPM2_RC_INTEGRITY;
static const TPM2_RC CTSS2_RC_POLICY_FAIL = TPM2_RC_POLICY_FAIL;
static const TPM2_RC CTSS2_RC_AUTH_FAIL = TPM2_RC_AUTH_FAIL;
static const TPM2_RC CTSS2_RC_BAD_AUTH = TPM2_RC_BAD_AUTH;
static const TPM2_RC CTSS2_RC_LOCKOUT = TPM2_RC_LOCKOUT;
static const TPM2_RC CTSS2_RC_ECC_POINT = TPM2_RC_ECC_POINT;
static const TPM2_RC CTSS2_RC_HIERARCHY = TPM2_RC_HIERARCHY;
/* Handle ranges and capability sizes, defined as casts of sums. */
static const TPM2_HC CTSS2_TRANSIENT_FIRST = TPM2_TRANSIENT_FIRST;
static const TPM2_HC CTSS2_LOADED_SESSION_FIRST = TPM2_LOADED_SESSION_FIRST;
static const UINT32 CTSS2_MAX_CAP_HANDLES = TPM2_MAX_CAP_HANDLES;
/* What every function returns when the libraries could not be loaded. */
static const TSS2_RC CTSS2_RC_NOT_LOADED = TSS2_ESYS_RC_NOT_IMPLEMENTED;

/* Opens the tpm2-tss libraries once; 1 when they and every function are there. */
int CTSS2_load(void);
#endif /* __linux__ */
#endif
