import Foundation
import XCTest
@testable import KeychainCore

/// Secrets in buffers this library owns are zeroed once used (issue 7, memory hygiene).
final class MemoryHygieneTests: XCTestCase {
    func testWipingZeroesDataAndByteArraysInPlace() {
        var data = Data("correct horse battery staple".utf8)
        let count = data.count
        SecretWiping.wipe(&data)
        XCTAssertEqual(data, Data(count: count))
        var bytes = Array("hunter2".utf8)
        SecretWiping.wipe(&bytes)
        XCTAssertEqual(bytes, [UInt8](repeating: 0, count: 7))
        var empty = Data()
        SecretWiping.wipe(&empty)
        XCTAssertTrue(empty.isEmpty)
    }

    func testUnpaddedPlaintextOwnsItsBufferSoThePaddedOneCanBeWiped() throws {
        var padded = Padding.pad(Data("s3cret".utf8))
        let plaintext = try XCTUnwrap(Padding.unpad(padded))
        SecretWiping.wipe(&padded)
        XCTAssertEqual(plaintext, Data("s3cret".utf8), "wiping the padded buffer must not touch the returned secret")
        XCTAssertEqual(padded, Data(count: padded.count))
    }

    func testValuesStillRoundTripWithWipingInPlace() throws {
        let test = try TestKeychain()
        for length in [0, 1, 31, 32, 255, 4096, 70_000] {
            let secret = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try test.keychain.add(NewItem(.genericPassword, attributes: [.account: .string("len-\(length)")], data: secret))
            let found = try test.keychain.findFirst(Query(.genericPassword, [.account: .string("len-\(length)")]), returning: .data)
            XCTAssertEqual(found?.data, secret, "length \(length)")
        }
    }
}
