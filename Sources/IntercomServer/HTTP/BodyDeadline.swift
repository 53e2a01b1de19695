import Hummingbird

/// Reads a request body within a deadline (issue #14, 4: a client that sends a head and then trickles its
/// body one byte a minute would otherwise hold a connection and a task for as long as it likes).
enum BodyDeadline {
    struct Expired: Error {}

    static func collect(_ body: RequestBody, upTo maxBytes: Int, within timeout: Duration) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maxBytes) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let bytes = first else { throw Expired() }
            return bytes
        }
    }
}
