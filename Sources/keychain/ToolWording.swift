import KeychainCore

/// The engine's messages in the tool's terms: an accessibility constant such as
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` is followed by the value of
/// `--accessibility` that chooses it.
enum ToolWording {
    /// `message` with the tool's names added.
    static func translated(_ message: String) -> String {
        var result = ""
        var rest = Substring(message)
        while let range = rest.range(of: "kSecAttrAccessible") {
            result += rest[..<range.lowerBound]
            var end = range.upperBound
            while end < rest.endIndex, rest[end].isLetter { end = rest.index(after: end) }
            let constant = rest[range.lowerBound..<end]
            result += constant
            if let accessibility = Accessibility.allCases.first(where: { $0.constantName == constant }) {
                result += " (--accessibility \(accessibility))"
            }
            rest = rest[end...]
        }
        return result + rest
    }
}
