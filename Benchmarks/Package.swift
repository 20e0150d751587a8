// swift-tools-version:6.1
import PackageDescription

// The benchmarks: a package of their own, so that no client of SecureStorage resolves what only
// they need. `swift run --package-path Benchmarks -c release KeychainBenchmarks …` from the
// repository's root (scripts/bench-lint and scripts/instructions build it so).
// Support/ links the root package's test support and linter sources (no copies): they are no
// products of the root package, so that no client sees them.

let package = Package(
    name: "SecureStorageBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "KeychainBenchmarks", targets: ["KeychainBenchmarks"]),
        // Preloaded into the sealed benchmark's SQLCipher child process only (SQLCipherShim/sqlcipher_shim.c):
        // `swift build --package-path Benchmarks -c release --product SQLCipherShim`.
        .library(name: "SQLCipherShim", type: .dynamic, targets: ["SQLCipherShim"])
    ],
    dependencies: [
        // The libraries and KeychainSync (trait Sync): not the tools' or the linter's packages.
        .package(name: "SecureStorage", path: "..", traits: ["Sync"]),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0")
    ],
    targets: [
        // Every operation and layer, the floors beside them, the sizes, and the instruction counts
        // that scripts/instructions reads. It imports CSQLiteHardening and CTSS2, C modules of KeychainCore.
        .executableTarget(
            name: "KeychainBenchmarks",
            dependencies: [
                .product(name: "KeychainCore", package: "SecureStorage"),
                .product(name: "KeychainServices", package: "SecureStorage"),
                .product(name: "SecureStorage", package: "SecureStorage"),
                .product(name: "SecureStorageGRDB", package: "SecureStorage"),
                .product(name: "KeychainSync", package: "SecureStorage"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                "CCallgrind", "LintUnderBenchmark", "TPMTestSupport", "PostgresTestSupport"
            ],
            path: "KeychainBenchmarks"
        ),
        // GRDB on Debian's SQLCipher 3.4 (SQLite 3.15): the one missing function, for the sealed benchmark's peer.
        .target(name: "SQLCipherShim", path: "SQLCipherShim"),
        // Callgrind's client requests (count the instructions of one region), no-ops without valgrind.
        .target(name: "CCallgrind", path: "CCallgrind"),
        // The linter's sources (Sources/SecureStorageLint), for `--lint`, as a module of another name:
        // SecureStorageLint is in the root package's keychain-lint product (trait Tools).
        // The foundation's `Locked`, which the linter uses, is compiled into it (a package-access type
        // of the root package, out of this package's reach otherwise); LINT_UNDER_BENCHMARK drops the
        // linter's import of SecureStorageFoundation.
        .target(
            name: "LintUnderBenchmark",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax")
            ],
            path: "Support/LintUnderBenchmark",
            swiftSettings: [.define("Tools"), .define("LINT_UNDER_BENCHMARK")]
        ),
        // A software TPM (swtpm) per run (Tests/TPMTestSupport).
        .target(name: "TPMTestSupport", path: "Support/TPMTestSupport"),
        // A throw-away PostgreSQL cluster (Tests/PostgresTestSupport).
        .target(name: "PostgresTestSupport", path: "Support/PostgresTestSupport")
    ]
)
