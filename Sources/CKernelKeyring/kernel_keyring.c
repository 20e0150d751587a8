#include "CKernelKeyring.h"

#include <errno.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

// From <linux/keyctl.h>, spelled out so that no kernel headers are needed.
enum {
    SPEC_PROCESS_KEYRING = -2,
    SPEC_USER_KEYRING = -4,
    KEYCTL_REVOKE = 3,
    KEYCTL_SETPERM = 5,
    KEYCTL_LINK = 8,
    KEYCTL_UNLINK = 9,
    KEYCTL_SEARCH = 10,
    KEYCTL_READ = 11,
    KEYCTL_SET_TIMEOUT = 15,
    KEYCTL_GET_PERSISTENT = 22,
    KEYCTL_INVALIDATE = 21,
};

// Possessor (0x3f000000) and user (0x003f0000): view, read, write, search, link, setattr.
static const unsigned long OWNER_ONLY = 0x3f3f0000UL;

int32_t kernel_keyring_process_keyring(void) { return SPEC_PROCESS_KEYRING; }
int32_t kernel_keyring_user_keyring(void) { return SPEC_USER_KEYRING; }

int32_t kernel_keyring_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring) {
    return (int32_t)syscall(SYS_add_key, "user", description, payload, length, keyring);
}

int32_t kernel_keyring_get_persistent(int32_t destination) {
    return (int32_t)syscall(SYS_keyctl, KEYCTL_GET_PERSISTENT, (unsigned long)-1, (long)destination, 0L, 0L);
}

int32_t kernel_keyring_search_user_key(int32_t keyring, const char *description) {
    return (int32_t)syscall(SYS_keyctl, KEYCTL_SEARCH, (long)keyring, "user", description, 0L);
}

long kernel_keyring_read(int32_t key, void *buffer, size_t capacity) {
    return syscall(SYS_keyctl, KEYCTL_READ, (long)key, buffer, capacity, 0L);
}

long kernel_keyring_set_owner_only_permissions(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_SETPERM, (long)key, OWNER_ONLY, 0L, 0L);
}

long kernel_keyring_set_timeout(int32_t key, unsigned int seconds) {
    return syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, (long)key, (unsigned long)seconds, 0L, 0L);
}

long kernel_keyring_link(int32_t key, int32_t keyring) {
    return syscall(SYS_keyctl, KEYCTL_LINK, (long)key, (long)keyring, 0L, 0L);
}

long kernel_keyring_unlink(int32_t key, int32_t keyring) {
    return syscall(SYS_keyctl, KEYCTL_UNLINK, (long)key, (long)keyring, 0L, 0L);
}

long kernel_keyring_invalidate(int32_t key) {
    return syscall(SYS_keyctl, KEYCTL_INVALIDATE, (long)key, 0L, 0L, 0L);
}

long kernel_keyring_revoke_and_unlink(int32_t key, int32_t keyring) {
    long revoked = syscall(SYS_keyctl, KEYCTL_REVOKE, (long)key, 0L, 0L, 0L);
    long unlinked = syscall(SYS_keyctl, KEYCTL_UNLINK, (long)key, (long)keyring, 0L, 0L);
    return revoked == 0 || unlinked == 0 ? 0 : -1;
}

#else

static int32_t unsupported(void) { errno = ENOSYS; return -1; }

int32_t kernel_keyring_process_keyring(void) { return -2; }
int32_t kernel_keyring_user_keyring(void) { return -4; }
int32_t kernel_keyring_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring) {
    (void)description; (void)payload; (void)length; (void)keyring; return unsupported();
}
int32_t kernel_keyring_get_persistent(int32_t destination) { (void)destination; return unsupported(); }
int32_t kernel_keyring_search_user_key(int32_t keyring, const char *description) { (void)keyring; (void)description; return unsupported(); }
long kernel_keyring_read(int32_t key, void *buffer, size_t capacity) { (void)key; (void)buffer; (void)capacity; return unsupported(); }
long kernel_keyring_set_owner_only_permissions(int32_t key) { (void)key; return unsupported(); }
long kernel_keyring_set_timeout(int32_t key, unsigned int seconds) { (void)key; (void)seconds; return unsupported(); }
long kernel_keyring_link(int32_t key, int32_t keyring) { (void)key; (void)keyring; return unsupported(); }
long kernel_keyring_unlink(int32_t key, int32_t keyring) { (void)key; (void)keyring; return unsupported(); }
long kernel_keyring_invalidate(int32_t key) { (void)key; return unsupported(); }
long kernel_keyring_revoke_and_unlink(int32_t key, int32_t keyring) { (void)key; (void)keyring; return unsupported(); }

#endif
