import CLibPQ
import Foundation

/// The secrets a libpq connection string holds, as libpq itself reads the string
/// (`PQconninfoParse`): keyword/value pairs with any spacing and quoting, and `postgresql://`
/// URIs with their `user:password@` and `?password=` parts, all read exactly as a connection
/// would read them.
enum ConnectionStringSecrets {
    /// The keywords whose value is a secret: the server password, and the password of the TLS
    /// client key. libpq's keywords are case-sensitive: `PASSWORD=` is no keyword of libpq, and
    /// a string holding it is unreadable to libpq altogether.
    static let keywords = ["password", "sslpassword"]

    /// A secret value and the keyword libpq reads it as (a URI's `user:password@` is `password`).
    struct Secret: Equatable {
        var keyword: String
        var value: String
    }

    /// What libpq reads from a connection string.
    enum Reading: Equatable {
        /// libpq reads the string; `secrets` are its non-empty secret values.
        case readable(secrets: [Secret])
        /// libpq cannot read it (or is not installed); the reason never quotes the string.
        case unreadable(reason: String)
    }

    /// Reads `connectionString` with libpq's own parser.
    static func read(_ connectionString: String) -> Reading {
        guard clibpq_load() == 1 else {
            return .unreadable(reason: String(cString: clibpq_load_error()))
        }
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &errorMessage) else {
            defer { if let errorMessage { PQfreemem(errorMessage) } }
            // libpq names the offending keyword or token, which may be part of a password.
            return .unreadable(
                reason:
                    "libpq cannot read it as a connection string (see libpq's \"Connection Strings\"; its text is not repeated here, as it may hold a password)"
            )
        }
        defer { PQconninfoFree(options) }
        var secrets: [Secret] = []
        var option = options
        while let keyword = option.pointee.keyword {
            let name = String(cString: keyword)
            if keywords.contains(name), let value = option.pointee.val, value.pointee != 0 {
                secrets.append(Secret(keyword: name, value: String(cString: value)))
            }
            option += 1
        }
        return .readable(secrets: secrets)
    }
}
