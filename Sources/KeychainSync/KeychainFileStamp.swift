import Foundation
import KeychainCore
@preconcurrency import SecureStorageFoundation

/// The sizes and modification times of a keychain's database and write-ahead log: any write,
/// by any process, changes them.
struct KeychainFileStamp: Equatable {
    private var parts: [Int64] = []

    init(_ location: KeychainLocation) {
        for path in [location.databaseURL.path, location.databaseURL.path + "-wal"] {
            var info = stat()
            if stat(path, &info) == 0 {
                parts += [
                    Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ino)
                ]
            } else {
                parts += [-1]
            }
        }
    }
}
