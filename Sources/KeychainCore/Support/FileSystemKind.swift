#if canImport(Darwin)
import Darwin
#endif
import Foundation

/// Recognises network file systems, where SQLite's write-ahead log is unsafe: WAL needs shared
/// memory and POSIX locks that NFS, SMB and similar do not provide reliably across machines.
enum FileSystemKind {
    /// File-system type names (Linux `/proc/self/mounts`, macOS `statfs.f_fstypename`) of network file systems.
    static let networkTypes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "afpfs", "webdav", "9p", "ceph", "glusterfs",
        "lustre", "afs", "coda", "gfs2", "ocfs2", "fuse.sshfs", "fuse.s3fs", "fuse.gcsfuse", "davfs",
    ]

    /// Whether `path` is on a memory-backed file system (tmpfs or ramfs, from the mount that
    /// holds it), so that what is written there never reaches a disk. Unknown counts as no.
    static func isMemoryBacked(_ path: String) -> Bool {
        #if os(Linux) || os(Android)
        guard let type = type(at: path) else { return false }
        return type == "tmpfs" || type == "ramfs"
        #else
        return false
        #endif
    }

    /// The network file system `path` is on, or `nil` for a local (or unknown) one.
    static func networkFileSystem(at path: String) -> String? {
        guard let type = type(at: path) else { return nil }
        return networkTypes.contains(type) ? type : nil
    }

    /// The type of the file system holding `path`.
    static func type(at path: String) -> String? {
        #if canImport(Darwin)
        var info = statfs()
        guard statfs(path, &info) == 0 else { return nil }
        return withUnsafeBytes(of: info.f_fstypename) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #else
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        return type(of: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, mounts: mounts)
        #endif
    }

    /// The type of the longest mount point containing `path`, from `/proc/self/mounts` text
    /// (`device mountpoint type options …`, with spaces in paths written `\040`).
    static func type(of path: String, mounts: String) -> String? {
        var best: (length: Int, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let mountPoint = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let contains = mountPoint == "/" || path == mountPoint || path.hasPrefix(mountPoint + "/")
            if contains && mountPoint.count >= (best?.length ?? -1) { best = (mountPoint.count, String(fields[2])) }
        }
        return best?.type
    }
}
