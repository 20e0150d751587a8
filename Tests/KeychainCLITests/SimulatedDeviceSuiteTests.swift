import Foundation
import XCTest

/// A wrapper-style integration suite (`wrapper-style-suite`: SecItem and LocalAuthentication
/// calls only) runs unchanged under `KEYCHAIN_SIMULATED_DEVICE`, and each device answers as an
/// Apple device in that state does.
final class SimulatedDeviceSuiteTests: CLITestCase {
    private let suite = CLITestCase.builtExecutable("wrapper-style-suite")

    private func statuses(_ device: String) throws -> [String: Int32] {
        let result = try run([], input: Data(), executable: suite, changing: ["KEYCHAIN_SIMULATED_DEVICE": device])
        XCTAssertEqual(result.status, 0, result.stderr)
        return Self.parse(result.stdout)
    }

    private static func parse(_ output: String) -> [String: Int32] {
        var statuses: [String: Int32] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let status = Int32(parts[1]) { statuses[String(parts[0])] = status }
        }
        return statuses
    }

    func testAnApprovingUserWithPasscodeAndBiometry() throws {
        let statuses = try statuses("passcode,biometry=approve")
        XCTAssertEqual(statuses.count, 11, "\(statuses)")
        XCTAssertTrue(statuses.values.allSatisfy { $0 == 0 }, "everything succeeds: \(statuses)")
    }

    func testCancelAndDenyGiveApplesStatuses() throws {
        let canceled = try statuses("passcode,biometry=cancel")
        XCTAssertEqual(canceled["add-userPresence"], 0, "adding never asks")
        XCTAssertEqual(canceled["read-userPresence"], -128, "errSecUserCanceled")
        XCTAssertEqual(canceled["read-biometryCurrentSet"], -128)
        XCTAssertEqual(canceled["evaluate-deviceOwner"], -2, "LAError.userCancel")
        let denied = try statuses("passcode,biometry=deny")
        XCTAssertEqual(denied["read-userPresence"], -25293, "errSecAuthFailed")
        XCTAssertEqual(denied["evaluate-deviceOwner"], -1, "LAError.authenticationFailed")
    }

    func testADeviceWithoutPasscodeOrBiometry() throws {
        let none = try statuses("")
        XCTAssertEqual(none["read-whenUnlocked"], 0)
        XCTAssertEqual(none["add-passcodeSet"], -25293, "no passcode: passcode-set items cannot be added")
        XCTAssertEqual(none["add-userPresence"], -25293)
        XCTAssertEqual(none["canEvaluate-biometrics"], -5, "LAError.passcodeNotSet")
        let passcodeOnly = try statuses("passcode")
        XCTAssertEqual(passcodeOnly["read-userPresence"], 0, "the passcode satisfies user presence")
        XCTAssertEqual(passcodeOnly["add-biometryCurrentSet"], -25293, "no biometry enrolled")
        XCTAssertEqual(passcodeOnly["canEvaluate-biometrics"], -7, "LAError.biometryNotEnrolled")
        XCTAssertEqual(passcodeOnly["evaluate-deviceOwner"], 0)
    }

    func testALockedDevice() throws {
        let locked = try statuses("passcode,locked")
        XCTAssertEqual(locked["add-whenUnlocked"], -25308, "errSecInteractionNotAllowed")
        XCTAssertEqual(locked["add-afterFirstUnlock"], 0)
        XCTAssertEqual(locked["read-afterFirstUnlock"], 0, "after first unlock, the device's lock does not matter")
    }

    func testAMisconfiguredDeviceFailsEveryCallInsteadOfUsingARealKeychain() throws {
        let result = try run([], input: Data(), executable: suite, changing: ["KEYCHAIN_SIMULATED_DEVICE": "biometry"])
        let refused = Self.parse(result.stdout)
        XCTAssertEqual(refused["add-whenUnlocked"], -50, "\(result.stderr)")
        XCTAssertEqual(refused["read-whenUnlocked"], -50)
        XCTAssertEqual(try statuses("passcode,face")["add-whenUnlocked"], -50, "an unknown word")
    }

    /// A harness re-enrols biometry between the suite's write and its read through
    /// KEYCHAIN_SIMULATED_DEVICE_FILE: biometryCurrentSet items can never be read again.
    func testReenrolledBiometryThroughTheDeviceFile() throws {
        let deviceFile = scratch.appendingPathComponent("device")
        try Data("passcode,biometry=approve,biometry-set=1".utf8).write(to: deviceFile)
        let process = Process()
        process.executableURL = suite
        process.arguments = ["--wait-before-biometry-read"]
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_SIMULATED_DEVICE_FILE"] = deviceFile.path
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the suite has written its biometry item, then re-enrol.
        var printed = Data()
        let deadline = Date().addingTimeInterval(60)
        defer { if process.isRunning { process.terminate() } }
        while !String(decoding: printed, as: UTF8.self).contains("add-biometryCurrentSet") && Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
        try Data("passcode,biometry=approve,biometry-set=2".utf8).write(to: deviceFile)
        input.fileHandleForWriting.write(Data("\n".utf8))
        try input.fileHandleForWriting.close()
        printed += output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let statuses = Self.parse(String(decoding: printed, as: UTF8.self))
        XCTAssertEqual(statuses["add-biometryCurrentSet"], 0)
        XCTAssertEqual(
            statuses["read-biometryCurrentSet"], -25293, "re-enrolled biometry voids biometryCurrentSet: \(statuses)")
        XCTAssertEqual(statuses["read-userPresence"], 0, "user presence still opens with the new enrolment")
    }
}
