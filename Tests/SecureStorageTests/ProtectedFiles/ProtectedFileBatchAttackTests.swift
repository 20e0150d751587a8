#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
@testable import SecureStorage
import SecureStorageFoundation
import XCTest

/// Attacks on files of several runs of chunks (``ChunkWork/batchChunks`` chunks are opened
/// together on every core, issue 39): the bytes returned and the error are those of opening the
/// chunks one by one, whatever batch the forged chunk falls in, and a file extended on disk never
/// makes a read reserve memory by its length.
final class ProtectedFileBatchAttackTests: ProtectedFilesTestCase {
    private let chunk = 65_536

    /// Where chunk `index` starts in the file.
    private func offset(ofChunk index: Int) -> Int { ProtectedFileHeader.size + index * (chunk + ChunkCipher.tagSize) }

    /// A complete file of 150 chunks (more than two runs), its last one short.
    private func writeLargeFile() throws -> Data {
        let content = pattern(150 * chunk - 1000)
        try files.write(content, to: "large", protection: .complete)
        return content
    }

    /// Flips one byte of the stored file, in place.
    private func flipByte(at offset: Int) throws {
        var raw = try rawBytes("large")
        raw[offset] ^= 0x01
        try setRawBytes(raw, of: "large")
    }

    /// Attack: two forged chunks in the second and third runs. A reader gets every byte before
    /// the first of them, then `integrityViolation`, again at every later read; whole reads fail
    /// with `integrityViolation`.
    func testAForgedChunkInALaterRunYieldsTheBytesBeforeItThenTheError() throws {
        let content = try writeLargeFile()
        try flipByte(at: offset(ofChunk: 100) + 7)
        try flipByte(at: offset(ofChunk: 130) + 7)
        let reader = try files.open("large")
        var read = Data()
        while read.count < 100 * chunk, let piece = try reader.read(upToCount: 1 << 20) { read.append(piece) }
        XCTAssertEqual(read, content.prefix(100 * chunk))
        XCTAssertStorageError(.integrityViolation, try reader.read(upToCount: 1 << 20))
        XCTAssertStorageError(.integrityViolation, try reader.read(upToCount: 1 << 20), "the chunk is tried again")
        XCTAssertStorageError(.integrityViolation, try reader.readToEnd())
        XCTAssertStorageError(.integrityViolation, try files.read("large"))
        XCTAssertStorageError(.integrityViolation, try files.open("large").readToEnd())
    }

    /// Attack: two neighbouring chunks swapped across the first runs' boundary (63 and 64).
    func testChunksSwappedAcrossARunBoundaryAreRefused() throws {
        let content = try writeLargeFile()
        var raw = try rawBytes("large")
        let size = chunk + ChunkCipher.tagSize
        let first = raw[offset(ofChunk: 63)..<(offset(ofChunk: 63) + size)]
        let second = raw[offset(ofChunk: 64)..<(offset(ofChunk: 64) + size)]
        raw.replaceSubrange(offset(ofChunk: 63)..<(offset(ofChunk: 65)), with: second + first)
        try setRawBytes(raw, of: "large")
        let reader = try files.open("large")
        var read = Data()
        while read.count < 63 * chunk, let piece = try reader.read(upToCount: 1 << 20) { read.append(piece) }
        XCTAssertEqual(read, content.prefix(63 * chunk))
        XCTAssertStorageError(.integrityViolation, try reader.read(upToCount: 1 << 20))
        XCTAssertStorageError(.integrityViolation, try files.read("large"))
    }

    /// Attack: the file extended on disk to 64 GiB (sparse): reads fail with `integrityViolation`
    /// at the old last chunk, having reserved memory only for the chunks before it (a reservation
    /// by the file's length would fail or crash here).
    func testAFileExtendedToGigabytesFailsWithoutReservingItsLength() throws {
        _ = try writeLargeFile()
        XCTAssertEqual(truncate(path("large"), off_t(64) << 30), 0)
        XCTAssertStorageError(.integrityViolation, try files.read("large"))
        XCTAssertStorageError(.integrityViolation, try files.open("large").readToEnd())
    }
}
#endif
