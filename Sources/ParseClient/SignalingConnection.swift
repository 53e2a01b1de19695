import Foundation
import HummingbirdWSClient
import Logging
import ParseWire

/// A participant's socket to a call's signaling room (SYSTEM.md §4): joins with the session token, pings
/// every 15 s, turns server frames into `events`, and sends `signal` frames. An unexpected drop is
/// reconnected with the same token (the server replaces the old entry); a refusal or `close()` is final.
public actor SignalingConnection {
    public enum Event: Sendable, Equatable {
        case joined(peerId: String, role: String, peers: [SignalingPeer], iceServers: [IceServer])
        case peerJoined(SignalingPeer)
        case peerLeft(peerId: String, reason: String?)
        case signal(from: String, SignalPayload)
        /// The server refused the join or ended the session (`bad-token`, `expired`, `forbidden`, `full`…).
        case refused(SignalingErrorCode, message: String)
        /// The connection is over for good (closed by us, refused, or out of reconnect attempts).
        case closed
    }

    public static let pingInterval: Duration = .seconds(15)
    public static let maxReconnects = 5

    public nonisolated let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    private let url: String
    private let token: String
    private let name: String?
    private let trust: BackendTrust
    private let logger: Logger
    private var outbox: AsyncStream<String>.Continuation?
    private var finished = false
    private var runner: Task<Void, Never>?
    private var sawJoined = false
    /// `reconnectNow` asked for a new socket: no backoff before it.
    private var reconnectAtOnce = false

    /// `trust`: the CAs a `wss://` server's certificate is checked against.
    public init(url: String, token: String, name: String?, trust: BackendTrust = BackendTrust(), logger: Logger) {
        self.url = url
        self.trust = trust
        self.token = token
        self.name = name
        self.logger = logger
        (events, eventSink) = AsyncStream<Event>.makeStream()
    }

    /// Connects in the background; `events` says what happens.
    public func start() {
        guard runner == nil else { return }
        runner = Task { await self.run() }
    }

    /// Sends `data` to `peerId`; dropped while reconnecting (the peers re-negotiate after a reconnect).
    public func send(_ data: SignalPayload, to peerId: String) {
        outbox?.yield(SignalingFrame.signalTo(peerId: peerId, data: data).text)
    }

    /// Leaves the room and ends the connection (`closed` follows). Frames already queued (a last `bye`) are
    /// written before the socket closes.
    public func close() {
        finished = true
        if let outbox {
            outbox.finish()
        } else {
            runner?.cancel()
        }
    }

    /// Drops the current socket and joins again at once with the same token (the server replaces our entry):
    /// the host's addresses changed, so the socket may be bound to one that is gone and would only be noticed
    /// dead after the ping timeout. `joined` follows on the new socket; what is sent meanwhile is dropped.
    public func reconnectNow() {
        guard !finished, let outbox else { return }
        reconnectAtOnce = true
        outbox.finish()
    }

    private func run() async {
        var attempt = 0
        while !finished, !Task.isCancelled {
            let joined = await connectOnce()
            if finished || Task.isCancelled { break }
            if reconnectAtOnce {
                reconnectAtOnce = false
                attempt = 0
                continue
            }
            attempt = joined ? 1 : attempt + 1
            guard attempt <= Self.maxReconnects else {
                logger.warning("signaling: giving up after \(Self.maxReconnects) reconnects", metadata: ["url": "\(url)"])
                break
            }
            // 0.5, 1, 2, 4, 8 s: a dropped call socket is worth retrying quickly, a dead server is not.
            do { try await Task.sleep(for: .milliseconds(250 << attempt)) } catch { break }
        }
        finished = true
        eventSink.yield(.closed)
        eventSink.finish()
    }

    /// One socket's life; returns whether it got as far as `joined`.
    private func connectOnce() async -> Bool {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(256))
        outbox = continuation
        continuation.yield(SignalingFrame.join(token: token, name: name).text)
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: SignalingFrame.maxFrameBytes, autoPing: .enabled(timePeriod: .seconds(15)))
        sawJoined = false
        do {
            try await WebSocketClient.connect(url: url, configuration: configuration, tlsConfiguration: trust.tlsConfiguration, logger: logger) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in stream { try await outbound.writeTextMessage(text) }
                        try? await outbound.close(.normalClosure, reason: nil)
                    }
                    group.addTask {
                        while true {
                            try await Task.sleep(for: Self.pingInterval)
                            continuation.yield(SignalingFrame.ping.text)
                        }
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: SignalingFrame.maxFrameBytes) {
                            guard case .text(let text) = message else { continue }
                            await self.handle(text)
                        }
                    }
                    _ = try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            logger.info("signaling socket failed", metadata: ["url": "\(url)", "error": "\(error)"])
        }
        continuation.finish()
        outbox = nil
        return sawJoined
    }

    /// Handles one server frame.
    private func handle(_ text: String) {
        let frame: SignalingFrame
        do {
            frame = try SignalingFrame.decode(text)
        } catch {
            logger.debug("signaling: frame ignored", metadata: ["error": "\(error)"])
            return
        }
        switch frame {
        case .joined(let peerId, let role, let peers, let iceServers):
            sawJoined = true
            eventSink.yield(.joined(peerId: peerId, role: role, peers: peers, iceServers: iceServers))
        case .peerJoined(let peer): eventSink.yield(.peerJoined(peer))
        case .peerLeft(let peerId, let reason): eventSink.yield(.peerLeft(peerId: peerId, reason: reason))
        case .signalFrom(let peerId, let data): eventSink.yield(.signal(from: peerId, data))
        case .error(let code, let message):
            finished = true
            eventSink.yield(.refused(code, message: message))
        case .pong, .ping, .join, .signalTo:
            break
        }
    }
}
