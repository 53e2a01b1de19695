import Glibc

/// The POSIX file calls `AtomicFile` and `StateStore` make, with plain C semantics (-1 and `errno` on
/// failure), behind a protocol so tests can inject `ENOSPC`, `EIO`, `EINTR` and short writes and can record
/// the order of operations (write → fsync → rename → fsync(dir)).
package protocol FileSystemCalls {
    func open(_ path: String, flags: Int32, mode: mode_t) -> Int32
    func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int
    func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Int
    func fstat(_ descriptor: Int32, into status: inout stat) -> Int32
    func fchmod(_ descriptor: Int32, mode: mode_t) -> Int32
    func fsync(_ descriptor: Int32) -> Int32
    func close(_ descriptor: Int32) -> Int32
    func rename(_ source: String, to destination: String) -> Int32
    func unlink(_ path: String) -> Int32
}

/// The real calls, straight to the C library.
package struct PosixFileSystemCalls: FileSystemCalls, Sendable {
    package init() {}

    package func open(_ path: String, flags: Int32, mode: mode_t) -> Int32 {
        Glibc.open(path, flags, mode)
    }

    package func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        Glibc.read(descriptor, buffer.baseAddress, buffer.count)
    }

    package func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Int {
        Glibc.write(descriptor, buffer.baseAddress, buffer.count)
    }

    package func fstat(_ descriptor: Int32, into status: inout stat) -> Int32 {
        Glibc.fstat(descriptor, &status)
    }

    package func fchmod(_ descriptor: Int32, mode: mode_t) -> Int32 {
        Glibc.fchmod(descriptor, mode)
    }

    package func fsync(_ descriptor: Int32) -> Int32 {
        Glibc.fsync(descriptor)
    }

    package func close(_ descriptor: Int32) -> Int32 {
        Glibc.close(descriptor)
    }

    package func rename(_ source: String, to destination: String) -> Int32 {
        Glibc.rename(source, destination)
    }

    package func unlink(_ path: String) -> Int32 {
        Glibc.unlink(path)
    }
}
