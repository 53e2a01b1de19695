import NIOCore

/// The first handler of every connection, on raw bytes: the connection cap (503 and close), the deadline
/// for the first request head, and the idle timeout (the `IdleStateHandler` in front of it reports silence).
/// It sits before Hummingbird's HTTP handlers because those are only added once a first head has parsed,
/// so a socket that never sends one would otherwise be held forever.
final class ConnectionGuardHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let counter: ConnectionCounter
    private let headerTimeout: TimeAmount
    private var counted = false
    private var headComplete = false
    /// The last bytes seen, to find the blank line that ends the first head across reads.
    private var tail: [UInt8] = []
    private var headerDeadline: Scheduled<Void>?
    /// This handler answered (503 or 408): what the client still sends is read and dropped.
    private var answered = false
    private var started = false

    init(counter: ConnectionCounter, headerTimeout: TimeAmount) {
        self.counter = counter
        self.headerTimeout = headerTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Added to a channel that is already active (the server's child channel initializer runs late).
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        guard counter.admit() else {
            answer(context, status: "503 Service Unavailable", body: "too many connections\n")
            return
        }
        counted = true
        headerDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: headerTimeout) { [self] in
            guard !headComplete, !answered else { return }
            answer(context, status: "408 Request Timeout", body: "request head not received in time\n")
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        headerDeadline?.cancel()
        if counted {
            counted = false
            counter.release()
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard counted, !answered else { return }  // refused or answered: nothing more is parsed
        if !headComplete {
            let bytes = unwrapInboundIn(data).readableBytesView
            tail.append(contentsOf: bytes)
            if Self.containsBlankLine(tail) {
                headComplete = true
                headerDeadline?.cancel()
                tail = []
            } else if tail.count > 4 {
                tail.removeFirst(tail.count - 4)
            }
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            // Silent past the idle timeout: nothing is owed to it; close without a response.
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private static func containsBlankLine(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return true
        }
        return false
    }

    /// Writes a complete HTTP/1.1 response straight to the socket and closes it.
    private func answer(_ context: ChannelHandlerContext, status: String, body: String) {
        answered = true
        let text = "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Type: text/plain\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        LingeringClose.answer(context, with: wrapOutboundOut(context.channel.allocator.buffer(string: text)))
    }
}
