// swift-tools-version:6.1
import Foundation
import PackageDescription

// Grouped by audience, in this order: the libraries (what clients link), the tools (`keychain`,
// `keychain-lint` and its plugin), the example, test support and the tests. The other two
// audiences, the benchmarks and the fuzzers, are nested packages (Benchmarks/, Fuzz/), so that no
// client resolves what only they need.

/// Platforms where `KeychainServices` is our own implementation rather than Apple's Security framework.
let nonApplePlatforms: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

/// `SECURE_STORAGE_FORCE_PORTABLE=1 swift build` builds the portable implementation (the file
/// keychain of KeychainCore behind Apple's SecItem/SecKey API) on Apple platforms too, as
/// swift-crypto's `CRYPTO_IN_SWIFTPM_FORCE_BUILD_API` does for Crypto: for testing the Linux
/// behaviour on a Mac, and for tools that cannot have a Keychain entitlement.
let forcePortable = ProcessInfo.processInfo.environment["SECURE_STORAGE_FORCE_PORTABLE"] != nil

/// `SECURE_STORAGE_DOCS=1` (scripts/docs sets it) adds swift-docc-plugin for
/// `swift package generate-documentation`; no other build resolves it.
let buildingDocumentation = ProcessInfo.processInfo.environment["SECURE_STORAGE_DOCS"] != nil

/// When the portable implementation's dependencies are linked: off Apple platforms, or everywhere when forced.
let portableCondition: TargetDependencyCondition? = forcePortable ? nil : .when(platforms: nonApplePlatforms)

/// The compilation condition that selects the portable implementation in `#if` lines.
let portableSettings: [SwiftSetting] = forcePortable ? [.define("SECURE_STORAGE_FORCE_PORTABLE")] : []

/// A product of swift-crypto, GRDB, swift-log, swift-argument-parser, swift-syntax, swift-configuration or
/// swift-service-lifecycle.
func external(_ product: String, condition: TargetDependencyCondition? = nil) -> Target.Dependency {
    let packages = [
        "Crypto": "swift-crypto", "CryptoExtras": "swift-crypto", "GRDB": "GRDB.swift", "Logging": "swift-log",
        "ArgumentParser": "swift-argument-parser", "SwiftSyntax": "swift-syntax", "SwiftParser": "swift-syntax",
        "Configuration": "swift-configuration", "ServiceLifecycle": "swift-service-lifecycle",
        "ServiceLifecycleTestKit": "swift-service-lifecycle"
    ]
    guard let package = packages[product] else { fatalError("external(\"\(product)\"): add its package here") }
    return .product(name: product, package: package, condition: condition)
}

// One trait at a time: SwiftPM 6.3 passes a build's enabled traits to the compiler in an order that
// changes from one manifest evaluation to the next, so two enabled traits recompile every target
// whenever the manifest is read again (another environment, `swift run` after `swift build
// --build-tests`). The default is the one trait `Tools`; a client enables at most one of `Sync`
// and `Configuration` without that cost.

/// Only with the trait `Tools` (swift-argument-parser, swift-syntax).
let whenTools = TargetDependencyCondition.when(traits: ["Tools"])
/// With the trait `Configuration`, or `Tools` (swift-configuration).
let whenConfiguration = TargetDependencyCondition.when(traits: ["Configuration", "Tools"])
/// With the trait `Sync`, or `Tools` (swift-service-lifecycle).
let whenSync = TargetDependencyCondition.when(traits: ["Sync", "Tools"])

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
        .executable(name: "keychaind", targets: ["keychaind"]),
        .executable(name: "secure-notes", targets: ["secure-notes"]),
        .executable(name: "keychain-lint", targets: ["keychain-lint"]),
        .plugin(name: "SecureStorageLintPlugin", targets: ["SecureStorageLintPlugin"])
    ],
    // The packages that only the tools or one library need come with a trait. The default, `Tools`,
    // brings them all (this repository's `swift run keychain`, tests and CI); a client that wants the
    // libraries alone declares `traits: []` and resolves swift-crypto, swift-asn1, swift-log and GRDB
    // only, or `["Sync"]` / `["Configuration"]` for one of those libraries.
    traits: [
        .trait(
            name: "Tools",
            description: "The keychain and keychain-lint tools and everything they use: swift-argument-parser, "
                + "swift-syntax, swift-configuration, swift-service-lifecycle."
        ),
        .trait(name: "Sync", description: "KeychainSync through PostgreSQL (swift-service-lifecycle; libpq when run)."),
        .trait(name: "Configuration", description: "SecureStorageConfiguration (swift-configuration)."),
        .default(enabledTraits: ["Tools"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        // KeychainSync's SyncService, a Service of a ServiceGroup.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // The parser behind `keychain lint`. 600 through 603 all parse Swift 6 sources; the wide
        // range lets packages that depend on us and on a macro package agree on one version.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0")
    ] + (buildingDocumentation ? [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")] : []),
    targets: [
        // MARK: The libraries

        .target(
            name: "KeychainCore",
            dependencies: [
                external("Crypto"), external("CryptoExtras"), external("GRDB"), external("Logging"),
                "CSQLiteHardening",
                "CExtendedAttributes",
                "CFileSystemType",
                "CKernelKeyring",
                "CTestRunnerKeychain",
                "SecureStorageFoundation",
                "CSystemLibcrypto",
                .target(name: "CTSS2", condition: .when(platforms: [.linux]))
            ]
        ),
        // The system's OpenSSL 3 libcrypto (Debian: libssl3), opened with dlopen by absolute path
        // on first use (systemlibrary.c): scrypt, optimised in every build of a package that
        // depends on this one, where BoringSSL's scrypt would run unoptimised in debug builds
        // (csystemscrypt.c; BoringSSL stays the fallback, the keys are the same bytes); and the
        // raw RSA public operation that swift-crypto's public API lacks (csystemrsa.c).
        .target(name: "CSystemLibcrypto", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // tpm2-tss (ESAPI) for binding keychains and token keys to a TPM 2.0 (Linux).
        // tpm2-tss (Debian: libtss2-dev), opened with dlopen on first use: processes that use no
        // TPM do not load it (ctss2_loader.c).
        .target(name: "CTSS2", linkerSettings: [.linkedLibrary("dl")]),
        // The helpers every Swift target shares, one of each, with package access: `Locked`, secret
        // file creation, the lock file, the byte codec, secret wiping, offloading and the C library.
        // Platform-neutral: the facade links it on Apple platforms, where it does not link KeychainCore.
        .target(name: "SecureStorageFoundation"),
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
                .target(name: "SecureStorageFoundation", condition: portableCondition),
                .target(name: "CSystemLibcrypto", condition: portableCondition),
                external("Logging", condition: portableCondition),
                external("Crypto", condition: portableCondition),
                external("CryptoExtras", condition: portableCondition)
            ]
        ),
        .target(
            name: "SecureStorage",
            dependencies: [
                "KeychainServices",
                "CProcessHardening",
                "SecureStorageFoundation",
                .target(name: "KeychainCore", condition: portableCondition),
                external("Crypto"),
                external("Logging")
            ]
        ),
        // No core dumps, not dumpable: SecureStorage.hardenProcess() (the tool calls it first).
        .target(name: "CProcessHardening"),
        // Keychain secrets for swift-configuration's ConfigReader (KeychainConfigProvider); trait Configuration.
        .target(
            name: "SecureStorageConfiguration",
            dependencies: [
                "SecureStorage", "SecureStorageFoundation", external("Configuration", condition: whenConfiguration)
            ]
        ),
        // Sealed columns for GRDB records, keyed from the keychain (DatabaseSealer).
        .target(
            name: "SecureStorageGRDB",
            dependencies: ["SecureStorage", "SecureStorageFoundation", external("GRDB"), external("Crypto")]
        ),
        // End-to-end encrypted sync of synchronizable items through PostgreSQL (trait Sync). The
        // engine knows nothing of the network: this target reads and applies items through KeychainCore.
        .target(
            name: "KeychainSync",
            dependencies: [
                "KeychainCore", "CLibPQ", "SecureStorageFoundation", external("Crypto"), external("Logging"),
                external("ServiceLifecycle", condition: whenSync)
            ]
        ),
        // PostgreSQL's client library (Debian: libpq-dev), opened with dlopen on first use
        // (clibpq_loader.c): processes that never sync do not load it, and no build needs libpq.
        .target(name: "CLibPQ", linkerSettings: [.linkedLibrary("dl")]),

        // MARK: The tools (trait Tools)

        // The D-Bus wire protocol (marshalling, authentication, a bus connection) in Swift, with
        // package access: keychaind's Secret Service speaks it; no C library is loaded.
        .target(name: "SecureStorageDBus", dependencies: ["SecureStorageFoundation"]),
        // The freedesktop Secret Service (org.freedesktop.secrets) over the keychain, served by keychaind.
        .target(
            name: "SecretService",
            dependencies: [
                "KeychainCore", "SecureStorageDBus", "SecureStorageFoundation", "CSystemLibcrypto", external("Crypto"),
                external("CryptoExtras"), external("Logging")
            ]
        ),
        // The per-user agent: one unlock for every process of the user, and the Secret Service.
        .executableTarget(
            name: "keychaind",
            dependencies: [
                "KeychainCore", "SecretService", "SecureStorageDBus", "SecureStorageFoundation", "CProcessHardening",
                external("ArgumentParser", condition: whenTools), external("Logging")
            ]
        ),

        .executableTarget(
            name: "keychain",
            dependencies: [
                "KeychainCore",
                "KeychainServices",
                "SecureStorage",
                "KeychainSync",
                "SecureStorageFoundation",
                external("ArgumentParser", condition: whenTools),
                external("Logging")
            ]
        ),
        // The Keychain-misuse linter behind `keychain lint`: rules, suppressions and reports on
        // swift-syntax trees. No engine, crypto or database: it reads source code only.
        .target(
            name: "SecureStorageLint",
            dependencies: [
                "SecureStorageFoundation",
                external("SwiftSyntax", condition: whenTools), external("SwiftParser", condition: whenTools)
            ]
        ),
        // A separate executable so that `keychain` does not link swift-syntax (twice the binary,
        // slower start-up); `keychain lint` runs it.
        .executableTarget(
            name: "keychain-lint",
            dependencies: ["SecureStorageLint", external("ArgumentParser", condition: whenTools)]
        ),
        // `swift package secure-storage-lint`: lints the package's own targets with keychain-lint (trait Tools).
        .plugin(
            name: "SecureStorageLintPlugin",
            capability: .command(
                intent: .custom(
                    verb: "secure-storage-lint",
                    description: "Find insecure storage and Keychain misuse in the package's Swift sources"
                ),
                permissions: []
            ),
            dependencies: ["keychain-lint"]
        ),

        // MARK: The example

        // The example notes app moving from plaintext preferences to sealed GRDB columns
        // (Examples/SecureNotes/README.md).
        .executableTarget(
            name: "secure-notes",
            dependencies: [
                "SecureStorage", "SecureStorageGRDB", "KeychainServices", external("GRDB"),
                .target(name: "KeychainCore", condition: portableCondition)
            ],
            path: "Examples/SecureNotes/Sources/SecureNotes"
        ),

        // MARK: Test support (no products: no client sees these)

        .target(
            name: "AuthenticationTestSupport", dependencies: ["KeychainCore"], path: "Tests/AuthenticationTestSupport"
        ),
        // A second local user (uid 65534 through setpriv) for the file-system attack tests, and the
        // seeded generator of the fuzz and mutation loops.
        .target(
            name: "AttackTestSupport", dependencies: ["TPMTestSupport", "CPseudoTerminal"],
            path: "Tests/AttackTestSupport"
        ),
        // A software TPM (swtpm) per test, on a Unix socket in a throw-away directory.
        // Benchmarks/ links this directory as a target of its own.
        .target(name: "TPMTestSupport", path: "Tests/TPMTestSupport"),
        // A throw-away PostgreSQL cluster per test suite (initdb into a temporary directory, a Unix
        // socket there), for the sync tests. Benchmarks/ links this directory as a target of its own.
        .target(name: "PostgresTestSupport", path: "Tests/PostgresTestSupport"),
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        // A private dbus-daemon per test (its own config, a Unix socket and a service directory in a temp dir).
        .target(name: "DBusTestSupport", path: "Tests/DBusTestSupport"),
        // Fuzzing (README "Guarantees"): the targets of the libFuzzer executables (the nested package
        // Fuzz/, which scripts/fuzz builds with -sanitize=fuzzer,address), replayed here by FuzzRegressionTests.
        .target(
            name: "FuzzTargets",
            dependencies: ["KeychainCore", "KeychainServices", "CFuzzerDriver", "CLibPQ"],
            path: "Fuzz/FuzzTargets"
        ),
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        // Crash-safety and concurrency suites: the workload runs in `keychain-stress` processes
        // that the tests kill with SIGKILL or run four at a time.
        .target(name: "StressSupport", dependencies: ["KeychainCore"], path: "Tests/StressSupport"),
        .executableTarget(
            name: "keychain-stress", dependencies: ["KeychainCore", "StressSupport"], path: "Tests/StressHelper"
        ),
        // An app reading through the SecureStorage facade, for the CLI-then-app round trip.
        .executableTarget(
            name: "secure-storage-sample",
            dependencies: ["SecureStorage", "KeychainServices", "KeychainCore", external("Logging")],
            path: "Tests/SampleApp"
        ),
        // A wrapper-style integration suite (SecItem and LocalAuthentication only), run unchanged
        // under KEYCHAIN_SIMULATED_DEVICE by SimulatedDeviceSuiteTests.
        .executableTarget(
            name: "wrapper-style-suite", dependencies: ["KeychainServices"], path: "Tests/WrapperStyleSuite"
        ),
        // One device of the sync convergence test, killed with SIGKILL at random moments.
        .executableTarget(
            name: "sync-stress", dependencies: ["KeychainSync", "KeychainCore"], path: "Tests/SyncStressHelper"
        ),

        // MARK: Tests

        // Fixtures/ holds keychains of earlier formats, read from the source tree (not bundled).
        .testTarget(
            name: "KeychainCoreTests",
            dependencies: [
                "KeychainCore", "CExtendedAttributes", "SecureStorageFoundation", "AuthenticationTestSupport",
                "AttackTestSupport", "TPMTestSupport", external("GRDB"), external("Crypto"),
                .target(name: "CTSS2", condition: .when(platforms: [.linux]))
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "KeychainServicesTests",
            dependencies: [
                "KeychainServices", "KeychainCore", "AuthenticationTestSupport", "AttackTestSupport", "TPMTestSupport",
                external("Crypto")
            ]
        ),
        .testTarget(
            name: "KeychainCLITests",
            dependencies: [
                "CPseudoTerminal", "TPMTestSupport", "AttackTestSupport", "PostgresTestSupport", "DBusTestSupport",
                external("GRDB")
            ]
        ),
        .testTarget(
            name: "FuzzRegressionTests", dependencies: ["FuzzTargets", "KeychainServices", "AttackTestSupport"]
        ),
        .testTarget(
            name: "SecureStorageConfigurationTests",
            dependencies: [
                "SecureStorageConfiguration", "SecureStorage", "KeychainServices", "KeychainCore",
                "AuthenticationTestSupport", external("Configuration", condition: whenConfiguration)
            ]
        ),
        .testTarget(
            name: "KeychainStressTests",
            dependencies: ["KeychainCore", "StressSupport", "TPMTestSupport", "AttackTestSupport"]
        ),
        .testTarget(
            name: "SecureStorageGRDBTests",
            dependencies: [
                "SecureStorageGRDB", "SecureStorage", "KeychainServices", "KeychainCore", "AuthenticationTestSupport",
                external("GRDB"), external("Crypto")
            ]
        ),
        // Fixtures/ holds the rules' positive and negative Swift samples, read from the source tree;
        // Expected/ what scripts/test expects keychain-lint to find in the third-party samples.
        .testTarget(
            name: "SecureStorageLintTests", dependencies: ["SecureStorageLint"], exclude: ["Fixtures", "Expected"]
        ),
        .testTarget(
            name: "KeychainSyncTests",
            dependencies: [
                "KeychainSync", "KeychainCore", "PostgresTestSupport", "AttackTestSupport", "CLibPQ",
                external("Crypto"), external("GRDB"), external("ServiceLifecycleTestKit", condition: whenSync)
            ]
        ),
        .testTarget(
            name: "SecureStorageDBusTests",
            dependencies: ["SecureStorageDBus", "SecureStorageFoundation", "AttackTestSupport", "DBusTestSupport"]
        ),
        // keychaind and its clients as separate processes (the built keychaind, keychain and
        // secure-storage-sample, and the Secret Service's Python and libsecret clients on a private
        // bus), attacked by a second user (uid 65534) and seccomp-blocked keyrings.
        .testTarget(
            name: "KeychainAgentTests",
            dependencies: [
                "KeychainCore", "CPseudoTerminal", "AttackTestSupport", "SecureStorageFoundation", "DBusTestSupport"
            ]
        ),
        .testTarget(
            name: "SecretServiceTests",
            dependencies: [
                "SecretService", "SecureStorageDBus", "KeychainCore", "AttackTestSupport", "DBusTestSupport",
                external("Crypto"), external("CryptoExtras")
            ]
        ),
        .testTarget(
            name: "SecureStorageTests",
            dependencies: [
                "SecureStorage", "KeychainServices", "KeychainCore", "AuthenticationTestSupport", "AttackTestSupport",
                external("GRDB"), external("Crypto")
            ],
            exclude: ["Fixtures"]
        )
    ]
)

/// The C targets, which take no Swift settings.
let cTargets: Set<String> = [
    "CTSS2", "CExtendedAttributes", "CFileSystemType", "CSQLiteHardening", "CProcessHardening", "CPseudoTerminal",
    "CFuzzerDriver", "CLibPQ", "CKernelKeyring", "CSystemLibcrypto", "CTestRunnerKeychain"
]
// Every Swift target sees the same choice between Apple's frameworks and the portable implementation.
for target in package.targets where !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + portableSettings
}
