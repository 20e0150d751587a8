// swift-tools-version:6.0
// A Hummingbird server that reads its database password from the keychain through
// swift-configuration. Built and smoke-tested by scripts/build-examples (not part of scripts/test:
// Hummingbird and SwiftNIO add minutes to a clean build).
import PackageDescription

// This example depends on the checkout it sits in; SwiftPM names a path dependency after its
// directory, which differs between clones. In your own package, depend on the released package.
let checkout = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "SecureStorage"

let package = Package(
    name: "HummingbirdServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0")
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdServer",
            dependencies: [
                .product(name: "SecureStorage", package: checkout),
                .product(name: "SecureStorageConfiguration", package: checkout),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration")
            ]
        )
    ]
)
