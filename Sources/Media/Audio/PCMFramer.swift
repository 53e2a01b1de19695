/// Cuts 16-bit PCM arriving in pieces of any size (20 ms Opus frames, odd ALSA reads) into the fixed
/// frames a processor takes (10 ms for webrtc-audio-processing), as floats in [-1, 1); a partial frame
/// waits for the next piece.
struct PCMFramer {
    let frameSize: Int
    private var pending: [Float] = []

    init(frameSize: Int) {
        precondition(frameSize > 0)
        self.frameSize = frameSize
        pending.reserveCapacity(frameSize)
    }

    /// Samples waiting for a full frame.
    var pendingCount: Int { pending.count }

    /// Appends `samples` and hands every frame completed by them to `body`, oldest first.
    mutating func append<E: Error>(_ samples: some Collection<Int16>, _ body: (inout [Float]) throws(E) -> Void) throws(E) {
        for sample in samples {
            pending.append(Self.float(sample))
            if pending.count == frameSize {
                try body(&pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    static func float(_ sample: Int16) -> Float { Float(sample) / 32768 }

    /// Rounded and clipped: the canceller's output can slightly exceed full scale.
    static func int16(_ value: Float) -> Int16 {
        let scaled = (value * 32768).rounded()
        return Int16(max(-32768, min(32767, scaled)))
    }
}
