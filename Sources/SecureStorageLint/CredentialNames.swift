/// Whether a name or a string looks like it denotes a credential: `authToken`, `"user_password"`,
/// `API-Key`, `privateKeyPEM`, `sessionCookie`, `pinCode`.
///
/// The name is split into words at case changes, digits and separators (`_ - . / :` and spaces)
/// and matched word by word, so `spinner`, `pinned`, `authorName`, `mapping` and `tokenizer` are
/// not credentials.
///
/// A push token (`pushToken`, `deviceToken`, `apnsToken`, `fcmToken`, `voipToken`) is not a
/// credential: it is the address Apple's or Firebase's push service delivers to, which the app
/// sends to its own server in the clear and which grants nothing to whoever reads it.
package enum CredentialNames {
    /// Words that denote a credential on their own.
    private static let credentialWords: Set<String> = [
        "token", "tokens", "password", "passwords", "passwd", "passcode", "pwd", "secret", "secrets",
        "apikey", "apikeys", "auth", "authorization", "cookie", "cookies", "pin", "privatekey",
        "credential", "credentials", "bearer", "otp", "jwt", "sessionid", "sessiontoken", "accesskey",
        "session", "passphrase", "signingkey", "cvv", "cvc"
    ]
    /// Two-word credentials: `api key`, `private key`, `access key`, `secret key`, `signing key`.
    private static let credentialPairs: Set<String> = [
        "api key", "private key", "access key", "signing key", "encryption key", "master key", "session id",
        "client secret", "refresh token", "access token", "id token", "hmac key", "secret key", "auth key", "app secret"
    ]

    /// Words before `token` that make it a push-notification address, not a credential.
    private static let pushAddressWords: Set<String> = [
        "push", "device", "apns", "apn", "fcm", "gcm", "voip", "notification", "notifications", "registration"
    ]

    /// Words before `session` that make it a framework's session object (`URLSession`,
    /// `AVAudioSession`, `AVCaptureSession`, `WCSession`, `ARSession`, `NFCReaderSession`).
    private static let frameworkSessionWords: Set<String> = [
        "url", "audio", "av", "capture", "wc", "ar", "nfc", "reader", "workout", "extended", "runtime", "mc",
        "game", "network", "upload", "download", "background", "web", "socket", "playback", "recording",
        "tracking", "sharing", "sync", "training", "practice", "chat", "voice", "call"
    ]

    /// Words that say a credential is protected rather than held in the clear:
    /// `encryptedPassword`, `wrappedSecretKey`, `hashedPin`, `sealedToken`.
    private static let protectionWords: Set<String> = [
        "encrypted", "wrapped", "sealed", "hashed", "salted", "obfuscated", "masked", "redacted", "ciphered"
    ]

    /// First words of names of settings and flags.
    private static let settingVerbs: Set<String> = [
        "use", "uses", "require", "requires", "remember", "enable", "enabled", "disable", "disabled", "is", "has",
        "should",
        "show", "allow", "allows", "needs", "did", "prefer", "ask", "can", "last", "supports", "wants", "save", "saves",
        // The state of credentials, not one: `availableSecrets`, `missingToken`, `requiredPasswords`.
        "available", "missing", "required", "supported"
    ]

    /// Words that say how a credential is held rather than what it is: `tokenData`, `pinCode`,
    /// `privateKeyPEM`, `"token.json"`, `authorizationHeader`.
    private static let containerWords: Set<String> = [
        "data", "string", "str", "value", "values", "code", "pem", "der", "p8", "p12", "bytes", "text", "raw", "base64",
        "b64",
        "hex", "json", "plist", "txt", "blob", "header", "id", "ref", "field", "key"
    ]

    /// Whether `name` (an identifier or the content of a string literal) denotes a credential.
    ///
    /// The name's last word decides, after words for how the credential is held (`data`,
    /// `string`, `json`, …) are dropped: `authToken` and `tokenData` are credentials,
    /// `lastTokenRefreshCheck`, `passwordHint` and `tokenExpiry` are not.
    package static func isCredential(_ name: String) -> Bool {
        var words = words(of: name)
        // Settings about a credential, not the credential: `useBiometricAuth`, `requirePasscode`,
        // `rememberPassword`, `isLoggedIn`, `hasToken`.
        if let first = words.first, words.count > 1, settingVerbs.contains(first) { return false }
        if words.contains(where: protectionWords.contains) { return false }
        while words.count > 1, let last = words.last, containerWords.contains(last) {
            // `apiKey`, `privateKey`: `key` is part of the name, not a container, after these.
            if last == "key", words.count >= 2, credentialPairs.contains(words[words.count - 2] + " key") { break }
            words.removeLast()
        }
        guard let last = words.last else { return false }
        let previous = words.count >= 2 ? words[words.count - 2] : ""
        if (last == "token" || last == "tokens") && pushAddressWords.contains(previous) { return false }
        if credentialWords.contains(last) {
            // `URLSession`, `AVAudioSession`, `WCSession`: a framework's session object, not a secret.
            return !(last == "session" && frameworkSessionWords.contains(previous))
        }
        return credentialPairs.contains(previous + " " + last)
    }

    /// Whether `name` denotes a push-notification address (`pushToken`, `"SJPushToken"`,
    /// `deviceTokenData`, `fcmToken`): a key under which the value stored is an address, not a credential.
    package static func isPushAddress(_ name: String) -> Bool {
        var words = words(of: name)
        while words.count > 1, let last = words.last, containerWords.contains(last) { words.removeLast() }
        guard words.count >= 2, let last = words.last, last == "token" || last == "tokens" else { return false }
        return pushAddressWords.contains(words[words.count - 2])
    }

    /// The lower-cased words of an identifier or phrase.
    package static func words(of name: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var previous: UInt8 = 0
        let bytes = Array(name.utf8)
        func flush() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for (index, byte) in bytes.enumerated() {
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            let isDigit = byte >= 0x30 && byte <= 0x39
            guard isUpper || isLower || isDigit || byte >= 0x80 else {
                flush()
                previous = byte
                continue
            }
            let previousIsUpper = previous >= 0x41 && previous <= 0x5A
            let previousIsLower = previous >= 0x61 && previous <= 0x7A
            let nextIsLower = index + 1 < bytes.count && bytes[index + 1] >= 0x61 && bytes[index + 1] <= 0x7A
            // A word starts at lower→Upper (`authToken`) and at the last capital of an acronym
            // followed by lower case (`APIKey` → `api`, `key`).
            if isUpper && (previousIsLower || (previousIsUpper && nextIsLower)) { flush() }
            if isDigit != (previous >= 0x30 && previous <= 0x39) && !current.isEmpty { flush() }
            current.append(isUpper ? byte + 0x20 : byte)
            previous = byte
        }
        flush()
        return words
    }
}
