import Foundation
import XCTest
@testable import KeychainCore

/// A write that cannot reach the disk fails with a clear error and loses nothing.
///
/// The file-size limit of the process (`RLIMIT_FSIZE`) stands in for a full disk: it makes the
/// kernel refuse the write the same way, without needing a small file system.
final class FullDiskTests: XCTestCase {
    /// Runs `body` while no file of this process may grow beyond `bytes`.
    private func withFileSizeLimit<T>(_ bytes: rlim_t, _ body: () throws -> T) throws -> T {
        var previous = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_FSIZE.rawValue), &previous), 0)
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var limited = previous
        limited.rlim_cur = bytes
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited), 0)
        defer {
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &previous)
            signal(SIGXFSZ, previousHandler)
        }
        return try body()
    }

    func testWriteThatDoesNotFitFailsCleanlyAndKeepsEveryItem() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "kept", "old value"))
        let big = Data(repeating: 0xAB, count: 4 << 20)
        let error = try withFileSizeLimit(1 << 20) {
            XCTAssertThrowsError(
                try test.keychain.add(
                    NewItem(.genericPassword, attributes: [.service: "svc", .account: "big"], data: big)))
            XCTAssertThrowsError(try test.keychain.update(query("svc", "kept"), with: ItemChanges(data: big)))
            return Result {
                try test.keychain.add(
                    NewItem(.genericPassword, attributes: [.service: "svc", .account: "big"], data: big))
            }
        }
        guard case .failure(let failure) = error, let keychainError = failure as? KeychainError else {
            return XCTFail("the write should have failed")
        }
        XCTAssertTrue([.diskFull, .ioError].contains(keychainError.code), "\(keychainError)")
        XCTAssertTrue(
            keychainError.message.contains("full"), "the message names the likely cause: \(keychainError.message)")

        // Nothing was lost or half-written, in this instance and after a restart.
        for keychain in [test.keychain, try test.openAnother()] {
            let kept = try keychain.find(query("svc", "kept"), returning: .data)
            XCTAssertEqual(kept.map(\.data), [Data("old value".utf8)])
            XCTAssertEqual(
                try keychain.find(query("svc"), returning: .attributes).count, 1, "the big item was not stored")
        }
        try test.keychain.add(password("svc", "after", "works again"))
    }
}
