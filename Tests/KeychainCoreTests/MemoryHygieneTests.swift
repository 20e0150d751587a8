import Foundation
import XCTest
@testable import KeychainCore
import SecureStorageFoundation

/// Secrets in buffers this library owns are zeroed once used (issue 7, memory hygiene).
final class MemoryHygieneTests: XCTestCase {
    func testWipingZeroesDataAndByteArraysInPlace() {
        var data = Data("correct horse battery staple".utf8)
        let count = data.count
        XCTAssertTrue(SecretWiping.wipe(&data), "a buffer nobody shares is zeroed where it is")
        XCTAssertEqual(data, Data(count: count))
        var bytes = Array("hunter2".utf8)
        XCTAssertTrue(SecretWiping.wipe(&bytes))
        XCTAssertEqual(bytes, [UInt8](repeating: 0, count: 7))
        var empty = Data()
        SecretWiping.wipe(&empty)
        XCTAssertTrue(empty.isEmpty)
    }

    func testWipingASharedBufferIsReportedBecauseTheOriginalSurvives() {
        var secret = Data(repeating: 0x53, count: 64)
        let original = secret  // shares the buffer
        XCTAssertFalse(SecretWiping.wipe(&secret), "copy-on-write zeroed a copy; the caller must be told")
        XCTAssertEqual(original, Data(repeating: 0x53, count: 64))
        var sliced = Data(repeating: 0x53, count: 64)
        let slice = sliced[8..<40]
        XCTAssertFalse(SecretWiping.wipe(&sliced))
        XCTAssertEqual(slice.count, 32)
    }

    func testUnpaddedPlaintextOwnsItsBufferSoThePaddedOneCanBeWiped() throws {
        var padded = Padding.pad(Data("s3cret".utf8))
        let plaintext = try XCTUnwrap(Padding.unpad(padded))
        XCTAssertTrue(
            SecretWiping.wipe(&padded), "the plaintext must not share the padded buffer, or wiping it copies instead")
        XCTAssertEqual(plaintext, Data("s3cret".utf8), "wiping the padded buffer must not touch the returned secret")
        XCTAssertEqual(padded, Data(count: padded.count))
    }

    func testBackupChunkBuffersAreWipedInPlace() throws {
        var writer = ByteWriter(capacity: 4096)
        writer.appendLengthPrefixed(Data(repeating: 0x41, count: 1000))
        writer.wipe()
        XCTAssertEqual(writer.data, Data(count: 1004))
        var reader = ByteReader(Data(repeating: 0x41, count: 100))
        reader.wipe()
        XCTAssertEqual(reader.readRemaining(), Data(count: 100))
    }

    func testAbandonedTemporaryKeyFilesAreRemoved() throws {
        let test = try TestKeychain()
        let keyPath = test.location.deviceKeyURL.path
        let abandoned = keyPath + ".tmp-999999-12345"  // no such process
        let live = keyPath + ".tmp-\(getpid())-777"  // this process: maybe mid-write
        for path in [abandoned, live] {
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1])))
        }
        _ = try test.openAnother()
        XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
    }

    func testValuesStillRoundTripWithWipingInPlace() throws {
        let test = try TestKeychain()
        for length in [0, 1, 31, 32, 255, 4096, 70_000] {
            let secret = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try test.keychain.add(
                NewItem(.genericPassword, attributes: [.account: .string("len-\(length)")], data: secret))
            let found = try test.keychain.findFirst(
                Query(.genericPassword, [.account: .string("len-\(length)")]), returning: .data)
            XCTAssertEqual(found?.data, secret, "length \(length)")
        }
    }
}
