import Foundation

/// Who the calling application is, and which access groups it is entitled to — what Apple reads
/// from a signed app's entitlements.
///
/// Off Apple platforms nothing signs an app, so the identity comes from explicit configuration
/// only, never from the executable's name: the Swift API (``init(applicationIdentifier:accessGroups:includeApplicationIdentifier:)``,
/// set as `SecItemEnvironment.applicationIdentity` or through ``KeychainOptions``), else the
/// environment variables `KEYCHAIN_APPLICATION_IDENTIFIER` and `KEYCHAIN_ACCESS_GROUPS`
/// (comma-separated), else the shared default identity (``sharedDefault``): every process
/// without a configured identity — the `keychain` tool included — adds to the group
/// `local.keychain` and sees every item.
///
/// The entitled groups are the configured access groups followed by the application identifier,
/// as on Apple platforms; the first is where items are added by default. The group `"*"`
/// entitles every group. On Linux, access groups separate applications by agreement, not by
/// force: any process of the same user can configure any identity.
public struct ApplicationIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The application identifier (`TEAMID.bundle.id` on Apple platforms).
    public var applicationIdentifier: String
    /// The entitled access groups, in order; may be empty (then every call fails with -34018).
    public var accessGroups: [String]

    /// Creates an identity. The application identifier is appended to the groups unless present,
    /// or unless `includeApplicationIdentifier` is false (to model a client without entitlements,
    /// pass an empty list and `false`).
    public init(applicationIdentifier: String, accessGroups: [String] = [], includeApplicationIdentifier: Bool = true) {
        self.applicationIdentifier = applicationIdentifier
        var groups = accessGroups.filter { !$0.isEmpty }
        if includeApplicationIdentifier && !groups.contains(applicationIdentifier) {
            groups.append(applicationIdentifier)
        }
        self.accessGroups = groups
    }

    /// The group shared by every process without a configured identity, the `keychain` tool
    /// included: `local.keychain`.
    public static let sharedGroup = "local.keychain"

    /// The identity of a process without configuration: application identifier and default group
    /// ``sharedGroup``, entitled to every group (`"*"`), as the `keychain` tool always was. So the
    /// tool and unconfigured apps see the same items, including those earlier versions put in
    /// `local.<process name>` groups; an app that configures an identity sees only its groups.
    public static let sharedDefault = ApplicationIdentity(
        applicationIdentifier: sharedGroup, accessGroups: [sharedGroup, "*"])

    /// Whether this is an identity someone configured (not ``sharedDefault``).
    public var isConfigured: Bool { self != Self.sharedDefault }

    /// The identity the environment describes: `KEYCHAIN_APPLICATION_IDENTIFIER` and
    /// `KEYCHAIN_ACCESS_GROUPS`, else ``sharedDefault``. Access groups given without an
    /// identifier still restrict the process: its identifier is then the first group (what Apple
    /// uses as the default group, too), never the shared identity that sees everything.
    public static func resolve(environment: [String: String]) -> ApplicationIdentity {
        let groups =
            environment["KEYCHAIN_ACCESS_GROUPS"]?
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        guard
            let identifier = environment["KEYCHAIN_APPLICATION_IDENTIFIER"].flatMap({ $0.isEmpty ? nil : $0 })
                ?? groups.first
        else {
            return sharedDefault
        }
        return ApplicationIdentity(applicationIdentifier: identifier, accessGroups: groups)
    }

    /// The identity of this process, from its environment.
    public static var current: ApplicationIdentity { resolve(environment: ProcessInfo.processInfo.environment) }

    /// The group items are added to when no group is given: the first entitled group that is
    /// writable (not `"*"` and not `com.apple.token`), else the application identifier.
    public var defaultAccessGroup: String {
        accessGroups.first { $0 != "*" && $0 != Self.tokenGroup } ?? applicationIdentifier
    }

    /// Whether every group is entitled (`"*"`).
    public var isEntitledToEveryGroup: Bool { accessGroups.contains("*") }

    /// Whether the application may read items of a group.
    public func canRead(_ group: String) -> Bool {
        isEntitledToEveryGroup || accessGroups.contains(group) || (group == Self.tokenGroup && !accessGroups.isEmpty)
    }

    /// Whether the application may add items to a group (`com.apple.token` is read-only).
    public func canWrite(_ group: String) -> Bool {
        group != Self.tokenGroup && (isEntitledToEveryGroup || accessGroups.contains(group))
    }

    /// `kSecAttrAccessGroupToken`, readable by everyone entitled to anything, writable by no one.
    public static let tokenGroup = "com.apple.token"

    /// `"<identifier> [groups]"`.
    public var description: String { "\(applicationIdentifier) \(accessGroups)" }
}
