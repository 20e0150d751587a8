import ArgumentParser
import Foundation
import KeychainCore

extension PINAuthenticator {
    /// The keychain's PIN authenticator, asking on the terminal (no echo) or reading one line of
    /// standard input when the command reads nothing else there; an empty answer, or a standard
    /// input that carries another value, cancels.
    static func terminal(for location: KeychainLocation) throws(KeychainError) -> PINAuthenticator {
        try PINAuthenticator(keychain: location) { request in
            let reason = request.reason.isEmpty ? "" : " (\(request.reason))"
            return try? SecretInput.read(prompt: "Keychain PIN to use the \(request.operation)\(reason): ", as: .pin)
        }
    }
}

/// `keychain set-pin`: the PIN that items added with `--require-user-presence` need.
struct SetPIN: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-pin",
        abstract: "Set or change the PIN that protected items (--require-user-presence) ask for.",
        discussion: """
            The PIN stands in for Face ID / Touch ID and the device passcode of Apple platforms, \
            and it is a key: protected items are sealed to the keychain's presence key, which only \
            the secret scrypt derives from the PIN unwraps. The PIN file (state/authenticator/pin, \
            0600, beside the device key) holds the scrypt salt, a verifier and the attempt count; \
            after five wrong PINs each further one makes you wait 30 s, 1 min, 2 min, … up to an \
            hour. Changing it asks for the current PIN. Deleting or replacing the PIN file does not \
            reset it: the protected items then fail with status 52 until the file is restored. The \
            first PIN moves existing protected items under the presence key, so the keychain must \
            be unlocked (--unlock). Without a terminal, standard input carries the new PIN only, \
            so a first PIN needs --passphrase-file for --unlock, and changing a PIN (which needs the \
            current one too) needs a terminal.

            Examples:
              keychain set-pin
              keychain add-generic-password -s bank -a me --require-user-presence -w
              keychain find-generic-password -s bank -a me -w      # asks for the PIN
            """)
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        // Line one is the new PIN, never "the current one, if a PIN is set".
        try StandardInput.plan([self.keychain.passphraseInput(), .newPIN])
        // No keychain yet (so no PIN either): the PIN is read first, so a refused or empty
        // input creates nothing.
        let readFirst = self.keychain.exists ? nil : try SecretInput.readNew(prompt: "New PIN: ", as: .newPIN)
        let keychain = try self.keychain.open(.creatingIfMissing)
        let pin = try reportingErrors { try PINAuthenticator.terminal(for: keychain.location) }
        if pin.isPINSet && !StandardInput.isTerminal {
            throw usageFailure(
                "A PIN is set: changing it needs the current PIN and the new one, and standard input carries only one value, so nothing was read or changed. Run `keychain set-pin` on a terminal, where each is prompted for."
            )
        }
        let current = pin.isPINSet && readFirst == nil ? try SecretInput.read(prompt: "Current PIN: ", as: .pin) : nil
        let new = try readFirst ?? SecretInput.readNew(prompt: "New PIN: ", as: .newPIN)
        try reportingErrors { try pin.setPIN(new, current: current, in: keychain) }
        printError("PIN set")
    }
}
