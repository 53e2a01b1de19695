import Glibc

/// The blocking-with-a-deadline steps of a non-blocking TCP socket, for the clients on threads of their own
/// (MQTT, SIP over TCP): the end of connect(2) and writing a whole buffer. Each answers the errno that
/// stopped it, and the caller wraps it in its own error with its call name.
public enum NonBlockingStream {
    /// After connect(2) answered EINPROGRESS: nil once connected, else the errno (ETIMEDOUT when `timeout`
    /// passed, ECANCELED as soon as `cancelled` says so; it is asked at least every 200 ms).
    public static func waitConnected(_ fd: Int32, timeout: Duration, cancelled: () -> Bool = { false }) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - ContinuousClock.now
            if left <= .zero { return ETIMEDOUT }
            if cancelled() { return ECANCELED }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: min(200, max(1, left.wholeMilliseconds))))
            if ready > 0 { break }
            if ready < 0, errno != EINTR { return errno }
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code == 0 ? nil : code
    }

    /// Writes all of `bytes`, waiting for buffer space at most `timeout` in all: nil, or the errno that
    /// stopped it (ETIMEDOUT when the peer stopped reading, EPIPE for a write that wrote nothing).
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8], timeout: Duration) -> Int32? {
        var offset = 0
        let deadline = ContinuousClock.now + timeout
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
                continue
            }
            let code = written == 0 ? EPIPE : errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else { return code }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return ETIMEDOUT }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, Int32(clamping: max(1, left.wholeMilliseconds)))
        }
        return nil
    }
}
