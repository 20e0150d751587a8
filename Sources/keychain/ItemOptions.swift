import ArgumentParser
import Foundation
import KeychainCore

/// The attributes every password command takes, with macOS `security`'s letters.
struct ItemOptions: ParsableArguments {
    @Option(name: .short, help: ArgumentHelp("Account name (kSecAttrAccount).", valueName: "account"))
    var account: String?

    @Option(name: .short, help: ArgumentHelp("Label (kSecAttrLabel).", valueName: "label"))
    var label: String?

    @Option(name: .customShort("j"), help: ArgumentHelp("Comment (kSecAttrComment).", valueName: "comment"))
    var comment: String?

    @Option(
        name: .customShort("D"),
        help: ArgumentHelp("Kind, a human-readable description (kSecAttrDescription).", valueName: "kind"))
    var kind: String?

    @Option(
        name: .customShort("c"),
        help: ArgumentHelp("Creator, a four-character code (kSecAttrCreator).", valueName: "creator"))
    var creator: String?

    @Option(
        name: .customShort("C"), help: ArgumentHelp("Type, a four-character code (kSecAttrType).", valueName: "type"))
    var type: String?

    @Option(
        name: .customLong("access-group"),
        help: ArgumentHelp(
            "Access group (kSecAttrAccessGroup). Searches cover every group when omitted; adds use the application's default group. (-G is the generic attribute, as in macOS `security`.)",
            valueName: "group"))
    var accessGroup: String?

    @Flag(
        name: .customLong("synchronizable"),
        help:
            "The item syncs to the other devices of the sync circle (kSecAttrSynchronizable); searches then look only at synchronizable items, as SecItem queries do."
    )
    var synchronizable = false

    func attributes() throws -> [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [:]
        if let account { attributes[.account] = .string(account) }
        if let label { attributes[.label] = .string(label) }
        if let comment { attributes[.comment] = .string(comment) }
        if let kind { attributes[.itemDescription] = .string(kind) }
        if let creator { attributes[.creator] = .number(try FourCharacterCode.number(creator, option: "-c")) }
        if let type { attributes[.type] = .number(try FourCharacterCode.number(type, option: "-C")) }
        if let accessGroup { attributes[.accessGroup] = .string(accessGroup) }
        return attributes
    }
}

/// Four-character codes (`'aapl'`) as the 32-bit numbers Apple stores them as.
enum FourCharacterCode {
    static func number(_ code: String, option: String) throws -> Int64 {
        let bytes = Array(code.utf8)
        guard bytes.count == 4 else {
            throw ValidationError("\(option) takes exactly four characters, such as 'aapl'.")
        }
        return bytes.reduce(0) { $0 << 8 | Int64($1) }
    }
}

/// Where a new secret comes from: `-w SECRET`, `--stdin`, or (when neither is given, or `-w`
/// ends the command line) a no-echo prompt / one line of standard input.
struct SecretOptions: ParsableArguments {
    @Option(
        name: .customShort("w"),
        help: ArgumentHelp(
            "The secret. Better: put -w last (or leave it out) to be prompted without echo, or pipe it in, which keeps it out of the process list and shell history.",
            valueName: "password"))
    var secret: String?

    @Flag(
        name: .customLong("stdin"),
        help:
            "Read the secret from all of standard input: multi-line text such as PEM keys (one trailing newline removed) or binary data (kept byte for byte). Standard input then carries the secret only: with --unlock, give the passphrase with --passphrase-file."
    )
    var fromStandardInput = false

    @Option(
        name: .customLong("accessibility"),
        help: ArgumentHelp(
            "When the item may be read: whenUnlocked (ak), afterFirstUnlock (ck), whenUnlockedThisDeviceOnly (aku), afterFirstUnlockThisDeviceOnly (cku), whenPasscodeSetThisDeviceOnly (akpu), always (dk), alwaysThisDeviceOnly (dku). Default whenUnlocked.",
            valueName: "accessibility"))
    var accessibility: String?

    @Flag(name: .customShort("U"), help: "Update the item if it already exists.")
    var updateIfExists = false

    @Option(
        name: .customShort("T"),
        help: ArgumentHelp(
            "Accepted for macOS `security` scripts and ignored: Linux has no per-application access lists; access groups decide which apps read an item.",
            valueName: "app"))
    var trustedApplications: [String] = []

    @Flag(name: .customShort("A"), help: "Accepted for macOS `security` scripts and ignored (see -T).")
    var allowAnyApplication = false

    @Flag(
        name: .customLong("require-user-presence"),
        help:
            "Reading the password needs the keychain PIN (kSecAccessControlUserPresence); set one first with `keychain set-pin`."
    )
    var requireUserPresence = false

    func validate() throws {
        if secret != nil && fromStandardInput { throw ValidationError("Give the secret with -w or --stdin, not both.") }
        if let accessibility { _ = try AttributeNames.accessibility(accessibility) }
    }

    func secretData() throws -> Data {
        if let secret { return Data(secret.utf8) }
        if fromStandardInput { return try SecretInput.readAll() }
        return Data(try SecretInput.read(prompt: "Password: ", as: .secretLine).utf8)
    }

    /// The secret's claim on standard input: all of it (`--stdin`), one line (no `-w`), or none (`-w SECRET`).
    var standardInputUse: StandardInputUse? {
        secret != nil ? nil : fromStandardInput ? .secretStream : .secretLine
    }

    var accessibilityAttribute: [AttributeKey: AttributeValue] {
        guard let accessibility, let value = try? AttributeNames.accessibility(accessibility) else { return [:] }
        return [.accessible: .string(value.rawValue)]
    }

    /// The note `-T`/`-A` get, or `nil` when neither was given.
    var ignoredApplicationAccessNote: String? {
        trustedApplications.isEmpty && !allowAnyApplication
            ? nil
            : "note: -T and -A are ignored: Linux keychains have no per-application access lists; access groups decide which apps read an item (README, \"Identity and access groups\")."
    }
}
