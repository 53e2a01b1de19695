import Testing
@testable import Media

@Suite("48 kHz ↔ 8 kHz conversion")
struct SampleRateConversionTests {
    func tone(_ frequency: Double, frames: Int, sampleRate: Int) -> [Int16] {
        var generator = ToneGenerator(frequency: frequency, amplitude: 0.5, sampleRate: sampleRate)
        return generator.next(frames: frames)
    }

    /// Drops the filter's start-up (the first 20 ms) before measuring.
    func settled(_ samples: [Int16], sampleRate: Int) -> [Int16] { Array(samples.dropFirst(sampleRate / 50)) }

    @Test func decimationKeepsA1kHzToneFrequencyAndLevel() {
        let input = tone(1000, frames: 48000, sampleRate: 48000)
        var decimator = Decimator48To8()
        let output = decimator.process(input)
        #expect(output.count == 8000)
        let steady = settled(output, sampleRate: 8000)
        #expect(PCMAnalysis.dominantFrequency(steady, sampleRate: 8000, range: 200...3800) == 1000)
        #expect(abs(PCMAnalysis.rmsDecibels(steady) - PCMAnalysis.rmsDecibels(input)) < 0.5)
    }

    @Test func a6kHzToneIsAttenuatedAtLeast30dBInsteadOfAliasingTo2kHz() {
        let input = tone(6000, frames: 48000, sampleRate: 48000)
        var decimator = Decimator48To8()
        let steady = settled(decimator.process(input), sampleRate: 8000)
        let attenuation = PCMAnalysis.rmsDecibels(input) - PCMAnalysis.rmsDecibels(steady)
        #expect(attenuation >= 30, "only \(attenuation) dB")
    }

    @Test func interpolationKeepsA1kHzToneFrequencyAndLevel() {
        let input = tone(1000, frames: 8000, sampleRate: 8000)
        var interpolator = Interpolator8To48()
        let output = interpolator.process(input)
        #expect(output.count == 48000)
        let steady = settled(output, sampleRate: 48000)
        #expect(PCMAnalysis.dominantFrequency(steady, sampleRate: 48000, range: 200...7000, step: 10) == 1000)
        #expect(abs(PCMAnalysis.rmsDecibels(steady) - PCMAnalysis.rmsDecibels(input)) < 0.5)
        // The image at 8 kHz − 1 kHz = 7 kHz is filtered out.
        let image = PCMAnalysis.goertzelMagnitude(steady.prefix(9600), frequency: 7000, sampleRate: 48000)
        let wanted = PCMAnalysis.goertzelMagnitude(steady.prefix(9600), frequency: 1000, sampleRate: 48000)
        #expect(image < wanted / 100)
    }

    @Test func frameByFrameEqualsOneShot() {
        let input = tone(1000, frames: 48000, sampleRate: 48000).enumerated().map { $0.element &+ Int16($0.offset % 97) }
        var whole = Decimator48To8()
        var framed = Decimator48To8()
        let frames = stride(from: 0, to: input.count, by: 960).flatMap { framed.process(Array(input[$0..<min($0 + 960, input.count)])) }
        #expect(frames == whole.process(input))
        // Odd frame sizes too: the 1-in-6 phase carries over.
        var odd = Decimator48To8()
        let oddFrames = stride(from: 0, to: input.count, by: 77).flatMap { odd.process(Array(input[$0..<min($0 + 77, input.count)])) }
        #expect(oddFrames == frames)

        let narrow = tone(1000, frames: 8000, sampleRate: 8000)
        var wholeUp = Interpolator8To48()
        var framedUp = Interpolator8To48()
        let upFrames = stride(from: 0, to: narrow.count, by: 160).flatMap { framedUp.process(Array(narrow[$0..<$0 + 160])) }
        #expect(upFrames == wholeUp.process(narrow))
    }

    @Test func fullScaleInputClampsInsteadOfWrapping() {
        let square = (0..<4800).map { ($0 / 24) % 2 == 0 ? Int16.max : Int16.min }
        var decimator = Decimator48To8()
        var interpolator = Interpolator8To48()
        let down = decimator.process(square)
        let up = interpolator.process(down)
        #expect(down.count == 800 && up.count == 4800)
        // Overshoot (Gibbs) clamps at the rails; a wrap would flip the sign against the neighbours.
        for index in 1..<up.count - 1 where up[index] > 30000 { #expect(up[index - 1] > 0 || up[index + 1] > 0) }
    }
}
