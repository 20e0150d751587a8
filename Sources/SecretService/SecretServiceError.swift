/// The one error type of the Secret Service provider: a code that names the D-Bus error a client
/// receives, and a message that says what happened and what to do (never an attribute value or a
/// secret; messages come from `SecretServiceError+Messages.swift`).
package struct SecretServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; its raw value is the D-Bus error name sent to the client.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The D-Bus error name, for example `org.freedesktop.Secret.Error.IsLocked`.
        package let rawValue: String

        /// Creates a code from its D-Bus error name.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// The D-Bus error name.
        package var description: String { rawValue }

        /// Matches any error by its code: `catch SecretServiceError.Code.isLocked`.
        package static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? SecretServiceError)?.code == pattern
        }

        /// The object is locked (spec: `org.freedesktop.Secret.Error.IsLocked`).
        package static let isLocked = Code(rawValue: "org.freedesktop.Secret.Error.IsLocked")
        /// The session does not exist or belongs to another caller.
        package static let noSession = Code(rawValue: "org.freedesktop.Secret.Error.NoSession")
        /// No such item or collection.
        package static let noSuchObject = Code(rawValue: "org.freedesktop.Secret.Error.NoSuchObject")
        /// Arguments of the wrong type, count or size.
        package static let invalidArgs = Code(rawValue: "org.freedesktop.DBus.Error.InvalidArgs")
        /// The object has no such method.
        package static let unknownMethod = Code(rawValue: "org.freedesktop.DBus.Error.UnknownMethod")
        /// No object at that path.
        package static let unknownObject = Code(rawValue: "org.freedesktop.DBus.Error.UnknownObject")
        /// No such property on the interface.
        package static let unknownProperty = Code(rawValue: "org.freedesktop.DBus.Error.UnknownProperty")
        /// The property cannot be set.
        package static let propertyReadOnly = Code(rawValue: "org.freedesktop.DBus.Error.PropertyReadOnly")
        /// The caller may not do this (another uid, a sandboxed app outside its items).
        package static let accessDenied = Code(rawValue: "org.freedesktop.DBus.Error.AccessDenied")
        /// An algorithm or feature the provider does not offer.
        package static let notSupported = Code(rawValue: "org.freedesktop.DBus.Error.NotSupported")
        /// The caller holds as many sessions or prompts as it may.
        package static let limitsExceeded = Code(rawValue: "org.freedesktop.DBus.Error.LimitsExceeded")
        /// The keychain failed; the message says how.
        package static let failed = Code(rawValue: "org.freedesktop.DBus.Error.Failed")
        /// The bus name `org.freedesktop.secrets` is owned by another process.
        package static let nameTaken = Code(rawValue: "org.freedesktop.DBus.Error.AddressInUse")
    }

    /// The kind of failure.
    package let code: Code
    /// What went wrong and what to do; never a secret or an attribute value.
    package let message: String

    /// An error; only the factories in `SecretServiceError+Messages.swift` call this.
    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    package var description: String { "\(code.rawValue): \(message)" }
}
