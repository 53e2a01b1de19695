import IntercomPlatform
import Testing
import WebRTC

/// A closed libnice agent must give back what it allocated: a device runs one agent per call for months.
/// Measured with glibc's `mallinfo2` (bytes in use by malloc) after a warm-up, so one-time GLib type and
/// slice caches do not count. The heap is the whole process's, so scripts/test.sh runs this suite alone.
@Suite("ICE agent heap", .serialized)
struct ICEAgentHeapTests {
    /// The waits' deadline. A cancelled `Task.sleep` keeps its allocation until its deadline passes, so
    /// each measurement first waits this long for the finished waits' timers to go.
    static let waitLimit = Duration.seconds(2)

    static func connectAndClose() async throws {
        let pair = try await ICELoopbackPair()
        try await pair.connect(within: waitLimit)
        try await pair.controlling.send([UInt8](repeating: 7, count: 200))
        await pair.close()
    }

    static func settledHeap() async throws -> Int {
        try await Task.sleep(for: waitLimit + .milliseconds(500))
        return MallocHeap.bytesInUse
    }

    /// Two batches after the warm-up, each judged on its own: a libnice stream left behind is ~5 kB a pair.
    /// What grows without a leak (libdispatch's continuation and thread caches) is 0.3-0.4 kB a pair on an
    /// idle machine and was 0.75 kB on a loaded CI machine (more pool threads, more caches), so the bound is
    /// 1 kB a pair. That no longer tells a GLib thread per agent (0.85 kB a pair: GnuTLS keeps a random pool
    /// per thread) from load: this test catches lost streams and agents, not per-thread pools.
    @Test func connectedAgentsLeaveNoHeapBehindWhenClosed() async throws {
        for _ in 0..<20 { try await Self.connectAndClose() }
        let start = try await Self.settledHeap()
        let batch = 75
        for _ in 0..<batch { try await Self.connectAndClose() }
        let middle = try await Self.settledHeap()
        for _ in 0..<batch { try await Self.connectAndClose() }
        let end = try await Self.settledHeap()
        let (first, second) = (middle - start, end - middle)
        print("ICE agent heap: \(first) then \(second) bytes over two batches of \(batch) connected pairs "
            + "(\(first / batch), then \(second / batch) per pair)")
        #expect(first < 1_000 * batch, "heap grew by \(first) bytes over the first \(batch) connect/close pairs")
        #expect(second < 1_000 * batch, "heap grew by \(second) bytes over the second \(batch) connect/close pairs")
    }
}
