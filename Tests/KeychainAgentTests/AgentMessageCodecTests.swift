import Foundation
import XCTest

@testable import KeychainCore

/// The agent protocol's frames: every request and reply survives a round trip, and every
/// truncation, extension or corruption of one is refused with a precise error, never a crash or
/// a different message.
final class AgentMessageCodecTests: XCTestCase {
    private let requests: [AgentRequest] = [
        .status, .unlock(passphrase: "pässphrase", seconds: 900), .unlock(passphrase: "p", seconds: nil), .lock,
        .ticket, .waitForUnlock(milliseconds: 1500), .servePrompts,
        .promptAnswer(id: 7, passphrase: "pässphrase", seconds: 60), .promptAnswer(id: 8, passphrase: "", seconds: nil),
        .promptDecline(id: .max), .requestUnlock(reason: "python3 (pid 4242)", milliseconds: 30_000),
        .requestUnlock(reason: "", milliseconds: 0)
    ]
    private let replies: [AgentReply] = [
        .status(
            AgentStatus(
                pid: 42, since: Date(timeIntervalSince1970: 1_700_000_000), lockState: .unlocked,
                sessionExpiry: Date(timeIntervalSince1970: 1_700_000_900), databasePath: "/home/a/keychain.db")),
        .done, .ticket(Data(repeating: 7, count: 105)), .ticket(nil), .unlocked(true), .unlocked(false),
        .failure(code: "authFailed", message: "The passphrase is not correct."),
        .prompt(id: 3, reason: "python3 (pid 4242)"), .promptClosed(id: 3, .unlocked),
        .promptClosed(id: 4, .tooManyAttempts)
    ]

    /// A reason over 256 bytes is cut on a character boundary when sent; one over 256 bytes in a
    /// frame is refused; a closing byte outside the defined ones is refused.
    func testReasonsAreBoundedAndUnknownClosingsRefused() throws {
        let long = String(repeating: "é", count: 200)  // 400 bytes
        guard
            case .requestUnlock(let reason, _) = try AgentRequest.decode(
                AgentRequest.requestUnlock(reason: long, milliseconds: 1).encoded().data)
        else { return XCTFail("not a requestUnlock") }
        XCTAssertEqual(reason, String(repeating: "é", count: 128))
        var oversized = Data([1, 9, 0, 0, 0, 1, 0, 0, 1, 1])
        oversized.append(Data(repeating: 0x61, count: 257))
        XCTAssertThrowsError(try AgentRequest.decode(oversized)) { error in
            XCTAssertTrue("\(error)".contains("requestUnlock request"), "\(error)")
        }
        XCTAssertThrowsError(try AgentReply.decode(Data([1, 7, 0, 0, 0, 0, 0, 0, 0, 1, 9]))) { error in
            XCTAssertTrue("\(error)".contains("promptClosed reply"), "\(error)")
        }
    }

    func testEveryMessageRoundTrips() throws {
        for request in requests { XCTAssertEqual(try AgentRequest.decode(request.encoded().data), request) }
        for reply in replies { XCTAssertEqual(try AgentReply.decode(reply.encoded().data), reply) }
    }

    func testEveryTruncationAndExtensionIsRefused() {
        for request in requests {
            let bytes = request.encoded().data
            for length in 0..<bytes.count {
                XCTAssertThrowsError(try AgentRequest.decode(bytes.prefix(length)), "\(request) cut to \(length)")
            }
            XCTAssertThrowsError(try AgentRequest.decode(bytes + Data([0])), "\(request) with a trailing byte")
        }
        for reply in replies {
            let bytes = reply.encoded().data
            for length in 0..<bytes.count {
                XCTAssertThrowsError(try AgentReply.decode(bytes.prefix(length)), "\(reply) cut to \(length)")
            }
            XCTAssertThrowsError(try AgentReply.decode(bytes + Data([0])), "\(reply) with a trailing byte")
        }
    }

    func testAnotherVersionAnUnknownKindAndAnOversizedPassphraseAreRefusedPrecisely() {
        XCTAssertThrowsError(try AgentRequest.decode(Data([2, 1]))) { error in
            XCTAssertEqual((error as? KeychainError)?.code, .unsupportedVersion)
            XCTAssertTrue("\(error)".contains("protocol version 2"), "\(error)")
        }
        XCTAssertThrowsError(try AgentRequest.decode(Data([1, 99]))) { error in
            XCTAssertEqual((error as? KeychainError)?.code, .invalidParameter)
        }
        let long = AgentRequest.unlock(passphrase: String(repeating: "x", count: 4097), seconds: nil).encoded().data
        XCTAssertThrowsError(try AgentRequest.decode(long)) { error in
            XCTAssertTrue("\(error)".contains("unlock request"), "\(error)")
            XCTAssertFalse("\(error)".contains("xxxx"), "no passphrase in the message")
        }
    }

    func testRandomBytesNeverDecodeToSomethingElseOrCrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let bytes = Data((0..<Int.random(in: 0..<40, using: &generator)).map { _ in UInt8.random(in: 0...255) })
            if let request = try? AgentRequest.decode(bytes) {
                XCTAssertEqual(request.encoded().data, bytes, "only a canonical encoding decodes")
            }
            if let reply = try? AgentReply.decode(bytes) {
                XCTAssertEqual(reply.encoded().data, bytes, "only a canonical encoding decodes")
            }
        }
    }
}
