/// The grammars of object paths and of bus, interface, member and error names (D-Bus
/// specification, "Valid Object Paths" and "Valid Names").
package enum DBusNames {
    /// The longest name the specification allows, in bytes.
    package static let maximumNameLength = 255

    /// `/`, or `/`-separated non-empty elements of `[A-Za-z0-9_]`, with no trailing `/`.
    package static func isValidObjectPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else {
                guard isElementByte(byte, allowHyphen: false) else { return false }
                previousWasSlash = false
            }
        }
        return true
    }

    /// An interface or error name: two or more `.`-separated elements of `[A-Za-z0-9_]`, none starting with a digit.
    package static func isValidInterfaceName(_ name: String) -> Bool {
        let elements = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard name.utf8.count <= maximumNameLength, elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first, !isDigit(first) else { return false }
            return element.allSatisfy { isElementByte($0, allowHyphen: false) }
        }
    }

    /// A member name: one element of `[A-Za-z0-9_]`, not starting with a digit.
    package static func isValidMemberName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= maximumNameLength, !isDigit(first) else { return false }
        return bytes.allSatisfy { isElementByte($0, allowHyphen: false) }
    }

    /// A bus name: unique (`:` then two or more elements, digits allowed first) or well-known
    /// (two or more elements of `[A-Za-z0-9_-]`, none starting with a digit).
    package static func isValidBusName(_ name: String) -> Bool {
        guard name.utf8.count <= maximumNameLength else { return false }
        let unique = name.utf8.first == UInt8(ascii: ":")
        let elements = name.utf8.dropFirst(unique ? 1 : 0)
            .split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first, unique || !isDigit(first) else { return false }
            return element.allSatisfy { isElementByte($0, allowHyphen: true) }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isElementByte(_ byte: UInt8, allowHyphen: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        case UInt8(ascii: "-"): allowHyphen
        default: false
        }
    }
}
