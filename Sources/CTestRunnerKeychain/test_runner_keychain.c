#include "CTestRunnerKeychain.h"

/* The throw-away keychain of a test process is chosen before `main`, by a constructor, so that
   every process the test starts — in setUp, before any keychain call of its own — inherits it
   as SECURE_STORAGE_HOME and never touches the user's keychain. A constructor runs on the one
   thread there is, so setting the environment races with nothing. */

#if defined(__linux__)

#define _GNU_SOURCE
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char home[PATH_MAX];
static int made;
static int runner;

static int removeEntry(const char *path, const struct stat *status, int flag, struct FTW *walk) {
    (void)status; (void)flag; (void)walk;
    remove(path);
    return 0;
}

/* Whatever of the directory is left at exit (the Swift side removes it, with the unlock
   tickets of its keychains, when a keychain was used). Never follows a symbolic link. */
static void removeHome(void) {
    if (made) nftw(home, removeEntry, 16, FTW_DEPTH | FTW_PHYS);
}

static int detectRunner(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return 0;
    executable[length] = 0;
    return secure_storage_is_test_runner_executable(executable);
}

__attribute__((constructor)) static void chooseTestKeychain(void) {
    runner = detectRunner();
    if (!runner) return;
    const char *configured = getenv("SECURE_STORAGE_HOME");
    if (configured != NULL && configured[0] != 0) return;
    const char *choice = getenv("SECURE_STORAGE_TEST_KEYCHAIN");
    if (choice != NULL && strcmp(choice, "user") == 0) return;
    const char *directories[] = { getenv("TMPDIR"), "/tmp" };
    for (size_t i = 0; i < 2 && !made; i++) {
        if (directories[i] == NULL || directories[i][0] != '/') continue;
        /* mkdtemp: mode 0700, under a name nobody could have chosen first. */
        if (snprintf(home, sizeof home, "%s/secure-storage-test-keychain.XXXXXX", directories[i]) < (int)sizeof home
            && mkdtemp(home) != NULL) made = 1;
    }
    /* No private directory: a path under /dev/null, which not even root can create, rather
       than the user's keychain. */
    if (!made) snprintf(home, sizeof home, "/dev/null/secure-storage-test-keychain");
    else atexit(removeHome);
    setenv("SECURE_STORAGE_HOME", home, 1);
}

int secure_storage_is_test_runner(void) { return runner; }

int secure_storage_is_test_runner_executable(const char *path) {
    const char *name = strrchr(path, '/');
    name = name != NULL ? name + 1 : path;
    size_t size = strlen(name);
    return (size > 7 && strcmp(name + size - 7, ".xctest") == 0) || strcmp(name, "swiftpm-testing-helper") == 0;
}

const char *secure_storage_test_keychain_home(void) { return home[0] != 0 ? home : NULL; }
int secure_storage_test_keychain_made(void) { return made; }

#else

int secure_storage_is_test_runner(void) { return 0; }
int secure_storage_is_test_runner_executable(const char *path) { (void)path; return 0; }
const char *secure_storage_test_keychain_home(void) { return 0; }
int secure_storage_test_keychain_made(void) { return 0; }

#endif
