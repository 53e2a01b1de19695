import Foundation
import Glibc
import SIPCore
import Synchronization
@testable import SIPTransport

/// A registrar on the loopback that accepts every REGISTER (200, no challenge) and answers OPTIONS, and can
/// pretend a NAT sits in between: `stamp` puts `received=`/`rport=` of another address in the response's Via,
/// as a registrar does that sees the REGISTER come from a public address (RFC 3581 §4). It serves on a thread
/// of its own (a loaded cooperative pool can be seconds late). Unchecked: the socket is used by one serving
/// thread at a time (`serve` returns before the next starts); the rest is in mutexes.
final class StampingRegistrar: @unchecked Sendable {
    let socket: SIPDatagramSocket
    /// What the response Via says the registrar saw; nil: nothing added.
    let stamp = Mutex<(host: String, port: UInt16)?>(nil)
    let registers = Mutex<[SIPMessage]>([])

    init() throws { socket = try SIPDatagramSocket(family: AF_INET, port: 0) }

    var port: UInt16 { socket.local.port }
    var registerCount: Int { registers.withLock { $0.count } }
    var lastRegister: SIPMessage? { registers.withLock { $0.last } }

    /// Answers what arrives for up to `duration`, returning early once `done` holds.
    func serve(for duration: Duration, until done: @escaping @Sendable () -> Bool = { false }) async throws {
        try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
            Thread { [self] in finished.resume(with: Result { try serveOnThisThread(for: duration, until: done) }) }.start()
        }
    }

    private func serveOnThisThread(for duration: Duration, until done: () -> Bool) throws {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline, !done() {
            guard case let (bytes, source)? = try socket.receive() else {
                usleep(2_000)
                continue
            }
            let request = try SIPMessage(datagram: bytes)
            var extra: [SIPHeader] = []
            if request.method == .register {
                registers.withLock { $0.append(request) }
                extra = [SIPHeader(SIPHeaderName.contact, request.values(SIPHeaderName.contact)[0] + ";expires=60")]
            }
            var response = ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: "r", extraHeaders: extra)
            if let seen = stamp.withLock({ $0 }) {
                var via = try request.topVia()
                via.parameters = via.parameters.filter { !["rport", "received"].contains($0.name.lowercased()) }
                    + [SIPParameter("received", seen.host), SIPParameter("rport", String(seen.port))]
                response.setHeader(SIPHeaderName.via, via.serialized)
            }
            try socket.send(response.serialized(), to: source)
        }
    }
}
