import Foundation
import IntercomAgent
import IntercomConfig
import IntercomTestSupport
import Media
import Testing

/// `[audio] echo_cancellation` in the agent's pipeline, through real alsa-lib `file` PCMs. Part of
/// DeviceAudioTests so test.sh runs it with the other real-ALSA tests, on their own.
extension DeviceAudioTests {
    @Test("[audio] echo_cancellation maps to a setup only with a speaker; the delay hint defaults to buffer + read")
    func echoCancellationSetup() {
        #expect(EchoCancellationSetup(AudioSettings()) == nil, "off by default")
        #expect(EchoCancellationSetup(AudioSettings(playback: "none", echoCancellation: true)) == nil)
        #expect(EchoCancellationSetup(AudioSettings(enabled: false, echoCancellation: true)) == nil)
        let setup = EchoCancellationSetup(AudioSettings(echoCancellation: true))
        #expect(setup?.streamDelay == .milliseconds(60))
        #expect(setup?.options.suppression == .high)
        var tuned = AudioSettings(echoCancellation: true)
        tuned.echoSuppression = .low
        tuned.echoDelay = .milliseconds(90)
        #expect(EchoCancellationSetup(tuned) == {
            var options = EchoCancellerOptions()
            options.suppression = .low
            return EchoCancellationSetup(options: options, streamDelay: .milliseconds(90))
        }())
    }

    @Test("echo_cancellation = true builds the chain: played frames are the far end, captured ones are processed before Opus")
    func echoCancellationChain() async throws {
        let directory = try TemporaryDirectory(prefix: "aec")
        let text = try Self.toneMicrophone(in: directory) + "\n"
            + Self.fileSpeaker(recordingInto: directory.path("speaker.raw"))
        var settings = MediaService.Settings(width: 160, height: 120, fps: 10, bitrateKbps: 200)
        settings.microphone = .alsa(device: "doormic", configurationText: text)
        settings.speaker = .alsa(device: "doorspeaker", configurationText: text)
        settings.echoCancellation = EchoCancellationSetup(AudioSettings(echoCancellation: true))
        let pipeline = MediaService.running(settings: settings, logger: Self.logger)
        defer { pipeline.stop() }
        let canceller = try #require(pipeline.echoCanceller)

        // A call whose caller is silent: the speaker plays silence, which is still the far end (the file
        // microphone is not paced, so a voice here would be double talk for all of it, and ducked).
        let claim = try #require(pipeline.speaker.claim())
        let pcm = try await Self.decodedPackets(pipeline, count: 25)
        try await Task.sleep(for: .milliseconds(200))
        pipeline.speaker.release(claim)
        #expect(canceller.framesAnalyzed >= 10, "far-end frames: \(canceller.framesAnalyzed)")
        #expect(canceller.framesProcessed >= 50, "near-end frames: \(canceller.framesProcessed)")
        // The microphone's own sound goes through the canceller to the caller at its pitch and level.
        Self.expectMicrophoneTone(pcm, lowestHertz: 200)
    }

    @Test("echo_cancellation off, or a test tone as the microphone: no canceller is constructed")
    func noCancellerWhenOff() {
        var settings = MediaService.Settings(width: 160, height: 120, fps: 10, bitrateKbps: 200)
        settings.microphone = .alsa(device: "nosuchpcm_intercom")
        settings.speaker = .alsa(device: "nosuchpcm_intercom")
        let off = MediaService.running(settings: settings, logger: Self.logger)
        #expect(off.echoCanceller == nil)
        off.stop()
        settings.microphone = .testTone()
        settings.echoCancellation = EchoCancellationSetup()
        let tone = MediaService.running(settings: settings, logger: Self.logger)
        #expect(tone.echoCanceller == nil)
        tone.stop()
    }
}
