import Glibc
import IntercomPlatform
import Media
import WebRTCCore

/// A scripted RTP peer on the loopback for the SIP audio tests: a blocking-with-timeout UDP socket on
/// 127.0.0.1 that sends G.711 tone packets, RFC 4733 digits and garbage, and collects what it receives.
final class SIPAudioPeer: Sendable {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", errno: errno) }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = errno
            close(fd)
            throw SystemCallError(call: "bind", errno: code)
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    func send(_ bytes: [UInt8], to port: UInt16) {
        var address = Self.loopback(port: port)
        _ = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Datagrams received until `count` arrived or `timeout` passed.
    func receive(count: Int, timeout: Duration) -> [[UInt8]] {
        let deadline = MonotonicClock.now() + timeout
        var received: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while received.count < count {
            let left = deadline - MonotonicClock.now()
            guard left > .zero else { break }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, Int32(max(1, left.wholeMilliseconds))) > 0 else { continue }
            let n = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { received.append(Array(buffer[..<n])) }
        }
        return received
    }

    /// `count` 20 ms packets of a `hertz` tone (8 kHz, G.711 `codec`), numbered from `sequenceNumber`.
    static func tonePackets(codec: SIPAudioCodec, payloadType: UInt8, hertz: Double, count: Int, ssrc: UInt32 = 0x5EED) -> [[UInt8]] {
        var tone = ToneGenerator(frequency: hertz, amplitude: 0.5, sampleRate: 8000, channels: 1)
        return (0..<count).map { index in
            let samples = tone.next(frames: 160)
            let payload = codec == .pcmu ? G711.muLaw(encoding: samples) : G711.aLaw(encoding: samples)
            let packet = RTPPacket(marker: index == 0, payloadType: payloadType, sequenceNumber: UInt16(1000 + index),
                                   timestamp: UInt32(160 * index), ssrc: ssrc, payload: payload)
            return (try? packet.serialized()) ?? []
        }
    }

    /// Every packet of the key presses `keys` (RFC 4733, `DTMFSender`: start, updates, three ends), in order.
    static func digitPackets(_ keys: String, payloadType: UInt8, ssrc: UInt32 = 0x5EED) -> [[UInt8]] {
        var sequence: UInt16 = 2000
        var timestamp: UInt32 = 50_000
        var datagrams: [[UInt8]] = []
        for key in keys {
            guard let digit = DTMFDigit(key) else { continue }
            for packet in DTMFSender().packets(for: digit, timestamp: timestamp) {
                let rtp = packet.rtpPacket(payloadType: payloadType, sequenceNumber: sequence, ssrc: ssrc)
                sequence &+= 1
                datagrams.append((try? rtp.serialized()) ?? [])
            }
            timestamp &+= 1600
        }
        return datagrams
    }
}
