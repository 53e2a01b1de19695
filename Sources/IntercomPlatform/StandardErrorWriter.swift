import Glibc
import Synchronization

/// Writes whole lines to file descriptor 2.
///
/// Each line goes out in one call under a lock so lines from different threads never interleave. When
/// stderr is a socket (journald's stream, `JOURNAL_STREAM`), it uses `send(MSG_NOSIGNAL)`: if journald
/// goes away, a plain `write` would raise SIGPIPE and kill the agent. Errors are dropped: a logger has
/// nowhere left to report them, and it must never block the caller forever (EAGAIN gives up on the line).
final class StandardErrorWriter: Sendable {
    private let descriptor: Int32
    private let isSocket: Bool
    private let lock = Mutex(())

    /// `descriptor` is stderr except in tests.
    init(descriptor: Int32 = STDERR_FILENO) {
        self.descriptor = descriptor
        var status = stat()
        isSocket = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }

    func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.withLock { _ in
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                    let written = isSocket
                        ? send(descriptor, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
                        : write(descriptor, rest.baseAddress, rest.count)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }
}
