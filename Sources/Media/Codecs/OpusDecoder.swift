import COpus

/// libopus decoding (`opus_decoder_create` / `opus_decode`) with the two loss tools of RFC 6716 §4.4:
/// packet loss concealment (`decode(nil)`) and in-band FEC (`decode(next, fec: true)` rebuilds the lost
/// frame from the redundancy in the packet after it). Single owner (the playback thread).
public final class OpusDecoder {
    public let sampleRate: Int
    public let channels: Int
    /// Samples per channel of one frame (what PLC and FEC produce).
    public let samplesPerFrame: Int
    private let decoder: OpaquePointer
    private var output: [Int16]

    public init(sampleRate: Int = 48_000, channels: Int = 1, frameDuration: Duration = .milliseconds(20)) throws(OpusError) {
        self.sampleRate = sampleRate
        self.channels = channels
        samplesPerFrame = Int(frameDuration.ticks(clockRate: Int64(sampleRate)))
        var status: Int32 = OPUS_OK
        guard (1...2).contains(channels), samplesPerFrame > 0,
              let decoder = opus_decoder_create(Int32(sampleRate), Int32(channels), &status), status == OPUS_OK
        else {
            throw OpusError(call: "opus_decoder_create", code: status == OPUS_OK ? OPUS_BAD_ARG : status,
                            detail: "\(sampleRate) Hz, \(channels) channels")
        }
        self.decoder = decoder
        // 120 ms is the longest Opus packet.
        output = [Int16](repeating: 0, count: sampleRate * 120 / 1000 * channels)
    }

    public convenience init(configuration: OpusConfiguration) throws(OpusError) {
        try self.init(sampleRate: configuration.sampleRate, channels: configuration.channels,
                      frameDuration: configuration.frameDuration)
    }

    deinit { opus_decoder_destroy(decoder) }

    /// Interleaved PCM for `packet`. nil means the packet was lost: libopus conceals one frame. With
    /// `fec: true`, `packet` is the one *after* the loss and the result is the lost frame rebuilt from its
    /// FEC data (or concealed, when it carries none); decode the same packet again normally afterwards.
    public func decode(_ packet: [UInt8]?, fec: Bool = false) throws(OpusError) -> [Int16] {
        // PLC and FEC must ask for exactly one frame; a normal decode may return up to 120 ms.
        let maximumSamples = packet == nil || fec ? samplesPerFrame : output.count / channels
        let decoded = output.withUnsafeMutableBufferPointer { pcm in
            if let packet {
                packet.withUnsafeBufferPointer { bytes in
                    opus_decode(decoder, bytes.baseAddress, Int32(bytes.count), pcm.baseAddress!, Int32(maximumSamples), fec ? 1 : 0)
                }
            } else {
                opus_decode(decoder, nil, 0, pcm.baseAddress!, Int32(maximumSamples), 0)
            }
        }
        try OpusError.check(packet == nil ? "opus_decode(PLC)" : fec ? "opus_decode(FEC)" : "opus_decode", decoded)
        return Array(output[0..<Int(decoded) * channels])
    }
}

@available(*, unavailable, message: "an OpusDecoder belongs to one audio thread")
extension OpusDecoder: Sendable {}
