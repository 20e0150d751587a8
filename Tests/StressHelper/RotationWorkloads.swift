import Foundation
import KeychainCore
import StressSupport

/// `keychain-stress rotate-loop --keychain DIR --journal FILE --from N`: changes the passphrase
/// from step N to N+1, N+1 to N+2, … forever, writing "B <next>" before each change and
/// "A <next>" after it, until the test kills the process.
struct RotateLoop {
    let location: KeychainLocation
    let journalPath: String
    let first: Int

    init(_ arguments: StressArguments) throws {
        location = try arguments.location
        journalPath = try arguments.string("journal")
        first = try arguments.integer("from")
    }

    func run() throws {
        let journal = try JournalFile(path: journalPath)
        let keychain = try Keychain(location: location, options: rotationOptions)
        var step = first
        while true {
            try journal.append("B \(step + 1)\n")
            try keychain.changePassphrase(from: rotationPassphrase(step), to: rotationPassphrase(step + 1))
            try journal.append("A \(step + 1)\n")
            step += 1
        }
    }
}

/// `keychain-stress read-loop --keychain DIR --seconds S --items N`: one instance, unlocked with
/// `rotationPassphrase(0)` if it still works, reads the `always` items (`dk-<i>`, data `dk-<i>`)
/// and the `afterFirstUnlock` items (`ck-<i>`) in a loop while another process rotates the
/// passphrase. Prints a JSON summary: reads, reads refused because the keys were rotated away
/// (the only failure allowed), and any other failure or wrong value.
struct ReadLoop {
    let location: KeychainLocation
    let seconds: Double
    let items: Int

    init(_ arguments: StressArguments) throws {
        location = try arguments.location
        seconds = Double(try arguments.integer("seconds"))
        items = try arguments.integer("items")
    }

    func run() throws {
        let keychain = try Keychain(location: location, options: rotationOptions)
        try? keychain.unlock(passphrase: rotationPassphrase(0))
        var reads = 0
        var refused = 0
        var failures: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && failures.count < 10 {
            for prefix in ["dk", "ck"] {
                let name = "\(prefix)-\(reads % items)"
                let query = Query(.genericPassword, [.service: "rotation", .account: .string(name)], limit: .one)
                do {
                    let data = try keychain.find(query, returning: .data).first?.data
                    if data != Data(name.utf8) { failures.append("\(name) read back wrong data") }
                } catch  where error.code == .interactionNotAllowed && prefix == "ck" {
                    refused += 1
                } catch {
                    failures.append("\(name): \(error)")
                }
                reads += 1
            }
        }
        let summary: [String: Any] = ["reads": reads, "refused": refused, "failures": failures]
        FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: summary))
    }
}

/// `keychain-stress bind-loop --keychain DIR --tpm TCTI --journal FILE`: binds the keychain
/// (passphrase `rotationPassphrase(0)`) to the TPM again and again — without PCRs, then with one
/// of PCRs 0–3 — each bind rotating the device secret, writing "B <n>" before each bind and
/// "A <n>" after it, until the test kills the process.
struct BindLoop {
    let location: KeychainLocation
    let tcti: String
    let journalPath: String

    init(_ arguments: StressArguments) throws {
        location = try arguments.location
        tcti = try arguments.string("tpm")
        journalPath = try arguments.string("journal")
    }

    func run() throws {
        let journal = try JournalFile(path: journalPath)
        let keychain = try Keychain(location: location, options: rotationOptions(tpm: TPMDevice(tcti: tcti)))
        var round = 0
        while true {
            try journal.append("B \(round)\n")
            try keychain.bindToTPM(pcrs: round % 2 == 0 ? [] : [round % 4], passphrase: rotationPassphrase(0))
            try journal.append("A \(round)\n")
            round += 1
        }
    }
}
