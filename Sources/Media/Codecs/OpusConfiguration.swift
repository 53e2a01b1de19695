import COpus

/// libopus settings for two-way talk (research notes §4): VoIP application, 48 kHz mono, 20 ms frames,
/// voice signal, wideband at most (keeps SILK/hybrid, so in-band FEC exists), FEC on with a non-zero
/// expected loss (libopus only adds FEC data when the loss percentage is above 0), no DTX.
/// `benchmarkBaseline` matches `bench/opusbench.c`.
public struct OpusConfiguration: Sendable, Equatable {
    /// `OPUS_SET_BANDWIDTH`-style limits (`OPUS_BANDWIDTH_*`).
    public enum Bandwidth: Int32, Sendable {
        case narrowband = 1101, mediumband = 1102, wideband = 1103, superwideband = 1104, fullband = 1105
    }

    /// Input and output sample rate: 8, 12, 16, 24 or 48 kHz (the RTP clock stays 48 kHz regardless).
    public var sampleRate: Int = 48_000
    /// 1 or 2.
    public var channels: Int = 1
    /// Samples per channel in one packet; 20 ms by default.
    public var frameDuration: Duration = .milliseconds(20)
    /// `OPUS_SET_BITRATE`, bit/s.
    public var bitrate: Int = 32_000
    /// `OPUS_SET_COMPLEXITY`, 0…10 (5–8 suits a Pi).
    public var complexity: Int = 8
    /// `OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE)`; false leaves `OPUS_AUTO`.
    public var voiceSignal: Bool = true
    /// `OPUS_SET_MAX_BANDWIDTH`; nil leaves fullband.
    public var maxBandwidth: Bandwidth? = .wideband
    /// `OPUS_SET_INBAND_FEC`.
    public var inbandFEC: Bool = true
    /// `OPUS_SET_PACKET_LOSS_PERC`, 0…100: the loss the encoder protects against (from RTCP reports).
    public var packetLossPercent: Int = 5
    /// `OPUS_SET_DTX`.
    public var discontinuousTransmission: Bool = false

    public init() {}

    /// `bench/opusbench.c`: VoIP, bitrate, complexity, FEC on, loss 0 %, libopus defaults otherwise.
    public static func benchmarkBaseline(channels: Int = 1, kbps: Int = 32, complexity: Int = 10) -> OpusConfiguration {
        var configuration = OpusConfiguration()
        configuration.channels = channels
        configuration.bitrate = kbps * 1000
        configuration.complexity = complexity
        configuration.voiceSignal = false
        configuration.maxBandwidth = nil
        configuration.packetLossPercent = 0
        return configuration
    }

    /// Samples per channel in one frame.
    public var samplesPerFrame: Int {
        Int(frameDuration.ticks(clockRate: Int64(sampleRate)))
    }
}
