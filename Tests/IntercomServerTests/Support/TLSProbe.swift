import NIOCore
import NIOPosix
import NIOSSL

/// One HTTP/1.1 request over a fresh connection, with TLS (trusting `caFile` only) or without, read to
/// the server's close: what a client sees, including the certificate the server presented.
struct TLSProbe {
    struct Answer: Sendable {
        let bytes: [UInt8]
        let peerCertificate: NIOSSLCertificate?
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    static func get(_ path: String, port: Int, trusting caFile: String?) async throws -> Answer {
        let context: NIOSSLContext? = try caFile.map { file in
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .file(file)
            configuration.certificateVerification = .fullVerification
            return try NIOSSLContext(configuration: configuration)
        }
        // A promise may be completed from any loop: made here, completed on the channel's.
        let answer = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Answer.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: context, serverHostname: nil))
                    }
                    try channel.pipeline.syncOperations.addHandler(Collector(promise: answer))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request)).get()
        return try await answer.futureResult.get()
    }

    /// Collects everything read until the connection closes; an error (a failed handshake) fails it.
    final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let promise: EventLoopPromise<Answer>
        var bytes: [UInt8] = []
        var peer: NIOSSLCertificate?
        var done = false

        init(promise: EventLoopPromise<Answer>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // Decrypted bytes arrive after the handshake, so the peer's certificate is known by now.
            if peer == nil {
                peer = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self).peerCertificate
            }
            bytes.append(contentsOf: unwrapInboundIn(data).readableBytesView)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !done { promise.fail(error) }
            done = true
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !done { promise.succeed(Answer(bytes: bytes, peerCertificate: peer)) }
            done = true
        }
    }
}
