import Foundation
import Glibc
import SIPCore
@testable import SIPTransport

/// A phone that connects to the agent's TCP listener on the loopback and writes hand-made requests, reading
/// what comes back on the same connection through a `SIPStreamFramer` (RFC 3261 §18.3). Blocking socket with
/// a receive timeout: it is used from a thread of its own (`onThread`), never from the cooperative pool.
final class TCPPeer: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let descriptor: Int32
    let port: UInt16
    var framer = SIPStreamFramer()
    var inbox: [SIPMessage] = []
    let callID = "tcp-\(UInt32.random(in: 0...UInt32.max))@127.0.0.1"

    init(agentPort: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var target = try SIPSocketAddress.resolve(host: "127.0.0.1", port: agentPort, datagram: false)
        let length = target.length
        let status = withUnsafePointer(to: &target.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect: errno \(code)")
        }
        descriptor = fd
        port = try SIPSocketAddress.boundAddress(of: fd).port
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "send: \(sent), errno \(errno)") }
    }

    /// The first message (received or still to come within `timeout`) that `matches`, taken from the inbox.
    @discardableResult
    func expect(_ what: String, within timeout: Duration = .seconds(5), _ matches: (SIPMessage) -> Bool) throws -> SIPMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = inbox.firstIndex(where: matches) { return inbox.remove(at: index) }
            guard ContinuousClock.now < deadline else { throw Failure(description: "no \(what) within \(timeout)") }
            guard try receiveOnce() else { throw Failure(description: "connection closed before \(what)") }
        }
    }

    /// True once the agent closed the connection (within `timeout`).
    func closedByAgent(within timeout: Duration = .seconds(5)) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try !receiveOnce() { return true }
        }
        return false
    }

    /// False when the connection is closed (EOF or reset).
    private func receiveOnce() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        if count < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return true }
            if code == ECONNRESET { return false }
            throw Failure(description: "recv: errno \(code)")
        }
        inbox += try framer.append(buffer[..<count])
        return true
    }

    /// A request of this peer's call over TCP; `toTag` puts the agent's tag in To.
    func request(_ method: String, cseq: UInt32, branch: String, toTag: String? = nil, body: String = "",
                 extra: [String] = [], callID: String? = nil) -> String {
        var lines = [
            "\(method) sip:gate@127.0.0.1 SIP/2.0",
            "Via: SIP/2.0/TCP 127.0.0.1:\(port);branch=z9hG4bK\(branch)",
            "Max-Forwards: 70",
            "From: <sip:alice@127.0.0.1>;tag=alice1",
            "To: <sip:gate@127.0.0.1>" + (toTag.map { ";tag=\($0)" } ?? ""),
            "Call-ID: \(callID ?? self.callID)",
            "CSeq: \(cseq) \(method)",
        ]
        if method == "INVITE" { lines.append("Contact: <sip:alice@127.0.0.1:\(port);transport=tcp>") }
        if !body.isEmpty { lines.append("Content-Type: application/sdp") }
        lines += extra
        lines.append("Content-Length: \(body.utf8.count)")
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// Runs `script` on a new thread (the peer's socket blocks for up to 100 ms per read).
    static func onThread(_ script: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
            Thread { finished.resume(with: Result { try script() }.mapError { Failure(description: "\($0)") }) }.start()
        }
    }
}

/// A registrar reached over TCP: accepts one connection and answers each REGISTER 200 with its Contact.
final class TCPRegistrar: @unchecked Sendable {
    let listener: SIPStreamListener
    var registers: [SIPMessage] = []

    init() throws { listener = try SIPStreamListener(family: AF_INET, port: 0) }

    var port: UInt16 { listener.local.port }

    /// Serves on the calling thread until a REGISTER was answered or `timeout` passed.
    func answerOneRegister(within timeout: Duration = .seconds(5)) throws {
        let deadline = ContinuousClock.now + timeout
        var connection: SIPStreamConnection?
        while ContinuousClock.now < deadline, registers.isEmpty {
            if connection == nil, let (fd, remote) = try listener.accept() {
                connection = try SIPStreamConnection(accepted: fd, remote: remote, at: .zero)
            }
            guard let connection else {
                usleep(2_000)
                continue
            }
            var poller = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            for request in try connection.receive() where request.method == .register {
                registers.append(request)
                let ok = ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: "r",
                    extraHeaders: [SIPHeader(SIPHeaderName.contact, request.values(SIPHeaderName.contact)[0] + ";expires=60")])
                try connection.send(ok.serialized())
            }
        }
    }
}
