import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// A sync after a local write reads only what changed since the last sync in this process, and
/// still misses nothing another process wrote.
final class SyncLocalReadTests: SyncTestCase {
    func testASyncAfterOneWriteReadsOneItem() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        _ = try laptop.add(contentsOf: (0..<50).map { password("bulk", "account-\($0)", "value-\($0)") })
        let synchronizers = try circle([laptop, server])
        try synchronizers[0].syncNow()
        try laptop.add(password("one", "more", "item"))
        XCTAssertEqual(try synchronizers[0].syncNow().itemsRead, 1)
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server).count, 51)
        XCTAssertEqual(try synchronizers[0].syncNow().itemsRead, 0, "nothing wrote since")
    }

    func testWritesByAnotherProcessAreStillSeen() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        for index in 0..<5 { try laptop.add(password("item", "\(index)", "v1")) }
        let synchronizers = try circle([laptop, server])
        try synchronizers[0].syncNow()
        // Another process (another instance of the same keychain) changes, deletes and re-adds items.
        let other = try reopen("laptop")
        try other.update(
            Query(.genericPassword, [.service: "item", .account: "0"], synchronizable: .yes),
            with: ItemChanges(data: Data("v2".utf8)))
        try other.delete(Query(.genericPassword, [.service: "item", .account: "1"], synchronizable: .yes))
        try other.delete(Query(.genericPassword, [.service: "item", .account: "2"], synchronizable: .yes))
        try other.add(password("item", "2", "re-added"))
        let report = try synchronizers[0].syncNow()
        XCTAssertEqual(report.itemsRead, 2, "the changed and the re-added item")
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server), ["item/0": "v2", "item/2": "re-added", "item/3": "v1", "item/4": "v1"])
    }
}
