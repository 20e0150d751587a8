#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import XCTest
@testable import KeychainServices

/// SHA-224 (our own; swift-crypto has none) against FIPS 180-4's examples and digests computed
/// independently, at every padding boundary, fed whole and byte by byte.
final class SHA224Tests: XCTestCase {
    static let knownAnswers: [(message: Data, digest: String)] = [
        (Data(), "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"),
        (Data("abc".utf8), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
        (
            Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"
        ),
        (Data(repeating: 0x61, count: 55), "fb0bd626a70c28541dfa781bb5cc4d7d7f56622a58f01a0b1ddd646f"),
        (Data(repeating: 0x61, count: 56), "d40854fc9caf172067136f2e29e1380b14626bf6f0dd06779f820dcd"),
        (Data(repeating: 0x61, count: 63), "1d4e051f4d6fed2a63fd2421e65834cec00d64456553de3496ae8b1d"),
        (Data(repeating: 0x61, count: 64), "a88cd5cde6d6fe9136a4e58b49167461ea95d388ca2bdb7afdc3cbf4"),
        (Data(repeating: 0x61, count: 65), "ff8716f600af42959d0efb52e1f21b01bb328733009344d511c299fb"),
        (Data(repeating: 0x61, count: 1_000_000), "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67")
    ]

    func testKnownAnswers() {
        for (message, digest) in Self.knownAnswers {
            XCTAssertEqual(hex(SHA224.hash(message)), digest, "\(message.count) bytes")
            guard message.count < 1000 else { continue }
            var hasher = SHA224()
            for byte in message { hasher.update([byte]) }
            XCTAssertEqual(hex(hasher.finalize()), digest, "\(message.count) bytes, one at a time")
        }
    }

    private func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
#endif
