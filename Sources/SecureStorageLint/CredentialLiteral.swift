/// Recognises credentials in string literals: the formats of well-known providers, and long
/// random-looking hex or base64 strings.
package enum CredentialLiteral {
    /// The provider whose credential format `text` contains (`"a GitHub token"`), if any.
    package static func knownFormat(in text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16 else { return nil }
        for start in bytes.indices {
            // Tokens start at the beginning or after a non-token character (`Bearer ghp_…`, `?key=AIza…`).
            if start > 0 && isTokenByte(bytes[start - 1]) && bytes[start - 1] != UInt8(ascii: "-") { continue }
            if let provider = format(at: start, in: bytes) { return provider }
        }
        return nil
    }

    /// Whether `text` is a long random-looking hex (≥ 32 characters) or base64 (≥ 20) string:
    /// one alphabet, letters and digits mixed, and high Shannon entropy.
    package static func looksRandom(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 1024 else { return false }
        var isHex = true
        var hasDigit = false
        var hasLetter = false
        var hasUpper = false
        var hasLower = false
        var body = bytes[...]
        while body.last == UInt8(ascii: "=") { body = body.dropLast() }
        for byte in body {
            let digit = byte >= 0x30 && byte <= 0x39
            let upper = byte >= 0x41 && byte <= 0x5A
            let lower = byte >= 0x61 && byte <= 0x7A
            let base64Symbol =
                byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
            guard digit || upper || lower || base64Symbol else { return false }
            hasDigit = hasDigit || digit
            hasLetter = hasLetter || upper || lower
            hasUpper = hasUpper || upper
            hasLower = hasLower || lower
            if !(digit || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)) { isHex = false }
        }
        guard hasDigit && hasLetter, !isUUID(bytes) else { return false }
        let entropy = shannonEntropy(body)
        if isHex { return body.count >= 32 && entropy >= 3.0 }
        // Base64 of random bytes mixes cases; identifiers and words in camelCase do too, but
        // rarely with digits throughout and this much entropy.
        return hasUpper && hasLower && entropy >= (body.count < 32 ? 3.7 : 4.0)
    }

    /// Bits per character of the string's byte distribution.
    static func shannonEntropy(_ bytes: ArraySlice<UInt8>) -> Double {
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes { counts[Int(byte)] += 1 }
        let total = Double(bytes.count)
        var entropy = 0.0
        for count in counts where count > 0 {
            let probability = Double(count) / total
            entropy -= probability * log2(probability)
        }
        return entropy
    }

    private static func log2(_ value: Double) -> Double {
        // Natural logarithm by the series of atanh, avoiding a Foundation/Glibc import for one call.
        var mantissa = value
        var exponent = 0.0
        while mantissa >= 2 {
            mantissa /= 2
            exponent += 1
        }
        while mantissa < 1 {
            mantissa *= 2
            exponent -= 1
        }
        let ratio = (mantissa - 1) / (mantissa + 1)
        let square = ratio * ratio
        var term = ratio
        var sum = 0.0
        var denominator = 1.0
        for _ in 0..<12 {
            sum += term / denominator
            term *= square
            denominator += 2
        }
        return exponent + 2 * sum / 0.6931471805599453
    }

    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        return [8, 13, 18, 23].allSatisfy { bytes[$0] == UInt8(ascii: "-") }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    private static func format(at start: Int, in bytes: [UInt8]) -> String? {
        func has(_ prefix: String) -> Bool {
            let prefixBytes = Array(prefix.utf8)
            return bytes.count - start >= prefixBytes.count
                && Array(bytes[start..<(start + prefixBytes.count)]) == prefixBytes
        }
        /// The length of the run of bytes from `offset` that satisfy `accept`.
        /// (At most 512 bytes: no format is longer, and unbounded runs from every start would make
        /// a long literal quadratic.)
        func run(from offset: Int, _ accept: (UInt8) -> Bool) -> Int {
            var index = start + offset
            let limit = min(bytes.count, start + offset + 512)
            while index < limit && accept(bytes[index]) { index += 1 }
            return index - start - offset
        }
        let alphanumeric: (UInt8) -> Bool = {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
        }
        let upperOrDigit: (UInt8) -> Bool = { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
        let tokenByte: (UInt8) -> Bool = isTokenByte
        switch bytes[start] {
        case UInt8(ascii: "A"):
            if (has("AKIA") || has("ASIA")) && run(from: 4, upperOrDigit) == 16 { return "an AWS access key id" }
        // `AIza…` Google API keys are left out: see ``publicKeyProvider(in:)``.
        case UInt8(ascii: "g"):
            for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] where has(prefix) && run(from: 4, alphanumeric) >= 36
            { return "a GitHub token" }
            if has("github_pat_") && run(from: 11, tokenByte) >= 22 { return "a GitHub token" }
            if has("glpat-") && run(from: 6, tokenByte) >= 20 { return "a GitLab token" }
        case UInt8(ascii: "x"):
            for prefix in ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-"]
            where has(prefix) && run(from: 5, tokenByte) >= 10 { return "a Slack token" }
        case UInt8(ascii: "s"), UInt8(ascii: "r"):
            if (has("sk_live_") || has("rk_live_")) && run(from: 8, alphanumeric) >= 16 { return "a Stripe live key" }
            if has("sk-proj-") && run(from: 8, tokenByte) >= 20 { return "an OpenAI key" }
            if has("sk-ant-") && run(from: 7, tokenByte) >= 20 { return "an Anthropic key" }
            if has("sk-") && run(from: 3, alphanumeric) >= 40 { return "an OpenAI key" }
        case UInt8(ascii: "e"):
            // A JSON Web Token: base64url("{\"…") . base64url("{\"…") . signature.
            if has("eyJ") {
                let header = run(from: 0, tokenByte)
                guard start + header < bytes.count, bytes[start + header] == UInt8(ascii: "."), header >= 10 else {
                    return nil
                }
                let payloadStart = header + 1
                guard bytes.count - start - payloadStart >= 3, bytes[start + payloadStart] == UInt8(ascii: "e"),
                    bytes[start + payloadStart + 1] == UInt8(ascii: "y"),
                    bytes[start + payloadStart + 2] == UInt8(ascii: "J")
                else { return nil }
                let payload = run(from: payloadStart, tokenByte)
                guard start + payloadStart + payload < bytes.count,
                    bytes[start + payloadStart + payload] == UInt8(ascii: ".")
                else { return nil }
                if run(from: payloadStart + payload + 1, tokenByte) >= 16 { return "a JSON Web Token" }
            }
        case UInt8(ascii: "-"):
            // A PEM private key with its body: a bare `-----BEGIN PRIVATE KEY-----` is a marker a
            // parser looks for, not a key.
            if has("-----BEGIN "),
                let end = firstOffset(of: Array("-----".utf8), in: bytes, from: start + 11, before: start + 80),
                String(decoding: bytes[(start + 11)..<end], as: UTF8.self).hasSuffix("PRIVATE KEY"),
                base64BodyFollows(in: bytes, from: end + 5)
            {
                return "a PEM private key"
            }
        default:
            break
        }
        return nil
    }

    /// Whether at least 16 base64 characters follow `offset`, after line breaks (real or written
    /// as `\\n` escapes) and spaces.
    private static func base64BodyFollows(in bytes: [UInt8], from offset: Int) -> Bool {
        var index = offset
        let limit = min(bytes.count, offset + 600)
        while index < limit {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
            {
                index += 1
            } else if byte == UInt8(ascii: "\\"), index + 1 < limit,
                bytes[index + 1] == UInt8(ascii: "n") || bytes[index + 1] == UInt8(ascii: "r")
            {
                index += 2
            } else {
                break
            }
        }
        var body = 0
        while index < limit, body < 16 {
            let byte = bytes[index]
            let isBase64 =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
            guard isBase64 else { break }
            body += 1
            index += 1
        }
        return body >= 16
    }

    /// The provider of a key that is public by design, which the literal starts with or contains
    /// at a token start: PostHog project keys (`phc_…`), Stripe publishable keys (`pk_live_…`,
    /// `pk_test_…`), RevenueCat public SDK keys (`appl_…`, `goog_…`), and Google API keys
    /// (`AIza…`), which Google documents as identifiers for Firebase and the Maps SDK, restricted
    /// by bundle identifier, not as secrets.
    package static func publicKeyProvider(in text: String) -> String? {
        let prefixes: [(String, String)] = [
            ("phc_", "PostHog"), ("pk_live_", "Stripe"), ("pk_test_", "Stripe"), ("appl_", "RevenueCat"),
            ("goog_", "RevenueCat"), ("AIza", "Google")
        ]
        let bytes = Array(text.utf8.prefix(1024))
        for start in bytes.indices {
            if start > 0 && isTokenByte(bytes[start - 1]) { continue }
            for (prefix, provider) in prefixes where bytes.count - start > prefix.utf8.count + 8 {
                if bytes[start..<(start + prefix.utf8.count)].elementsEqual(prefix.utf8) { return provider }
            }
        }
        return nil
    }

    /// Where `pattern` first occurs in `bytes` between two offsets.
    private static func firstOffset(of pattern: [UInt8], in bytes: [UInt8], from start: Int, before limit: Int) -> Int?
    {
        var index = start
        while index + pattern.count <= min(limit, bytes.count) {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
