/// Which files form one module, whose facts every one of them is linted with.
///
/// A file under `Sources/<Target>/` or `Tests/<Target>/` (a Swift package's target, also inside
/// an app's `Packages/` or `Modules/`) belongs to that target; any other file belongs to the
/// directory it was found under on the command line (an Xcode app's folder is one module). Two
/// targets never share facts: a helper named `delete` in one says nothing about another.
package enum ModuleMap {
    /// The module of each file, as indices into the list of distinct modules, in file order.
    package static func moduleIndices(of files: [String], roots: [String]) -> [Int] {
        var indices: [String: Int] = [:]
        return files.map { file in
            let key = moduleKey(of: file, roots: roots)
            if let index = indices[key] { return index }
            indices[key] = indices.count
            return indices.count - 1
        }
    }

    /// The module a file belongs to: its target directory, or the root it was found under.
    package static func moduleKey(of file: String, roots: [String]) -> String {
        let components = file.split(separator: "/", omittingEmptySubsequences: false)
        // The last `Sources`/`Tests` component followed by a directory (not the file itself).
        if let index = components.dropLast(2).lastIndex(where: { $0 == "Sources" || $0 == "Tests" }) {
            return components[...(index + 1)].joined(separator: "/")
        }
        let root = roots.filter { $0 == "." || file == $0 || file.hasPrefix($0 + "/") }.max { $0.count < $1.count }
        return root ?? ""
    }
}
