import Foundation
import IntercomAgent
import Logging
import Media
import Synchronization
import Testing

/// The agent's microphone and speaker against the kernel's snd-aloop driver in the QEMU harness
/// (Tests/hardware): what is played on `hw:Loopback,0,N` is captured on `hw:Loopback,1,N`, with the
/// driver's own timing. The host stage of scripts/test.sh skips this suite (no sound card there; the `file`
/// PCM tests in DeviceAudioTests cover the same code); inside the harness it fails without the card.
@Suite("ALSA microphone and speaker against the kernel's snd-aloop (QEMU harness)", .serialized,
       .timeLimit(.minutes(2)))
struct ALSALoopbackTests {
    static let logger: Logger = {
        var logger = Logger(label: "alsa-loopback-test")
        logger.logLevel = .critical
        return logger
    }()

    static func requireLoopbackCard() throws {
        try #require(FileManager.default.fileExists(atPath: "/proc/asound/Loopback"),
                     "no snd-aloop card: run inside Tests/hardware/harness.sh")
    }

    static func stream(_ direction: ALSAPCMStream.Direction, _ device: String) throws -> ALSAPCMStream {
        var configuration = ALSAStreamConfiguration(device: device)
        configuration.sampleRate = 48_000
        configuration.channels = 1
        return try ALSAPCMStream(direction, configuration: configuration)
    }

    /// Runs `body` on a thread of its own (ALSA calls block) and hands back its result.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    @Test("a 1 kHz tone played into the loopback is the microphone the call's Opus stream carries")
    func microphone() async throws {
        try Self.requireLoopbackCard()
        let stop = Atomic<Bool>(false)
        let player = Task {
            try await Self.onThread {
                let speaker = try Self.stream(.playback, "plughw:Loopback,0,0")
                var tone = ToneGenerator(frequency: 1000, amplitude: 0.4)
                while !stop.load(ordering: .relaxed) { try speaker.write(tone.next(frames: 960)) }
            }
        }
        defer { stop.store(true, ordering: .relaxed) }
        var settings = DeviceMediaPipeline.Settings(width: 160, height: 120, fps: 5, bitrateKbps: 100)
        settings.microphone = .alsa(device: "plughw:Loopback,1,0")
        let pipeline = DeviceMediaPipeline(settings: settings, logger: Self.logger)
        defer { pipeline.stop() }
        let decoder = try OpusDecoder(sampleRate: 48_000, channels: 1)
        var pcm: [Int16] = []
        var packets = 0
        let started = ContinuousClock.now
        for await packet in pipeline.audio.subscribe() {
            pcm += try decoder.decode(packet)
            packets += 1
            if packets == 75 { break }
        }
        let elapsed = ContinuousClock.now - started
        stop.store(true, ordering: .relaxed)
        try await player.value
        // The device clock paces capture: 75 packets of 20 ms take about 1.5 s.
        #expect(elapsed > .milliseconds(1200) && elapsed < .seconds(4), "75 packets in \(elapsed)")
        let steady = Array(pcm.suffix(48_000 / 2))
        let frequency = PCMAnalysis.dominantFrequency(steady, sampleRate: 48_000, range: 300...3000, step: 10)
        #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        #expect(PCMAnalysis.rmsDecibels(steady) > -20, "level \(PCMAnalysis.rmsDecibels(steady)) dBFS")
    }

    @Test("the caller's voice given to the speaker comes out of the loopback at 700 Hz, in real time")
    func speaker() async throws {
        try Self.requireLoopbackCard()
        let recorder = Task {
            try await Self.onThread { () throws -> [Int16] in
                let microphone = try Self.stream(.capture, "plughw:Loopback,1,1")
                return try microphone.read(frames: 48_000 * 2)
            }
        }
        let speaker = SpeakerPlayout(sink: .alsa(device: "plughw:Loopback,0,1"), logger: Self.logger)
        let claim = try #require(speaker.claim())
        for (sequence, packet) in try DeviceAudioTests.opusPackets(hertz: 700, count: 60).enumerated() {
            speaker.enqueue(sequenceNumber: UInt16(sequence), opus: packet, claim: claim)
            try await Task.sleep(for: .milliseconds(20))
        }
        let recorded = try await recorder.value
        speaker.release(claim)
        #expect(speaker.framesPlayed >= 50, "\(speaker.framesPlayed) frames written")
        let loudest = stride(from: 0, to: recorded.count - 4800, by: 4800)
            .map { Array(recorded[$0..<($0 + 4800)]) }
            .max { PCMAnalysis.rms($0) < PCMAnalysis.rms($1) } ?? []
        let frequency = PCMAnalysis.dominantFrequency(loudest, sampleRate: 48_000, range: 300...3000, step: 10)
        #expect(frequency.map { abs($0 - 700) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        #expect(PCMAnalysis.rmsDecibels(loudest) > -20, "level \(PCMAnalysis.rmsDecibels(loudest)) dBFS")
    }
}
