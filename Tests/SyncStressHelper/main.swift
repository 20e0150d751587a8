import Foundation
@_spi(Testing) import KeychainCore
import KeychainSync

// `sync-stress DIRECTORY DEVICE SEED STEPS`: one device of the sync convergence test. Opens the
// keychain in DIRECTORY, then STEPS times makes a random change and often syncs, printing
// `ack own-N` to standard output (flushed) once an add of its own account returned, so the
// test knows which writes were acknowledged before it killed this process with SIGKILL. Sync
// errors from a server that is restarting are expected and ignored; any other failure exits 1.

let arguments = CommandLine.arguments
guard arguments.count == 5, let device = Int(arguments[2]), let seed = UInt64(arguments[3]),
    let steps = Int(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: sync-stress DIRECTORY DEVICE SEED STEPS\n".utf8))
    exit(64)
}

/// A small deterministic generator (SplitMix64), so a failing run can be repeated from its seed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

do {
    let options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false, tpm: nil)
    let keychain = try Keychain(
        location: KeychainLocation(directory: URL(fileURLWithPath: arguments[1])), options: options)
    let sync = KeychainSynchronizer(keychain: keychain)
    var random = SplitMix(state: seed)
    let ownBase = Int(seed % 1_000_000) * 1_000
    for step in 0..<steps {
        let account = "shared-\(Int.random(in: 0..<6, using: &random))"
        let query = Query(.genericPassword, [.service: "stress", .account: .string(account)], synchronizable: .yes)
        switch Int.random(in: 0..<5, using: &random) {
        case 0, 1:
            let item = NewItem(
                .genericPassword, attributes: [.service: "stress", .account: .string(account), .synchronizable: 1],
                data: Data("d\(device)-s\(step)".utf8), accessibility: .afterFirstUnlock)
            _ = try keychain.addOrUpdate(item)
        case 2:
            if try keychain.findFirst(query) != nil { try keychain.delete(query) }
        case 3:
            let own = "own-\(ownBase + step)"
            try keychain.add(
                NewItem(
                    .genericPassword, attributes: [.service: "stress", .account: .string(own), .synchronizable: 1],
                    data: Data("d\(device)".utf8), accessibility: .afterFirstUnlock))
            FileHandle.standardOutput.write(Data("ack \(own)\n".utf8))  // unbuffered: written before the next step
        default:
            // Never leaves this device.
            _ = try keychain.addOrUpdate(
                NewItem(
                    .genericPassword,
                    attributes: [.service: "stress", .account: .string("local-d\(device)"), .synchronizable: 1],
                    data: Data("local".utf8), accessibility: .afterFirstUnlockThisDeviceOnly))
        }
        if Int.random(in: 0..<3, using: &random) > 0 {
            do {
                try sync.syncNow()
            } catch {
                guard error.code == .serverUnreachable || error.code == .serverRejected else { throw error }
                usleep(20_000)
            }
        }
    }
    exit(0)
} catch {
    FileHandle.standardError.write(Data("sync-stress: \(error)\n".utf8))
    exit(1)
}
