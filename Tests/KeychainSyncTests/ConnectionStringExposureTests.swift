import Foundation
import KeychainCore
import KeychainSync
import XCTest

/// Issue 34 §4.1, the library side: ``KeychainSynchronizer/commandLineExposure(of:)`` reads a
/// connection string as libpq does, and the API itself accepts a password in the string (no
/// command line shows it; the string is kept inside the keychain).
final class ConnectionStringExposureTests: SyncTestCase {
    func testTheLibraryAcceptsAPasswordThatACommandLineMustNotShow() throws {
        let server = postgres.connectionString + " password = library-secret"
        XCTAssertEqual(KeychainSynchronizer.commandLineExposure(of: server), .secret(keyword: "password"))
        XCTAssertEqual(
            KeychainSynchronizer.commandLineExposure(of: "postgresql://alice:library-secret@/k?host=/x"),
            .secret(keyword: "password"))
        XCTAssertEqual(
            KeychainSynchronizer.commandLineExposure(of: "host=/x\tsslpassword='library secret'"),
            .secret(keyword: "sslpassword"))
        XCTAssertNil(KeychainSynchronizer.commandLineExposure(of: postgres.connectionString))
        XCTAssertNil(
            KeychainSynchronizer.commandLineExposure(of: "postgresql://alice:@/k?host=/x"), "an empty password is none")
        guard
            case .unreadable(let reason)? = KeychainSynchronizer.commandLineExposure(
                of: "host=/x PASSWORD=library-secret")
        else {
            return XCTFail("libpq's keywords are case-sensitive: it cannot read PASSWORD=")
        }
        XCTAssertFalse(reason.contains("library-secret"), reason)
        XCTAssertTrue(KeychainSynchronizer.holdsPassword("host=/x PASSWORD=library-secret"))
        XCTAssertNoThrow(
            try KeychainSynchronizer(keychain: try device("laptop")).createCircle(server: server, deviceName: "laptop"))
    }
}
