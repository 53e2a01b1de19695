import COpusShims
import COpus

/// libopus encoding (`opus_encoder_create` / `opus_encoder_ctl` / `opus_encode`): one frame of interleaved
/// 16-bit PCM in, one packet out. Single owner (the audio capture thread); `deinit` calls
/// `opus_encoder_destroy`.
public final class OpusEncoder {
    public let configuration: OpusConfiguration
    private let encoder: OpaquePointer
    /// Output buffer: the `opus_encode` documentation recommends 4000 bytes as enough for any packet.
    private var packet = [UInt8](repeating: 0, count: 4000)

    public init(configuration: OpusConfiguration = OpusConfiguration()) throws(OpusError) {
        guard [8000, 12_000, 16_000, 24_000, 48_000].contains(configuration.sampleRate),
              (1...2).contains(configuration.channels),
              [2.5, 5, 10, 20, 40, 60].contains(Double(configuration.samplesPerFrame) * 1000 / Double(configuration.sampleRate))
        else {
            throw OpusError(call: "opus_encoder_create", code: OPUS_BAD_ARG, detail: "\(configuration.sampleRate) Hz, "
                + "\(configuration.channels) channels, \(configuration.samplesPerFrame) samples per frame")
        }
        var status: Int32 = OPUS_OK
        guard let encoder = opus_encoder_create(
            Int32(configuration.sampleRate), Int32(configuration.channels), OPUS_APPLICATION_VOIP, &status),
            status == OPUS_OK
        else { throw OpusError(call: "opus_encoder_create", code: status) }
        do {
            try Self.set(encoder, OPUS_SET_BITRATE_REQUEST, "OPUS_SET_BITRATE", configuration.bitrate)
            try Self.set(encoder, OPUS_SET_COMPLEXITY_REQUEST, "OPUS_SET_COMPLEXITY", configuration.complexity)
            if configuration.voiceSignal {
                try Self.set(encoder, OPUS_SET_SIGNAL_REQUEST, "OPUS_SET_SIGNAL", Int(OPUS_SIGNAL_VOICE))
            }
            if let bandwidth = configuration.maxBandwidth {
                try Self.set(encoder, OPUS_SET_MAX_BANDWIDTH_REQUEST, "OPUS_SET_MAX_BANDWIDTH", Int(bandwidth.rawValue))
            }
            try Self.set(encoder, OPUS_SET_INBAND_FEC_REQUEST, "OPUS_SET_INBAND_FEC", configuration.inbandFEC ? 1 : 0)
            try Self.set(
                encoder, OPUS_SET_PACKET_LOSS_PERC_REQUEST, "OPUS_SET_PACKET_LOSS_PERC", configuration.packetLossPercent)
            try Self.set(encoder, OPUS_SET_DTX_REQUEST, "OPUS_SET_DTX", configuration.discontinuousTransmission ? 1 : 0)
        } catch {
            opus_encoder_destroy(encoder)
            throw error
        }
        // Set last: once every stored property is set, a throwing class initializer runs `deinit`.
        self.configuration = configuration
        self.encoder = encoder
    }

    deinit { opus_encoder_destroy(encoder) }

    /// Encodes exactly one frame (`samplesPerFrame × channels` interleaved samples).
    public func encode(_ pcm: UnsafeBufferPointer<Int16>) throws(OpusError) -> [UInt8] {
        let expected = configuration.samplesPerFrame * configuration.channels
        guard pcm.count == expected else {
            throw OpusError(call: "opus_encode", code: OPUS_BAD_ARG, detail: "\(pcm.count) samples, expected \(expected)")
        }
        let capacity = packet.count
        let length = packet.withUnsafeMutableBufferPointer { output in
            opus_encode(encoder, pcm.baseAddress!, Int32(configuration.samplesPerFrame), output.baseAddress!, Int32(capacity))
        }
        try OpusError.check("opus_encode", length)
        return Array(packet[0..<Int(length)])
    }

    public func encode(_ pcm: [Int16]) throws(OpusError) -> [UInt8] {
        let result = pcm.withUnsafeBufferPointer { buffer in Result { () throws(OpusError) in try encode(buffer) } }
        return try result.get()
    }

    /// `OPUS_SET_PACKET_LOSS_PERC`, as receiver reports change.
    public func setPacketLossPercent(_ percent: Int) throws(OpusError) {
        try Self.set(encoder, OPUS_SET_PACKET_LOSS_PERC_REQUEST, "OPUS_SET_PACKET_LOSS_PERC", percent)
    }

    /// `OPUS_SET_BITRATE`, bit/s.
    public func setBitrate(_ bitsPerSecond: Int) throws(OpusError) {
        try Self.set(encoder, OPUS_SET_BITRATE_REQUEST, "OPUS_SET_BITRATE", bitsPerSecond)
    }

    /// `OPUS_GET_LOOKAHEAD`: samples per channel the decoded output lags the input by.
    public func lookahead() throws(OpusError) -> Int {
        var value: Int32 = 0
        try OpusError.check(
            "opus_encoder_ctl(OPUS_GET_LOOKAHEAD)",
            CIntercomShims_opus_encoder_get_int(encoder, OPUS_GET_LOOKAHEAD_REQUEST, &value))
        return Int(value)
    }

    private static func set(_ encoder: OpaquePointer, _ request: Int32, _ name: String, _ value: Int) throws(OpusError) {
        guard let value = Int32(exactly: value) else {
            throw OpusError(call: "opus_encoder_ctl(\(name))", code: OPUS_BAD_ARG, detail: "\(value)")
        }
        let result = CIntercomShims_opus_encoder_set_int(encoder, request, value)
        if result < 0 { throw OpusError(call: "opus_encoder_ctl(\(name))", code: result, detail: "\(value)") }
    }
}

@available(*, unavailable, message: "an OpusEncoder belongs to one audio thread")
extension OpusEncoder: Sendable {}
