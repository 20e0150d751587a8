import Crypto
import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// The signed roster against a device about to be removed (and the server with it): devices it
/// admitted, admissions in another member's name, a next key of its own, a rewritten history.
final class SyncRosterAttackTests: SyncTestCase {
    func testADeviceAdmittedByARemovedOneIsRemovedWithIt() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let planted = try device("planted")
        let synchronizers = try circle([laptop, phone])
        let (owner, lost) = (synchronizers[0], synchronizers[1])
        // Before it is stolen (or by the thief), the phone admits a device of its own.
        let sleeper = try join(planted, as: "printer", approvedBy: lost)
        XCTAssertEqual(
            try owner.status().members.first { $0.name == "printer" }?.approvedBy,
            try XCTUnwrap(SyncStateStore.load(from: phone)).deviceID)

        let remaining = try owner.removeDevice("device-1")
        XCTAssertEqual(remaining.map(\.name), ["device-0"], "the phone and the device it admitted got no new key")
        try laptop.add(password("after", "removal", "kept from both"))
        try owner.syncNow()
        assertSyncError(.removed, try sleeper.syncNow())
        XCTAssertNil(try passwords(planted)["after/removal"])
        let sleeperID = try XCTUnwrap(SyncStateStore.load(from: planted)).deviceID
        let connection = try SyncServer.connect(
            postgres.connectionString, circleID: try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID)
        XCTAssertNil(try connection.keyWrap(for: sleeperID, generation: 1))
        XCTAssertEqual(try owner.status().members.map(\.name), ["device-0"])
    }

    func testARemovalKeepsTheDevicesItIsToldToKeep() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let tablet = try device("tablet")
        let synchronizers = try circle([laptop, phone])
        let kept = try join(tablet, as: "tablet", approvedBy: synchronizers[1])
        XCTAssertEqual(
            try synchronizers[0].removeDevice("device-1", keeping: ["tablet"]).map(\.name).sorted(),
            ["device-0", "tablet"])
        try laptop.add(password("after", "removal", "for the tablet"))
        try synchronizers[0].syncNow()
        try kept.syncNow()
        XCTAssertEqual(try passwords(tablet)["after/removal"], "for the tablet")
        let laptopID = try XCTUnwrap(SyncStateStore.load(from: laptop)).deviceID
        XCTAssertEqual(
            try kept.status().members.first { $0.name == "tablet" }?.approvedBy, laptopID,
            "the remover vouches for it now")
        assertSyncError(
            .invalidState, try synchronizers[0].removeDevice("tablet", keeping: ["device-0"]),
            "only devices admitted through the removed one can be kept")
    }

    func testAnAdmissionInAnotherMembersNameIsRefused() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, phone])
        try synchronizers[0].syncNow()
        let state = try XCTUnwrap(SyncStateStore.load(from: phone))
        let key = try XCTUnwrap(state.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: state.circleID)
        let roster = try connection.roster(key: key, continuing: nil)
        // The phone holds the circle key and writes an admission that says the laptop made it.
        var forged = roster.nextEvent(
            .admitted, author: try XCTUnwrap(SyncStateStore.load(from: laptop)).deviceID, subject: UUID())
        (forged.signingKey, forged.agreementKey, forged.name) = (
            Curve25519.Signing.PrivateKey().publicKey.rawRepresentation,
            Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation, "sleeper"
        )
        try forged.sign(with: state.signingKey, circleID: state.circleID)
        XCTAssertTrue(try connection.appendRosterEvent(at: forged.position, body: forged.sealed(key: key)))
        assertSyncError(.tampered, try synchronizers[0].syncNow())
        assertSyncError(.tampered, try synchronizers[0].status())
        assertSyncError(
            .tampered, try synchronizers[0].removeDevice("device-1"),
            "nothing is decided on a roster that fails verification")
    }

    func testARemovedDeviceAndTheServerCannotHandOutANextKey() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        try laptop.add(password("before", "removal", "known to all"))
        let synchronizers = try circle([laptop, phone])
        try synchronizers[1].syncNow()
        let thief = try XCTUnwrap(SyncStateStore.load(from: phone))
        let oldKey = try XCTUnwrap(thief.currentKey)
        let seen = try SyncServer.connect(postgres.connectionString, circleID: thief.circleID).roster(
            key: oldKey, continuing: nil)

        try synchronizers[0].removeDevice("device-1")
        let owner = try XCTUnwrap(SyncStateStore.load(from: laptop))
        // The thief and the server: a roster in which the phone removed the laptop instead, a
        // generation-2 key of the thief's making signed by the phone and wrapped to the laptop,
        // and an empty circle under it.
        var forged = seen
        var removal = forged.nextEvent(.removed, author: thief.deviceID, subject: owner.deviceID)
        removal.newGeneration = 1
        try removal.sign(with: thief.signingKey, circleID: thief.circleID)
        try forged.apply(removal)
        let forgedKey = CircleKey(circleID: thief.circleID, generation: 2, secret: SymmetricKey(size: .bits256))
        let connection = try SyncServer.connect(postgres.connectionString, circleID: thief.circleID)
        try connection.replaceRoster(forged, key: forgedKey)
        let wrap = try KeyWrap.wrap(
            forgedKey, counterFloor: 0, to: owner.agreementKey.publicKey, device: owner.deviceID,
            signedBy: thief.signingKey)
        try connection.writeKeyWrap(owner.deviceID, generation: 2, body: wrap)
        let manifest = Manifest(
            counter: 1000, generation: 2, digest: SetDigest(), recordCount: 0, author: thief.deviceID)
        try postgres.psql(
            "UPDATE keychain_sync_manifests SET counter = 1000, body = '\\x\(hex(manifest.sealed(key: forgedKey)))' WHERE circle_id = '\(thief.circleID)'"
        )
        try postgres.psql("DELETE FROM keychain_sync_records WHERE circle_id = '\(thief.circleID)'")
        try laptop.add(password("written", "after", "must-not-leak"))

        assertSyncError(.tampered, try synchronizers[0].syncNow())
        XCTAssertEqual(try XCTUnwrap(SyncStateStore.load(from: laptop)).entriesGeneration, 1, "the laptop kept its key")
        XCTAssertEqual(
            try postgres.psql("SELECT count(*) FROM keychain_sync_records WHERE circle_id = '\(thief.circleID)'")
                .trimmingCharacters(in: .whitespacesAndNewlines), "0", "nothing was uploaded under the thief's key")
        XCTAssertEqual(
            try passwords(laptop), ["before/removal": "known to all", "written/after": "must-not-leak"],
            "nothing was applied")
    }

    func testARosterCutShortOrAlteredIsCaught() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, server, phone])
        try synchronizers[0].syncNow()
        let circleID = try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID
        let last = try postgres.psql(
            "SELECT encode(body, 'hex') FROM keychain_sync_roster WHERE circle_id = '\(circleID)' AND position = 2"
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        try postgres.psql("DELETE FROM keychain_sync_roster WHERE circle_id = '\(circleID)' AND position = 2")
        assertSyncError(
            .tampered, try synchronizers[0].syncNow(), "the admission of the phone was withdrawn from the history")
        let first = try postgres.psql(
            "SELECT encode(body, 'hex') FROM keychain_sync_roster WHERE circle_id = '\(circleID)' AND position = 1"
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        try postgres.psql("INSERT INTO keychain_sync_roster VALUES ('\(circleID)', 2, '\\x\(first)')")
        assertSyncError(.tampered, try synchronizers[0].syncNow(), "an event moved to another position")
        try postgres.psql(
            "UPDATE keychain_sync_roster SET body = '\\x\(last)' WHERE circle_id = '\(circleID)' AND position = 2")
        XCTAssertNoThrow(try synchronizers[0].syncNow(), "the real history verifies again")
        XCTAssertEqual(try synchronizers[0].status().members.count, 3)
    }

    func testAJoinRequestWithOtherKeysMatchesNoApprovalCode() throws {
        let laptop = try device("laptop")
        let newcomer = try device("newcomer")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: newcomer)
        let approval = try joiner.requestToJoin(
            server: postgres.connectionString, circleCode: code, deviceName: "newcomer")
        let state = try XCTUnwrap(SyncStateStore.load(from: newcomer))
        // The server puts a signing key of its own into the filed request.
        let substitute = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation
        try postgres.psql(
            "UPDATE keychain_sync_requests SET body = overlay(body placing '\\x\(hex(substitute))' from 33 for 32) WHERE request_id = '\(state.deviceID)'"
        )
        assertSyncError(.invalidCode, try founder.approve(approval))
        XCTAssertEqual(try founder.status().members.count, 1)
    }

    func testADeviceThatLeavesKeepsTheDevicesItAdmitted() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let tablet = try device("tablet")
        let synchronizers = try circle([laptop, phone])
        let staying = try join(tablet, as: "tablet", approvedBy: synchronizers[1])
        let phoneID = try XCTUnwrap(SyncStateStore.load(from: phone)).deviceID
        try synchronizers[1].leave()
        XCTAssertNil(try SyncStateStore.load(from: phone), "the phone forgot the circle")
        let status = try synchronizers[0].status()
        XCTAssertEqual(status.members.map(\.name), ["device-0", "tablet"])
        XCTAssertEqual(status.departed.map(\.name), ["device-1"])
        XCTAssertEqual(status.members.last?.approvedBy, phoneID, "still vouched for by the device that left")
        try laptop.add(password("after", "leaving", "still shared"))
        try synchronizers[0].syncNow()
        try staying.syncNow()
        XCTAssertEqual(try passwords(tablet)["after/leaving"], "still shared")
    }
}
