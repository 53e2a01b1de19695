import Foundation
import IntercomPlatform
import Media
import Testing

/// espeak-ng through `SpeechSynthesizer.shared` (one speech thread for the process, as in the agent): real
/// synthesis of real text, measured.
@Suite("Speech: espeak-ng synthesis of received messages")
struct SpeechSynthesizerTests {
    static let synthesizer = SpeechSynthesizer.shared

    @Test("\"hello\" is about half a second of speech at 22050 Hz, at a speaking level")
    func hello() async throws {
        let audio = try await Self.synthesizer.synthesize("hello")
        #expect(audio.sampleRate == 22_050)
        #expect(audio.text == "hello")
        #expect(audio.duration > .milliseconds(200) && audio.duration < .seconds(2), "\(audio.duration)")
        let level = PCMAnalysis.rmsDecibels(audio.samples)
        #expect(level > -30 && level < -3, "level \(level) dBFS")
        let loud = audio.samples.filter { abs(Int($0)) > 1000 }.count
        #expect(loud > audio.samples.count / 10, "\(loud) of \(audio.samples.count) samples above 1000")
    }

    @Test("an empty message, or one of only white space and control characters, is no audio")
    func empty() async throws {
        #expect(try await Self.synthesizer.synthesize("").samples.isEmpty)
        let blank = try await Self.synthesizer.synthesize(" \n\t\u{0}\u{7}\u{1B}\u{200B} ")
        #expect(blank.samples.isEmpty && blank.text.isEmpty)
    }

    @Test("control and format characters are dropped: the same speech as the clean text")
    func controlCharacters() async throws {
        #expect(SpeechText.clean("Par\u{0}cel\u{7} for\r\n\tyou\u{1B}\u{202E}") == "Parcel for you")
        #expect(SpeechText.clean("  a  \n\n b ") == "a b")
        let clean = try await Self.synthesizer.synthesize("Parcel for you")
        let dirty = try await Self.synthesizer.synthesize("Par\u{0}cel\u{7} for\r\n\tyou\u{1B}\u{202E}")
        #expect(dirty.text == "Parcel for you")
        // espeak-ng carries some state from one utterance to the next, so compare length and level, not samples.
        let lengthRatio = Double(dirty.samples.count) / Double(max(clean.samples.count, 1))
        #expect(abs(lengthRatio - 1) < 0.05, "\(dirty.samples.count) vs \(clean.samples.count) samples")
        #expect(abs(PCMAnalysis.rmsDecibels(dirty.samples) - PCMAnalysis.rmsDecibels(clean.samples)) < 1)
    }

    @Test("a very long message is cut to the limit: bounded speech, bounded synthesis")
    func longText() async throws {
        let long = String(repeating: "please open the door ", count: 500)
        #expect(SpeechText.clean(long).unicodeScalars.count == SpeechText.defaultLimit)
        #expect(SpeechText.clean(String(repeating: "é", count: 300), limit: 5) == "ééééé")
        let audio = try await Self.synthesizer.synthesize(long)
        #expect(audio.text.unicodeScalars.count == SpeechText.defaultLimit)
        // 200 characters at espeak-ng's 175 words per minute: roughly 10-15 s, never the 10 000 characters.
        #expect(audio.duration > .seconds(5) && audio.duration < .seconds(25), "\(audio.duration)")
        let short = try await Self.synthesizer.synthesize(long, limit: 20)
        #expect(short.duration < audio.duration / 4, "\(short.duration) vs \(audio.duration)")
    }

    @Test("an unknown voice is a typed error naming the call; the next message in a good voice works")
    func unknownVoice() async throws {
        do {
            _ = try await Self.synthesizer.synthesize("hello", voice: "xx-nosuchvoice")
            Issue.record("an unknown voice synthesized")
        } catch {
            #expect(error.call.hasPrefix("espeak_ng_SetVoiceByName"), "\(error)")
        }
        #expect(try await Self.synthesizer.synthesize("hello", voice: "de").samples.isEmpty == false)
    }

    @Test("bench: synthesis cost of a typical and of a longest message on this machine")
    func bench() async throws {
        let typical = "Hello, I am deaf. I have a parcel for you, please come to the door."
        let long = String(repeating: "please open the door ", count: 20)
        _ = try await Self.synthesizer.synthesize("warm up")
        for (name, text) in [("typical", typical), ("200-character", long)] {
            var total = Duration.zero
            var spoken = Duration.zero
            for _ in 0..<3 {
                let audio = try await Self.synthesizer.synthesize(text)
                total += audio.synthesisTime
                spoken = audio.duration
            }
            print("speech bench: \(name) message, \((total / 3).wholeMilliseconds) ms to synthesize \(spoken.wholeMilliseconds) ms of speech")
            #expect(total / 3 < spoken, "synthesis must be faster than real time")
        }
    }

    @Test("22050 Hz to 48 kHz keeps a tone's pitch and level and the length's ratio")
    func resample() {
        var tone = ToneGenerator(frequency: 440, amplitude: 0.5, sampleRate: 22_050, channels: 1)
        let source = tone.next(frames: 22_050)
        let output = LinearResampler.resample(source, from: 22_050, to: 48_000)
        #expect(output.count == 48_000)
        let frequency = PCMAnalysis.dominantFrequency(output, sampleRate: 48_000, range: 300...600, step: 2)
        #expect(frequency.map { abs($0 - 440) <= 4 } == true, "\(frequency ?? 0) Hz")
        #expect(abs(PCMAnalysis.rmsDecibels(output) - PCMAnalysis.rmsDecibels(source)) < 0.5)
        #expect(LinearResampler.resample([], from: 22_050, to: 48_000).isEmpty)
        #expect(LinearResampler.resample([1, 2, 3], from: 48_000, to: 48_000) == [1, 2, 3])
    }
}
