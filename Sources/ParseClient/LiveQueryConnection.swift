import Foundation
import HummingbirdWSClient
import Logging
import ParseWire

/// The LiveQuery socket of the agent: performs what the sans-IO `LiveQueryClient` asks (open, send, close,
/// reconnect after a delay) over a WebSocket, and reports rows and link changes on `events`. Dead sockets
/// are found by WebSocket pings every 10 s (a missing pong closes the socket), mirroring parse-server.
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
    private let logger: Logger
    private var core: LiveQueryClient
    private var random = SystemRandomNumberGenerator()
    private var reconnectAfter: Double?
    private var running = true
    private let started = ContinuousClock.now

    /// - Parameter url: `ws(s)://host:port/parse` (the server URL with http→ws, as the SDKs derive it).
    public init(url: String, configuration: LiveQueryClient.Configuration, subscriptions: [LiveQuerySubscription],
                logger: Logger) {
        self.url = url
        self.logger = logger
        var configuration = configuration
        // The WebSocket layer's own pings find dead sockets; LiveQuery is legitimately silent between events.
        configuration.pingAfterSilenceSeconds = .infinity
        configuration.deadAfterSilenceSeconds = .infinity
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
                actions = feed(.socketClosed(code: nil, now: now))
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

    private func connectOnce() async {
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: LiveQueryServerFrame.maxFrameBytes, autoPing: .enabled(timePeriod: .seconds(10)))
        do {
            try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                _ = try await self.perform(self.feed(.socketOpened(now: self.now)), on: outbound)
                for try await message in inbound.messages(maxSize: LiveQueryServerFrame.maxFrameBytes) {
                    guard case .text(let text) = message else { continue }
                    let actions = await self.feed(.frameReceived(text, now: self.now))
                    if try await self.perform(actions, on: outbound) { return }
                }
            }
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

    private nonisolated var now: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

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
            case .openSocket, .sendFrame, .sendPing, .sendPong, .closeSocket, .connected, .subscribed, .unsubscribed:
                continue
            }
        }
    }
}
