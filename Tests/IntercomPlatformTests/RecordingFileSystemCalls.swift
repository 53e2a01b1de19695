import Glibc
import IntercomPlatform

/// Real file calls with a journal of what was called, on what, in which order, plus injected faults:
/// a failing errno for a named step, `EINTR` a number of times, and a cap on bytes per `write`.
///
/// Steps are named "<call> <role>" where role is `temp` (the temporary file), `dir` (the target's
/// directory) or `target`, e.g. "fsync temp", "rename temp", "fsync dir".
final class RecordingFileSystemCalls: FileSystemCalls {
    let directory: String
    private(set) var steps: [String] = []
    private(set) var writeSizes: [Int] = []
    var failures: [String: Int32] = [:]
    var interruptions: [String: Int] = [:]
    var maximumBytesPerWrite = Int.max
    private var roles: [Int32: String] = [:]
    private let real = PosixFileSystemCalls()

    init(directory: String) {
        self.directory = directory
    }

    func role(of path: String) -> String {
        if path == directory { return "dir" }
        return path.contains(".tmp-") ? "temp" : "target"
    }

    /// Records the step and returns true when it should fail (errno already set).
    private func shouldFail(_ step: String) -> Bool {
        steps.append(step)
        if let remaining = interruptions[step], remaining > 0 {
            interruptions[step] = remaining - 1
            errno = EINTR
            return true
        }
        if let code = failures[step] {
            errno = code
            return true
        }
        return false
    }

    func open(_ path: String, flags: Int32, mode: mode_t) -> Int32 {
        let role = role(of: path)
        if shouldFail("open \(role)") { return -1 }
        let descriptor = real.open(path, flags: flags, mode: mode)
        if descriptor >= 0 { roles[descriptor] = role }
        return descriptor
    }

    func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        shouldFail("read \(roles[descriptor, default: "?"])") ? -1 : real.read(descriptor, into: buffer)
    }

    func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Int {
        if shouldFail("write \(roles[descriptor, default: "?"])") { return -1 }
        let capped = UnsafeRawBufferPointer(rebasing: buffer[..<min(buffer.count, maximumBytesPerWrite)])
        let written = real.write(descriptor, from: capped)
        if written > 0 { writeSizes.append(written) }
        return written
    }

    func fstat(_ descriptor: Int32, into status: inout stat) -> Int32 {
        shouldFail("fstat \(roles[descriptor, default: "?"])") ? -1 : real.fstat(descriptor, into: &status)
    }

    func fchmod(_ descriptor: Int32, mode: mode_t) -> Int32 {
        shouldFail("fchmod \(roles[descriptor, default: "?"])") ? -1 : real.fchmod(descriptor, mode: mode)
    }

    func fsync(_ descriptor: Int32) -> Int32 {
        shouldFail("fsync \(roles[descriptor, default: "?"])") ? -1 : real.fsync(descriptor)
    }

    func close(_ descriptor: Int32) -> Int32 {
        let step = "close \(roles[descriptor, default: "?"])"
        roles[descriptor] = nil
        if shouldFail(step) {
            _ = real.close(descriptor)  // Like Linux: the descriptor is gone even when close reports an error.
            return -1
        }
        return real.close(descriptor)
    }

    func rename(_ source: String, to destination: String) -> Int32 {
        shouldFail("rename \(role(of: source))") ? -1 : real.rename(source, to: destination)
    }

    func unlink(_ path: String) -> Int32 {
        shouldFail("unlink \(role(of: path))") ? -1 : real.unlink(path)
    }
}
