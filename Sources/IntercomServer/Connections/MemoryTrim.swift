import Dispatch
import IntercomPlatform

/// Hands memory back to the system after a burst of connections has gone. glibc keeps what 1,500 idle
/// sockets' buffers freed in its arenas, so without this the server's RSS stayed a third above its
/// baseline after an attacker left (issue #14, 5); `MallocHeap.release()` (`malloc_trim`) returns the free pages.
enum MemoryTrim {
    /// Bursts smaller than this are not worth a trim.
    static let burstSize = 256

    static func releaseFreedMemory() {
        // A moment later: the rest of the burst is closing too, and its tasks free their memory as they end.
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(2)) { MallocHeap.release() }
    }
}
