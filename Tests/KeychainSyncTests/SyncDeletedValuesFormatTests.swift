import Crypto
import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// The encodings of the circle's remembered deleted values: the list itself, its sealed form on
/// the server, the manifest that names it, and the sync state that keeps it, which a device
/// upgraded from the previous version must still read.
final class SyncDeletedValuesFormatTests: XCTestCase {
    private func digest(_ index: Int) -> Data {
        Data(SHA256.hash(data: withUnsafeBytes(of: index) { Data($0) }).prefix(16))
    }

    private func state() -> SyncState {
        let circleID = UUID()
        let entry = SyncState.Entry(
            version: 3, digest: digest(-1), accessibility: .afterFirstUnlock, isTombstone: false, writtenAt: 2)
        return SyncState(
            circleID: circleID, deviceID: UUID(), deviceName: "laptop", server: "host=db", agreementKey: .init(),
            signingKey: .init(),
            keys: [0: CircleKey.random(circleID: circleID)], verifiedCounter: 7, pulledSequence: 5,
            entriesGeneration: 0,
            entries: [digest(-2): entry], lastSync: 1)
    }

    /// A state that remembers no deleted value is written exactly as the previous version wrote
    /// it (format 2), so a member's state from before the upgrade reads, and the other way round.
    func testAStateWithoutDeletedValuesKeepsThePreviousEncoding() throws {
        let original = state()
        let encoded = original.encoded
        XCTAssertEqual(encoded.first, 2)
        let decoded = try XCTUnwrap(SyncState(encoded: encoded))
        XCTAssertEqual(decoded.entries, original.entries)
        XCTAssertEqual(decoded.verifiedCounter, 7)
        XCTAssertTrue(decoded.deletedValues.isEmpty)
        XCTAssertEqual(decoded.deletedValuesHash, DeletedValues.noHash)
    }

    func testAStateWithDeletedValuesRoundTrips() throws {
        var original = state()
        original.deletedValues.remember([digest(1), digest(2)])
        original.deletedValuesHash = Data(repeating: 9, count: 32)
        let encoded = original.encoded
        XCTAssertEqual(encoded.first, 3)
        let decoded = try XCTUnwrap(SyncState(encoded: encoded))
        XCTAssertEqual(decoded.deletedValues, original.deletedValues)
        XCTAssertEqual(decoded.deletedValuesHash, original.deletedValuesHash)
        XCTAssertEqual(decoded.entries, original.entries)
        XCTAssertNil(SyncState(encoded: encoded.dropLast()))
        XCTAssertEqual(
            encoded.count - state().encoded.count, 4 + 32 + 4 + 4 + 2 * 16,
            "16 bytes per remembered deletion, plus a fixed 44")
    }

    /// At most ``DeletedValues/capacity`` values: the oldest compacted is forgotten first;
    /// duplicates and the zeros of deletions that named no value are not remembered.
    func testTheListKeepsTheNewestValuesUpToItsCapacity() throws {
        var values = DeletedValues()
        values.remember([digest(0), digest(0), Data(count: 16)])
        XCTAssertEqual(values.digests, [digest(0)])
        values.remember((1...DeletedValues.capacity).map { digest($0) })
        XCTAssertEqual(values.digests.count, DeletedValues.capacity)
        XCTAssertFalse(values.contains(digest(0)), "the oldest went first")
        XCTAssertTrue(values.contains(digest(1)))
        XCTAssertTrue(values.contains(digest(DeletedValues.capacity)))
        XCTAssertEqual(values.encoded.count, 4 + 16 * DeletedValues.capacity)
        XCTAssertEqual(DeletedValues(encoded: values.encoded), values)
    }

    /// A manifest that names no deleted values is written in the previous format (108 bytes);
    /// one that does, in the new one (140). Stripping the hash does not pass for the old format.
    func testAManifestNamesItsDeletedValuesOnlyInTheNewFormat() throws {
        let key = CircleKey.random(circleID: UUID())
        var manifest = Manifest(counter: 3, generation: 0, digest: SetDigest(), recordCount: 1, author: UUID())
        let plain = manifest.sealed(key: key)
        XCTAssertEqual(plain.count, 108)
        XCTAssertEqual(try Manifest.open(plain, counter: 3) { _ in key }, manifest)

        manifest.deletedValuesHash = Data(repeating: 7, count: 32)
        let named = manifest.sealed(key: key)
        XCTAssertEqual(named.count, 140)
        XCTAssertEqual(Manifest.claimedDeletedValuesHash(of: named), manifest.deletedValuesHash)
        XCTAssertEqual(try Manifest.open(named, counter: 3) { _ in key }, manifest)

        let stripped = named.prefix(76) + named.suffix(32)
        XCTAssertThrowsError(try Manifest.open(Data(stripped), counter: 3) { _ in key }) { error in
            XCTAssertEqual((error as? SyncError)?.code, .tampered)
        }
    }

    /// The sealed list opens only as the body its manifest names, under its own circle's key.
    func testASealedListOpensOnlyUnderItsCircleAndHash() throws {
        let key = CircleKey.random(circleID: UUID())
        var values = DeletedValues()
        values.remember([digest(1), digest(2)])
        let body = try values.sealed(key: key)
        XCTAssertEqual(body.count, 4 + 12 + 4 + 2 * 16 + 16)
        XCTAssertEqual(try DeletedValues.open(body, hash: DeletedValues.hash(of: body), key: key), values)
        XCTAssertEqual(try DeletedValues.open(nil, hash: DeletedValues.noHash, key: key), DeletedValues())

        let otherCircle = CircleKey.random(circleID: UUID())
        let cases: [(Data?, Data, CircleKey)] = [
            (nil, DeletedValues.hash(of: body), key),  // dropped
            (try values.sealed(key: key), DeletedValues.hash(of: body), key),  // another body
            (body, DeletedValues.hash(of: body), otherCircle)  // another circle
        ]
        for (candidate, hash, key) in cases {
            XCTAssertThrowsError(try DeletedValues.open(candidate, hash: hash, key: key)) { error in
                XCTAssertEqual((error as? SyncError)?.code, .tampered)
            }
        }
    }
}
