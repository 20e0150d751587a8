import SecureStorage

extension SecureStorage {
    /// The sealer of an app database whose key this storage keeps under `key`, created on first
    /// use: the database tier of the facade, for structured records that are queried.
    ///
    /// ```swift
    /// let storage = SecureStorage(service: "com.acme.notes")
    /// let sealer = try storage.databaseSealer(requireUserPresence: true)   // asks the user, except when it creates the key
    /// ```
    ///
    /// - Parameters:
    ///   - key: the key's name in this storage.
    ///   - sensitivity: the key's protection; by default this storage's `defaultSensitivity`.
    ///   - requireUserPresence: whether loading the key needs the user.
    public func databaseSealer(
        key: String = "database.key", sensitivity: Sensitivity? = nil,
        requireUserPresence: Bool = false
    ) throws(SecureStorageError) -> DatabaseSealer {
        try DatabaseSealer.load(
            from: self, key: key, sensitivity: sensitivity ?? defaultSensitivity,
            requireUserPresence: requireUserPresence)
    }
}
