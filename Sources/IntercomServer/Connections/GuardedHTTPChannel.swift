import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// Hummingbird's HTTP/1 + WebSocket child channel with `ConnectionGuardHandler` (cap, head deadline, idle
/// timeout) in front and `MalformedRequestHandler` right after the request decoder. Under HTTPS the guard
/// goes right after the TLS handler: it reads request heads, which only exist once decrypted. A connection
/// whose task is cancelled (the end of `ServerLifecycle.shutdownGrace`) is closed: Hummingbird's HTTP/1
/// handler would otherwise keep waiting for a half-sent request until the header deadline.
struct GuardedHTTPChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let counter: ConnectionCounter
    let limits: ConnectionLimits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let counter = counter
        let limits = limits
        return channel.eventLoop.makeCompletedFuture {
            let operations = channel.pipeline.syncOperations
            let position: ChannelPipeline.SynchronousOperations.Position =
                if let tls = try? operations.handler(type: NIOSSLServerHandler.self) { .after(tls) } else { .first }
            try operations.addHandlers(
                [IdleStateHandler(readTimeout: .seconds(limits.idleTimeoutSeconds)),
                 ConnectionGuardHandler(counter: counter, headerTimeout: .seconds(limits.headerTimeoutSeconds))],
                position: position)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(MalformedRequestHandler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskCancellationHandler {
            await inner.handle(value: value, logger: logger)
        } onCancel: {
            value.channel.close(promise: nil)
        }
    }
}
