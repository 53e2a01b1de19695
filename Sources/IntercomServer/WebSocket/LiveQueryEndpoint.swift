import HummingbirdWebSocket
import Logging

/// The LiveQuery WebSocket (`ws://host/parse`, parse-wire.md §8): hands every text frame to the hub, in
/// order, and writes the hub's outbox to the socket. Binary frames are ignored like parse-server does.
struct LiveQueryEndpoint: Sendable {
    let hub: LiveQueryHub

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, client: ClientAddress,
               logger: Logger) async {
        let (clientId, outbox) = await hub.register(address: client)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outbox {
                    do { try await outbound.writeTextMessage(text) } catch { break }
                }
            }
            group.addTask {
                do {
                    for try await message in inbound.messages(maxSize: LiveQueryFrameLimit.bytes) {
                        guard case .text(let text) = message else { continue }
                        await hub.receive(text, from: clientId)
                    }
                } catch {
                    logger.debug("LiveQuery socket ended", metadata: ["client": "\(clientId)", "error": "\(error)"])
                }
            }
            // Whichever ends first (the peer closed, or the hub dropped a stuck client) ends the other.
            await group.next()
            await hub.unregister(clientId)
            group.cancelAll()
        }
    }
}

enum LiveQueryFrameLimit {
    /// Frames above this are refused by the WebSocket layer (reliability matrix: bounded frames).
    static let bytes = 1 << 20
}
