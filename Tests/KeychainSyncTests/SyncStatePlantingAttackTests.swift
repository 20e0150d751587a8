import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Issue 34 §1, as the review performed it: an attacker in a circle of their own copies their
/// sync state into an ordinary, exportable item of the state's names (what `keychain
/// add-generic-password` and `export` make) and gets the victim to import it. The victim's next
/// sync must not push to the attacker's server or take the attacker's values.
final class SyncStatePlantingAttackTests: SyncTestCase {
    /// The attacker's own circle state, made into a backup anyone can import.
    private func plantedStateBackup() throws -> (backup: URL, attackerCircle: KeychainSynchronizer) {
        let attacker = try device("attacker")
        let circle = try circle([attacker])[0]
        try attacker.add(password("attacker.example", "bait", "attacker value"))
        _ = try circle.syncNow()
        let state = try XCTUnwrap(try SyncStateStore.load(from: attacker))
        let exportable = NewItem(
            .genericPassword,
            attributes: [
                .service: .string(SyncStateStore.service), .account: "state",
                .accessGroup: .string(SyncStateStore.accessGroup)
            ],
            data: state.encoded, accessibility: .afterFirstUnlock)
        let carrier = try device("carrier")
        try carrier.add(exportable)
        let backup = directory.appendingPathComponent("team-credentials.backup")
        XCTAssertEqual(try carrier.exportBackup(to: backup, passphrase: "team pass").exportedItems, 1)
        return (backup, circle)
    }

    func testAnImportedStateDoesNotPutAVictimWithoutACircleIntoTheAttackersCircle() throws {
        let (backup, attackerCircle) = try plantedStateBackup()
        let victim = try device("victim")
        try victim.add(password("bank.example", "victim", "victim secret"))
        XCTAssertEqual(try victim.importBackup(from: backup, passphrase: "team pass").addedItems, 1)
        let synchronizer = KeychainSynchronizer(keychain: victim)
        assertSyncError(.notAMember, try synchronizer.syncNow())
        assertSyncError(.notAMember, try synchronizer.status())
        _ = try attackerCircle.syncNow()
        XCTAssertNil(
            try passwords(attackerCircle.keychain)["bank.example/victim"],
            "the victim's secret reached the attacker's circle")
        XCTAssertNil(try passwords(victim)["attacker.example/bait"], "the attacker's value reached the victim")
    }

    func testAnImportedStateReplacingExistingItemsDoesNotMoveAMemberToTheAttackersCircle() throws {
        let (backup, attackerCircle) = try plantedStateBackup()
        let victim = try device("victim")
        let peer = try device("peer")
        let victims = try circle([victim, peer])
        try victim.add(password("bank.example", "victim", "victim secret"))
        XCTAssertEqual(
            try victim.importBackup(from: backup, passphrase: "team pass", onDuplicate: .replace).addedItems, 1,
            "the planted item is an ordinary item beside the real state, not a replacement of it")
        _ = try victims[0].syncNow()
        _ = try victims[1].syncNow()
        XCTAssertEqual(
            try passwords(peer)["bank.example/victim"], "victim secret", "the victim still syncs with its own circle")
        _ = try attackerCircle.syncNow()
        XCTAssertNil(
            try passwords(attackerCircle.keychain)["bank.example/victim"],
            "the victim's secret reached the attacker's circle")
        XCTAssertNil(try passwords(victim)["attacker.example/bait"])
    }
}
