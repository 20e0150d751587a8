#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// An attacker who can write this user's files edits, cuts, extends, reorders and swaps
/// protected files: every change gives `.integrityViolation` and no byte of content.
final class ProtectedFileTamperTests: ProtectedFilesTestCase {
    private let chunk = 65_536 + 16
    private let header = 152

    /// A three-chunk file (two full chunks and a short last one) in each class.
    private func writeSample(_ name: String, _ protection: FileProtection = .complete) throws -> Data {
        let content = pattern(2 * 65_536 + 1000)
        try files.write(content, to: name, protection: protection)
        return content
    }

    private func assertRejected(_ name: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertStorageError(.integrityViolation, try files.read(name), what, file: file, line: line)
    }

    func testEveryHeaderByteIsAuthenticated() throws {
        for protection in FileProtection.allCases {
            let original = try writeSample("f", protection)
            let bytes = try rawBytes("f")
            for offset in 0..<header {
                var changed = bytes
                changed[offset] ^= 0x01
                try setRawBytes(changed, of: "f")
                assertRejected("f", "\(protection): header byte \(offset) flipped")
            }
            try setRawBytes(bytes, of: "f")
            XCTAssertEqual(try files.read("f"), original, "the untouched file still reads")
        }
    }

    func testContentBytesAreAuthenticated() throws {
        _ = try writeSample("f")
        let bytes = try rawBytes("f")
        for offset in [
            header, header + 1000, header + chunk - 1, header + chunk, header + 2 * chunk + 5, bytes.count - 1
        ] {
            var changed = bytes
            changed[offset] ^= 0x80
            try setRawBytes(changed, of: "f")
            assertRejected("f", "content byte \(offset) flipped")
        }
    }

    func testTruncationAndExtensionAreDetected() throws {
        _ = try writeSample("f")
        let bytes = try rawBytes("f")
        let cuts = [0, 10, header, header + 15, header + chunk, header + 2 * chunk, bytes.count - 1]
        for length in cuts {
            try setRawBytes(bytes.prefix(length), of: "f")
            assertRejected("f", "cut to \(length) bytes")
        }
        try setRawBytes(bytes + Data([0]), of: "f")
        assertRejected("f", "one byte appended")
        try setRawBytes(bytes + bytes[header..<(header + chunk)], of: "f")
        assertRejected("f", "the first chunk appended again")
    }

    /// A streaming reader hands out the chunks that verified and fails where the cut shows.
    func testAStreamCutAtAChunkBoundaryFailsAtItsEnd() throws {
        let content = try writeSample("f")
        try setRawBytes(try rawBytes("f").prefix(header + 2 * chunk), of: "f")
        let reader = try files.open("f")
        XCTAssertEqual(try reader.read(upToCount: 65_536), content.prefix(65_536))
        XCTAssertStorageError(
            .integrityViolation, try reader.read(upToCount: 65_536), "the new last chunk was not sealed as last")
    }

    func testReorderedChunksAreDetected() throws {
        _ = try writeSample("f")
        let bytes = try rawBytes("f")
        let first = bytes[header..<(header + chunk)]
        let second = bytes[(header + chunk)..<(header + 2 * chunk)]
        try setRawBytes(bytes.prefix(header) + second + first + bytes.suffix(from: header + 2 * chunk), of: "f")
        assertRejected("f", "chunks 0 and 1 swapped")
    }

    func testSwappedAndTransplantedFilesAreDetected() throws {
        let a = try writeSample("a")
        let b = try writeSample("b")
        let bytesA = try rawBytes("a")
        let bytesB = try rawBytes("b")
        // Swapped names (an attacker renaming on disk).
        try setRawBytes(bytesB, of: "a")
        try setRawBytes(bytesA, of: "b")
        assertRejected("a", "b's bytes under a's name")
        assertRejected("b", "a's bytes under b's name")
        // a's header on b's body.
        try setRawBytes(bytesA.prefix(header) + bytesB.suffix(from: header), of: "a")
        assertRejected("a", "a's header on b's chunks")
        try setRawBytes(bytesA, of: "a")
        try setRawBytes(bytesB, of: "b")
        XCTAssertEqual(try files.read("a"), a)
        XCTAssertEqual(try files.read("b"), b)
    }

    /// A file of an older generation replaced by a copy under the same name is the one change
    /// this format does not see (documented): the whole file is authentic.
    func testAWholeOlderVersionUnderTheSameNameStillOpens() throws {
        try files.write(Data("version 1".utf8), to: "f", protection: .complete)
        let old = try rawBytes("f")
        try files.write(Data("version 2".utf8), to: "f", protection: .complete)
        try setRawBytes(old, of: "f")
        XCTAssertEqual(try files.read("f"), Data("version 1".utf8))
    }
}
#endif
