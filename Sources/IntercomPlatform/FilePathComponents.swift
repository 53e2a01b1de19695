/// Splits a file path into the directory that holds it and its last component, the way `dirname(3)` and
/// `basename(3)` would for the simple paths we write (no trailing slash).
struct FilePathComponents: Equatable {
    let directory: String
    let name: String

    /// Returns nil for paths that do not name a file: empty, ending in `/`, or `.`/`..`.
    init?(_ path: String) {
        guard !path.isEmpty, !path.hasSuffix("/") else { return nil }
        if let slash = path.lastIndex(of: "/") {
            let parent = String(path[..<slash])
            directory = parent.isEmpty ? "/" : parent
            name = String(path[path.index(after: slash)...])
        } else {
            directory = "."
            name = path
        }
        guard name != ".", name != ".." else { return nil }
    }

    /// The path of another entry in the same directory.
    func sibling(named sibling: String) -> String {
        directory.hasSuffix("/") ? directory + sibling : directory + "/" + sibling
    }
}
