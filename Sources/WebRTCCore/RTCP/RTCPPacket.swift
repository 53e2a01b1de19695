/// One packet of a compound RTCP datagram (RFC 3550 §6.1, RFC 5506 for reduced-size compounds).
public enum RTCPPacket: Hashable, Sendable {
    case senderReport(SenderReport)
    case receiverReport(ReceiverReport)
    case sourceDescription(SourceDescription)
    case goodbye(Goodbye)
    case nack(GenericNACK)
    case pictureLossIndication(PictureLossIndication)
    case fullIntraRequest(FullIntraRequest)
    case receiverEstimatedMaxBitrate(ReceiverEstimatedMaxBitrate)
    case unknown(UnknownRTCPPacket)

    static let headerLength = 4
    static let transportFeedbackType: UInt8 = 205
    static let payloadFeedbackType: UInt8 = 206

    /// Parses every packet of a compound datagram (after SRTCP unprotect).
    ///
    /// Reduced-size compounds (RFC 5506) are accepted, so the first packet need not be SR or RR.
    public static func parseCompound(_ bytes: ArraySlice<UInt8>) throws(RTCPError) -> [RTCPPacket] {
        var reader = ByteReader(bytes)
        var packets: [RTCPPacket] = []
        while !reader.isAtEnd {
            let available = reader.remaining
            let truncated = RTCPError.truncated(needed: headerLength, available: available)
            let first = try reader.readUInt8(or: truncated)
            let packetType = try reader.readUInt8(or: truncated)
            let words = try reader.readUInt16(or: truncated)
            guard first >> 6 == 2 else { throw .unsupportedVersion(first >> 6) }
            guard words > 0 else { throw .zeroLength(packetType: packetType) }
            let bodyLength = Int(words) * 4
            var body = try reader.readBytes(
                bodyLength, or: RTCPError.lengthOverrun(declaredBytes: bodyLength + headerLength, available: available))
            if first & 0x20 != 0 {
                guard reader.isAtEnd else { throw .paddingNotLast }
                let count = Int(body.last ?? 0)
                guard count > 0, count % 4 == 0, count <= body.count else {
                    throw .invalidPadding(count: count, available: body.count)
                }
                body = body.dropLast(count)
            }
            packets.append(try decode(countOrFormat: first & 0x1F, packetType: packetType, body: body))
        }
        return packets
    }

    public static func parseCompound(_ bytes: [UInt8]) throws(RTCPError) -> [RTCPPacket] {
        try parseCompound(bytes[...])
    }

    private static func decode(countOrFormat: UInt8, packetType: UInt8, body: ArraySlice<UInt8>) throws(RTCPError)
        -> RTCPPacket
    {
        var reader = ByteReader(body)
        let count = Int(countOrFormat)
        switch (packetType, countOrFormat) {
        case (SenderReport.packetType, _):
            return .senderReport(try SenderReport(count: count, body: &reader))
        case (ReceiverReport.packetType, _):
            return .receiverReport(try ReceiverReport(count: count, body: &reader))
        case (SourceDescription.packetType, _):
            return .sourceDescription(try SourceDescription(count: count, body: &reader))
        case (Goodbye.packetType, _):
            return .goodbye(try Goodbye(count: count, body: &reader))
        case (transportFeedbackType, GenericNACK.format):
            return .nack(try GenericNACK(body: &reader))
        case (payloadFeedbackType, PictureLossIndication.format):
            return .pictureLossIndication(try PictureLossIndication(body: &reader))
        case (payloadFeedbackType, FullIntraRequest.format):
            return .fullIntraRequest(try FullIntraRequest(body: &reader))
        case (payloadFeedbackType, ReceiverEstimatedMaxBitrate.format):
            if let remb = try ReceiverEstimatedMaxBitrate(body: &reader) { return .receiverEstimatedMaxBitrate(remb) }
        default:
            break
        }
        return .unknown(UnknownRTCPPacket(countOrFormat: countOrFormat, packetType: packetType, body: Array(body)))
    }

    /// The packet type of the common header (200 SR … 206 PSFB).
    public var packetType: UInt8 {
        switch self {
        case .senderReport: SenderReport.packetType
        case .receiverReport: ReceiverReport.packetType
        case .sourceDescription: SourceDescription.packetType
        case .goodbye: Goodbye.packetType
        case .nack: Self.transportFeedbackType
        case .pictureLossIndication, .fullIntraRequest, .receiverEstimatedMaxBitrate: Self.payloadFeedbackType
        case let .unknown(packet): packet.packetType
        }
    }

    /// This packet on the wire, unpadded.
    public func serialized() throws(RTCPError) -> [UInt8] {
        let (count, body): (Int, [UInt8])
        switch self {
        case let .senderReport(report): (count, body) = try report.body()
        case let .receiverReport(report): (count, body) = try report.body()
        case let .sourceDescription(description): (count, body) = try description.body()
        case let .goodbye(goodbye): (count, body) = try goodbye.body()
        case let .nack(nack): (count, body) = try nack.body()
        case let .pictureLossIndication(pli): (count, body) = pli.body()
        case let .fullIntraRequest(fir): (count, body) = try fir.body()
        case let .receiverEstimatedMaxBitrate(remb): (count, body) = try remb.body()
        case let .unknown(packet): (count, body) = try packet.serializedBody()
        }
        guard count <= 31 else { throw .tooManyItems(count) }
        guard body.count % 4 == 0 else { throw .unalignedPayload(bytes: body.count) }
        guard !body.isEmpty else { throw .zeroLength(packetType: packetType) }
        guard body.count / 4 <= Int(UInt16.max) else { throw .packetTooLarge(bytes: body.count) }
        var bytes: [UInt8] = [2 << 6 | UInt8(count), packetType]
        bytes.reserveCapacity(body.count + Self.headerLength)
        bytes.appendUInt16(UInt16(body.count / 4))
        bytes += body
        return bytes
    }

    /// The packets concatenated into one compound datagram.
    public static func serializeCompound(_ packets: [RTCPPacket]) throws(RTCPError) -> [UInt8] {
        var bytes: [UInt8] = []
        for packet in packets { bytes += try packet.serialized() }
        return bytes
    }
}
