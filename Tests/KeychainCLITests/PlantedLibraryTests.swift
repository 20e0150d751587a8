import Foundation
import XCTest

/// Issue 34 §4.4: a library planted where the tool would load it. SwiftPM links executables with
/// `RUNPATH $ORIGIN`, so a `libpq.so.5` beside the executable would be loaded before the
/// system's; the documented builds pass `--disable-local-rpath`. And `SECURE_STORAGE_TPM_TCTI`
/// naming a path would make tpm2-tss load that file; only known TCTI names are accepted.
final class PlantedLibraryTests: CLITestCase {
    /// The executables of this package that load libpq or tpm2-tss, and the test bundle itself.
    private static let executables = [
        "keychain", "keychain-stress", "sync-stress", "secure-storage-sample", "secure-notes", "wrapper-style-suite",
        "keychain-lint"
    ]

    private func tool(_ names: [String]) throws -> String {
        guard let path = names.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            let message = "\(names[0]) is needed (Debian: binutils, gcc)"
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
        return path
    }

    /// Runs `executable arguments…` and returns its standard output.
    private func output(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(executable) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    /// `readelf -d` on every built executable: no RPATH or RUNPATH holds `$ORIGIN`.
    func testNoBuiltExecutableSearchesItsOwnDirectoryForLibraries() throws {
        let readelf = try tool(["/usr/bin/readelf", "/bin/readelf"])
        var checked: [String] = []
        for path in Self.executables.map({ Self.builtExecutable($0).path }) + [CommandLine.arguments[0]]
        where FileManager.default.isExecutableFile(atPath: path) {
            let paths = try output(readelf, ["-d", path]).split(separator: "\n").filter {
                $0.contains("(RUNPATH)") || $0.contains("(RPATH)")
            }
            XCTAssertFalse(
                paths.contains { $0.contains("$ORIGIN") },
                "\(path): \(paths); build with `swift build --disable-local-rpath` (scripts/test)")
            checked.append(URL(fileURLWithPath: path).lastPathComponent)
        }
        XCTAssertTrue(checked.contains("keychain"), "checked: \(checked)")
    }

    /// The attack: a copy of the tool in a directory where the attacker put a `libpq.so.5` whose
    /// constructor leaves a mark, and a TCTI library named by its path. Neither is loaded: the
    /// sync command reaches the system's libpq (and fails to connect), and the TCTI is refused,
    /// saying why and what to do.
    func testLibrariesPlantedBesideTheToolOrNamedByPathAreNotLoaded() throws {
        let (directory, copy) = try toolCopyInAPlantedDirectory()
        let tcti = directory.appendingPathComponent("libtss2-tcti-planted.so")
        for library in [directory.appendingPathComponent("libpq.so.5"), tcti] {
            try plantLibrary(at: library)
        }
        let marker = scratch.appendingPathComponent("marker").path

        let sync = try run(
            ["sync", "create", "--server", "host=/nonexistent dbname=k connect_timeout=1"], input: Data(),
            executable: copy,
            changing: ["PLANTED_LIBRARY_MARKER": marker])
        XCTAssertEqual(sync.status, 69, sync.stderr)
        XCTAssertTrue(
            sync.stderr.contains("Cannot connect to the sync server"), "the system's libpq answered: \(sync.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the libpq.so.5 beside the tool was not loaded")

        for (index, value) in [
            "\(tcti.path):conf", tcti.path, "./libtss2-tcti-planted.so", "cmd:sh -c 'touch \(marker)'"
        ].enumerated() {
            // A new keychain each time: creating one seals its device secret in the TPM named.
            let result = try run(
                ["add-generic-password", "-s", "svc", "-a", "acct", "-w", "s3cret"], input: Data(), executable: copy,
                changing: [
                    "PLANTED_LIBRARY_MARKER": marker, "SECURE_STORAGE_TPM_TCTI": value,
                    "SECURE_STORAGE_HOME": scratch.appendingPathComponent("tcti-\(index)").path
                ])
            XCTAssertNotEqual(result.status, 0, result.stderr)
            let name = String(value.prefix { $0 != ":" })
            let what =
                name.contains("/")
                ? "names a library by its path (\(name)), which would be loaded into this process"
                : "names the TCTI \"\(name)\", which the keychain does not load"
            XCTAssertTrue(
                result.stderr.contains(
                    "The TPM's TCTI \"\(value)\" (SECURE_STORAGE_TPM_TCTI or KeychainOptions.tpm) \(what); nothing was changed. Name one of device, swtpm, mssim, tabrmd, libtpms before the first \":\""
                ), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "\(value): nothing was loaded or run")
        }
    }

    /// Issue 35: scrypt comes from the system's libcrypto, opened by absolute path from the
    /// system library directories only. A `libcrypto.so.3` beside the tool or on
    /// `LD_LIBRARY_PATH` is never loaded, and the passphrase still works (the system's library
    /// or BoringSSL derives the key).
    func testALibcryptoPlantedBesideTheToolOrOnTheLibraryPathIsNotLoadedForScrypt() throws {
        let (directory, copy) = try toolCopyInAPlantedDirectory()
        try plantLibrary(
            at: directory.appendingPathComponent("libcrypto.so.3"),
            defining: """
                int EVP_PBE_scrypt_ex(void) { return 0; }
                void *OSSL_LIB_CTX_new(void) { return 0; }
                """)

        let marker = scratch.appendingPathComponent("marker").path
        let environment = [
            "PLANTED_LIBRARY_MARKER": marker, "LD_LIBRARY_PATH": directory.path,
            "SECURE_STORAGE_HOME": scratch.appendingPathComponent("planted-home").path
        ]
        let created = try run(
            ["create", "--passphrase"], input: Data("planted passphrase\n".utf8), executable: copy,
            changing: environment)
        XCTAssertEqual(created.status, 0, created.stderr)
        let unlocked = try run(
            ["status", "--unlock"], input: Data("planted passphrase\n".utf8), executable: copy, changing: environment)
        XCTAssertEqual(unlocked.status, 0, unlocked.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the planted libcrypto.so.3 was loaded")
    }

    /// A copy of the built tool in a directory of its own, where the tests plant libraries.
    private func toolCopyInAPlantedDirectory() throws -> (directory: URL, copy: URL) {
        let directory = scratch.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        guard FileManager.default.isExecutableFile(atPath: Self.executable.path) else {
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil {
                XCTFail("keychain is not built")
            }
            throw XCTSkip("keychain is not built")
        }
        let copy = directory.appendingPathComponent("keychain")
        try FileManager.default.copyItem(at: Self.executable, to: copy)
        return (directory, copy)
    }

    /// Compiles a shared library at `library` whose constructor appends a line to the file
    /// `PLANTED_LIBRARY_MARKER` names, with `symbols` defined too (functions the tool looks up).
    private func plantLibrary(at library: URL, defining symbols: String = "") throws {
        let compiler = try tool(["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"])
        let source = library.deletingLastPathComponent().appendingPathComponent(
            "planted-\(library.lastPathComponent).c")
        try """
        #include <stdio.h>
        #include <stdlib.h>
        __attribute__((constructor)) static void planted(void) {
            const char *path = getenv("PLANTED_LIBRARY_MARKER");
            FILE *file = path ? fopen(path, "a") : NULL;
            if (file) { fputs("planted library loaded\\n", file); fclose(file); }
        }
        \(symbols)
        """.write(to: source, atomically: true, encoding: .utf8)
        _ = try output(compiler, ["-shared", "-fPIC", "-o", library.path, source.path])
    }
}
