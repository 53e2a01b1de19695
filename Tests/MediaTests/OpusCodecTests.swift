import Foundation
import Media
import Testing

@Suite struct OpusCodecTests {
    static let frame = 960  // 20 ms at 48 kHz

    /// `count` frames of a tone; `frequencyOf` picks each frame's frequency (the phase stays continuous).
    static func toneFrames(count: Int, amplitude: Double = 0.5, frequencyOf: (Int) -> Double) -> [[Int16]] {
        var tone = ToneGenerator(frequency: frequencyOf(0), amplitude: amplitude)
        return (0..<count).map { index in
            tone.frequency = frequencyOf(index)
            return tone.next(frames: frame)
        }
    }

    @Test func aOneKilohertzToneKeepsItsPitchAndLevel() throws {
        let encoder = try OpusEncoder()
        let decoder = try OpusDecoder()
        let input = Self.toneFrames(count: 50) { _ in 1000 }
        var output: [Int16] = []
        for frame in input { output += try decoder.decode(encoder.encode(frame)) }
        #expect(output.count == input.count * Self.frame)

        // Skip the codec delay plus 100 ms of start-up, then compare one second's worth of tail.
        let delay = try encoder.lookahead()
        #expect((100...400).contains(delay))  // 6.5 ms of look-ahead at 48 kHz is 312 samples
        let decoded = Array(output[(delay + 5 * Self.frame)...])
        let original = Array(input.joined())[(5 * Self.frame)..<(output.count - delay)]
        let frequency = try #require(PCMAnalysis.dominantFrequency(decoded, sampleRate: 48_000, range: 500...2000))
        #expect(abs(frequency - 1000) <= 20)
        let levelChange = PCMAnalysis.rmsDecibels(decoded) - PCMAnalysis.rmsDecibels(original)
        #expect(abs(levelChange) <= 2, "level changed by \(levelChange) dB")
    }

    @Test func concealmentFillsALostFrameAtAContinuousLevel() throws {
        let encoder = try OpusEncoder()
        let decoder = try OpusDecoder()
        let packets = try Self.toneFrames(count: 30) { _ in 440 }.map { try encoder.encode($0) }
        var levels: [Double] = []
        for (index, packet) in packets.enumerated() {
            let pcm = try decoder.decode(index == 20 ? nil : packet)
            #expect(pcm.count == Self.frame)
            levels.append(PCMAnalysis.rmsDecibels(pcm))
        }
        #expect(levels[20] > -30, "a concealed frame must not be silence (got \(levels[20]) dBFS)")
        #expect(abs(levels[20] - levels[19]) <= 6, "PLC \(levels[20]) dBFS after \(levels[19]) dBFS")
    }

    /// Frames 0..<20 at 300 Hz, then 900 Hz; frame 20 is lost. Returns how strongly 900 Hz and 300 Hz
    /// show in the frame rebuilt with FEC and in the frame PLC invents. A pitch change exactly at the lost
    /// frame tells FEC (which knows the new pitch) from PLC (which can only extrapolate the old one).
    static func recoverPitchChange(
        configuration: OpusConfiguration
    ) throws -> (fec: (new: Double, old: Double), plc: (new: Double, old: Double)) {
        let encoder = try OpusEncoder(configuration: configuration)
        let lost = 20
        let packets = try toneFrames(count: 30, amplitude: 0.4) { $0 < lost ? 300 : 900 }.map { try encoder.encode($0) }
        let fecDecoder = try OpusDecoder()
        let plcDecoder = try OpusDecoder()
        for packet in packets[..<lost] {
            _ = try fecDecoder.decode(packet)
            _ = try plcDecoder.decode(packet)
        }
        let recovered = try fecDecoder.decode(packets[lost + 1], fec: true)
        let concealed = try plcDecoder.decode(nil)
        #expect(recovered.count == frame && concealed.count == frame)
        // Decoding continues normally with the packet that carried the FEC data.
        #expect(try fecDecoder.decode(packets[lost + 1]).count == frame)

        // Decoded audio lags the input by the encoder's look-ahead (6.5 ms), so the start of the lost
        // frame's slot still holds the old pitch; judge the part after it.
        let settled = try encoder.lookahead() + 48
        func strength(_ pcm: [Int16], _ hertz: Double) -> Double {
            PCMAnalysis.goertzelMagnitude(pcm[settled...], frequency: hertz, sampleRate: 48_000)
        }
        return ((strength(recovered, 900), strength(recovered, 300)), (strength(concealed, 900), strength(concealed, 300)))
    }

    @Test func inBandFECRebuildsALostFrameFromTheNextPacket() throws {
        let result = try Self.recoverPitchChange(configuration: OpusConfiguration())
        #expect(result.fec.new > 2 * result.fec.old, "FEC output should carry the new pitch: \(result.fec)")
        #expect(result.plc.old > 2 * result.plc.new, "PLC can only continue the old pitch: \(result.plc)")
    }

    @Test func withoutExpectedLossTheEncoderSendsNoFECData() throws {
        // libopus adds FEC only when OPUS_SET_PACKET_LOSS_PERC > 0: "FEC" decoding then falls back to PLC.
        var configuration = OpusConfiguration()
        configuration.packetLossPercent = 0
        let result = try Self.recoverPitchChange(configuration: configuration)
        #expect(result.fec.old > 2 * result.fec.new, "no FEC data, so only concealment: \(result.fec)")
    }

    @Test func wrongFrameSizesAndBadSettingsThrowTypedErrors() throws {
        let encoder = try OpusEncoder()
        let error = #expect(throws: OpusError.self) { _ = try encoder.encode([Int16](repeating: 0, count: 100)) }
        #expect(error?.call == "opus_encode")
        var bad = OpusConfiguration()
        bad.sampleRate = 44_100
        #expect(throws: OpusError.self) { _ = try OpusEncoder(configuration: bad) }
        var badComplexity = OpusConfiguration()
        badComplexity.complexity = 11
        let ctl = #expect(throws: OpusError.self) { _ = try OpusEncoder(configuration: badComplexity) }
        #expect(ctl?.call == "opus_encoder_ctl(OPUS_SET_COMPLEXITY)")
        #expect(throws: OpusError.self) { _ = try OpusDecoder().decode([0xFF, 0xFF, 0xFF]) }
    }

    @Test func theBenchmarkBaselineMatchesOpusbench() throws {
        let baseline = OpusConfiguration.benchmarkBaseline()
        #expect(baseline.bitrate == 32_000 && baseline.complexity == 10 && baseline.packetLossPercent == 0)
        #expect(baseline.inbandFEC && baseline.maxBandwidth == nil && !baseline.voiceSignal)
        let encoder = try OpusEncoder(configuration: baseline)
        #expect(try !encoder.encode(Self.toneFrames(count: 1) { _ in 1000 }[0]).isEmpty)
    }
}

@Suite struct PCMAnalysisTests {
    @Test func levelsAndFrequenciesOfKnownTones() throws {
        var tone = ToneGenerator(frequency: 1234, amplitude: 0.5)
        let samples = tone.next(frames: 9600)
        #expect(abs(PCMAnalysis.rmsDecibels(samples) - 20 * log10(0.5 / 2.0.squareRoot())) < 0.1)
        let frequency = try #require(PCMAnalysis.dominantFrequency(samples, sampleRate: 48_000, range: 1000...1500))
        #expect(abs(frequency - 1234) <= 5)
        #expect(PCMAnalysis.rms([Int16](repeating: 0, count: 100)) == 0)
        #expect(PCMAnalysis.dominantFrequency([1, 2], sampleRate: 48_000) == nil)
    }

    @Test func stereoTonesCarryTheSameSignalOnBothChannels() {
        var tone = ToneGenerator(frequency: 500, amplitude: 0.25, channels: 2)
        let samples = tone.next(frames: 480)
        #expect(samples.count == 960)
        #expect(PCMAnalysis.channel(0, of: samples, channels: 2) == PCMAnalysis.channel(1, of: samples, channels: 2))
    }
}
