import HummingbirdWebSocket
import Logging
import ParseWire
import Synchronization

/// The session signaling WebSocket (`ws://host/signal`, SYSTEM.md §4): the first frame must be a `join`
/// within `joinDeadline`; then frames go to the rooms and the peer's outbox goes to the socket until
/// either side ends. A finished outbox closes the socket (refused, replaced or dropped peer).
struct SignalingEndpoint: Sendable {
    static let joinDeadline: Duration = .seconds(10)

    let relay: SignalingRelay

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger) async {
        let (outbox, continuation) = AsyncStream<String>.makeStream(
            bufferingPolicy: .bufferingOldest(SignalingRooms.outboxLimit))
        let peer = JoinedPeer()
        // Not a member of the group below: the group ends when the socket's reader or writer does.
        let deadline = Task {
            try? await Task.sleep(for: Self.joinDeadline)
            guard !Task.isCancelled, peer.id == nil else { return }
            continuation.yield(SignalingRooms.Refusal(code: .badFrame, message: "no join frame within 10 s").frame)
            continuation.finish()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outbox {
                    do { try await outbound.writeTextMessage(text) } catch { break }
                }
                // The outbox ends when the peer was refused, replaced or dropped: close the socket.
                try? await outbound.close(.normalClosure, reason: nil)
            }
            group.addTask {
                var refused = false
                do {
                    for try await message in inbound.messages(maxSize: SignalingFrame.maxFrameBytes) {
                        guard case .text(let text) = message, !refused else { continue }
                        if let handle = peer.id {
                            await relay.receive(text, from: handle)
                        } else if let handle = await relay.join(text, outbox: continuation) {
                            peer.id = handle
                        } else {
                            // The rooms queued the error and finished the outbox; the writer closes the socket.
                            refused = true
                        }
                    }
                } catch {
                    logger.debug("signaling socket ended", metadata: ["error": "\(error)"])
                }
            }
            await group.next()
            deadline.cancel()
            if let handle = peer.id { await relay.leave(handle, reason: "left") }
            continuation.finish()
            group.cancelAll()
        }
    }
}

/// What a socket got from its join, shared by its reader and its join deadline.
private final class JoinedPeer: Sendable {
    private let value = Mutex<SignalingRelay.Handle?>(nil)

    var id: SignalingRelay.Handle? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
