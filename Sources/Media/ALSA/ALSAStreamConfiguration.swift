/// How to open an ALSA PCM for two-way talk (research notes §5): S16_LE interleaved, 48 or 16 kHz mono,
/// 10 ms periods, a buffer of 4 periods; playback starts once 2 periods are queued.
public struct ALSAStreamConfiguration: Sendable, Equatable {
    /// A PCM name: `plughw:CARD=Device,DEV=0` for a USB card (exclusive, converts as needed), `null`, or
    /// `file:FILE=/tmp/out.raw,FORMAT=raw` in tests.
    public var device: String
    public var sampleRate: Int = 48_000
    public var channels: Int = 1
    public var periodDuration: Duration = .milliseconds(10)
    /// Buffer size in periods.
    public var periods: Int = 4
    /// Playback only: how many periods must be queued before the device starts playing.
    public var startThresholdPeriods: Int = 2

    public init(device: String) {
        self.device = device
    }

    /// Frames per period at the requested rate.
    public var periodFrames: Int { Int(periodDuration.ticks(clockRate: Int64(sampleRate))) }
}
