/// The keychain engine's messages in the facade's terms: an accessibility constant such as
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` is followed by the ``Sensitivity`` that stores
/// with it (`.secret`), and the engine's unlock call by the facade's.
enum FacadeWording {
    /// `message` with the facade's names added.
    static func translated(_ message: String) -> String {
        var result = ""
        var rest = Substring(message)
        while let range = rest.range(of: "kSecAttrAccessible") {
            result += rest[..<range.lowerBound]
            var end = range.upperBound
            while end < rest.endIndex, rest[end].isLetter { end = rest.index(after: end) }
            let constant = String(rest[range.lowerBound..<end])
            result += constant
            if let name = sensitivityName(of: constant), !rest[end...].hasPrefix(" (.") { result += " (\(name))" }
            rest = rest[end...]
        }
        result += rest
        return result.replacingOccurrences(
            of: "Keychain.unlock in code", with: "SecureStorage.unlock(passphrase:) in code"
        )
        .replacingOccurrences(of: "with an afterFirstUnlock accessibility.", with: "as .private (or .public).")
    }

    /// `text` with control and bidirectional formatting characters shown as `?`, for messages
    /// that quote names and paths (which may hold anything) and are printed on terminals.
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    let unsafe =
                        scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                        || (0x2028...0x2029).contains(scalar.value)
                    return unsafe ? "?" : scalar
                }))
    }

    /// The facade's name for the protection an accessibility constant names: `.secret`, or
    /// `.custom(.whenUnlocked)` for one no sensitivity stands for.
    static func sensitivityName(of constant: String) -> String? {
        guard let protection = Protection.allCases.first(where: { $0.description == constant }) else { return nil }
        let tags: [(Sensitivity, String)] = [
            (.public, ".public"), (.private, ".private"), (.secret, ".secret"), (.topSecret, ".topSecret")
        ]
        return tags.first { $0.0.protection == protection }?.1 ?? ".custom(.\(protection.caseName))"
    }
}

extension Protection {
    /// The case's name in Swift, e.g. `whenUnlocked`.
    fileprivate var caseName: String {
        switch self {
        case .whenUnlocked: "whenUnlocked"
        case .afterFirstUnlock: "afterFirstUnlock"
        case .always: "always"
        case .whenUnlockedThisDeviceOnly: "whenUnlockedThisDeviceOnly"
        case .afterFirstUnlockThisDeviceOnly: "afterFirstUnlockThisDeviceOnly"
        case .alwaysThisDeviceOnly: "alwaysThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: "whenPasscodeSetThisDeviceOnly"
        }
    }
}
