#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Hands memory back to the system after a burst of connections has gone. glibc keeps what 1,500 idle
/// sockets' buffers freed in its arenas, so without this the server's RSS stayed a third above its
/// baseline after an attacker left (issue #14, 5); `malloc_trim` returns the free pages.
enum MemoryTrim {
    /// Bursts smaller than this are not worth a trim.
    static let burstSize = 256

    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// glibc's `malloc_trim`, looked up at run time: the Glibc module does not import <malloc.h>, and a
    /// C library without it (musl) simply has nothing to trim.
    private static let mallocTrim: MallocTrim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: MallocTrim.self)
        #else
        return nil
        #endif
    }()

    static func releaseFreedMemory() {
        guard let trim = mallocTrim else { return }
        // A moment later: the rest of the burst is closing too, and its tasks free their memory as they end.
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(2)) { _ = trim(0) }
    }
}
