import NIOCore

/// Closing a socket right after answering a client that is still sending (a 1 MB header) makes the kernel
/// reset the connection, and a reset can destroy the answer before the client reads it. So: send the answer,
/// shut down the sending side, and close completely a moment later (or when the client closes first).
enum LingeringClose {
    static let linger: TimeAmount = .seconds(1)

    /// Writes `response` from `context`'s position, then half-closes and schedules the full close.
    static func answer(_ context: ChannelHandlerContext, with response: NIOAny) {
        context.writeAndFlush(response).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: linger) { context.close(promise: nil) }
        }
    }
}
