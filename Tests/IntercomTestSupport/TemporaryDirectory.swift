import Foundation
import Glibc
import IntercomPlatform

/// A fresh directory under `$TMPDIR` (or `/tmp`) that deletes itself and everything in it on deinit.
/// Paths stay short so sockets created inside fit `sun_path` (108 bytes).
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "intercom-test") throws(SystemCallError) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw SystemCallError(call: "mkdtemp", errno: errno, path: base)
        }
        path = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The absolute path of `name` inside this directory.
    public func path(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes a fixture file plainly (open, write, close; not atomic), so tests can plant damaged files
    /// without going through the code under test.
    public func write(_ bytes: [UInt8], to name: String, permissions: mode_t = 0o644) throws(SystemCallError) {
        let target = path(name)
        let descriptor = try retryingOnInterrupt("open", path: target) {
            open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions)
        }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            offset += try retryingOnInterrupt("write", path: target) {
                bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            }
        }
    }

    public func write(_ text: String, to name: String, permissions: mode_t = 0o644) throws(SystemCallError) {
        try write(Array(text.utf8), to: name, permissions: permissions)
    }

    /// The bytes of `name`, or nil if it cannot be read. Plain `read(2)`: Foundation's
    /// `FileManager.contents(atPath:)` leaks a buffer on empty files, which LeakSanitizer runs would report.
    public func contents(of name: String) -> [UInt8]? {
        let descriptor = open(path(name), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            contents.append(contentsOf: chunk[0..<count])
        }
    }

    /// The names in this directory (including dot files), sorted.
    public func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
