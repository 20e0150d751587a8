#ifndef C_KERNEL_KEYRING_H
#define C_KERNEL_KEYRING_H

#include <stddef.h>
#include <stdint.h>

/// Thin wrappers around Linux's add_key(2) and keyctl(2) system calls (no libkeyutils): both are
/// variadic through syscall(2), which Swift cannot call. Each returns what the system call
/// returns (-1 with errno set on failure); elsewhere than Linux they fail with ENOSYS.

/// KEY_SPEC_PROCESS_KEYRING and KEY_SPEC_USER_KEYRING.
int32_t kernel_keyring_process_keyring(void);
int32_t kernel_keyring_user_keyring(void);

/// add_key("user", description, payload, length, keyring): adds the key, or updates the payload
/// of a "user" key of that description already in `keyring`. Returns its serial number.
int32_t kernel_keyring_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring);

/// KEYCTL_GET_PERSISTENT for the caller's own uid, linked into `destination`. Returns its serial.
int32_t kernel_keyring_get_persistent(int32_t destination);

/// KEYCTL_SEARCH for a "user" key of that description in `keyring` (recursively), linking nothing.
int32_t kernel_keyring_search_user_key(int32_t keyring, const char *description);

/// KEYCTL_READ into `buffer`; returns the payload's full length (which may exceed `capacity`).
long kernel_keyring_read(int32_t key, void *buffer, size_t capacity);

/// KEYCTL_SETPERM with the possessor and owning-user bits view, read, write, search, link and
/// setattr, and nothing for the group or others.
long kernel_keyring_set_owner_only_permissions(int32_t key);

/// KEYCTL_SET_TIMEOUT (seconds; 0 clears the timeout).
long kernel_keyring_set_timeout(int32_t key, unsigned int seconds);

/// KEYCTL_LINK: links `key` into `keyring`, displacing (atomically) a key of the same type and
/// description already linked there.
long kernel_keyring_link(int32_t key, int32_t keyring);

/// KEYCTL_UNLINK: removes the link from `keyring` to `key`.
long kernel_keyring_unlink(int32_t key, int32_t keyring);

/// KEYCTL_INVALIDATE: the key is gone at once for everyone who holds it.
long kernel_keyring_invalidate(int32_t key);

/// KEYCTL_REVOKE then KEYCTL_UNLINK from `keyring`: for kernels before KEYCTL_INVALIDATE (3.5).
long kernel_keyring_revoke_and_unlink(int32_t key, int32_t keyring);

#endif
