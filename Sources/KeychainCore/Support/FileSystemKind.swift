#if !canImport(Darwin) && canImport(CFileSystemType)
import CFileSystemType
#endif
import Foundation
import SecureStorageFoundation

/// Recognises network file systems, where SQLite's write-ahead log is unsafe: WAL needs shared
/// memory and POSIX locks that NFS, SMB and similar do not provide reliably across machines.
enum FileSystemKind {
    /// File-system type names (Linux `/proc/self/mounts`, macOS `statfs.f_fstypename`) of network file systems.
    static let networkTypes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "afpfs", "webdav", "9p", "ceph", "glusterfs",
        "lustre", "afs", "coda", "gfs2", "ocfs2", "fuse.sshfs", "fuse.s3fs", "fuse.gcsfuse", "davfs"
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
        // statfs(2) names most file systems by their magic number without reading the mount
        // table; FUSE (whose real type, such as fuse.sshfs, only the table says) and unknown
        // magics fall back to /proc/self/mounts.
        var info = statfs()
        if statfs(path, &info) == 0, let known = magicTypes[UInt32(truncatingIfNeeded: info.f_type)] { return known }
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        return type(of: URL(fileURLWithPath: path).resolvingSymlinksInPath().path, mounts: mounts)
        #endif
    }

    /// Linux `statfs.f_type` magic numbers (`linux/magic.h` and the file systems' own headers)
    /// and the `/proc/self/mounts` type names they stand for: the common local file systems,
    /// the memory-backed ones, and every network file system of ``networkTypes`` that has a
    /// magic of its own. FUSE (0x65735546) is deliberately absent.
    static let magicTypes: [UInt32: String] = [
        0xEF53: "ext4", 0x5846_5342: "xfs", 0x9123_683E: "btrfs", 0x2FC1_2FC1: "zfs", 0xF2F5_2010: "f2fs",
        0x794C_7630: "overlay",
        0x0102_1994: "tmpfs", 0x8584_58F6: "ramfs",
        0x6969: "nfs", 0x517B: "smb", 0xFF53_4D42: "cifs", 0xFE53_4D42: "smb2", 0x0102_1997: "9p", 0x00C3_6400: "ceph",
        0x5346_414F: "afs", 0x6B41_4653: "afs", 0x7375_7245: "coda", 0x0116_1970: "gfs2", 0x7461_636F: "ocfs2",
        0x0BD0_0BD0: "lustre"
    ]

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
