import HummingbirdWebSocket
import Logging
import ParseWire
import Synchronization

/// The session signaling WebSocket (`ws://host/signal`, SYSTEM.md §4): the first frame must be a `join`
/// within `joinDeadline`; then frames go to the rooms and the peer's outbox goes to the socket until
/// either side ends. A finished outbox closes the socket (refused, replaced or dropped peer).
struct SignalingEndpoint: Sendable {
    static let joinDeadline: Duration = .seconds(10)

    let rooms: SignalingRooms

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, logger: Logger) async {
        let (outbox, continuation) = AsyncStream<String>.makeStream(
            bufferingPolicy: .bufferingOldest(SignalingRooms.outboxLimit))
        let peer = JoinedPeer()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outbox {
                    do { try await outbound.writeTextMessage(text) } catch { break }
                }
                try? await outbound.close(.normalClosure, reason: nil)
            }
            group.addTask {
                do {
                    for try await message in inbound.messages(maxSize: SignalingFrame.maxFrameBytes) {
                        guard case .text(let text) = message else { continue }
                        if let peerId = peer.id {
                            await rooms.receive(text, from: peerId)
                        } else if let peerId = await rooms.join(text, outbox: continuation) {
                            peer.id = peerId
                        } else {
                            return  // refused: the rooms sent the error and finished the outbox
                        }
                    }
                } catch {
                    logger.debug("signaling socket ended", metadata: ["error": "\(error)"])
                }
            }
            group.addTask {
                try? await Task.sleep(for: Self.joinDeadline)
                if peer.id == nil {
                    continuation.yield(SignalingRooms.Refusal(code: .badFrame, message: "no join frame within 10 s").frame)
                    continuation.finish()
                }
            }
            await group.next()
            if let peerId = peer.id { await rooms.leave(peerId, reason: "left") }
            continuation.finish()
            group.cancelAll()
        }
    }
}

/// The peer id a socket got from its join, shared by its reader and its join deadline.
private final class JoinedPeer: Sendable {
    private let value = Mutex<String?>(nil)

    var id: String? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
