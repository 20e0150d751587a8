#ifndef C_TEST_RUNNER_KEYCHAIN_H
#define C_TEST_RUNNER_KEYCHAIN_H

/// Whether this process's executable (/proc/self/exe, never argv[0] or the environment) is a
/// test runner: an XCTest bundle (`…PackageTests.xctest`, which `swift test` runs for XCTest
/// and Swift Testing alike on Linux) or SwiftPM's `swiftpm-testing-helper`.
int secure_storage_is_test_runner(void);

/// Whether an executable at `path` is a test runner by the rule above (its last path component).
int secure_storage_is_test_runner_executable(const char *path);

/// The throw-away keychain directory chosen for this test process before `main` (and set as
/// SECURE_STORAGE_HOME), or NULL when the user's default applies (not a test runner,
/// SECURE_STORAGE_HOME set, or SECURE_STORAGE_TEST_KEYCHAIN=user). When no private directory
/// could be made, a path that cannot be created, even by root.
const char *secure_storage_test_keychain_home(void);

/// Whether secure_storage_test_keychain_home() is a directory this process made (mode 0700).
int secure_storage_test_keychain_made(void);

#endif
