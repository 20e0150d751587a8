// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Platforms where `KeychainServices` is our own implementation rather than Apple's Security framework.
let nonApplePlatforms: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

/// `SECURE_STORAGE_FORCE_PORTABLE=1 swift build` builds the portable implementation (the file
/// keychain of KeychainCore behind Apple's SecItem/SecKey API) on Apple platforms too, as
/// swift-crypto's `CRYPTO_IN_SWIFTPM_FORCE_BUILD_API` does for Crypto: for testing the Linux
/// behaviour on a Mac, and for tools that cannot have a Keychain entitlement.
let forcePortable = ProcessInfo.processInfo.environment["SECURE_STORAGE_FORCE_PORTABLE"] != nil

/// When the portable implementation's dependencies are linked: off Apple platforms, or everywhere when forced.
let portableCondition: TargetDependencyCondition? = forcePortable ? nil : .when(platforms: nonApplePlatforms)

/// The compilation condition that selects the portable implementation in `#if` lines.
let portableSettings: [SwiftSetting] = forcePortable ? [.define("SECURE_STORAGE_FORCE_PORTABLE")] : []

let package = Package(
    name: "SecureStorage",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "KeychainCore", targets: ["KeychainCore"]),
        .library(name: "KeychainServices", targets: ["KeychainServices"]),
        .library(name: "SecureStorage", targets: ["SecureStorage"]),
        .library(name: "SecureStorageConfiguration", targets: ["SecureStorageConfiguration"]),
        .library(name: "SecureStorageGRDB", targets: ["SecureStorageGRDB"]),
        .library(name: "KeychainSync", targets: ["KeychainSync"]),
        .executable(name: "keychain", targets: ["keychain"]),
        .executable(name: "secure-notes", targets: ["secure-notes"]),
        .executable(name: "keychain-lint", targets: ["keychain-lint"]),
        .plugin(name: "SecureStorageLintPlugin", targets: ["SecureStorageLintPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        // BackgroundSync as a Service of a ServiceGroup (KeychainSync's SyncService).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // `swift package generate-documentation` for the DocC catalogs (scripts/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The parser behind `keychain lint`. 600 through 603 all parse Swift 6 sources; the wide
        // range lets packages that depend on us and on a macro package agree on one version.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0"),
    ],
    targets: [
        .target(
            name: "KeychainCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                "CSQLiteHardening",
                "CExtendedAttributes",
                "CFileSystemType",
                "CKernelKeyring",
                "CTestRunnerKeychain",
                "LockedState",
                "CSystemScrypt",
                .target(name: "CTSS2", condition: .when(platforms: [.linux])),
            ]
        ),
        // scrypt from the system's OpenSSL 3 libcrypto (Debian: libssl3), opened with dlopen by
        // absolute path on the first passphrase derivation: optimised in every build of a package
        // that depends on this one, where BoringSSL's scrypt would run unoptimised in debug builds
        // (csystemscrypt.c). BoringSSL stays the fallback; the keys are the same bytes.
        .target(name: "CSystemScrypt", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // tpm2-tss (ESAPI) for binding keychains and token keys to a TPM 2.0 (Linux).
        // tpm2-tss (Debian: libtss2-dev), opened with dlopen on first use: processes that use no
        // TPM do not load it (ctss2_loader.c).
        .target(name: "CTSS2", linkerSettings: [.linkedLibrary("dl")]),
        // `Locked`, the one lock-guarded value type the engine and the facade share (package access).
        .target(name: "LockedState"),
        // <sys/xattr.h> for reading a systemd credential's ACL.
        .target(name: "CExtendedAttributes"),
        // statfs(2) for telling network file systems without reading the mount table.
        .target(name: "CFileSystemType"),
        // add_key(2) and keyctl(2) for unlock tickets in the kernel's keyring (a C shim: syscall is variadic).
        .target(name: "CKernelKeyring"),
        // A test process's throw-away default keychain, chosen before main (TestRunnerKeychain).
        .target(name: "CTestRunnerKeychain"),
        // SQLite's defensive mode for the keychain's connections (a C shim: sqlite3_db_config is variadic).
        .target(name: "CSQLiteHardening", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "KeychainServices",
            dependencies: [
                .target(name: "KeychainCore", condition: portableCondition),
                .product(name: "Logging", package: "swift-log", condition: portableCondition),
                .product(name: "Crypto", package: "swift-crypto", condition: portableCondition),
                .product(name: "CryptoExtras", package: "swift-crypto", condition: portableCondition),
            ]
        ),
        .target(
            name: "SecureStorage",
            dependencies: [
                "KeychainServices",
                "CProcessHardening",
                "LockedState",
                .target(name: "KeychainCore", condition: portableCondition),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Keychain secrets for swift-configuration's ConfigReader (KeychainConfigProvider).
        .target(
            name: "SecureStorageConfiguration",
            dependencies: ["SecureStorage", .product(name: "Configuration", package: "swift-configuration")]
        ),
        // Sealed columns for GRDB records, keyed from the keychain (DatabaseSealer).
        .target(
            name: "SecureStorageGRDB",
            dependencies: ["SecureStorage", "LockedState", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto")]
        ),
        // End-to-end encrypted sync of synchronizable items through PostgreSQL. The engine knows
        // nothing of the network: this target reads and applies items through KeychainCore.
        .target(
            name: "KeychainSync",
            dependencies: ["KeychainCore", "CLibPQ", "LockedState", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),
        // PostgreSQL's client library (Debian: libpq-dev), opened with dlopen on first use
        // (clibpq_loader.c): processes that never sync do not load it.
        .target(name: "CLibPQ", linkerSettings: [.linkedLibrary("dl")]),
        // No core dumps, not dumpable: SecureStorage.hardenProcess() (the tool calls it first).
        .target(name: "CProcessHardening"),
        .executableTarget(
            name: "keychain",
            dependencies: [
                "KeychainCore",
                "KeychainServices",
                "SecureStorage",
                "KeychainSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The Keychain-misuse linter behind `keychain lint`: rules, suppressions and reports on
        // swift-syntax trees. No engine, crypto or database: it reads source code only.
        .target(
            name: "SecureStorageLint",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // A separate executable so that `keychain` does not link swift-syntax (twice the binary,
        // slower start-up); `keychain lint` runs it.
        .executableTarget(
            name: "keychain-lint",
            dependencies: ["SecureStorageLint", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `swift package secure-storage-lint`: lints the package's own targets with keychain-lint.
        .plugin(
            name: "SecureStorageLintPlugin",
            capability: .command(
                intent: .custom(verb: "secure-storage-lint", description: "Find insecure storage and Keychain misuse in the package's Swift sources"),
                permissions: []
            ),
            dependencies: ["keychain-lint"]
        ),
        // The example notes app moving from plaintext preferences to sealed GRDB columns
        // (Examples/SecureNotes/README.md).
        .executableTarget(
            name: "secure-notes",
            dependencies: ["SecureStorage", "SecureStorageGRDB", "KeychainServices", .product(name: "GRDB", package: "GRDB.swift"),
                           .target(name: "KeychainCore", condition: portableCondition)],
            path: "Examples/SecureNotes/Sources/SecureNotes"
        ),
        .executableTarget(
            name: "KeychainBenchmarks",
            dependencies: ["KeychainCore", "KeychainServices", "SecureStorage", "SecureStorageGRDB", "TPMTestSupport", "CCallgrind", "CSQLiteHardening", "SecureStorageLint",
                           "KeychainSync", "PostgresTestSupport",
                           .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
                           .target(name: "CTSS2", condition: .when(platforms: [.linux]))],
            path: "Benchmarks/KeychainBenchmarks"
        ),
        // Callgrind's client requests (count the instructions of one region), no-ops without valgrind.
        .target(name: "CCallgrind", path: "Benchmarks/CCallgrind"),
        .target(name: "AuthenticationTestSupport", dependencies: ["KeychainCore"], path: "Tests/AuthenticationTestSupport"),
        // A second local user (uid 65534 through setpriv) for the file-system attack tests, and the
        // seeded generator of the fuzz and mutation loops.
        .target(name: "AttackTestSupport", dependencies: ["TPMTestSupport"], path: "Tests/AttackTestSupport"),
        // A software TPM (swtpm) per test, on a Unix socket in a throw-away directory.
        .target(name: "TPMTestSupport", path: "Tests/TPMTestSupport"),
        // Fixtures/ holds keychains of earlier formats, read from the source tree (not bundled).
        .testTarget(name: "KeychainCoreTests", dependencies: ["KeychainCore", "CExtendedAttributes", "LockedState", "AuthenticationTestSupport", "AttackTestSupport", "TPMTestSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
                                                              .target(name: "CTSS2", condition: .when(platforms: [.linux]))],
                    exclude: ["Fixtures"]),
        .testTarget(name: "KeychainServicesTests", dependencies: ["KeychainServices", "KeychainCore", "AuthenticationTestSupport", "AttackTestSupport", "TPMTestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        .testTarget(name: "KeychainCLITests", dependencies: ["CPseudoTerminal", "TPMTestSupport", "AttackTestSupport", "PostgresTestSupport",
                                                           .product(name: "GRDB", package: "GRDB.swift")]),
        // Fuzzing (README "Guarantees"): targets shared by the libFuzzer executables that
        // scripts/fuzz builds with -sanitize=fuzzer,address and by FuzzRegressionTests.
        .target(name: "FuzzTargets", dependencies: ["KeychainCore", "KeychainServices", "CFuzzerDriver", "CLibPQ"], path: "Fuzz/FuzzTargets"),
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        .executableTarget(name: "fuzz-secitem", dependencies: ["FuzzTargets"], path: "Fuzz/SecItemFuzzer"),
        .executableTarget(name: "fuzz-backup", dependencies: ["FuzzTargets"], path: "Fuzz/BackupFuzzer"),
        .executableTarget(name: "fuzz-seckey", dependencies: ["FuzzTargets"], path: "Fuzz/SecKeyFuzzer"),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets", "KeychainServices", "AttackTestSupport"]),
        // Crash-safety and concurrency suites: the workload runs in `keychain-stress` processes
        // that the tests kill with SIGKILL or run four at a time.
        .target(name: "StressSupport", dependencies: ["KeychainCore"], path: "Tests/StressSupport"),
        .executableTarget(name: "keychain-stress", dependencies: ["KeychainCore", "StressSupport"], path: "Tests/StressHelper"),
        // An app reading through the SecureStorage facade, for the CLI-then-app round trip.
        .executableTarget(name: "secure-storage-sample", dependencies: ["SecureStorage", "KeychainServices", "KeychainCore", .product(name: "Logging", package: "swift-log")],
                         path: "Tests/SampleApp"),
        .testTarget(name: "SecureStorageConfigurationTests",
                    dependencies: ["SecureStorageConfiguration", "SecureStorage", "KeychainServices", "KeychainCore", "AuthenticationTestSupport",
                                   .product(name: "Configuration", package: "swift-configuration")]),
        // A wrapper-style integration suite (SecItem and LocalAuthentication only), run unchanged
        // under KEYCHAIN_SIMULATED_DEVICE by SimulatedDeviceSuiteTests.
        .executableTarget(name: "wrapper-style-suite", dependencies: ["KeychainServices"], path: "Tests/WrapperStyleSuite"),
        .testTarget(name: "KeychainStressTests", dependencies: ["KeychainCore", "StressSupport", "TPMTestSupport", "AttackTestSupport"]),
        .testTarget(name: "SecureStorageGRDBTests",
                    dependencies: ["SecureStorageGRDB", "SecureStorage", "KeychainServices", "KeychainCore", "AuthenticationTestSupport",
                                   .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto")]),
        // Fixtures/ holds the rules' positive and negative Swift samples, read from the source tree;
        // Expected/ what scripts/test expects keychain-lint to find in the third-party samples.
        .testTarget(name: "SecureStorageLintTests", dependencies: ["SecureStorageLint"], exclude: ["Fixtures", "Expected"]),
        // A throw-away PostgreSQL cluster per test suite (initdb into a temporary directory, a Unix
        // socket there), for the sync tests.
        .target(name: "PostgresTestSupport", path: "Tests/PostgresTestSupport"),
        // One device of the sync convergence test, killed with SIGKILL at random moments.
        .executableTarget(name: "sync-stress", dependencies: ["KeychainSync", "KeychainCore"], path: "Tests/SyncStressHelper"),
        .testTarget(name: "KeychainSyncTests", dependencies: ["KeychainSync", "KeychainCore", "PostgresTestSupport", "AttackTestSupport", "CLibPQ",
                                                              .product(name: "Crypto", package: "swift-crypto"),
                                                              .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle")]),
        .testTarget(name: "SecureStorageTests", dependencies: ["SecureStorage", "KeychainServices", "KeychainCore", "AuthenticationTestSupport", "AttackTestSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto")],
                    exclude: ["Fixtures"]),
    ]
)

// Every Swift target sees the same choice between Apple's frameworks and the portable implementation.
let cTargets: Set<String> = ["CTSS2", "CExtendedAttributes", "CFileSystemType", "CSQLiteHardening", "CCallgrind", "CProcessHardening", "CPseudoTerminal", "CFuzzerDriver", "CLibPQ", "CKernelKeyring", "CSystemScrypt", "CTestRunnerKeychain"]
for target in package.targets where !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + portableSettings
}
