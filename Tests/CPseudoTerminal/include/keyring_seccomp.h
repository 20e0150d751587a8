#ifndef KEYRING_SECCOMP_H
#define KEYRING_SECCOMP_H

/// Makes the kernel answer add_key(2) and keyctl(2) with EPERM on the calling thread and every
/// process it starts afterwards, as Docker's default seccomp profile does (Linux only). The
/// thread keeps the filter until it ends: call it on a thread made for that. Returns 0 on
/// success, -1 when filters cannot be installed here.
int keyring_seccomp_refuse_on_this_thread(void);

#endif
