import Foundation
import Glibc
import Logging
import SIPCore
import Synchronization
@testable import SIPTransport

/// A SIP phone on the loopback that calls the agent: it sends hand-written requests and waits for what the
/// agent sends back. It runs on a thread of its own (`run`), as a loaded cooperative pool can be seconds late.
/// REGISTERs (the agent registers with it too) are answered 200 and otherwise ignored.
final class ScriptedCaller: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    let socket: SIPDatagramSocket
    var agentPort: UInt16 = 0
    /// Messages received and not yet taken by `expect`.
    var inbox: [SIPMessage] = []
    let callID = "call-\(UInt32.random(in: 0...UInt32.max))@127.0.0.1"
    let fromTag = "peer\(UInt16.random(in: 0...UInt16.max))"
    /// The agent's To tag, once a response carried it.
    var toTag: String?

    init() throws { socket = try SIPDatagramSocket(family: AF_INET, port: 0) }

    var port: UInt16 { socket.local.port }

    /// A failure on the caller's thread, rethrown to the test: Swift Testing takes a thrown `#require` failure
    /// as already recorded, but on that thread it was recorded for no test.
    struct ScriptFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `script` on a new thread.
    func run(_ script: @escaping @Sendable (ScriptedCaller) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
            Thread { [self] in
                finished.resume(with: Result { try script(self) }.mapError { ScriptFailure(description: "\($0)") })
            }.start()
        }
    }

    func send(_ text: String) throws {
        let destination = try SIPSocketAddress.resolve(host: "127.0.0.1", port: Int(agentPort), datagram: true)
        try socket.send(Array(text.utf8), to: destination)
    }

    /// The first message (received or still to come within `timeout`) that `matches`, taken from the inbox.
    @discardableResult
    func expect(_ what: String, within timeout: Duration = .seconds(5), _ matches: (SIPMessage) -> Bool) throws -> SIPMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = inbox.firstIndex(where: matches) { return inbox.remove(at: index) }
            guard ContinuousClock.now < deadline else { throw Timeout(description: "no \(what) within \(timeout)") }
            try receiveOne()
        }
    }

    /// Reads for `duration`, keeping everything in the inbox (a bounded window for "nothing more came").
    func collect(for duration: Duration) throws {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline { try receiveOne() }
    }

    /// Polls `condition` (set by the agent's thread) until it holds.
    func waitUntil(_ what: String, within timeout: Duration = .seconds(5), _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw Timeout(description: "no \(what) within \(timeout)") }
            try receiveOne()
        }
    }

    private func receiveOne() throws {
        guard case let (bytes, source)? = try socket.receive() else {
            usleep(1_000)
            return
        }
        let message = try SIPMessage(datagram: bytes)
        if message.method == .register {
            let expires = message.values(SIPHeaderName.expires).first ?? "60"
            let ok = ResponseBuilder.response(to: message, status: 200, reason: "OK", toTag: "r",
                extraHeaders: [SIPHeader(SIPHeaderName.contact, message.values(SIPHeaderName.contact)[0] + ";expires=\(expires)")])
            try socket.send(ok.serialized(), to: source)
            return
        }
        if message.method == .options {
            return
        }
        if toTag == nil, message.statusCode.map({ $0 > 100 }) == true, let tag = try? message.to().tag { toTag = tag }
        inbox.append(message)
    }

    // MARK: Requests of this call

    var contact: String { "<sip:alice@127.0.0.1:\(port)>" }

    /// A request of this call; `toTag` true puts the agent's tag in To (in-dialog requests, the 2xx ACK).
    func request(_ method: String, cseq: UInt32, branch: String, toTag withTag: Bool = false, cseqMethod: String? = nil,
                 body: String = "", extra: [String] = []) -> String {
        let to = withTag ? "<sip:gate@127.0.0.1>;tag=\(toTag ?? "")" : "<sip:gate@127.0.0.1>"
        var lines = [
            "\(method) sip:gate@127.0.0.1:\(agentPort) SIP/2.0",
            "Via: SIP/2.0/UDP 127.0.0.1:\(port);branch=z9hG4bK\(branch);rport",
            "Max-Forwards: 70",
            #"From: "Alice \"A\"" <sip:alice@127.0.0.1:\#(port)>;tag=\#(fromTag)"#,
            "To: \(to)",
            "Call-ID: \(callID)",
            "CSeq: \(cseq) \(cseqMethod ?? method)",
        ]
        if method == "INVITE" { lines.append("Contact: \(contact)") }
        if !body.isEmpty { lines.append("Content-Type: application/sdp") }
        lines += extra
        lines.append("Content-Length: \(body.utf8.count)")
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    static let offer = "v=0\r\no=alice 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 0\r\n"
    static let answer = "v=0\r\no=gate 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 5000 RTP/AVP 0\r\n"

    func invite(branch: String = "inv1") -> String { request("INVITE", cseq: 1, branch: branch, body: Self.offer) }
}

/// A response with `status` to a request with CSeq method `method`.
func isResponse(_ status: Int, _ method: SIPMethod) -> (SIPMessage) -> Bool {
    { $0.statusCode == status && (try? $0.cseq().method) == method }
}

/// The call events the agent reported, from its thread.
final class CallEventLog: Sendable {
    let events = Mutex<[SIPCallEvent]>([])
    var all: [SIPCallEvent] { events.withLock { $0 } }
    func contains(_ event: SIPCallEvent) -> Bool { all.contains(event) }
}

extension SIPUserAgent {
    /// An agent registering with `caller` (so that REGISTER is answered) with short call timers: T1 50 ms,
    /// so a 2xx is retransmitted within 50 ms and timer H is 3.2 s.
    static func calling(_ caller: ScriptedCaller, log: CallEventLog, password: String? = nil) -> SIPUserAgent {
        var settings = SIPUserAgentSettings(
            registrarHost: "127.0.0.1", registrarPort: Int(caller.port), user: "gate", authUser: "gate", password: password,
            transport: .udp, localPort: 0, displayName: nil, keepAlive: .seconds(25), registerExpiry: .seconds(60))
        settings.callTimers = SIPTimerValues(t1: .milliseconds(50), t2: .milliseconds(200), t4: .milliseconds(200))
        return SIPUserAgent(settings: settings, logger: Logger(label: "test"), onState: { _ in },
                            onCall: { event in log.events.withLock { $0.append(event) } })
    }
}
