import ArgumentParser
import KeychainCore

/// The names Apple's constants have, accepted wherever the tool takes a code: `--accessibility
/// whenUnlocked` as well as `ak`, `-r https` as well as `htps`. Unknown values are refused
/// rather than stored as a new code nobody else knows.
enum AttributeNames {
    /// `kSecAttrAccessible` values: `ak`, `whenUnlocked`, `kSecAttrAccessibleWhenUnlocked` (any case).
    static func accessibility(_ text: String) throws -> Accessibility {
        let name = text.lowercased().replacingOccurrences(of: "ksecattraccessible", with: "")
        if let match = Accessibility.allCases.first(where: { $0.rawValue == name || "\($0)".lowercased() == name }) {
            return match
        }
        throw ValidationError(
            "Unknown accessibility '\(text)'; use one of "
                + Accessibility.allCases.map { "\($0.rawValue) (\($0))" }.joined(separator: ", ") + ".")
    }

    /// `kSecAttrProtocol` codes by the name of Apple's constant (`kSecAttrProtocolHTTPS` → `https`).
    static let protocols: KeyValuePairs<String, String> = [
        "ftp": "ftp ", "ftpaccount": "ftpa", "http": "http", "irc": "irc ", "nntp": "nntp", "pop3": "pop3",
        "smtp": "smtp", "socks": "sox ", "imap": "imap", "ldap": "ldap", "appletalk": "atlk", "afp": "afp ",
        "telnet": "teln", "ssh": "ssh ", "ftps": "ftps", "https": "htps", "httpproxy": "htpx", "httpsproxy": "htsx",
        "ftpproxy": "ftpx", "smb": "smb ", "rtsp": "rtsp", "rtspproxy": "rtsx", "daap": "daap", "eppc": "eppc",
        "ipp": "ipp ", "nntps": "ntps", "ldaps": "ldps", "telnets": "tels", "imaps": "imps", "ircs": "ircs",
        "pop3s": "pops"
    ]

    /// `kSecAttrAuthenticationType` codes by the name of Apple's constant.
    static let authenticationTypes: KeyValuePairs<String, String> = [
        "ntlm": "ntlm", "msn": "msna", "dpa": "dpaa", "rpa": "rpaa", "httpbasic": "http", "httpdigest": "httd",
        "htmlform": "form", "default": "dflt"
    ]

    /// The code for `-r`: a name (`https`) or one of Apple's codes (`htps`, `ftp ` with or
    /// without its trailing space).
    static func protocolCode(_ text: String) throws -> String {
        try code(text, in: protocols, prefix: "ksecattrprotocol", what: "protocol", option: "-r")
    }

    /// The code for `-t`: a name (`htmlForm`) or one of Apple's codes (`form`).
    static func authenticationTypeCode(_ text: String) throws -> String {
        try code(
            text, in: authenticationTypes, prefix: "ksecattrauthenticationtype", what: "authentication type",
            option: "-t")
    }

    private static func code(
        _ text: String, in table: KeyValuePairs<String, String>, prefix: String, what: String,
        option: String
    ) throws -> String {
        let name = text.lowercased().replacingOccurrences(of: prefix, with: "")
        if let match = table.first(where: { $0.key == name }) { return match.value }
        let padded = text.count < 4 ? text + String(repeating: " ", count: 4 - text.count) : text
        if let match = table.first(where: { $0.value == padded }) { return match.value }
        throw ValidationError(
            "Unknown \(what) '\(text)' for \(option); use a name or code: "
                + table.map {
                    $0.key == $0.value.trimmingCharacters(in: .whitespaces)
                        ? $0.key : "\($0.key) (\($0.value.trimmingCharacters(in: .whitespaces)))"
                }
                .joined(separator: ", ") + ".")
    }
}
