// swift-tools-version:6.1
import PackageDescription

// The libFuzzer executables: a package of their own, so that no client of SecureStorage sees them.
// scripts/fuzz builds them with -sanitize=fuzzer,address into .build-fuzz. FuzzTargets and
// CFuzzerDriver are also targets of the root package, where FuzzRegressionTests replays the corpus.

let package = Package(
    name: "SecureStorageFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The libraries only: the tools' and the linter's packages are not needed through it.
        .package(name: "SecureStorage", path: "..", traits: [])
    ],
    targets: [
        // The targets shared by the executables: the input format, the seeds, the replayer.
        .target(
            name: "FuzzTargets",
            dependencies: [
                .product(name: "KeychainCore", package: "SecureStorage"),
                .product(name: "KeychainServices", package: "SecureStorage"),
                "CFuzzerDriver"
            ],
            path: "FuzzTargets"
        ),
        // libFuzzer's LLVMFuzzerRunDriver, declared for Swift.
        .target(name: "CFuzzerDriver", path: "CFuzzerDriver"),
        .executableTarget(name: "fuzz-secitem", dependencies: ["FuzzTargets"], path: "SecItemFuzzer"),
        .executableTarget(name: "fuzz-backup", dependencies: ["FuzzTargets"], path: "BackupFuzzer"),
        .executableTarget(name: "fuzz-seckey", dependencies: ["FuzzTargets"], path: "SecKeyFuzzer")
    ]
)
