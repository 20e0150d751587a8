#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Apple's access-group rules for the calling application.
struct SecItemAccessGroups {
    let identity: ApplicationIdentity

    /// No entitlement at all: every call fails, like a test bundle without a host app.
    func requireAnyEntitlement() throws(KeychainError) {
        guard !identity.accessGroups.isEmpty else {
            throw KeychainError.noEntitlements()
        }
    }

    /// The groups a search covers: the explicit group (which must be entitled) or every entitled group.
    func searchGroups(explicit: AttributeValue?) throws(KeychainError) -> [String]? {
        try requireAnyEntitlement()
        if let explicit {
            let group = try name(explicit)
            guard identity.canRead(group) else { throw notEntitled(group) }
            return [group]
        }
        if identity.isEntitledToEveryGroup { return nil }
        return identity.accessGroups.filter { $0 != "*" } + [ApplicationIdentity.tokenGroup]
    }

    /// The group an item is written to: the explicit one (which must be writable) or the default.
    func writeGroup(explicit: AttributeValue?) throws(KeychainError) -> String {
        try requireAnyEntitlement()
        guard let explicit else { return identity.defaultAccessGroup }
        let group = try name(explicit)
        guard identity.canWrite(group) else { throw notEntitled(group) }
        return group
    }

    private func name(_ value: AttributeValue) throws(KeychainError) -> String {
        if let text = value.stringValue { return text }
        if let bytes = value.dataValue, let text = String(data: bytes, encoding: .utf8) { return text }
        throw KeychainError.nonStringAccessGroup()
    }

    private func notEntitled(_ group: String) -> KeychainError {
        KeychainError.accessGroupNotEntitled(group: group, entitledGroups: identity.accessGroups)
    }
}
#endif
