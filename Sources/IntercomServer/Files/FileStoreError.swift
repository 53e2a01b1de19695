/// A file-store operation that failed: which one, on which path, and the system's reason.
struct FileStoreError: Error, Sendable, CustomStringConvertible {
    var operation: String
    var path: String
    var reason: String

    var description: String { "\(operation) \(path): \(reason)" }
}
