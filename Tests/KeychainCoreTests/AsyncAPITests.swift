import Foundation
import XCTest
import AuthenticationTestSupport
@testable import KeychainCore

/// The `async` calls: many concurrent readers in a task group, and work that may wait for the
/// user runs off the caller's executor.
final class AsyncAPITests: XCTestCase {
    func testManyConcurrentReadersInATaskGroup() async throws {
        let test = try TestKeychain()
        for index in 0..<40 { try test.keychain.add(password("svc", "acct-\(index)", "secret-\(index)")) }
        try test.keychain.setPassphrase("pass")
        let keychain = try test.openAnother()
        try await keychain.unlock(passphrase: "pass")
        XCTAssertEqual(keychain.lockState, .unlocked)
        let results = try await withThrowingTaskGroup(of: (Int, Data?).self) { group in
            for round in 0..<400 {
                group.addTask {
                    let index = round % 40
                    return (index, try await keychain.findFirst(query("svc", "acct-\(index)"), returning: .data)?.data)
                }
            }
            var results: [(Int, Data?)] = []
            for try await result in group { results.append(result) }
            return results
        }
        XCTAssertEqual(results.count, 400)
        for (index, data) in results { XCTAssertEqual(data, Data("secret-\(index)".utf8)) }
        do {
            try await keychain.unlock(passphrase: "wrong")
            XCTFail("a wrong passphrase unlocked")
        } catch {
            XCTAssertEqual(error.code, .authFailed, "typed errors come through")
        }
    }

    /// A cancelled task's call does not start: userCanceled, nothing read, nothing unlocked.
    func testACancelledTaskStartsNoKeychainCall() async throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "secret"))
        try test.keychain.setPassphrase("pass")
        let keychain = try test.openAnother()
        let codes = await Task { () async -> [KeychainError.Code?] in
            withUnsafeCurrentTask { $0?.cancel() }
            var codes: [KeychainError.Code?] = []
            do throws(KeychainError) {
                _ = try await keychain.findFirst(query("svc", "acct"), returning: .data)
                codes.append(nil)
            } catch { codes.append(error.code) }
            do throws(KeychainError) {
                try await keychain.unlock(passphrase: "pass")
                codes.append(nil)
            } catch { codes.append(error.code) }
            return codes
        }.value
        XCTAssertEqual(codes, [.userCanceled, .userCanceled], "neither call ran")
        XCTAssertNotEqual(keychain.lockState, .unlocked)
    }

    /// A prompt for a protected item, asked from the main actor, is not on the main thread.
    @MainActor
    func testAPromptAskedFromTheMainActorRunsOffIt() async throws {
        let test = try TestKeychain()
        let authenticator = ThreadRecordingAuthenticator()
        test.keychain.authenticator = authenticator
        try authenticator.scripted.enroll(in: test.keychain)
        try test.keychain.add(password("svc", "protected").protected(by: AccessPolicy(flags: [.userPresence])))
        let found = try await test.keychain.find(query("svc", "protected", limit: .one), returning: .data)
        XCTAssertEqual(found.first?.data, Data("s3cret".utf8))
        XCTAssertEqual(authenticator.promptedOnMainThread, [false])
    }
}

/// Answers like ``ScriptedAuthenticator`` and records whether each prompt ran on the main thread.
private final class ThreadRecordingAuthenticator: Authenticator, @unchecked Sendable {
    let scripted = ScriptedAuthenticator()
    private let lock = NSLock()
    private var threads: [Bool] = []
    var promptedOnMainThread: [Bool] { lock.withLock { threads } }
    var availableMethods: Set<AuthenticationMethod> { scripted.availableMethods }
    var enrollmentState: Data? { scripted.enrollmentState }
    func enrollmentIdentifier(for method: AuthenticationMethod) -> Data? { scripted.enrollmentIdentifier(for: method) }
    func authenticate(_ request: AuthenticationRequest) -> AuthenticationOutcome {
        lock.withLock { threads.append(Thread.isMainThread) }
        return scripted.authenticate(request)
    }
}
