import Glibc

/// A self-pipe that wakes a thread sleeping in poll(2) (the MQTT and SIP threads): any thread calls `wake()`;
/// the owner polls `readEnd` beside its sockets and calls `drain()` when it fired. Both ends are non-blocking
/// and close-on-exec. A full pipe already wakes the thread, so a failed write is fine.
public final class WakeupPipe: Sendable {
    /// The end to poll for `POLLIN`; -1 if pipe(2) failed (the owner then wakes on its poll timeout only).
    public let readEnd: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    public func wake() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Empties the pipe after poll(2) reported it readable.
    public func drain() {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &drained, drained.count) > 0 {}
    }
}
