import Crypto
import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Attacks by a member about to be removed (lost or stolen), alone or with the server, from the
/// review of the signed roster; and the honest cases the first roster got wrong.
final class SyncMemberAttackTests: SyncTestCase {
    func testAStolenDeviceThatLeavesCanStillBeRemovedAndLosesTheKey() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, phone])
        try synchronizers[1].syncNow()
        // The thief copies the phone's state (its keys) and signs a departure instead of waiting to be removed.
        let thief = try XCTUnwrap(SyncStateStore.load(from: phone))
        let key = try XCTUnwrap(thief.currentKey)
        try synchronizers[1].leave()
        XCTAssertEqual(
            try synchronizers[0].status().departed.map(\.name), ["device-1"],
            "the owner sees a device that left still knowing the key")

        XCTAssertEqual(try synchronizers[0].removeDevice("device-1").map(\.name), ["device-0"])
        try laptop.add(password("after", "theft", "new-secret"))
        try synchronizers[0].syncNow()
        let connection = try SyncServer.connect(postgres.connectionString, circleID: thief.circleID)
        let opened = try connection.allRecords().compactMap {
            try? RecordSealer.open($0.body, recordID: $0.recordID, version: $0.version, key: key)
        }
        XCTAssertTrue(opened.isEmpty, "nothing written after the removal opens with the key the thief kept")
        XCTAssertTrue(try synchronizers[0].status().departed.isEmpty)
    }

    func testDevicesAStolenOneAdmittedAreNotLaunderedByItsLeaving() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let planted = try device("planted")
        let synchronizers = try circle([laptop, phone])
        let sleeper = try join(planted, as: "printer", approvedBy: synchronizers[1])
        let phoneID = try XCTUnwrap(SyncStateStore.load(from: phone)).deviceID
        try synchronizers[1].leave()
        let printer = try XCTUnwrap(try synchronizers[0].status().members.first { $0.name == "printer" })
        XCTAssertEqual(printer.approvedBy, phoneID, "still vouched for by the device that left")

        try synchronizers[0].removeDevice("device-1")
        try laptop.add(password("after", "removal", "not for the sleeper"))
        try synchronizers[0].syncNow()
        assertSyncError(.removed, try sleeper.syncNow())
        XCTAssertNil(try passwords(planted)["after/removal"])
        XCTAssertEqual(try synchronizers[0].status().members.map(\.name), ["device-0"])
    }

    func testAPlantedDeviceThatRemovesItsApproverShowsAndCanBeRemoved() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let planted = try device("planted")
        let synchronizers = try circle([laptop, phone])
        let sleeper = try join(planted, as: "printer", approvedBy: synchronizers[1])
        let phoneID = try XCTUnwrap(SyncStateStore.load(from: phone)).deviceID
        // The thief's device removes the stolen phone first, to cut itself loose from it.
        try sleeper.removeDevice(phoneID.uuidString)
        try synchronizers[0].syncNow()
        let status = try synchronizers[0].status()
        let printer = try XCTUnwrap(status.members.first { $0.name == "printer" })
        XCTAssertEqual(printer.approvedBy, phoneID)
        XCTAssertFalse(
            (status.members + status.departed).contains { $0.deviceID == phoneID },
            "vouched for by a removed device, which status shows")
        try synchronizers[0].removeDevice("printer")
        try laptop.add(password("after", "removal", "not for the sleeper"))
        try synchronizers[0].syncNow()
        assertSyncError(.removed, try sleeper.syncNow())
        XCTAssertNil(try passwords(planted)["after/removal"])
    }

    func testADeletionNeverRemovesAnUpdateItDidNotSee() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("db", "root", "v0"))
        let synchronizers = try circle([laptop, server])
        let (a, b) = (synchronizers[0], synchronizers[1])
        try a.syncNow()
        try b.syncNow()
        let query = Query(.genericPassword, [.service: "db"], synchronizable: .yes)
        // The server rotates the database password offline; the laptop then syncs something else
        // (its last sync is now after the update) and deletes the value it has.
        try server.update(query, with: ItemChanges(data: Data("rotated-offline".utf8)))
        Thread.sleep(forTimeInterval: 0.05)
        try laptop.add(password("other", "item", "x"))
        try a.syncNow()
        try laptop.delete(query)
        try a.syncNow()
        try b.syncNow()
        try a.syncNow()
        XCTAssertEqual(try passwords(server)["db/root"], "rotated-offline")
        XCTAssertEqual(
            try passwords(laptop)["db/root"], "rotated-offline", "the value the deletion did not see came back")
    }

    func testAJoinFinishesWhenItsApproverLeftMeanwhile() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let newcomer = try device("newcomer")
        try laptop.add(password("shared", "item", "for the newcomer"))
        let synchronizers = try circle([laptop, phone])
        let code = try XCTUnwrap(synchronizers[1].status().circleCode)
        let joiner = KeychainSynchronizer(keychain: newcomer)
        try synchronizers[1].approve(
            joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "newcomer"))
        try synchronizers[1].leave()
        XCTAssertTrue(try joiner.finishJoining())
        XCTAssertEqual(try passwords(newcomer), ["shared/item": "for the newcomer"])
    }

    func testAJoinFinishesWhenTheCircleMovedToANewKeyMeanwhile() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let tablet = try device("tablet")
        let newcomer = try device("newcomer")
        try laptop.add(password("shared", "item", "for the newcomer"))
        let synchronizers = try circle([laptop, phone, tablet])
        let code = try XCTUnwrap(synchronizers[0].status().circleCode)
        let joiner = KeychainSynchronizer(keychain: newcomer)
        try synchronizers[0].approve(
            joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "newcomer"))
        try synchronizers[0].removeDevice("device-2")
        XCTAssertTrue(try joiner.finishJoining())
        XCTAssertEqual(
            try XCTUnwrap(SyncStateStore.load(from: newcomer)).entriesGeneration, 1, "it took the newest key")
        XCTAssertEqual(try passwords(newcomer), ["shared/item": "for the newcomer"])
        // Right after the removal, a member that has not synced yet is told to sync, not that it was tampered with.
        assertSyncError(.invalidState, try synchronizers[1].status())
        try synchronizers[1].syncNow()
        XCTAssertEqual(try synchronizers[1].status().members.count, 3)
    }

    func testTheServerCanOnlyClaimAMemberWasRemovedNotProveIt() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, phone])
        let circleID = try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID
        try postgres.psql(
            "UPDATE keychain_sync_manifests SET body = overlay(body placing '\\x00000009' from 9 for 4) WHERE circle_id = '\(circleID)'"
        )
        XCTAssertThrowsError(try synchronizers[1].syncNow()) { error in
            XCTAssertEqual((error as? SyncError)?.code, .removed)
            XCTAssertTrue("\(error)".contains("withholds"), "the message says the server may be withholding: \(error)")
        }
        XCTAssertEqual(try XCTUnwrap(SyncStateStore.load(from: phone)).entriesGeneration, 0, "nothing changed")
    }

    func testTheServerCannotRaiseANewDevicesCounterFloor() throws {
        let laptop = try device("laptop")
        let newcomer = try device("newcomer")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let circleID = try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID
        let joiner = KeychainSynchronizer(keychain: newcomer)
        let approval = try joiner.requestToJoin(
            server: postgres.connectionString, circleCode: code, deviceName: "newcomer")
        try postgres.psql("UPDATE keychain_sync_manifests SET counter = 1000000 WHERE circle_id = '\(circleID)'")
        assertSyncError(
            .tampered, try founder.approve(approval), "the counter column disagrees with the authenticated counter")
        try postgres.psql("UPDATE keychain_sync_manifests SET counter = 0 WHERE circle_id = '\(circleID)'")
        try founder.approve(approval)
        XCTAssertTrue(try joiner.finishJoining())
        XCTAssertLessThanOrEqual(try XCTUnwrap(SyncStateStore.load(from: newcomer)).verifiedCounter, 1)
    }

    func testAStaleCircleCodeDoesNotLetARemovedDeviceEnrolANewOne() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let runner = try device("runner")
        let synchronizers = try circle([laptop, phone])
        let staleCode = try XCTUnwrap(synchronizers[0].status().circleCode)  // e.g. in a provisioning script
        try synchronizers[1].syncNow()
        let thief = try XCTUnwrap(SyncStateStore.load(from: phone))
        let oldKey = try XCTUnwrap(thief.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: thief.circleID)
        let seen = try connection.roster(key: oldKey, continuing: nil)
        try synchronizers[0].removeDevice("device-1")

        try runner.add(password("ci", "deploy-token", "runner-secret"))
        let joiner = KeychainSynchronizer(keychain: runner)
        _ = try joiner.requestToJoin(server: postgres.connectionString, circleCode: staleCode, deviceName: "runner")
        let request = try XCTUnwrap(connection.openRequests().first)
        XCTAssertNil(
            JoinRequest(
                body: request.body, requestID: request.requestID, circleID: thief.circleID,
                approvalCode: CircleCode.newApprovalCode()),
            "the request opens only with the code the runner showed its user")
        // The thief and the server answer with what they can: the runner's public keys (in clear
        // in the request) admitted by the thief under the old key, without the approval code.
        try answerAsAttacker(
            request, from: seen, author: thief.deviceID, signingKey: thief.signingKey, key: oldKey,
            approvalCode: CircleCode.newApprovalCode(), on: connection)

        assertSyncError(.tampered, try joiner.finishJoining())
        XCTAssertFalse(try XCTUnwrap(SyncStateStore.load(from: runner)).isMember)
        let leaked = try connection.allRecords().compactMap {
            try? RecordSealer.open($0.body, recordID: $0.recordID, version: $0.version, key: oldKey)
        }
        XCTAssertFalse(leaked.contains { $0.item.data == Data("runner-secret".utf8) })
    }

    func testACounterAtTheLimitIsRefusedAndTheDeviceCanStillBeRemoved() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        try laptop.add(password("kept", "item", "survives"))
        let synchronizers = try circle([laptop, server, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let thief = try XCTUnwrap(SyncStateStore.load(from: phone))
        let key = try XCTUnwrap(thief.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: thief.circleID)
        let row = try XCTUnwrap(connection.manifest(forUpdate: false))
        var manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
        manifest.counter = .max
        try connection.writeManifest(counter: .max, body: manifest.sealed(key: key))
        try laptop.add(password("x", "y", "z"))
        assertSyncError(
            .tampered, try synchronizers[0].syncNow(), "a counter that would overflow is refused, not trapped on")
        assertSyncError(.tampered, try synchronizers[0].removeDevice("device-2"))

        try synchronizers[0].removeDevice("device-2", rebuilding: true)
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server), ["kept/item": "survives", "x/y": "z"])
        assertSyncError(.removed, try synchronizers[2].syncNow())
    }

    func testAManifestThatAddsUpToNothingCannotPreventARemoval() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        try laptop.add(password("a", "b", "c"))
        let synchronizers = try circle([laptop, server, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        // The server device changed an item offline; the thief damages the manifest.
        try server.update(
            Query(.genericPassword, [.service: "a"], synchronizable: .yes),
            with: ItemChanges(data: Data("changed offline".utf8)))
        let thief = try XCTUnwrap(SyncStateStore.load(from: phone))
        let key = try XCTUnwrap(thief.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: thief.circleID)
        let row = try XCTUnwrap(connection.manifest(forUpdate: false))
        var manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
        manifest.counter += 1
        manifest.digest = SetDigest()
        try connection.writeManifest(counter: manifest.counter, body: manifest.sealed(key: key))
        assertSyncError(.tampered, try synchronizers[0].removeDevice("device-2"))

        try synchronizers[0].removeDevice("device-2", rebuilding: true)
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertEqual(
            try passwords(laptop), ["a/b": "changed offline"],
            "the other member's change was pushed again under the new key")
        XCTAssertEqual(try passwords(server), ["a/b": "changed offline"])
        assertSyncError(.removed, try synchronizers[2].syncNow())
    }

    func testSomeoneWhoLearntTheApprovalCodeCannotLeadTheDeviceIntoAnotherCircle() throws {
        let laptop = try device("laptop")
        let newcomer = try device("newcomer")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: newcomer)
        let approval = try joiner.requestToJoin(
            server: postgres.connectionString, circleCode: code, deviceName: "newcomer")
        let waiting = try XCTUnwrap(SyncStateStore.load(from: newcomer))
        let connection = try SyncServer.connect(postgres.connectionString, circleID: waiting.circleID)
        let request = try XCTUnwrap(connection.openRequests().first)
        // With the approval code (read over a shoulder) and the database: a circle of their own
        // under the same id, founded and admitting the newcomer with keys of their own.
        let impostor = Curve25519.Signing.PrivateKey()
        let impostorAgreement = Curve25519.KeyAgreement.PrivateKey()
        let impostorID = UUID()
        let key = CircleKey.random(circleID: waiting.circleID)
        var roster = Roster(circleID: waiting.circleID)
        var founding = roster.nextEvent(.founded, author: impostorID, subject: impostorID)
        (founding.signingKey, founding.agreementKey, founding.name) = (
            impostor.publicKey.rawRepresentation, impostorAgreement.publicKey.rawRepresentation, "laptop"
        )
        try founding.sign(with: impostor, circleID: waiting.circleID)
        try roster.apply(founding)
        XCTAssertNotNil(
            JoinRequest(
                body: request.body, requestID: request.requestID, circleID: waiting.circleID, approvalCode: approval))
        try answerAsAttacker(
            request, from: roster, author: impostorID, signingKey: impostor, key: key, approvalCode: approval,
            on: connection)
        assertSyncError(.tampered, try joiner.finishJoining(), "the circle code names another history")
        XCTAssertFalse(try XCTUnwrap(SyncStateStore.load(from: newcomer)).isMember)
    }

    func testADeviceRemovedBeforeTheCircleCodeWasShownCannotAnswerAJoin() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let newcomer = try device("newcomer")
        let synchronizers = try circle([laptop, phone])
        try synchronizers[1].syncNow()
        let thief = try XCTUnwrap(SyncStateStore.load(from: phone))
        let oldKey = try XCTUnwrap(thief.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: thief.circleID)
        let seen = try connection.roster(key: oldKey, continuing: nil)
        try synchronizers[0].removeDevice("device-1")
        let code = try XCTUnwrap(synchronizers[0].status().circleCode)  // shown after the removal
        let joiner = KeychainSynchronizer(keychain: newcomer)
        let approval = try joiner.requestToJoin(
            server: postgres.connectionString, circleCode: code, deviceName: "newcomer")
        // The thief learnt the approval code and answers from the history it knew, under its old key.
        let request = try XCTUnwrap(connection.openRequests().first)
        XCTAssertNotNil(
            JoinRequest(
                body: request.body, requestID: request.requestID, circleID: thief.circleID, approvalCode: approval))
        try answerAsAttacker(
            request, from: seen, author: thief.deviceID, signingKey: thief.signingKey, key: oldKey,
            approvalCode: approval, on: connection)
        assertSyncError(
            .tampered, try joiner.finishJoining(), "the circle code names a history with the thief's removal in it")
    }

    /// An attacker's answer to a join request: `roster` plus an admission of the requesting
    /// device signed by `author`, sealed under `key` beside an empty manifest, and `key` wrapped
    /// to the device and signed by `author`, the answer MAC'd with `approvalCode` (learnt, or a guess).
    private func answerAsAttacker(
        _ request: (requestID: UUID, body: Data), from roster: Roster, author: UUID,
        signingKey: Curve25519.Signing.PrivateKey, key: CircleKey, approvalCode: String,
        on connection: SyncServer
    ) throws {
        // The public keys stand in clear at the start of the request; the name is sealed.
        let agreementKey = Data(request.body.prefix(32))
        let requestSigningKey = Data(request.body.dropFirst(32).prefix(32))
        var fork = roster
        var admission = fork.nextEvent(.admitted, author: author, subject: request.requestID)
        (admission.signingKey, admission.agreementKey, admission.name) = (requestSigningKey, agreementKey, "newcomer")
        try admission.sign(with: signingKey, circleID: roster.circleID)
        try fork.apply(admission)
        try connection.replaceRoster(fork, key: key)
        let manifest = Manifest(
            counter: 0, generation: key.generation, digest: SetDigest(), recordCount: 0, author: author)
        try connection.writeManifest(counter: 0, body: manifest.sealed(key: key))
        let wrap = try KeyWrap.wrap(
            key, counterFloor: 0, to: .init(rawRepresentation: agreementKey), device: request.requestID,
            signedBy: signingKey)
        try connection.answerRequest(
            request.requestID,
            answer: JoinRequest.answer(
                wrap: wrap, roster: fork.pin, circleID: roster.circleID,
                requestID: request.requestID, approvalCode: approvalCode))
    }
}
