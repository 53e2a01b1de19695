import Foundation
import Media
import Testing

/// webrtc-audio-processing (the real library) against a synthetic room: the far end is a speech-like
/// signal, the microphone hears it 40 ms later at -6 dB with a reflection. Fed as the agent feeds it:
/// 20 ms pieces, far end first.
@Suite struct EchoCancellerTests {
    static let rate = 48_000
    static let piece = 960  // 20 ms, the agent's Opus frame
    static let echoDelay = rate * 40 / 1000
    static let seconds = 4

    /// Runs `near` (the microphone) through a canceller that hears `far`; returns the processed microphone.
    static func cancel(far: [Int16], near: [Int16], canceller: EchoCanceller) throws -> [Int16] {
        var output: [Int16] = []
        for start in stride(from: 0, to: far.count, by: piece) {
            try canceller.analyzeFarEnd(Array(far[start..<start + piece]))
            output += try canceller.processNearEnd(Array(near[start..<start + piece]))
        }
        return output
    }

    static func clip(_ values: [Double]) -> [Int16] { values.map { Int16(max(-32768, min(32767, $0.rounded()))) } }
    static func lastSecond(_ samples: [Int16]) -> ArraySlice<Int16> { samples.suffix(rate) }

    /// Power of the 1 kHz component in dB (a sine of amplitude A has power A²/2 = 2·magnitude²).
    static func tonePower(_ samples: some Collection<Int16>) -> Double {
        let magnitude = PCMAnalysis.goertzelMagnitude(samples, frequency: 1000, sampleRate: rate)
        return 2 * magnitude * magnitude
    }

    static func power(_ samples: some Collection<Int16>) -> Double { pow(PCMAnalysis.rms(samples), 2) }

    @Test("a speaker's echo at the microphone is at least 15 dB quieter after 3 s of convergence")
    func echoIsRemoved() throws {
        let far = SpeechLikeSignal.samples(count: Self.rate * Self.seconds)
        let near = Self.clip(SpeechLikeSignal.echo(of: far, delay: Self.echoDelay, gainDecibels: -6))
        let canceller = try EchoCanceller(streamDelay: .milliseconds(40))
        let output = try Self.cancel(far: far, near: near, canceller: canceller)
        #expect(output.count == near.count)

        let before = PCMAnalysis.rmsDecibels(Self.lastSecond(near))
        let after = PCMAnalysis.rmsDecibels(Self.lastSecond(output))
        let reduction = before - after
        let metrics = try canceller.metrics()
        print("echo reduction over the last second: \(String(format: "%.1f", reduction)) dB "
              + "(echo \(String(format: "%.1f", before)) dBFS → \(String(format: "%.1f", after)) dBFS; "
              + "library ERL \(metrics.echoReturnLoss) dB, ERLE \(metrics.echoReturnLossEnhancement) dB)")
        #expect(reduction >= 15, "echo reduced by only \(reduction) dB")
        #expect(canceller.framesAnalyzed == Self.seconds * 100)
        #expect(canceller.framesProcessed == Self.seconds * 100)
    }

    @Test("without the far end the same microphone signal goes through: the reduction above is the canceller's")
    func nothingIsRemovedWithoutTheFarEnd() throws {
        let far = SpeechLikeSignal.samples(count: Self.rate * Self.seconds)
        let near = Self.clip(SpeechLikeSignal.echo(of: far, delay: Self.echoDelay, gainDecibels: -6))
        let silence = [Int16](repeating: 0, count: far.count)
        let output = try Self.cancel(far: silence, near: near, canceller: try EchoCanceller(streamDelay: .milliseconds(40)))
        let change = PCMAnalysis.rmsDecibels(Self.lastSecond(near)) - PCMAnalysis.rmsDecibels(Self.lastSecond(output))
        #expect(abs(change) <= 2, "changed by \(change) dB with a silent far end")
    }

    /// Double talk as a conversation has it: the caller talks in 500 ms bursts with 500 ms pauses, the
    /// person at the door holds a 1 kHz tone (-23 dBFS) throughout. Returns the processed microphone, the
    /// echo alone and the tone alone.
    static func doubleTalk(_ suppression: EchoCancellerOptions.Suppression) throws -> (output: [Int16], echo: [Int16], local: [Int16]) {
        let count = rate * 5
        let far = SpeechLikeSignal.samples(count: count).enumerated().map { ($0.offset / (rate / 2)) % 2 == 0 ? $0.element : 0 }
        let echo = SpeechLikeSignal.echo(of: far, delay: echoDelay, gainDecibels: -6)
        var tone = ToneGenerator(frequency: 1000, amplitude: 0.1)
        let local = tone.next(frames: count)
        var options = EchoCancellerOptions()
        options.suppression = suppression
        let canceller = try EchoCanceller(streamDelay: .milliseconds(40), options: options)
        let near = clip(zip(echo, local).map { $0 + Double($1) })
        return (try cancel(far: far, near: near, canceller: canceller), clip(echo), local)
    }

    /// Sample ranges of the last two seconds: `offset` to `end` into every caller burst (`talking`) or pause.
    static func windows(talking: Bool, from offset: Duration, to end: Duration) -> [Range<Int>] {
        let half = rate / 2
        let samples = { (duration: Duration) in Int(duration / .milliseconds(1)) * rate / 1000 }
        return stride(from: 3 * rate + (talking ? 0 : half), to: 5 * rate, by: rate).map { $0 + samples(offset)..<$0 + samples(end) }
    }

    static func toneChange(_ output: [Int16], _ local: [Int16], in windows: [Range<Int>]) -> Double {
        let outputPower = windows.map { tonePower(output[$0]) }.reduce(0, +)
        let localPower = windows.map { tonePower(local[$0]) }.reduce(0, +)
        return 10 * log10(outputPower / localPower)
    }

    @Test("double talk: a local 1 kHz tone keeps its pitch, comes through whole in the caller's pauses and the echo still goes")
    func localTalkerSurvives() throws {
        let (output, echo, local) = try Self.doubleTalk(.high)
        let frequency = try #require(PCMAnalysis.dominantFrequency(Array(output.suffix(2 * Self.rate)), sampleRate: Self.rate,
                                                                   range: 200...4000, step: 10, window: 2 * Self.rate))
        // The caller's pauses, once the echo tail (47 ms) and the suppressor's release have passed.
        let pauses = Self.windows(talking: false, from: .milliseconds(300), to: .milliseconds(500))
        let inPauses = Self.toneChange(output, local, in: pauses)
        // While the caller talks: what is left besides the tone, against the echo that came in.
        let bursts = Self.windows(talking: true, from: .milliseconds(100), to: .milliseconds(500))
        let residual = bursts.map { max(Self.power(output[$0]) - Self.tonePower(output[$0]), 1e-12) }.reduce(0, +)
        let echoIn = bursts.map { Self.power(echo[$0]) }.reduce(0, +)
        let reduction = 10 * log10(echoIn / residual)
        print("double talk (high suppression): dominant \(frequency) Hz, local tone \(String(format: "%+.1f", inPauses)) dB "
              + "in the caller's pauses and \(String(format: "%+.1f", Self.toneChange(output, local, in: bursts))) dB while "
              + "the caller talks; echo reduced by \(String(format: "%.1f", reduction)) dB while both talk")
        #expect(abs(frequency - 1000) <= 10)
        #expect(abs(inPauses) <= 2, "the local tone's level changed by \(inPauses) dB in the caller's pauses")
        #expect(reduction >= 10, "echo reduced by only \(reduction) dB under double talk")
    }

    @Test("while both talk, low suppression ducks the local talker at least 10 dB less than high")
    func suppressionLevelTradesEchoForDoubleTalk() throws {
        let bursts = Self.windows(talking: true, from: .milliseconds(100), to: .milliseconds(500))
        let high = try Self.doubleTalk(.high)
        let low = try Self.doubleTalk(.low)
        let (highChange, lowChange) = (Self.toneChange(high.output, high.local, in: bursts), Self.toneChange(low.output, low.local, in: bursts))
        print("local tone while the caller talks: \(String(format: "%+.1f", highChange)) dB (high), "
              + "\(String(format: "%+.1f", lowChange)) dB (low)")
        #expect(lowChange - highChange >= 10)
    }

    @Test("pieces that are not whole 10 ms frames come back at the same length, delayed by at most a frame")
    func oddPiecesKeepTheirLength() throws {
        let canceller = try EchoCanceller(streamDelay: .milliseconds(20))
        var tone = ToneGenerator(frequency: 1000, amplitude: 0.3)
        var output: [Int16] = []
        for _ in 0..<100 {
            let piece = tone.next(frames: 300)
            try canceller.analyzeFarEnd([Int16](repeating: 0, count: 300))
            let processed = try canceller.processNearEnd(piece)
            #expect(processed.count == 300)
            output += processed
        }
        #expect(canceller.framesProcessed == 100 * 300 / canceller.frameSamples)
        #expect(canceller.framesAnalyzed == 100 * 300 / canceller.frameSamples)
        // No far end: the tone goes through (the high-pass filter leaves 1 kHz alone).
        let frequency = PCMAnalysis.dominantFrequency(Array(output.suffix(9600)), sampleRate: Self.rate, range: 500...2000, step: 10)
        #expect(frequency.map { abs($0 - 1000) <= 10 } == true)
        #expect(abs(PCMAnalysis.rmsDecibels(output.suffix(9600)) - PCMAnalysis.rmsDecibels(tone.next(frames: 9600))) <= 1.5)
    }

    @Test("a rate the library does not run at is a typed error naming the call", arguments: [44_100, 0, -8000])
    func badSampleRate(rate: Int) {
        #expect(throws: EchoCancellerError(call: "intercom_apm_create", code: -7)) {
            try EchoCanceller(sampleRate: rate, streamDelay: .milliseconds(40))
        }
    }

    @Test("16 kHz works too (10 ms is 160 samples)")
    func sixteenKilohertz() throws {
        let canceller = try EchoCanceller(sampleRate: 16_000, streamDelay: .milliseconds(40))
        #expect(canceller.frameSamples == 160)
        #expect(try canceller.processNearEnd([Int16](repeating: 100, count: 320)).count == 320)
    }

    @Test("the error names the call and the library's meaning of the code")
    func errorDescription() {
        let error = EchoCancellerError(call: "AudioProcessing::ProcessStream", code: -8)
        #expect(error.description == "AudioProcessing::ProcessStream: bad data length (audio processing error -8)")
    }
}
