/// The keys the other party of a SIP call types (RFC 4733, reported on the media's thread), handed to the call's
/// dialog one at a time in the order they were typed (a task per key could reorder them).
struct SIPKeypad: Sendable {
    private let stream: AsyncStream<Character>
    private let input: AsyncStream<Character>.Continuation

    init() {
        (stream, input) = AsyncStream.makeStream()
    }

    func press(_ key: Character) {
        input.yield(key)
    }

    /// Hands each key to `typed`, in order, until `finish()`.
    func deliver(to typed: @escaping @Sendable (Character) async -> Void) {
        let stream = self.stream
        Task { for await key in stream { await typed(key) } }
    }

    func finish() {
        input.finish()
    }
}
