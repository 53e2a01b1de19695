import CLibcShims
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
        return CIntercomShims_heap_bytes_in_use()
    }

    @Test func connectedAgentsLeaveNoHeapBehindWhenClosed() async throws {
        for _ in 0..<20 { try await Self.connectAndClose() }
        let before = try await Self.settledHeap()
        let pairs = 150
        for _ in 0..<pairs { try await Self.connectAndClose() }
        let growth = try await Self.settledHeap() - before
        print("ICE agent heap: \(growth) bytes after \(pairs) connected pairs (\(growth / (2 * pairs)) per agent)")
        // Measured per pair: 0.45-0.6 kB (libdispatch's continuation caches filling up). A GLib thread per
        // agent made it 0.85 kB (GnuTLS keeps a random pool per thread); a libnice stream left behind is ~5 kB.
        #expect(growth < 720 * pairs, "heap grew by \(growth) bytes over \(pairs) connect/close pairs")
    }
}
