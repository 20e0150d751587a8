#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Issue 35: `keychain sync` as scripts, systemd units and people use it.
final class SyncToolTests: SyncToolTestCase {
    // MARK: - §1 Output reaches a pipe when written

    /// Standard output into a pipe is block-buffered unless the tool says otherwise: a `join`
    /// under a script showed its approval code only after it stopped waiting for the approval
    /// that code was needed for.
    func testJoinShowsItsApprovalCodeInAPipeWhileItWaits() throws {
        let code = try createCircle("laptop")
        let join = try start(
            "phone",
            [
                "sync", "join", "--server", postgres.connectionString, "--circle", code, "--name", "phone", "--wait",
                "120"
            ])
        defer { if join.process.isRunning { join.signal(SIGKILL) } }
        let approval = try XCTUnwrap(
            join.waitForOutput(timeout: 60, Self.approvalCode(in:)),
            "no approval code in the pipe: \(join.stdout) \(join.stderr)")
        XCTAssertTrue(join.process.isRunning, "the code was read while join waited")
        XCTAssertTrue(
            join.stdout.contains("On a device of the circle, run `keychain sync approve` and type:\n  \(approval)\n"),
            join.stdout)

        let approved = try tool("laptop", ["sync", "approve"], input: approval + "\n")
        XCTAssertEqual(approved.status, 0, approved.stderr)
        let joined = join.finish()
        XCTAssertEqual(joined.status, 0, joined.stderr)
        XCTAssertTrue(joined.stdout.hasSuffix("Joined the circle; synchronizable items are synced.\n"), joined.stdout)
    }

    /// `sync watch` ("for a server, a systemd unit") wrote nothing into a pipe or the journal until it exited.
    func testWatchWritesEachSyncsLineWhileItRuns() throws {
        _ = try createCircle("laptop")
        for (arguments, expected) in [
            ([String](), "synced: 0 applied, 0 pushed, counter "), (["--json"], "{\"applied\":0,\"pushed\":0,")
        ] {
            let watch = try start("laptop", ["sync", "watch", "--interval", "3600"] + arguments)
            defer { if watch.process.isRunning { watch.signal(SIGKILL) } }
            let line = watch.waitForOutput(timeout: 60) { output in
                output.firstIndex(of: "\n").map { String(output[..<$0]) }
            }
            XCTAssertTrue(line?.hasPrefix(expected) == true, "first line \(line ?? "none"); stderr: \(watch.stderr)")
            XCTAssertTrue(watch.process.isRunning, "the line was read while watch ran")
            watch.signal(SIGTERM)
            let stopped = watch.finish()
            XCTAssertEqual(stopped.status, 0, stopped.stderr)
        }
    }

    // MARK: - §2 Typos are refused before anything is sent

    func testATypoIsRefusedByJoinAndByApproveWithAMessageAboutIt() throws {
        let code = try createCircle("laptop")
        let requests = try rows("keychain_sync_requests")
        let roster = try rows("keychain_sync_roster")
        let typo = try XCTUnwrap(CodeTypos.of(code).randomElement())
        let refused = try tool(
            "phone",
            ["sync", "join", "--server", postgres.connectionString, "--circle", typo, "--name", "phone", "--wait", "0"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "keychain: invalidCode: The circle code has a typo: its last group, a check over the rest, does not match (a character mistyped, or two swapped). Nothing was sent to the server."
            ), refused.stderr)
        XCTAssertEqual(try rows("keychain_sync_requests"), requests, "no request was filed")

        let waiting = try tool(
            "phone",
            ["sync", "join", "--server", postgres.connectionString, "--circle", code, "--name", "phone", "--wait", "0"])
        let approval = try XCTUnwrap(Self.approvalCode(in: waiting.stdout), waiting.stdout)
        let mistyped = try XCTUnwrap(CodeTypos.of(approval).randomElement())
        let notApproved = try tool("laptop", ["sync", "approve"], input: mistyped + "\n")
        XCTAssertEqual(notApproved.status, 65, notApproved.stderr)
        XCTAssertTrue(
            notApproved.stderr.contains(
                "keychain: invalidCode: The approval code has a typo: its last group, a check over the rest, does not match (a character mistyped, or two swapped). Nothing was sent to the server and nothing was approved."
            ), notApproved.stderr)
        XCTAssertFalse(notApproved.stderr.contains(CircleCode.normalized(mistyped)), "the code is not repeated")
        XCTAssertEqual(try rows("keychain_sync_roster"), roster, "no roster entry was added")
        XCTAssertEqual(try tool("laptop", ["sync", "approve"], input: approval + "\n").status, 0)
    }

    // MARK: - §4 Names, and a join not approved yet

    func testApprovePrintsTheNewDevicesNameMadeSafe() throws {
        let code = try createCircle("laptop")
        let name = "phone\u{1B}]0;pwned\u{07}\u{202E}x"
        let joiner = KeychainSynchronizer(keychain: try device("phone"))
        let approval = try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: name)
        let approved = try tool("laptop", ["sync", "approve"], input: approval + "\n")
        XCTAssertEqual(approved.status, 0, approved.stderr)
        let deviceID = try XCTUnwrap(SyncStateStore.load(from: joiner.keychain)).deviceID.uuidString.lowercased()
        XCTAssertEqual(approved.stdout, "Approved device phone?]0;pwned??x (\(deviceID)).\n")
    }

    /// `join --wait 0` exited 44, "item not found", for a request simply not approved yet.
    func testAJoinNotApprovedYetExitsWithItsOwnStatus() throws {
        let code = try createCircle("laptop")
        let waiting = try tool(
            "phone",
            ["sync", "join", "--server", postgres.connectionString, "--circle", code, "--name", "phone", "--wait", "0"])
        XCTAssertEqual(waiting.status, 75, waiting.stderr)
        XCTAssertNotNil(Self.approvalCode(in: waiting.stdout), waiting.stdout)
        XCTAssertTrue(
            waiting.stdout.hasSuffix(
                "Not approved yet (waited 0 s): once a member ran `keychain sync approve` with the approval code, run `keychain sync join` again to finish joining.\n"
            ), waiting.stdout)

        let json = try tool("phone", ["sync", "join", "--wait", "0", "--json"])
        XCTAssertEqual(json.status, 75, json.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(object?["joined"] as? Bool, false, json.stdout)
    }

    /// `--name` was ignored after an interrupted join: the request kept its first name.
    func testJoiningAgainWithAnotherNameFilesTheRequestUnderIt() throws {
        let code = try createCircle("laptop")
        let openRequests = try rows("keychain_sync_requests WHERE answer IS NULL")
        let join = ["sync", "join", "--server", postgres.connectionString, "--circle", code, "--wait", "0"]
        let first = try XCTUnwrap(Self.approvalCode(in: try tool("phone", join + ["--name", "first"]).stdout))
        let second = try XCTUnwrap(Self.approvalCode(in: try tool("phone", join + ["--name", "second"]).stdout))
        XCTAssertNotEqual(first, second, "a new request, with a new approval code")
        XCTAssertEqual(
            Self.approvalCode(in: try tool("phone", join).stdout), second,
            "without --name the waiting request stays as it is")
        // Without --circle too.
        let third = try XCTUnwrap(
            Self.approvalCode(in: try tool("phone", ["sync", "join", "--name", "third", "--wait", "0"]).stdout))
        XCTAssertNotEqual(third, second)
        XCTAssertEqual(
            try rows("keychain_sync_requests WHERE answer IS NULL"), openRequests + 1,
            "the earlier requests were withdrawn")
        XCTAssertTrue(
            try tool("phone", ["sync", "status"]).stdout.hasPrefix("Waiting for approval to join the circle as third: ")
        )

        for withdrawn in [first, second] {
            let refused = try tool("laptop", ["sync", "approve"], input: withdrawn + "\n")
            XCTAssertEqual(refused.status, 65, "a withdrawn request cannot be approved: \(refused.stderr)")
        }
        let approved = try tool("laptop", ["sync", "approve"], input: third + "\n")
        XCTAssertTrue(approved.stdout.hasPrefix("Approved device third ("), approved.stdout)

        // Approved: the name can no longer change, and the join finishes under it.
        let late = try tool("phone", ["sync", "join", "--name", "fourth", "--wait", "0"])
        XCTAssertEqual(late.status, 1, late.stderr)
        XCTAssertTrue(late.stderr.contains("A member already approved this device's join request"), late.stderr)
        let finished = try tool("phone", ["sync", "join", "--wait", "30"])
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertEqual(try memberNames("laptop"), ["laptop", "third"])
    }

    /// Every keychain on one host was called by the host name, so `status` and `remove` could
    /// not tell two apart.
    func testDefaultDeviceNamesDifferOnOneHost() throws {
        let code = try createCircle("laptop", name: nil)
        let waiting = try tool(
            "phone", ["sync", "join", "--server", postgres.connectionString, "--circle", code, "--wait", "0"])
        let approval = try XCTUnwrap(Self.approvalCode(in: waiting.stdout), waiting.stdout)
        XCTAssertEqual(try tool("laptop", ["sync", "approve"], input: approval + "\n").status, 0)
        XCTAssertEqual(try tool("phone", ["sync", "join", "--wait", "30"]).status, 0)

        let names = try memberNames("laptop")
        XCTAssertEqual(names.count, 2)
        XCTAssertEqual(Set(names).count, 2, "distinct: \(names)")
        let host = ProcessInfo.processInfo.hostName
        for name in names {
            XCTAssertTrue(name.hasPrefix(host + "-"), name)
            XCTAssertEqual(name.count, host.count + 5, name)
            XCTAssertTrue(name.suffix(4).allSatisfy { $0.isLowercase || ("2"..."7").contains($0) }, name)
        }
    }
}
