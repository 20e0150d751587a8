#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// Writing, reading, streaming, renaming and removing protected files.
final class ProtectedFileRoundTripTests: ProtectedFilesTestCase {
    /// Sizes around the 64 KiB chunk boundary, in every class.
    func testEverySizeAndClassReadsBackExactly() throws {
        for protection in FileProtection.allCases {
            for size in [0, 1, 65_535, 65_536, 65_537, 131_072, 200_000] {
                let data = pattern(size, seed: UInt8(size % 251))
                try files.write(data, to: "file-\(size).bin", protection: protection)
                XCTAssertEqual(try files.read("file-\(size).bin"), data, "\(protection) \(size)")
                XCTAssertEqual(try files.protection(of: "file-\(size).bin"), protection)
                XCTAssertEqual(try files.open("file-\(size).bin").count, size)
            }
        }
        // The header and one 16-byte tag per chunk: 152 + 65 536 + 16 + 16 + 1.
        XCTAssertEqual(try rawBytes("file-65537.bin").count, 152 + 65_537 + 32)
        XCTAssertEqual(try rawBytes("file-0.bin").count, 152 + 16)
        XCTAssertEqual(try temporaries(), [])
    }

    func testStreamingInUnevenPiecesAndReadingInOthers() throws {
        let data = pattern(300_001)
        let writer = try files.create("stream.bin", protection: .complete)
        var offset = 0
        for size in [1, 65_535, 70_000, 3, 100_000] where offset < data.count {
            try writer.write(data[offset..<min(offset + size, data.count)])
            offset += size
        }
        try writer.write(data[offset...])
        XCTAssertThrowsError(try files.read("stream.bin"), "nothing appears before the commit")
        try writer.commit()
        XCTAssertStorageError(.underlying(errSecParam), try writer.write(Data([1])), "a committed writer is finished")

        let reader = try files.open("stream.bin")
        var read = Data()
        while let piece = try reader.read(upToCount: 12_345) {
            XCTAssertLessThanOrEqual(piece.count, 12_345)
            read.append(piece)
        }
        XCTAssertEqual(read, data)
        XCTAssertNil(try reader.read(upToCount: 10))
        reader.close()
        XCTAssertStorageError(.underlying(errSecParam), try reader.read(upToCount: 10), "a closed reader is finished")
    }

    func testReplacingKeepsTheOldFileUntilCommitAndDiscardLeavesNothing() throws {
        try files.write(Data("old".utf8), to: "note.txt", protection: .completeUntilFirstUserAuthentication)
        let writer = try files.create("note.txt", protection: .complete)
        try writer.write(pattern(100_000))
        XCTAssertEqual(try files.read("note.txt"), Data("old".utf8))
        XCTAssertEqual(try temporaries().count, 1)
        writer.discard()
        XCTAssertEqual(try files.read("note.txt"), Data("old".utf8))
        XCTAssertEqual(try temporaries(), [])

        do {
            let abandoned = try files.create("note.txt", protection: .none)
            try abandoned.write(Data("dropped".utf8))
        }
        XCTAssertEqual(try temporaries(), [], "a writer dropped without commit removes its temporary file")
        XCTAssertEqual(try files.read("note.txt"), Data("old".utf8))
    }

    func testNamesMoveRemoveAndSetProtection() throws {
        try files.write(Data("a".utf8), to: "a.txt", protection: .complete)
        try files.write(Data("b".utf8), to: "b.txt", protection: .none)
        XCTAssertEqual(try files.names(), ["a.txt", "b.txt"])

        try files.move("a.txt", to: "c.txt")
        XCTAssertEqual(try files.names(), ["b.txt", "c.txt"])
        XCTAssertEqual(try files.read("c.txt"), Data("a".utf8))
        XCTAssertStorageError(.notFound, try files.read("a.txt"))

        try files.move("c.txt", to: "b.txt")  // replaces b.txt
        XCTAssertEqual(try files.read("b.txt"), Data("a".utf8))
        XCTAssertEqual(try files.protection(of: "b.txt"), .complete)

        try files.setProtection(.completeUntilFirstUserAuthentication, of: "b.txt")
        XCTAssertEqual(try files.protection(of: "b.txt"), .completeUntilFirstUserAuthentication)
        XCTAssertEqual(try files.read("b.txt"), Data("a".utf8))

        XCTAssertTrue(try files.remove("b.txt"))
        XCTAssertFalse(try files.remove("b.txt"))
        XCTAssertEqual(try files.names(), [])
        XCTAssertStorageError(.notFound, try files.protection(of: "b.txt"))
        XCTAssertStorageError(.notFound, try files.move("b.txt", to: "d.txt"))
    }

    func testInvalidNamesAreRefusedBeforeTouchingTheDisk() throws {
        for name in [
            "", ".hidden", "../escape", "a/b", "with space", "ü.txt", String(repeating: "x", count: 201), "nul\0byte"
        ] {
            XCTAssertFalse(ProtectedFiles.isValidName(name), name)
            XCTAssertStorageError(.invalidName, try files.write(Data(), to: name, protection: .none), name)
            XCTAssertStorageError(.invalidName, try files.read(name), name)
        }
        XCTAssertTrue(ProtectedFiles.isValidName("Report_2026-11.v2.pdf"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: filesDirectory.path), [])
    }

    func testFilesAndDirectoryArePrivate() throws {
        try files.write(Data("x".utf8), to: "x", protection: .none)
        let fileMode = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: path("x"))[.posixPermissions] as? NSNumber
        ).intValue
        let directoryMode = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: filesDirectory.path)[.posixPermissions] as? NSNumber
        ).intValue
        XCTAssertEqual(fileMode, 0o600)
        XCTAssertEqual(directoryMode, 0o700)
    }

    /// Destroying the store deletes the files and the keys: a copy of a file made before no longer opens.
    func testDestroyCryptoErasesCopies() throws {
        try files.write(Data("keep me".utf8), to: "doc", protection: .none)
        let copy = try rawBytes("doc")
        try files.destroy()
        XCTAssertEqual(try files.names(), [])
        XCTAssertEqual(
            try SecureStorage(service: ProtectedFiles.keyService(for: "default")).libraryOwned(by: .protectedFiles)
                .allKeys(), [])
        try setRawBytes(copy, of: "doc")
        XCTAssertStorageError(.integrityViolation, try files.read("doc"))
    }

    /// The keys are keychain items of the store's own service; two stores do not share them.
    func testEachStoreHasItsOwnKeys() throws {
        let other = try ProtectedFiles(directory: directory.appendingPathComponent("other"), identifier: "other")
        try files.write(Data("1".utf8), to: "f", protection: .complete)
        try other.write(Data("2".utf8), to: "f", protection: .complete)
        let keys = try SecureStorage(service: ProtectedFiles.keyService(for: "default")).libraryOwned(
            by: .protectedFiles
        ).allKeys()
        let generation = try rawBytes("f")[24..<28].reduce(0) { $0 << 8 | UInt32($1) }
        XCTAssertEqual(
            Set(keys),
            [
                "current", "names", "g\(generation)/complete", "g\(generation)/unlessOpen.private",
                "g\(generation)/unlessOpen.public", "g\(generation)/untilFirstAuth"
            ])
        // A file copied into the other store does not open there.
        try FileManager.default.removeItem(atPath: directory.appendingPathComponent("other/f").path)
        try FileManager.default.copyItem(atPath: path("f"), toPath: directory.appendingPathComponent("other/f").path)
        XCTAssertStorageError(.integrityViolation, try other.read("f"))
        XCTAssertEqual(String(describing: files!), "ProtectedFiles(\(filesDirectory.path), identifier: default)")
    }
}
#endif
