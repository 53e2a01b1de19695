/// Cuts a TCP byte stream into packets: reads arrive in any pieces, a packet is decoded once its fixed header
/// and all Remaining Length bytes are in (§2.2). A packet announcing more than `maximumPacketSize` is an
/// error as soon as its length is known, so a hostile length never makes the buffer grow.
public struct MQTTFramer: Sendable {
    public let maximumPacketSize: Int
    private var buffer: [UInt8] = []

    /// 256 KiB: the agent receives only commands and acknowledgements.
    public init(maximumPacketSize: Int = 256 * 1024) {
        self.maximumPacketSize = maximumPacketSize
    }

    public var bufferedByteCount: Int { buffer.count }

    /// Appends `bytes` and returns every packet now complete. After an error the stream is unusable (the
    /// connection must close, §4.8) and the buffer is dropped.
    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) throws(MQTTPacketError) -> [MQTTPacket] {
        buffer.append(contentsOf: bytes)
        var packets: [MQTTPacket] = []
        var start = 0
        do throws(MQTTPacketError) {
            while buffer.count - start >= 2 {
                guard case .value(let length, let lengthBytes) = try RemainingLength.decode(buffer[(start + 1)...]) else { break }
                guard length <= maximumPacketSize else { throw .packetTooLarge(length: length, limit: maximumPacketSize) }
                let bodyStart = start + 1 + lengthBytes
                guard buffer.count - bodyStart >= length else { break }
                packets.append(try MQTTPacket.decode(header: buffer[start], body: buffer[bodyStart..<(bodyStart + length)]))
                start = bodyStart + length
            }
        } catch {
            buffer = []
            throw error
        }
        buffer.removeFirst(start)
        return packets
    }

    /// Forgets a partial packet (a new connection starts a new stream).
    public mutating func reset() { buffer = [] }
}
