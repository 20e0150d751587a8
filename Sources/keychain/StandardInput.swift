import Foundation
import SecureStorageFoundation

/// One value a command may read from standard input when standard input is not a terminal.
struct StandardInputUse: Equatable, Sendable {
    /// What the value is, as messages name it: "the keychain passphrase (--unlock)".
    var value: String
    /// How else to give it, or `nil` when only a terminal prompt is.
    var elsewhere: String?

    /// The keychain's passphrase, read because of `--unlock` (or by `unlock`, `bind`, `unbind`).
    static let keychainPassphrase = StandardInputUse(
        value: "the keychain passphrase",
        elsewhere:
            "--passphrase-file FILE or the systemd credential secure-storage-passphrase (or run `keychain unlock` first and leave out --unlock)"
    )
    /// The current passphrase of `change-passphrase` and `remove-passphrase`.
    static let currentPassphrase = StandardInputUse(
        value: "the current passphrase", elsewhere: "--passphrase-file FILE")
    /// A new keychain passphrase.
    static let newPassphrase = StandardInputUse(value: "the new passphrase", elsewhere: nil)
    /// The secret of an add command, all of standard input.
    static let secretStream = StandardInputUse(value: "the secret (--stdin)", elsewhere: nil)
    /// The secret of an add command without `-w`, one line.
    static let secretLine = StandardInputUse(value: "the password (no -w SECRET given)", elsewhere: nil)
    /// The passphrase of a backup.
    static let backupPassphrase = StandardInputUse(
        value: "the backup passphrase", elsewhere: "--backup-passphrase-file FILE")
    /// The PIN protected items ask for.
    static let pin = StandardInputUse(value: "the keychain PIN", elsewhere: nil)
    /// A new PIN (`set-pin`).
    static let newPIN = StandardInputUse(value: "the new PIN", elsewhere: nil)
    /// The approval code of `sync approve`.
    static let approvalCode = StandardInputUse(value: "the approval code", elsewhere: nil)
}

/// Which value standard input carries when it is not a terminal: at most one per command,
/// decided from the command line before anything is read or opened — never from the keychain's
/// state (an unlock session, whether it has a passphrase or a PIN yet), which would change what
/// each line means without the caller seeing it. On a terminal every value is its own prompt.
enum StandardInput {
    /// Whether standard input is a terminal: then each value is prompted for.
    static var isTerminal: Bool { isatty(STDIN_FILENO) != 0 }

    /// Declares the values the command reads from standard input (`nil` for those given another
    /// way); refuses two, before anything is read, opened or changed. Later reads of other
    /// values from a piped standard input (a PIN prompt) are refused too.
    static func plan(_ uses: [StandardInputUse?]) throws {
        let uses = uses.compactMap { $0 }
        guard !isTerminal else { return }
        guard uses.count <= 1 else {
            let names = uses.map(\.value)
            let fixes = uses.compactMap { use in use.elsewhere.map { "\(use.value) with \($0)" } }
            throw usageFailure(
                "Standard input cannot carry both \(names.dropLast().joined(separator: ", ")) and \(names.last!): which line is which would be a guess, so nothing was read or changed. "
                    + (fixes.isEmpty
                        ? "Run the command on a terminal, where each is prompted for."
                        : "Give \(fixes.joined(separator: ", or ")), and pipe in \(uses.count == 2 ? "the other" : "one value") alone; or run the command on a terminal, where each is prompted for.")
            )
        }
        state.withLock { state in
            state.planned = true
            state.owner = uses.first
        }
    }

    /// Declares the values unless the command declared its own already (``KeychainChoice/open(_:)``).
    static func planUnlessPlanned(_ uses: [StandardInputUse?]) throws {
        guard !state.withLock({ $0.planned }) else { return }
        try plan(uses)
    }

    /// Checks that `use` may be read from standard input now: always on a terminal; otherwise
    /// only the value the command declared, or any one value when it declared none (which then
    /// owns standard input for the rest of the command).
    static func permit(_ use: StandardInputUse) throws {
        guard !isTerminal else { return }
        let owner: StandardInputUse? = state.withLock { state in
            if state.owner == nil { state.owner = use }
            return state.owner
        }
        guard let owner, owner != use else { return }
        throw usageFailure(
            "\(use.value.prefix(1).uppercased() + use.value.dropFirst()) would be read from standard input, which carries \(owner.value) in this command; nothing was read. Run the command on a terminal, where each is prompted for\(use.elsewhere.map { ", or give it with \($0)" } ?? "")."
        )
    }

    /// What the command declared.
    private struct State {
        var planned = false
        var owner: StandardInputUse?
    }

    private static let state = Locked(State())
}
