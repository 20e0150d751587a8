#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import XCTest

/// Review 35b: a second attack review of issue 35 (the system's libcrypto for scrypt, the test
/// processes' throw-away keychain), by an independent review session. Each asserts the secure
/// behaviour; all were findings, now fixed.
final class Review35bAttackTests: CLITestCase {
    /// F1: another OpenSSL in the process (LD_PRELOAD here; an application's own libcrypto the
    /// same way) took over the system libcrypto's internal calls: a stand-in that derives right
    /// for the self-check's small N and wrong above made `create` save a key the next process
    /// could not reproduce (the keychain unopenable). RTLD_DEEPBIND binds the library to itself.
    func testAnotherOpenSSLInTheProcessCannotChangeThePassphraseKey() throws {
        let compiler = try XCTUnwrap(
            ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            },
            "a C compiler builds the stand-in library")
        let source = scratch.appendingPathComponent("other-openssl.c")
        try #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <link.h>
        #include <stdint.h>
        #include <string.h>
        typedef struct { const char *key; unsigned char type; void *data; size_t size, returned; } Param;
        typedef int (*Derive)(void *, unsigned char *, size_t, const Param *);
        static int find(struct dl_phdr_info *info, size_t size, void *found) {
            (void)size; size_t n = strlen(info->dlpi_name);
            if (n > 15 && strcmp(info->dlpi_name + n - 15, "/libcrypto.so.3") == 0) {
                void *h = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
                if (h) *(Derive *)found = (Derive)dlsym(h, "EVP_KDF_derive");
                return 1;
            }
            return 0;
        }
        int EVP_KDF_derive(void *ctx, unsigned char *key, size_t keylen, const Param *params) {
            Derive real = 0; dl_iterate_phdr(find, &real);
            if (!real) return 0;
            int rc = real(ctx, key, keylen, params);
            uint64_t n = 0;
            for (const Param *p = params; p && p->key; p++) if (strcmp(p->key, "n") == 0) memcpy(&n, p->data, sizeof n);
            if (n > 1024) memset(key, 0x41, keylen);   /* right for the self-check, wrong for real keychains */
            return rc;
        }
        """#.write(to: source, atomically: true, encoding: .utf8)
        let library = scratch.appendingPathComponent("libother-openssl.so")
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: compiler)
        compile.arguments = ["-shared", "-fPIC", "-o", library.path, source.path, "-ldl"]
        try compile.run()
        compile.waitUntilExit()
        XCTAssertEqual(compile.terminationStatus, 0, "the stand-in library compiles")
        let passphrase = try passphraseFile("correct horse battery")
        XCTAssertStatus(
            try run(
                ["create", "--passphrase-file", passphrase.path], input: Data(), changing: ["LD_PRELOAD": library.path]),
            0)
        // A clean process derives the same key: unlocked, and no such item (44), not a wrong passphrase (50).
        XCTAssertStatus(
            try keychain("find-generic-password", "-s", "none", "-a", "none", "--passphrase-file", passphrase.path), 44)
    }

    /// F4: Xcode's test variables or a program started under a test bundle's `argv[0]` sent the
    /// tool's writes to a throw-away keychain deleted at exit, silently. Only the executable's
    /// own name counts now.
    func testInheritedTestVariablesOrANameInArgv0DoNotSendWritesToAThrowAwayKeychain() throws {
        let base: [String: String?] = [
            "SECURE_STORAGE_HOME": nil, "HOME": scratch.path, "XDG_DATA_HOME": nil, "XDG_STATE_HOME": nil
        ]
        for variable in ["XCTestConfigurationFilePath", "XCTestSessionIdentifier", "XCTestBundlePath"] {
            var inherited = base
            inherited[variable] = "/x"
            XCTAssertStatus(
                try run(
                    ["add-generic-password", "-s", "svc-\(variable)", "-a", "a", "--stdin"], input: Data("pw".utf8),
                    changing: inherited), 0)
            XCTAssertEqual(
                try run(
                    ["find-generic-password", "-s", "svc-\(variable)", "-a", "a", "-w"], input: Data(), changing: base
                ).stdout, "pw\n", variable)
        }
        let script =
            "printf pw | exec -a MyAppTests.xctest \"\(Self.executable.path)\" add-generic-password -s svc-argv0 -a a --stdin"
        XCTAssertStatus(
            try run(["-c", script], input: Data(), executable: URL(fileURLWithPath: "/bin/bash"), changing: base), 0)
        XCTAssertEqual(
            try run(["find-generic-password", "-s", "svc-argv0", "-a", "a", "-w"], input: Data(), changing: base)
                .stdout, "pw\n")
    }

    /// F3: a process the test starts before its own first keychain call (a `keychain delete…`
    /// in setUp) got the user's keychain; the throw-away keychain is now chosen before `main`.
    func testAChildStartedBeforeTheTestsFirstKeychainCallGetsTheThrowAwayKeychain() throws {
        let runner = scratch.appendingPathComponent("EarlyChildPackageTests.xctest")
        try FileManager.default.copyItem(at: CLITestCase.builtExecutable("secure-storage-sample"), to: runner)
        let changes: [String: String?] = [
            "SECURE_STORAGE_HOME": nil, "HOME": scratch.path, "SECURE_STORAGE_TEST_KEYCHAIN": nil
        ]
        let result = try run(
            ["run-child-early", "/bin/sh", "-c", "printf '%s\\n' \"$SECURE_STORAGE_HOME\""], input: Data(),
            executable: runner, changing: changes)
        XCTAssertStatus(result, 0)
        let inherited = result.stdout.trimmingCharacters(in: .newlines)
        XCTAssertTrue(
            inherited.contains("secure-storage-test-keychain."),
            "the child inherits the throw-away keychain: '\(inherited)'")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: inherited), "and it is removed at exit, used or not: \(inherited)")
    }
}
