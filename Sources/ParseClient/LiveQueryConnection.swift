import Foundation
import HummingbirdWSClient
import Logging
import ParseWire

/// The LiveQuery socket of the agent: performs what the sans-IO `LiveQueryClient` asks (open, send, close,
/// reconnect after a delay) over a WebSocket, and reports rows and link changes on `events`.
///
/// Dead sockets have one owner, the WebSocket layer: LiveQuery has no application-level ping, and the WebSocket
/// client keeps ping and pong frames to itself. It pings every `pingInterval` and, when the previous ping is
/// still unanswered at the next one, closes the socket (`Ping timeout`); the core then hears `socketClosed`,
/// drops the link (polling takes over) and reconnects. So a half-open socket (no RST, no FIN: a NAT or a
/// firewall forgot the flow) is noticed at most 2 intervals after it went dead, 24 s with the default 12 s.
/// The server answers pings by itself (Hummingbird's WebSocket handler, as parse-server's `ws` does) and
/// pings the agent every 10 s too; those pings are answered here but never tell liveness.
public actor LiveQueryConnection {
    public enum Event: Sendable, Equatable {
        /// All subscriptions are confirmed (true) or the socket is down (false): drives the polling fallback.
        case link(up: Bool)
        case row(ActiveSessionRow, LiveQueryEventKind)
        case rowGone(objectId: String)
        /// The server said not to reconnect; polling carries on alone.
        case stopped(reason: String)
    }

    public nonisolated let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    private let url: String
    private let pingInterval: Duration
    private let trust: BackendTrust
    private let logger: Logger
    private var core: LiveQueryClient
    private var random = SystemRandomNumberGenerator()
    private var reconnectAfter: Double?
    private var running = true

    /// A ping every 12 s keeps a healthy socket quiet (one 16-byte ping and its pong per interval) and finds a
    /// half-open one within 24 s, so a call made meanwhile is polled for well within a ring (SYSTEM.md §3).
    public static let defaultPingInterval: Duration = .seconds(12)

    /// - Parameters:
    ///   - url: `ws(s)://host:port/parse` (the server URL with http→ws, as the SDKs derive it).
    ///   - pingInterval: the WebSocket ping period; a socket is closed when a ping is unanswered at the next.
    ///   - trust: the CAs a `wss://` server's certificate is checked against.
    public init(url: String, configuration: LiveQueryClient.Configuration, subscriptions: [LiveQuerySubscription],
                pingInterval: Duration = LiveQueryConnection.defaultPingInterval, trust: BackendTrust = BackendTrust(),
                logger: Logger) {
        self.url = url
        self.trust = trust
        self.pingInterval = pingInterval
        self.logger = logger
        core = LiveQueryClient(configuration: configuration, subscriptions: subscriptions)
        (events, eventSink) = AsyncStream<Event>.makeStream()
    }

    /// `http://host:1337/parse` → `ws://host:1337/parse` (`https` → `wss`).
    public static func webSocketURL(serverURL: String) -> String {
        if serverURL.hasPrefix("https://") { return "wss://" + serverURL.dropFirst("https://".count) }
        if serverURL.hasPrefix("http://") { return "ws://" + serverURL.dropFirst("http://".count) }
        return serverURL
    }

    /// Runs until the task is cancelled or the server says stop; reconnects with the SDK backoff meanwhile.
    public func run() async {
        var actions = feed(.start)
        while running, !Task.isCancelled {
            let opens = actions.contains(.openSocket)
            emit(actions)
            if opens {
                await connectOnce()
                actions = feed(.socketClosed(code: nil))
                continue
            }
            guard let delay = reconnectAfter else { break }
            reconnectAfter = nil
            do { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) } catch { break }
            actions = feed(.reconnectDue)
        }
        emit(feed(.stop))
        eventSink.finish()
    }

    /// A new session token (after a re-login): the next `connect` carries it.
    public func sessionTokenChanged(_ token: String?) {
        emit(feed(.sessionTokenChanged(token)))
    }

    // MARK: Socket

    /// One socket, from opening to closing.
    private func connectOnce() async {
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: LiveQueryServerFrame.maxFrameBytes, autoPing: .enabled(timePeriod: pingInterval))
        do {
            let closed = try await WebSocketClient.connect(url: url, configuration: configuration, tlsConfiguration: trust.tlsConfiguration, logger: logger) {
                inbound, outbound, _ in
                _ = try await self.perform(self.feed(.socketOpened), on: outbound)
                for try await message in inbound.messages(maxSize: LiveQueryServerFrame.maxFrameBytes) {
                    guard case .text(let text) = message else { continue }
                    let actions = await self.feed(.frameReceived(text))
                    if try await self.perform(actions, on: outbound) { return }
                }
            }
            // No close frame: the connection ended without a close handshake (the ping timeout, a reset).
            let code = closed.map { String(describing: $0.closeCode) } ?? "none (no close handshake)"
            logger.info("LiveQuery socket closed", metadata: ["url": "\(url)", "code": "\(code)"])
        } catch is CancellationError {
            // Shutting down: not a failure.
        } catch {
            logger.info("LiveQuery socket failed", metadata: ["url": "\(url)", "error": "\(error)"])
        }
    }

    /// Sends what `actions` asks of the socket; returns true when the socket is to close.
    private func perform(_ actions: [LiveQueryAction], on outbound: WebSocketOutboundWriter) async throws -> Bool {
        emit(actions)
        for action in actions {
            switch action {
            case .sendFrame(let text): try await outbound.writeTextMessage(text)
            case .closeSocket:
                try? await outbound.close(.normalClosure, reason: nil)
                return true
            default: continue
            }
        }
        return false
    }

    // MARK: Core

    private func feed(_ input: LiveQueryInput) -> [LiveQueryAction] {
        core.handle(input, using: &random)
    }

    private func emit(_ actions: [LiveQueryAction]) {
        for action in actions {
            switch action {
            case .linkChanged(let up): eventSink.yield(.link(up: up))
            case .deliver(let row, let kind): eventSink.yield(.row(row, kind))
            case .rowGone(let objectId, _): eventSink.yield(.rowGone(objectId: objectId))
            case .scheduleReconnect(let seconds): reconnectAfter = seconds
            case .stopped(let reason):
                running = false
                eventSink.yield(.stopped(reason: reason))
            case .serverError(let code, let message, let willReconnect):
                logger.warning("LiveQuery server error",
                               metadata: ["code": "\(code.map(String.init) ?? "-")", "message": "\(message)",
                                          "reconnect": "\(willReconnect)"])
            case .ignored(let reason):
                logger.debug("LiveQuery frame ignored", metadata: ["reason": "\(reason)"])
            case .openSocket, .sendFrame, .closeSocket, .connected, .subscribed, .unsubscribed:
                continue
            }
        }
    }
}
