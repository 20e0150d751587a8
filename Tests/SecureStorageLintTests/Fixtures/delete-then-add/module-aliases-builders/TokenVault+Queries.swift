import Security

extension TokenVault {
    /// The query of one key, built in another file than its callers.
    func baseQuery(_ key: String) -> [String: Any] {
        [KeychainKeys.itemClass: kSecClassGenericPassword, KeychainKeys.service: service,
         KeychainKeys.account: keyPrefix + key]
    }
}
