#include "shim.h"
#if defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

/* tpm2-tss is opened with dlopen(3) on first use instead of being linked: a process that never
   touches a TPM (every keychain without TPM binding, every run of the command-line tool on
   such a keychain) then does not load libtss2 and the OpenSSL libcrypto it depends on, which
   cost about a third of the tool's start-up. The libraries are opened by their sonames only
   (the directories the dynamic loader trusts), once, under pthread_once. When one is missing,
   every call fails with CTSS2_RC_NOT_LOADED and Tss2_RC_Decode says which library could not
   be loaded: the keychain reports the TPM as unavailable, as for a TPM that does not answer.
   Each wrapper has the prototype of the header it replaces, so the compiler checks it. */

static struct {
    __typeof__(&Tss2_MU_TPM2B_PRIVATE_Marshal) Tss2_MU_TPM2B_PRIVATE_Marshal;
    __typeof__(&Tss2_MU_TPM2B_PRIVATE_Unmarshal) Tss2_MU_TPM2B_PRIVATE_Unmarshal;
    __typeof__(&Tss2_MU_TPM2B_PUBLIC_Marshal) Tss2_MU_TPM2B_PUBLIC_Marshal;
    __typeof__(&Tss2_MU_TPM2B_PUBLIC_Unmarshal) Tss2_MU_TPM2B_PUBLIC_Unmarshal;
    __typeof__(&Esys_Create) Esys_Create;
    __typeof__(&Esys_CreatePrimary) Esys_CreatePrimary;
    __typeof__(&Esys_ECDH_ZGen) Esys_ECDH_ZGen;
    __typeof__(&Esys_Finalize) Esys_Finalize;
    __typeof__(&Esys_FlushContext) Esys_FlushContext;
    __typeof__(&Esys_Free) Esys_Free;
    __typeof__(&Esys_GetSysContext) Esys_GetSysContext;
    __typeof__(&Esys_Initialize) Esys_Initialize;
    __typeof__(&Esys_Load) Esys_Load;
    __typeof__(&Esys_PCR_Allocate) Esys_PCR_Allocate;
    __typeof__(&Esys_PCR_Extend) Esys_PCR_Extend;
    __typeof__(&Esys_PCR_Read) Esys_PCR_Read;
    __typeof__(&Esys_PolicyGetDigest) Esys_PolicyGetDigest;
    __typeof__(&Esys_PolicyPCR) Esys_PolicyPCR;
    __typeof__(&Esys_Sign) Esys_Sign;
    __typeof__(&Esys_StartAuthSession) Esys_StartAuthSession;
    __typeof__(&Esys_Startup) Esys_Startup;
    __typeof__(&Esys_TRSess_SetAttributes) Esys_TRSess_SetAttributes;
    __typeof__(&Esys_TR_GetName) Esys_TR_GetName;
    __typeof__(&Esys_TR_SetAuth) Esys_TR_SetAuth;
    __typeof__(&Esys_Unseal) Esys_Unseal;
    __typeof__(&Tss2_RC_Decode) Tss2_RC_Decode;
    __typeof__(&Tss2_Sys_FlushContext) Tss2_Sys_FlushContext;
    __typeof__(&Tss2_Sys_GetCapability) Tss2_Sys_GetCapability;
    __typeof__(&Tss2_TctiLdr_Finalize) Tss2_TctiLdr_Finalize;
    __typeof__(&Tss2_TctiLdr_Initialize) Tss2_TctiLdr_Initialize;
} table;
static int loaded;             /* 1 when every symbol was found */
static char loadError[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *openLibrary(const char *soname) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL && loadError[0] == 0) {
        const char *reason = dlerror();
        snprintf(loadError, sizeof loadError, "the TPM software stack could not be loaded (%s): install tpm2-tss (Debian: libtss2-esys-3.0.2-0, libtss2-tctildr0, libtss2-rc0, libtss2-mu0)", reason ? reason : soname);
    }
    return handle;
}

static void load(void) {
    void *esys = openLibrary("libtss2-esys.so.0");
    void *sys = openLibrary("libtss2-sys.so.1");
    void *rc = openLibrary("libtss2-rc.so.0");
    void *tctildr = openLibrary("libtss2-tctildr.so.0");
    void *mu = openLibrary("libtss2-mu.so.0");
    if (esys == NULL || sys == NULL || rc == NULL || tctildr == NULL || mu == NULL) return;
    int complete = 1;
    complete &= (table.Tss2_MU_TPM2B_PRIVATE_Marshal = (__typeof__(&Tss2_MU_TPM2B_PRIVATE_Marshal))dlsym(mu, "Tss2_MU_TPM2B_PRIVATE_Marshal")) != NULL;
    complete &= (table.Tss2_MU_TPM2B_PRIVATE_Unmarshal = (__typeof__(&Tss2_MU_TPM2B_PRIVATE_Unmarshal))dlsym(mu, "Tss2_MU_TPM2B_PRIVATE_Unmarshal")) != NULL;
    complete &= (table.Tss2_MU_TPM2B_PUBLIC_Marshal = (__typeof__(&Tss2_MU_TPM2B_PUBLIC_Marshal))dlsym(mu, "Tss2_MU_TPM2B_PUBLIC_Marshal")) != NULL;
    complete &= (table.Tss2_MU_TPM2B_PUBLIC_Unmarshal = (__typeof__(&Tss2_MU_TPM2B_PUBLIC_Unmarshal))dlsym(mu, "Tss2_MU_TPM2B_PUBLIC_Unmarshal")) != NULL;
    complete &= (table.Esys_Create = (__typeof__(&Esys_Create))dlsym(esys, "Esys_Create")) != NULL;
    complete &= (table.Esys_CreatePrimary = (__typeof__(&Esys_CreatePrimary))dlsym(esys, "Esys_CreatePrimary")) != NULL;
    complete &= (table.Esys_ECDH_ZGen = (__typeof__(&Esys_ECDH_ZGen))dlsym(esys, "Esys_ECDH_ZGen")) != NULL;
    complete &= (table.Esys_Finalize = (__typeof__(&Esys_Finalize))dlsym(esys, "Esys_Finalize")) != NULL;
    complete &= (table.Esys_FlushContext = (__typeof__(&Esys_FlushContext))dlsym(esys, "Esys_FlushContext")) != NULL;
    complete &= (table.Esys_Free = (__typeof__(&Esys_Free))dlsym(esys, "Esys_Free")) != NULL;
    complete &= (table.Esys_GetSysContext = (__typeof__(&Esys_GetSysContext))dlsym(esys, "Esys_GetSysContext")) != NULL;
    complete &= (table.Esys_Initialize = (__typeof__(&Esys_Initialize))dlsym(esys, "Esys_Initialize")) != NULL;
    complete &= (table.Esys_Load = (__typeof__(&Esys_Load))dlsym(esys, "Esys_Load")) != NULL;
    complete &= (table.Esys_PCR_Allocate = (__typeof__(&Esys_PCR_Allocate))dlsym(esys, "Esys_PCR_Allocate")) != NULL;
    complete &= (table.Esys_PCR_Extend = (__typeof__(&Esys_PCR_Extend))dlsym(esys, "Esys_PCR_Extend")) != NULL;
    complete &= (table.Esys_PCR_Read = (__typeof__(&Esys_PCR_Read))dlsym(esys, "Esys_PCR_Read")) != NULL;
    complete &= (table.Esys_PolicyGetDigest = (__typeof__(&Esys_PolicyGetDigest))dlsym(esys, "Esys_PolicyGetDigest")) != NULL;
    complete &= (table.Esys_PolicyPCR = (__typeof__(&Esys_PolicyPCR))dlsym(esys, "Esys_PolicyPCR")) != NULL;
    complete &= (table.Esys_Sign = (__typeof__(&Esys_Sign))dlsym(esys, "Esys_Sign")) != NULL;
    complete &= (table.Esys_StartAuthSession = (__typeof__(&Esys_StartAuthSession))dlsym(esys, "Esys_StartAuthSession")) != NULL;
    complete &= (table.Esys_Startup = (__typeof__(&Esys_Startup))dlsym(esys, "Esys_Startup")) != NULL;
    complete &= (table.Esys_TRSess_SetAttributes = (__typeof__(&Esys_TRSess_SetAttributes))dlsym(esys, "Esys_TRSess_SetAttributes")) != NULL;
    complete &= (table.Esys_TR_GetName = (__typeof__(&Esys_TR_GetName))dlsym(esys, "Esys_TR_GetName")) != NULL;
    complete &= (table.Esys_TR_SetAuth = (__typeof__(&Esys_TR_SetAuth))dlsym(esys, "Esys_TR_SetAuth")) != NULL;
    complete &= (table.Esys_Unseal = (__typeof__(&Esys_Unseal))dlsym(esys, "Esys_Unseal")) != NULL;
    complete &= (table.Tss2_RC_Decode = (__typeof__(&Tss2_RC_Decode))dlsym(rc, "Tss2_RC_Decode")) != NULL;
    complete &= (table.Tss2_Sys_FlushContext = (__typeof__(&Tss2_Sys_FlushContext))dlsym(sys, "Tss2_Sys_FlushContext")) != NULL;
    complete &= (table.Tss2_Sys_GetCapability = (__typeof__(&Tss2_Sys_GetCapability))dlsym(sys, "Tss2_Sys_GetCapability")) != NULL;
    complete &= (table.Tss2_TctiLdr_Finalize = (__typeof__(&Tss2_TctiLdr_Finalize))dlsym(tctildr, "Tss2_TctiLdr_Finalize")) != NULL;
    complete &= (table.Tss2_TctiLdr_Initialize = (__typeof__(&Tss2_TctiLdr_Initialize))dlsym(tctildr, "Tss2_TctiLdr_Initialize")) != NULL;
    if (!complete) snprintf(loadError, sizeof loadError, "the TPM software stack (tpm2-tss) lacks a function this library needs: install tpm2-tss 3.0 or newer");
    loaded = complete;
}

int CTSS2_load(void) {
    pthread_once(&once, load);
    return loaded;
}

TSS2_RC
Tss2_MU_TPM2B_PRIVATE_Marshal(TPM2B_PRIVATE const *src, uint8_t buffer[], size_t buffer_size, size_t *offset) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Tss2_MU_TPM2B_PRIVATE_Marshal(src, buffer, buffer_size, offset);
}

TSS2_RC
Tss2_MU_TPM2B_PRIVATE_Unmarshal(uint8_t const buffer[], size_t buffer_size, size_t *offset, TPM2B_PRIVATE *dest) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Tss2_MU_TPM2B_PRIVATE_Unmarshal(buffer, buffer_size, offset, dest);
}

TSS2_RC
Tss2_MU_TPM2B_PUBLIC_Marshal(TPM2B_PUBLIC const *src, uint8_t buffer[], size_t buffer_size, size_t *offset) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Tss2_MU_TPM2B_PUBLIC_Marshal(src, buffer, buffer_size, offset);
}

TSS2_RC
Tss2_MU_TPM2B_PUBLIC_Unmarshal(uint8_t const buffer[], size_t buffer_size, size_t *offset, TPM2B_PUBLIC *dest) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Tss2_MU_TPM2B_PUBLIC_Unmarshal(buffer, buffer_size, offset, dest);
}

TSS2_RC
Esys_Create(ESYS_CONTEXT *esysContext, ESYS_TR parentHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPM2B_SENSITIVE_CREATE *inSensitive, const TPM2B_PUBLIC *inPublic, const TPM2B_DATA *outsideInfo, const TPML_PCR_SELECTION *creationPCR, TPM2B_PRIVATE **outPrivate, TPM2B_PUBLIC **outPublic, TPM2B_CREATION_DATA **creationData, TPM2B_DIGEST **creationHash, TPMT_TK_CREATION **creationTicket) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_Create(esysContext, parentHandle, shandle1, shandle2, shandle3, inSensitive, inPublic, outsideInfo, creationPCR, outPrivate, outPublic, creationData, creationHash, creationTicket);
}

TSS2_RC
Esys_CreatePrimary(ESYS_CONTEXT *esysContext, ESYS_TR primaryHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPM2B_SENSITIVE_CREATE *inSensitive, const TPM2B_PUBLIC *inPublic, const TPM2B_DATA *outsideInfo, const TPML_PCR_SELECTION *creationPCR, ESYS_TR *objectHandle, TPM2B_PUBLIC **outPublic, TPM2B_CREATION_DATA **creationData, TPM2B_DIGEST **creationHash, TPMT_TK_CREATION **creationTicket) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_CreatePrimary(esysContext, primaryHandle, shandle1, shandle2, shandle3, inSensitive, inPublic, outsideInfo, creationPCR, objectHandle, outPublic, creationData, creationHash, creationTicket);
}

TSS2_RC
Esys_ECDH_ZGen(ESYS_CONTEXT *esysContext, ESYS_TR keyHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPM2B_ECC_POINT *inPoint, TPM2B_ECC_POINT **outPoint) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_ECDH_ZGen(esysContext, keyHandle, shandle1, shandle2, shandle3, inPoint, outPoint);
}

void
Esys_Finalize(ESYS_CONTEXT **context) {
    if (!CTSS2_load()) return;
    table.Esys_Finalize(context);
}

TSS2_RC
Esys_FlushContext(ESYS_CONTEXT *esysContext, ESYS_TR flushHandle) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_FlushContext(esysContext, flushHandle);
}

void
Esys_Free(void *__ptr) {
    if (!CTSS2_load()) return;
    table.Esys_Free(__ptr);
}

TSS2_RC
Esys_GetSysContext(ESYS_CONTEXT *esys_context, TSS2_SYS_CONTEXT **sys_context) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_GetSysContext(esys_context, sys_context);
}

TSS2_RC
Esys_Initialize(ESYS_CONTEXT **esys_context, TSS2_TCTI_CONTEXT *tcti, TSS2_ABI_VERSION *abiVersion) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_Initialize(esys_context, tcti, abiVersion);
}

TSS2_RC
Esys_Load(ESYS_CONTEXT *esysContext, ESYS_TR parentHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPM2B_PRIVATE *inPrivate, const TPM2B_PUBLIC *inPublic, ESYS_TR *objectHandle) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_Load(esysContext, parentHandle, shandle1, shandle2, shandle3, inPrivate, inPublic, objectHandle);
}

TSS2_RC
Esys_PCR_Allocate(ESYS_CONTEXT *esysContext, ESYS_TR authHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPML_PCR_SELECTION *pcrAllocation, TPMI_YES_NO *allocationSuccess, UINT32 *maxPCR, UINT32 *sizeNeeded, UINT32 *sizeAvailable) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_PCR_Allocate(esysContext, authHandle, shandle1, shandle2, shandle3, pcrAllocation, allocationSuccess, maxPCR, sizeNeeded, sizeAvailable);
}

TSS2_RC
Esys_PCR_Extend(ESYS_CONTEXT *esysContext, ESYS_TR pcrHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPML_DIGEST_VALUES *digests) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_PCR_Extend(esysContext, pcrHandle, shandle1, shandle2, shandle3, digests);
}

TSS2_RC
Esys_PCR_Read(ESYS_CONTEXT *esysContext, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPML_PCR_SELECTION *pcrSelectionIn, UINT32 *pcrUpdateCounter, TPML_PCR_SELECTION **pcrSelectionOut, TPML_DIGEST **pcrValues) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_PCR_Read(esysContext, shandle1, shandle2, shandle3, pcrSelectionIn, pcrUpdateCounter, pcrSelectionOut, pcrValues);
}

TSS2_RC
Esys_PolicyGetDigest(ESYS_CONTEXT *esysContext, ESYS_TR policySession, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, TPM2B_DIGEST **policyDigest) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_PolicyGetDigest(esysContext, policySession, shandle1, shandle2, shandle3, policyDigest);
}

TSS2_RC
Esys_PolicyPCR(ESYS_CONTEXT *esysContext, ESYS_TR policySession, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPM2B_DIGEST *pcrDigest, const TPML_PCR_SELECTION *pcrs) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_PolicyPCR(esysContext, policySession, shandle1, shandle2, shandle3, pcrDigest, pcrs);
}

TSS2_RC
Esys_Sign(ESYS_CONTEXT *esysContext, ESYS_TR keyHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPM2B_DIGEST *digest, const TPMT_SIG_SCHEME *inScheme, const TPMT_TK_HASHCHECK *validation, TPMT_SIGNATURE **signature) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_Sign(esysContext, keyHandle, shandle1, shandle2, shandle3, digest, inScheme, validation, signature);
}

TSS2_RC
Esys_StartAuthSession(ESYS_CONTEXT *esysContext, ESYS_TR tpmKey, ESYS_TR bind, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, const TPM2B_NONCE *nonceCaller, TPM2_SE sessionType, const TPMT_SYM_DEF *symmetric, TPMI_ALG_HASH authHash, ESYS_TR *sessionHandle) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_StartAuthSession(esysContext, tpmKey, bind, shandle1, shandle2, shandle3, nonceCaller, sessionType, symmetric, authHash, sessionHandle);
}

TSS2_RC
Esys_Startup(ESYS_CONTEXT *esysContext, TPM2_SU startupType) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_Startup(esysContext, startupType);
}

TSS2_RC
Esys_TRSess_SetAttributes(ESYS_CONTEXT *esysContext, ESYS_TR session, TPMA_SESSION flags, TPMA_SESSION mask) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_TRSess_SetAttributes(esysContext, session, flags, mask);
}

TSS2_RC
Esys_TR_GetName(ESYS_CONTEXT *esysContext, ESYS_TR handle, TPM2B_NAME **name) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_TR_GetName(esysContext, handle, name);
}

TSS2_RC
Esys_TR_SetAuth(ESYS_CONTEXT *esysContext, ESYS_TR handle, TPM2B_AUTH const *authValue) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_TR_SetAuth(esysContext, handle, authValue);
}

TSS2_RC
Esys_Unseal(ESYS_CONTEXT *esysContext, ESYS_TR itemHandle, ESYS_TR shandle1, ESYS_TR shandle2, ESYS_TR shandle3, TPM2B_SENSITIVE_DATA **outData) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Esys_Unseal(esysContext, itemHandle, shandle1, shandle2, shandle3, outData);
}

const char *
Tss2_RC_Decode(TSS2_RC rc) {
    if (!CTSS2_load()) return loadError;
    return table.Tss2_RC_Decode(rc);
}

TSS2_RC
Tss2_Sys_FlushContext(TSS2_SYS_CONTEXT *sysContext, TPMI_DH_CONTEXT flushHandle) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Tss2_Sys_FlushContext(sysContext, flushHandle);
}

TSS2_RC
Tss2_Sys_GetCapability(TSS2_SYS_CONTEXT *sysContext, TSS2L_SYS_AUTH_COMMAND const *cmdAuthsArray, TPM2_CAP capability, UINT32 property, UINT32 propertyCount, TPMI_YES_NO *moreData, TPMS_CAPABILITY_DATA *capabilityData, TSS2L_SYS_AUTH_RESPONSE *rspAuthsArray) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Tss2_Sys_GetCapability(sysContext, cmdAuthsArray, capability, property, propertyCount, moreData, capabilityData, rspAuthsArray);
}

void
Tss2_TctiLdr_Finalize(TSS2_TCTI_CONTEXT **context) {
    if (!CTSS2_load()) return;
    table.Tss2_TctiLdr_Finalize(context);
}

TSS2_RC
Tss2_TctiLdr_Initialize(const char *nameConf, TSS2_TCTI_CONTEXT **context) {
    if (!CTSS2_load()) return CTSS2_RC_NOT_LOADED;
    return table.Tss2_TctiLdr_Initialize(nameConf, context);
}

#endif /* __linux__ */
