/// Which files form one module, whose facts every one of them is linted with.
///
/// A file under `Sources/<Target>/` or `Tests/<Target>/` (a Swift package's target, also inside
/// an app's `Packages/` or `Modules/`) belongs to that target; a file of vendored code
/// (`Pods/<Pod>/`, `Carthage/Checkouts/<Name>/`, `SourcePackages/checkouts/<Name>/`,
/// `Vendor/<Name>/`, `ThirdParty/<Name>/`, …) belongs to that dependency; any other file belongs
/// to the directory it was found under on the command line (an Xcode app's folder is one
/// module). Two modules never share facts: a helper named `delete` in one says nothing about
/// another, and a database library's own encryption options do not make the app's database
/// encrypted.
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
        let target = components.dropLast(2).lastIndex { $0 == "Sources" || $0 == "Tests" }
        // The first directory of vendored code, and the dependency's own directory under it.
        if let vendor = components.dropLast().firstIndex(where: { vendorDirectories.contains($0) }),
            target.map({ $0 < vendor }) ?? true
        {
            let checkouts = vendor + 1 < components.count - 1 && components[vendor + 1].lowercased() == "checkouts"
            let name = checkouts ? vendor + 2 : vendor + 1
            return components[...min(name, components.count - 2)].joined(separator: "/")
        }
        if let index = target {
            return components[...(index + 1)].joined(separator: "/")
        }
        // A file named on the command line shares its directory's module with its neighbours.
        guard let root = root(of: file, roots: roots), root != file else {
            return components.dropLast().joined(separator: "/")
        }
        return root
    }

    /// Directories that hold other projects' code, each dependency under them a module of its own.
    private static let vendorDirectories: Set<Substring> = [
        "Pods", "Carthage", "SourcePackages", "Vendor", "vendor", "Vendored", "ThirdParty", "Third Party",
        "third_party", "third-party"
    ]

    /// The longest of `roots` that `file` was found under (the file itself when it was named).
    package static func root(of file: String, roots: [String]) -> String? {
        roots.filter { $0 == "." || file == $0 || file.hasPrefix($0 + "/") }.max { $0.count < $1.count }
    }

    /// `file` from its root's own name down (`/ci/Test/App/Login.swift` found under
    /// `/ci/Test/App` → `App/Login.swift`; a file named on the command line → its name).
    package static func pathBelowRoot(of file: String, roots: [String]) -> String {
        guard let root = root(of: file, roots: roots) else { return file }
        if root == file { return String(file.split(separator: "/").last ?? Substring(file)) }
        if root == "." { return file }
        let rootName = root.split(separator: "/").last.map(String.init) ?? root
        return rootName + file.dropFirst(root.count)
    }
}
