import Foundation
import SecureStorageFoundation

extension MigrationError {
    /// The migration's error for a file it could not create with ``SecretFile/create(_:in:owner:)``
    /// (the scrubbed rewrite or the backup copy), naming the source, the file's role, and — when
    /// the name was taken — whose file is in the way.
    ///
    /// - Parameters:
    ///   - role: what the file is ("temporary file", "backup copy").
    ///   - path: the file that was to be created.
    ///   - source: the file being migrated, named in the error.
    ///   - owner: the user and group the file was to belong to.
    static func cannotCreate(
        _ role: String, at path: String, source: String, owner: (uid: uid_t, gid: gid_t),
        _ failure: SecretFileCreationFailure
    ) -> MigrationError {
        func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
        switch failure {
        case .nameTaken:
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid != geteuid() else {
                return .fileError(
                    file: source,
                    reason:
                        "cannot create the \(role) \(path): a file of that name is already there (left by an interrupted run?); nothing was written to it. Check it, remove it, and run the migration again"
                )
            }
            return .fileError(
                file: source,
                reason:
                    "cannot create the \(role) \(path): another user (user id \(info.st_uid)) already has a file of that name there, which could be a trap to capture the secrets; it was left untouched and nothing was written to it. Remove it (ask its owner or an administrator), or move the source to a directory only you can write, then run the migration again"
            )
        case .cannotCreate(let code):
            return .fileError(file: source, reason: "cannot create the \(role) \(path): \(reason(code))")
        case .cannotChangeOwner(let code):
            return .fileError(
                file: source,
                reason:
                    "cannot give the \(role) \(path) the source's owner and group (\(owner.uid):\(owner.gid)): \(reason(code)); nothing was written to it. Run the migration as the file's owner, or as root"
            )
        case .cannotRestrictMode(let code):
            return .fileError(
                file: source,
                reason:
                    "cannot create the \(role) \(path): fchmod 0600 failed (\(reason(code))); nothing was written to it"
            )
        case .cannotCheck(let code):
            return .fileError(
                file: source,
                reason: "cannot create the \(role) \(path): fstat failed (\(reason(code))); nothing was written to it")
        case .notPrivate(let fileOwner, let mode, _):
            return .fileError(
                file: source,
                reason:
                    "the \(role) \(path) was created but is not a private file (owner \(fileOwner), mode \(String(mode, radix: 8))); nothing was written to it. Check the directory's permissions, ACLs and mount options"
            )
        }
    }
}
