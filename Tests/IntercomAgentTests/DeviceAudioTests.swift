import Foundation
import IntercomAgent
import IntercomConfig
import IntercomTestSupport
import Logging
import Media
import Testing

/// The agent's microphone and speaker through real alsa-lib without sound hardware: the `file` PCM plays a
/// raw file as capture and records playback into one (the QEMU harness repeats this on snd-aloop).
@Suite("Device audio: ALSA microphone into the Opus stream, the caller's voice out to the speaker", .serialized)
struct DeviceAudioTests {
    static let logger: Logger = {
        var logger = Logger(label: "device-audio-test")
        logger.logLevel = .critical
        return logger
    }()

    static func raw(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    static func samples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// `count` Opus packets of a `hertz` tone, 20 ms each, as the peer's encoder sends them (in-band FEC on).
    static func opusPackets(hertz: Double, count: Int) throws -> [[UInt8]] {
        let encoder = try OpusEncoder(configuration: OpusConfiguration())
        var tone = ToneGenerator(frequency: hertz, amplitude: 0.5)
        return try (0..<count).map { _ in try encoder.encode(tone.next(frames: 960)) }
    }

    static func pipeline(microphone: MicrophoneSource, speaker: SpeakerSink = .none) -> MediaService {
        var settings = MediaService.Settings(width: 160, height: 120, fps: 10, bitrateKbps: 200)
        settings.microphone = microphone
        settings.speaker = speaker
        return MediaService.running(settings: settings, logger: logger)
    }

    /// alsa-lib configuration for `doormic`: a `file` PCM whose capture is 2 s of a 1 kHz tone, written into
    /// `directory`. Unpaced: alsa-lib reads the file as fast as it is asked.
    static func toneMicrophone(in directory: TemporaryDirectory) throws -> String {
        var tone = ToneGenerator(frequency: 1000, amplitude: 0.4)
        try directory.write(raw(tone.next(frames: 48_000 * 2)), to: "voice.raw")
        return """
            pcm.doormic {
                type file
                slave { pcm { type null } }
                file "/dev/null"
                infile "\(directory.path("voice.raw"))"
                format raw
            }
            """
    }

    /// alsa-lib configuration for `doorspeaker`: a `file` PCM that records playback into `path`.
    static func fileSpeaker(recordingInto path: String) -> String {
        """
        pcm.doorspeaker {
            type file
            slave { pcm { type null } }
            file "\(path)"
            format raw
        }
        """
    }

    /// Expects `pcm` (the decoded Opus stream) past the codec's first frames to be the 1 kHz microphone tone,
    /// at its level.
    static func expectMicrophoneTone(_ pcm: [Int16], lowestHertz: Double) {
        // Skip the codec's first frames (its look-ahead and the start of the stream).
        let steady = Array(pcm.dropFirst(4800))
        let frequency = PCMAnalysis.dominantFrequency(steady, sampleRate: 48_000, range: lowestHertz...3000, step: 10)
        #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        #expect(PCMAnalysis.rmsDecibels(steady) > -20, "level \(PCMAnalysis.rmsDecibels(steady)) dBFS")
    }

    /// Decoded PCM of the first `count` Opus packets the pipeline publishes.
    static func decodedPackets(_ pipeline: MediaService, count: Int) async throws -> [Int16] {
        let decoder = try OpusDecoder(sampleRate: 48_000, channels: 1)
        var pcm: [Int16] = []
        var received = 0
        for await packet in pipeline.audio.subscribe() {
            pcm += try decoder.decode(packet)
            received += 1
            if received == count { break }
        }
        return pcm
    }

    @Test("a 1 kHz tone captured from the ALSA microphone reaches the Opus stream as 1 kHz")
    func microphoneToOpus() async throws {
        let directory = try TemporaryDirectory(prefix: "mic")
        let text = try Self.toneMicrophone(in: directory)
        let pipeline = Self.pipeline(microphone: .alsa(device: "doormic", configurationText: text))
        defer { pipeline.stop() }
        Self.expectMicrophoneTone(try await Self.decodedPackets(pipeline, count: 25), lowestHertz: 300)
    }

    @Test("a microphone that cannot be opened costs the sound, not the stream: silence at 50 packets/s")
    func missingMicrophoneSendsSilence() async throws {
        let pipeline = Self.pipeline(microphone: .alsa(device: "nosuchpcm_intercom"))
        defer { pipeline.stop() }
        let decoder = try OpusDecoder(sampleRate: 48_000, channels: 1)
        var pcm: [Int16] = []
        var arrivals: [ContinuousClock.Instant] = []
        for await packet in pipeline.audio.subscribe() {
            pcm += try decoder.decode(packet)
            arrivals.append(.now)
            if arrivals.count == 30 { break }
        }
        // Paced like a microphone (20 ms a packet) once the failed open is behind it, however long that took.
        let paced = arrivals[29] - arrivals[9]
        #expect(paced > .milliseconds(300) && paced < .milliseconds(1500), "20 packets took \(paced)")
        #expect(PCMAnalysis.rmsDecibels(pcm) < -60)
    }

    @Test("the speaker plays the claiming peer's frames into the ALSA device; a second peer is not mixed in")
    func speakerPlaysOnePeer() async throws {
        let directory = try TemporaryDirectory(prefix: "speaker")
        let output = directory.path("speaker.raw")
        let text = Self.fileSpeaker(recordingInto: output)
        let speaker = SpeakerPlayout(sink: .alsa(device: "doorspeaker", configurationText: text), logger: Self.logger)
        let claim = try #require(speaker.claim())
        #expect(speaker.claim() == nil, "a second peer gets no speaker while the first has it")
        let voice = try Self.opusPackets(hertz: 700, count: 25)
        let intruder = try Self.opusPackets(hertz: 2000, count: 25)
        // Arrival out of order, packet 12 lost; another peer's packets are not the owner's: dropped.
        for sequence in [1, 0, 3, 2] + Array(4..<25).filter({ $0 != 12 }) {
            speaker.enqueue(sequenceNumber: UInt16(sequence), opus: voice[sequence], claim: claim)
            speaker.enqueue(sequenceNumber: UInt16(sequence), opus: intruder[sequence], claim: claim + 1)
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(200))
        let counters = speaker.playoutCounters
        speaker.release(claim)
        try await Task.sleep(for: .milliseconds(100))
        let played = Self.samples(try #require(FileManager.default.contents(atPath: output).map(Array.init)))
        #expect(played.count >= 24 * 960, "\(played.count) samples written")
        // Packet 12 never came: rebuilt from 13's FEC unless a starved thread trimmed it away first.
        #expect(counters.played + counters.trimmed == 24 && counters.late == 0, "\(counters)")
        let loudest = stride(from: 0, to: played.count - 9600, by: 4800).map { Array(played[$0..<($0 + 9600)]) }
            .max { PCMAnalysis.rms($0) < PCMAnalysis.rms($1) } ?? []
        let frequency = PCMAnalysis.dominantFrequency(loudest, sampleRate: 48_000, range: 300...3000, step: 10)
        #expect(frequency.map { abs($0 - 700) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        let next = speaker.claim()
        #expect(next != nil, "released: the next call gets the speaker")
        if let next { speaker.release(next) }
    }

    @Test("a speaker that cannot be opened is given back, so the next call tries again")
    func missingSpeaker() async throws {
        let speaker = SpeakerPlayout(sink: .alsa(device: "nosuchpcm_intercom"), logger: Self.logger)
        let claim = try #require(speaker.claim())
        speaker.enqueue(sequenceNumber: 0, opus: try Self.opusPackets(hertz: 440, count: 1)[0], claim: claim)
        try await Task.sleep(for: .milliseconds(300))
        let again = speaker.claim()
        #expect(again != nil)
        if let again { speaker.release(again) }
        #expect(SpeakerPlayout(sink: .none, logger: Self.logger).claim() == nil)
    }

    @Test("[audio] maps to the endpoints: ALSA devices, the tone, none, disabled")
    func endpoints() {
        let endpoints = MediaService.Settings.endpoints
        #expect(endpoints(AudioSettings()) == (.alsa(device: "default"), .alsa(device: "default")))
        #expect(endpoints(AudioSettings(capture: "tone", playback: "none")) == (.testTone(hertz: 440), .none))
        #expect(endpoints(AudioSettings(capture: "tone:880")).0 == .testTone(hertz: 880))
        #expect(endpoints(AudioSettings(capture: "hw:1,0", playback: "plughw:0,0"))
                == (.alsa(device: "hw:1,0"), .alsa(device: "plughw:0,0")))
        #expect(endpoints(AudioSettings(enabled: false, capture: "hw:1,0")) == (.silence, .none))
    }
}
