/// The version of this package, as `keychain --version` prints it and as tagged in git
/// (`.package(url: …, from: "0.13.0")`). Semantic versioning: before 1.0, a minor version may
/// change public API (with deprecations first where possible). Keychain files are never broken by
/// an upgrade: a file written by an earlier version is upgraded in place when first opened.
public enum SecureStorageVersion {
    /// The package version, `0.13.0`.
    public static let string = "0.13.0"
    /// The keychain file format this version writes (it reads and upgrades every earlier one).
    public static let keychainFormat = KeychainSchema.formatVersion
}
