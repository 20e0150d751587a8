#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CryptoExtras
import Foundation
import XCTest
@testable import KeychainCore

/// Passphrase keys come from the system's OpenSSL 3 libcrypto when it is installed (CSystemLibcrypto:
/// optimised in every build, where swift-crypto's BoringSSL runs unoptimised in a dependent
/// package's debug build) and from BoringSSL otherwise. Both must give the same bytes, or a
/// keychain written by one would not open with the other: every existing keychain (and the
/// committed fixtures, FormatUpgradeTests) was written with BoringSSL.
final class SystemScryptTests: XCTestCase {
    /// On Linux with Debian's libssl3 (every machine that runs this package's CI) the system's
    /// library is the one used.
    func testTheSystemLibraryIsUsedWhereItIsInstalled() throws {
        #if os(Linux)
        let installed = [
            "/usr/lib/x86_64-linux-gnu/libcrypto.so.3", "/usr/lib/aarch64-linux-gnu/libcrypto.so.3",
            "/usr/lib64/libcrypto.so.3"
        ]
        .contains { FileManager.default.fileExists(atPath: $0) }
        try XCTSkipUnless(installed, "no libcrypto.so.3 (Debian: libssl3): BoringSSL derives the keys")
        let status = ScryptParameters.systemLibraryDescription
        XCTAssertTrue(status.available, status.description)
        XCTAssertTrue(status.description.hasPrefix("/"), status.description)
        XCTAssertTrue(
            status.description.hasSuffix("libcrypto.so.3") || status.description.contains("libcrypto.so.3."),
            status.description)
        #else
        XCTAssertFalse(ScryptParameters.systemLibraryDescription.available)
        #endif
    }

    /// RFC 7914 §12's vectors (all but the 1 GiB one), through the system's library.
    func testRFC7914Vectors() throws {
        try XCTSkipUnless(
            ScryptParameters.systemLibraryDescription.available, ScryptParameters.systemLibraryDescription.description)
        let vectors: [(String, String, Int, Int, Int, String)] = [
            (
                "", "", 4, 1, 1,
                "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
            ),
            (
                "password", "NaCl", 10, 8, 16,
                "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
            ),
            (
                "pleaseletmein", "SodiumChloride", 14, 8, 1,
                "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"
            )
        ]
        for (password, salt, logN, r, p, expected) in vectors {
            let key = try XCTUnwrap(
                ScryptParameters.deriveWithSystemLibrary(
                    password: Data(password.utf8), salt: Data(salt.utf8), outputByteCount: 64,
                    logN: logN, blockSize: r, parallelism: p))
            XCTAssertEqual(
                key.withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined(), expected,
                "\(password) \(salt)")
        }
    }

    /// The same bytes as BoringSSL for the parameters keychains, PIN files and backups use (r up
    /// to 16, p up to 3, empty and non-ASCII passphrases), and for the second self-check vector
    /// of csystemscrypt.c.
    func testSameKeysAsBoringSSL() throws {
        try XCTSkipUnless(
            ScryptParameters.systemLibraryDescription.available, ScryptParameters.systemLibraryDescription.description)
        var cases: [(Data, Data, Int, Int, Int)] = [
            (Data("SecureStorage".utf8), Data("scrypt self-check".utf8), 4, 8, 2)
        ]
        for (index, (logN, r, p)) in [(10, 8, 1), (10, 1, 1), (11, 16, 2), (12, 8, 3), (10, 4, 2)].enumerated() {
            let password = index == 0 ? Data() : Data("pässwörd \(index) 🔑".utf8)
            cases.append((password, Data((0..<(16 + index)).map { _ in UInt8.random(in: 0...255) }), logN, r, p))
        }
        for (password, salt, logN, r, p) in cases {
            let system = try XCTUnwrap(
                ScryptParameters.deriveWithSystemLibrary(
                    password: password, salt: salt, outputByteCount: 32,
                    logN: logN, blockSize: r, parallelism: p))
            let boring = try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: 32, rounds: 1 << logN, blockSize: r, parallelism: p)
            XCTAssertEqual(system, boring, "logN \(logN) r \(r) p \(p)")
        }
        let selfCheck = try KDF.Scrypt.deriveKey(
            from: Data("SecureStorage".utf8), salt: Data("scrypt self-check".utf8), outputByteCount: 32,
            rounds: 16, blockSize: 8, parallelism: 2)
        XCTAssertEqual(
            selfCheck.withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined(),
            "5f6e3189604a2b8c81434d490573d2818e95f90a483abac07a4a4f56adb617ef")
    }

    /// Parameters the system's library refuses (r = 1 with N ≥ 2^16: OpenSSL's limit) go to
    /// BoringSSL inside `deriveKey`, with the result (key or error) BoringSSL alone gave before.
    func testParametersTheSystemLibraryRefusesFallBackToBoringSSL() throws {
        let parameters = ScryptParameters(logN: 16, blockSize: 1, parallelism: 1)
        XCTAssertTrue(parameters.isWithinBounds)
        XCTAssertNil(
            ScryptParameters.deriveWithSystemLibrary(
                password: Data("x".utf8), salt: Data("salt".utf8), outputByteCount: 32,
                logN: 16, blockSize: 1, parallelism: 1))
        let boring = try? KDF.Scrypt.deriveKey(
            from: Data("x".utf8), salt: Data("salt".utf8), outputByteCount: 32, rounds: 1 << 16, blockSize: 1,
            parallelism: 1)
        let key = try? parameters.deriveKey(passphrase: "x", salt: Data("salt".utf8))
        XCTAssertEqual(key, boring)
    }

    /// A passphrase derivation of the floor (N = 2^17, r = 8) costs well under a second of CPU in
    /// this debug build, as in a dependent package's `swift build` (issue 35; it was 2–3 s).
    func testAFloorDerivationTakesUnderASecondOfCPUInADebugBuild() throws {
        try XCTSkipUnless(
            ScryptParameters.systemLibraryDescription.available, ScryptParameters.systemLibraryDescription.description)
        let start = clock()
        _ = try ScryptParameters.floor.deriveKey(passphrase: "timing", salt: Data(count: 32))
        let seconds = Double(clock() - start) / Double(CLOCKS_PER_SEC)
        XCTAssertLessThan(seconds, 1.0, "one scrypt(N=2^17, r=8, p=1) took \(seconds) s of CPU")
    }

    /// Review 35b, F5: a refused derivation removes only its own errors from the thread's
    /// OpenSSL error queue, which the application may share (the same libcrypto file): an error
    /// the application has pending is still there afterwards.
    func testARefusedDerivationKeepsTheApplicationsOpenSSLErrors() throws {
        let system = ScryptParameters.systemLibraryDescription
        try XCTSkipUnless(system.available, system.description)
        let handle = try XCTUnwrap(dlopen(system.description, RTLD_NOW))
        typealias Fetch = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>?) -> OpaquePointer?
        typealias Peek = @convention(c) () -> UInt
        let fetch = unsafeBitCast(try XCTUnwrap(dlsym(handle, "EVP_KDF_fetch")), to: Fetch.self)
        let peek = unsafeBitCast(try XCTUnwrap(dlsym(handle, "ERR_peek_error")), to: Peek.self)
        XCTAssertNil(fetch(nil, "NO-SUCH-KDF", nil), "the application's own failing call")
        let pending = peek()
        XCTAssertNotEqual(pending, 0)
        XCTAssertNil(
            ScryptParameters.deriveWithSystemLibrary(
                password: Data("x".utf8), salt: Data("s".utf8), outputByteCount: 32,
                logN: 16, blockSize: 1, parallelism: 1), "refused by OpenSSL's memory check")
        XCTAssertEqual(peek(), pending, "the application's error is still pending")
    }
}
