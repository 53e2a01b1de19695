import Glibc

/// Runs a C call that returns -1 and sets `errno` on failure, retrying while it fails with `EINTR`.
///
/// Never use this for `close(2)`: on Linux the descriptor is released even when `close` reports `EINTR`,
/// so retrying could close a descriptor another thread has just been given.
@discardableResult
public func retryingOnInterrupt(
    _ call: String,
    path: String? = nil,
    _ body: () -> Int32
) throws(SystemCallError) -> Int32 {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code != EINTR { throw SystemCallError(call: call, errno: code, path: path) }
    }
}

/// The `ssize_t` flavour, for `read`, `write`, `sendto` and `recv`.
@discardableResult
public func retryingOnInterrupt(
    _ call: String,
    path: String? = nil,
    _ body: () -> Int
) throws(SystemCallError) -> Int {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code != EINTR { throw SystemCallError(call: call, errno: code, path: path) }
    }
}
