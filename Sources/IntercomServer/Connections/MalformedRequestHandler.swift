import NIOCore
import NIOHTTP1

/// Sits right after NIO's HTTP request decoder and turns its parse errors into an answer and a close
/// (issue #14, 4): 431 for a head over the size or count limits, 505 for an HTTP version other than
/// 1.0/1.1, 400 for anything else malformed. Hummingbird's own handling would answer only once a first
/// head had parsed and then wait for the client to close.
final class MalformedRequestHandler: ChannelDuplexHandler {
    // Reads are never unwrapped: after a WebSocket upgrade the same position carries raw bytes.
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        refuse(context, Self.status(for: parseError))
    }

    static func status(for error: HTTPParserError) -> HTTPResponseStatus {
        switch error {
        case .headerOverflow: .requestHeaderFieldsTooLarge
        case .invalidVersion: .httpVersionNotSupported
        default: .badRequest
        }
    }

    private func refuse(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus) {
        guard !refused else { return }
        refused = true
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Length", value: "0")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        LingeringClose.answer(context, with: wrapOutboundOut(.end(nil)))
    }
}
