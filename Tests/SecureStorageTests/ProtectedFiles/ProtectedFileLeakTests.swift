#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// No plaintext of a protected file reaches the disk (store, temporary files, keychain), an
/// error or a `description`.
final class ProtectedFileLeakTests: ProtectedFilesTestCase {
    private let marker = Data("PLAINTEXT-LEAK-MARKER-5d2e".utf8)

    /// 3 MiB with the marker every 64 KiB.
    private var content: Data {
        var data = Data()
        while data.count < 3 << 20 {
            data.append(marker)
            data.append(pattern(65_536 - marker.count))
        }
        return data
    }

    private func assertNoMarker(under root: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let paths = FileManager.default.enumerator(atPath: root.path) else { return }
        for case let path as String in paths {
            let url = root.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let bytes = try? Data(contentsOf: url)
            else { continue }
            XCTAssertNil(bytes.range(of: marker), "\(path) holds plaintext", file: file, line: line)
        }
    }

    func testNoPlaintextOnDiskWhileWritingAfterCommitOrInErrors() throws {
        let writer = try files.create("big.bin", protection: .complete)
        try writer.write(content.prefix(2 << 20))
        XCTAssertEqual(try temporaries().count, 1)
        try assertNoMarker(under: filesDirectory)  // the temporary file holds ciphertext only
        try writer.write(content.suffix(from: 2 << 20))
        try writer.commit()
        try assertNoMarker(under: directory)  // the store and the keychain

        var changed = try rawBytes("big.bin")
        changed[changed.count - 1] ^= 1
        try setRawBytes(changed, of: "big.bin")
        let reader = try files.open("big.bin")
        var error: (any Error)?
        do { while try reader.read(upToCount: 1 << 20) != nil {} } catch let caught { error = caught }
        let text = "\(String(describing: error)) \(String(reflecting: error)) \(files!) \(reader)"
        XCTAssertNotNil(error)
        XCTAssertFalse(text.contains("PLAINTEXT-LEAK-MARKER"), text)
    }
}
#endif
