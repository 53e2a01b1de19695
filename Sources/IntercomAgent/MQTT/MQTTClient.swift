import Glibc
import IntercomPlatform
import Logging
import MQTTCore
import Synchronization

/// An MQTT connection on a thread of its own ("mqtt"), driving `MQTTSession` (MQTTCore) with a real socket
/// and clock. `publish` only appends to a bounded inbox and wakes the thread, so no caller (the call path
/// least of all) ever waits for the broker; while disconnected the session keeps the latest retained message
/// per topic and re-publishes it on reconnect.
public final class MQTTClient: Sendable {
    public struct Endpoint: Sendable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    private struct Inbox {
        var events: [MQTTSessionEvent] = []
        var finished: CheckedContinuation<Void, Never>?
        var done = false
    }

    /// Beyond this many queued events a non-retained publish is dropped (retained ones replace their topic's).
    static let inboxLimit = 256
    private let inbox = Mutex(Inbox())
    /// Polled by the MQTT thread with the socket; the inbox wakes it.
    private let wakeup = WakeupPipe()
    private let endpoint: Endpoint
    private let configuration: MQTTSessionConfiguration
    private let onMessage: @Sendable (MQTTMessage) -> Void
    private let onConnected: @Sendable () -> Void
    private let logger: Logger

    /// `onMessage` and `onConnected` run on the MQTT thread: they must hand work off, not do it.
    public init(endpoint: Endpoint, configuration: MQTTSessionConfiguration, logger: Logger,
                onConnected: @escaping @Sendable () -> Void = {}, onMessage: @escaping @Sendable (MQTTMessage) -> Void) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.onMessage = onMessage
        self.onConnected = onConnected
        self.logger = logger
    }

    public func start() {
        NamedThread.start("mqtt") { [self] in run() }
        submit(.start)
    }

    /// Queues `message` for the broker and returns at once.
    public func publish(_ message: MQTTMessage) { submit(.publish(message)) }

    /// Publishes the will (`offline`), disconnects and waits for the thread to end.
    public func stop() async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let alreadyDone = inbox.withLock { inbox in
                if inbox.done { return true }
                inbox.finished = finished
                inbox.events.append(.stop)
                return false
            }
            if alreadyDone { finished.resume() } else { wake() }
        }
    }

    private func submit(_ event: MQTTSessionEvent) {
        inbox.withLock { inbox in
            guard !inbox.done else { return }
            if inbox.events.count >= Self.inboxLimit {
                guard case .publish(let message) = event, message.retain else { return }
                // Only the latest state of a topic matters: replace a queued one rather than grow.
                if let index = inbox.events.firstIndex(where: { if case .publish(let old) = $0 { old.topic == message.topic } else { false } }) {
                    inbox.events[index] = event
                }
                return
            }
            inbox.events.append(event)
        }
        wake()
    }

    private func wake() { wakeup.wake() }

    // MARK: The MQTT thread

    private func run() {
        var session = MQTTSession(configuration: configuration)
        var socket: MQTTSocket?
        var retryAt: Duration?
        var lastTick: Duration = .zero
        var outage = false
        let epoch = ContinuousClock.now
        func now() -> Duration { ContinuousClock.now - epoch }

        func perform(_ actions: [MQTTSessionAction]) {
            var pending = actions
            while !pending.isEmpty {
                let action = pending.removeFirst()
                switch action {
                case .openConnection:
                    do throws(MQTTTransportError) {
                        socket = try MQTTSocket.connect(host: endpoint.host, port: endpoint.port, timeout: configuration.connectTimeout,
                                                        cancelled: { self.inbox.withLock { $0.events.contains(.stop) } })
                        pending += session.handle(.transportUp, at: now())
                    } catch {
                        pending += session.handle(.transportFailed("\(error)"), at: now())
                    }
                case .send(let bytes):
                    guard let open = socket else { continue }
                    do throws(MQTTTransportError) {
                        try open.send(bytes, timeout: .seconds(5))
                    } catch {
                        socket = nil
                        pending += session.handle(.transportClosed("\(error)"), at: now())
                    }
                case .closeConnection:
                    socket = nil
                case .scheduleRetry(let delay):
                    retryAt = now() + delay
                case .warning(let text):
                    logger.warning("MQTT: \(text)", metadata: ["broker": "\(endpoint.host):\(endpoint.port)"])
                case .deliver(let message):
                    onMessage(message)
                case .connected:
                    logger.notice("MQTT connected", metadata: ["broker": "\(endpoint.host):\(endpoint.port)"])
                    outage = false
                    onConnected()
                case .disconnected(let reason):
                    // One warning per outage; the retries' reasons at debug level.
                    if outage {
                        logger.debug("MQTT still disconnected", metadata: ["reason": "\(reason)"])
                    } else {
                        logger.warning("MQTT disconnected; retrying with backoff",
                                       metadata: ["broker": "\(endpoint.host):\(endpoint.port)", "reason": "\(reason)"])
                    }
                    outage = true
                }
            }
        }

        while true {
            let events = inbox.withLock { inbox in
                defer { inbox.events = [] }
                return inbox.events
            }
            for event in events { perform(session.handle(event, at: now())) }
            if session.state == .stopped { break }
            if let due = retryAt, now() >= due {
                retryAt = nil
                perform(session.handle(.retryDue, at: now()))
            }
            if now() - lastTick >= .seconds(1) {
                lastTick = now()
                perform(session.handle(.tick, at: now()))
            }
            var pollers = [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            if let socket { pollers.append(pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)) }
            // At most a second asleep: the tick and the retry deadline are judged on waking.
            var timeout: Int32 = 1000
            if let due = retryAt { timeout = min(timeout, Int32(clamping: max(0, (due - now()).wholeMilliseconds + 1))) }
            guard poll(&pollers, nfds_t(pollers.count), timeout) >= 0 || errno == EINTR else { break }
            if pollers[0].revents != 0 { wakeup.drain() }
            if pollers.count > 1, pollers[1].revents != 0, let open = socket {
                do throws(MQTTTransportError) {
                    if let bytes = try open.receive() {
                        if !bytes.isEmpty { perform(session.handle(.received(bytes), at: now())) }
                    } else {
                        socket = nil
                        perform(session.handle(.transportClosed("the broker closed the connection"), at: now()))
                    }
                } catch {
                    socket = nil
                    perform(session.handle(.transportClosed("\(error)"), at: now()))
                }
            }
        }
        socket = nil
        let finished = inbox.withLock { inbox in
            inbox.done = true
            return inbox.finished
        }
        finished?.resume()
    }
}
