import Foundation

/// Errors of ``ProtectedFiles`` told in file terms: which file or directory (its path), what
/// happened to it, and what to do — never the keychain's item wording, and never the file's
/// contents.
extension SecureStorageError {
    /// This error about the protected file (or store directory) `subject`, e.g.
    /// `the protected file /srv/app/files/report.pdf`. An error whose message already names its
    /// file is returned as it is.
    func about(_ subject: FileSubject) -> SecureStorageError {
        guard !namesFile else { return self }
        let what = subject.text
        let message: String
        switch code {
        case .notFound:
            message =
                "\(what.capitalizedFirst) does not exist. Write it first, or check its name (names() lists the store's files)."
        case .locked:
            message =
                "\(what.capitalizedFirst) cannot be read or written now: its protection class needs the device unlocked (on Linux, the keychain: SecureStorage.unlock(passphrase:) or `keychain unlock`). Nothing was changed; a file being replaced keeps its previous contents. Retry after unlock, or write files needed in the background as .completeUntilFirstUserAuthentication (.private)."
        case .integrityViolation:
            message =
                "\(what.capitalizedFirst) failed its integrity check: it was changed, cut short or extended, or renamed or copied by other means than ProtectedFiles, or its keys in the keychain were altered. None of it was returned. Remove it and write it again, or restore it from a backup."
        case .insecureFile:
            message =
                "\(what.capitalizedFirst) or its directory is not private to this user: another user owns it, others may read or write it, or it is a symbolic link or not a regular file. Nothing was read or written. Remove what is there, or make it yours with mode 0600 (files) and 0700 (the directory)."
        case .fileSystem:
            let number = errorNumber ?? 0
            message =
                "A file operation on \(what) failed: \(String(cString: strerror(number))) (errno \(number)). A file being replaced keeps its previous contents; free space or fix the directory, then retry."
        case .invalidName:
            message =
                "\(subject.name.map { "'\($0)'" } ?? "The name") is not a valid protected file name: use one path component of letters, digits, '.', '_' and '-', 1 to 200 characters, not starting with '.'. Nothing was read or written."
        case .passcodeRequired:
            message =
                "\(what.capitalizedFirst) cannot be written as .topSecret: that needs a device passcode (on Linux, a keychain passphrase: `keychain set-passphrase`) and none is set. Set one, or write the file as .secret."
        default:
            message =
                "\(what.capitalizedFirst) could not be used because the keychain that keeps its keys failed: \(self.message ?? generalDescription)"
        }
        return explained(message, namesFile: true)
    }
}

/// The file or directory a protected-file error is about, for its message. Its wording is made
/// only when an error needs it: every open and create makes one, and most never fail.
struct FileSubject {
    /// The file's name as given; `nil` for the directory.
    private let rawName: String?
    private let directory: URL

    /// `the protected file <path>` or `the protected files' directory <path>`, safe to print.
    var text: String {
        guard let rawName else {
            return "the protected files' directory \(FacadeWording.printable(directory.path))"
        }
        let path =
            ProtectedFiles.isValidName(rawName)
            ? directory.appendingPathComponent(rawName).path
            : "\(directory.path)/\(FacadeWording.printable(rawName))"
        return "the protected file \(FacadeWording.printable(path))"
    }

    /// The file's name as given, safe to print; `nil` for a directory.
    var name: String? { rawName.map(FacadeWording.printable) }

    /// The file `name` of the store in `directory`.
    static func file(_ name: String, in directory: URL) -> FileSubject {
        FileSubject(rawName: name, directory: directory)
    }

    /// The store's directory.
    static func directory(_ directory: URL) -> FileSubject {
        FileSubject(rawName: nil, directory: directory)
    }
}

extension String {
    /// The string with its first character upper-cased.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
