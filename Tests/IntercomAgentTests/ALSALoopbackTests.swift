import Dispatch
import Foundation
import Glibc
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

    /// `stream`, retried for a second while the device is still busy (a previous test's thread closing it).
    static func opening(_ direction: ALSAPCMStream.Direction, _ device: String) throws -> ALSAPCMStream {
        for _ in 0..<20 {
            do { return try stream(direction, device) } catch let error as ALSAError where error.code == -EBUSY {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        return try stream(direction, device)
    }

    /// Runs `body` on a thread of its own (ALSA calls block) and hands back its result.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Set once by one thread, read by another.
    final class OpenedFlag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    /// A tone played into a loopback device on its own thread until `finish()`.
    final class TonePlayer: Sendable {
        private let stopped = Atomic<Bool>(false)
        private let written = Atomic<Int>(0)
        private let failure = Mutex<ALSAError?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(_ hertz: Double, into device: String) {
            Thread { [self] in
                defer { done.signal() }
                do {
                    let speaker = try ALSALoopbackTests.opening(.playback, device)
                    var tone = ToneGenerator(frequency: hertz, amplitude: 0.4)
                    while !stopped.load(ordering: .relaxed) {
                        try speaker.write(tone.next(frames: 960))
                        written.add(1, ordering: .relaxed)
                    }
                } catch let error as ALSAError {
                    failure.withLock { $0 = error }
                } catch {}
            }.start()
        }

        /// Waits (up to 2 s) until 100 ms of the tone are in the loopback: the room makes its sound first.
        func started() async throws {
            for _ in 0..<100 where written.load(ordering: .relaxed) < 5 { try await Task.sleep(for: .milliseconds(20)) }
        }

        /// Stops playing; the error that stopped it early, if any.
        func finish() -> ALSAError? {
            stopped.store(true, ordering: .relaxed)
            done.wait()
            return failure.withLock { $0 }
        }
    }

    /// Records from a loopback device on its own thread. Tests open it before the playing end: snd-aloop refuses
    /// hw_params on one end of the cable (EINVAL) while the other end is half way through its own, and the
    /// player then never played a frame (seen in CI).
    final class LoopbackRecorder: Sendable {
        private let opened = OpenedFlag()
        private let stopped = OpenedFlag()
        private let recording: Task<[Int16], any Error>

        /// Records until `finish()`, at most `seconds`.
        init(from device: String, atMost seconds: Int) {
            recording = Task { [opened, stopped] in
                try await ALSALoopbackTests.onThread { () throws -> [Int16] in
                    let microphone = try ALSALoopbackTests.opening(.capture, device)
                    opened.set()
                    var recorded: [Int16] = []
                    while !stopped.isSet && recorded.count < 48_000 * seconds { recorded += try microphone.read(frames: 960) }
                    return recorded
                }
            }
        }

        /// Waits (up to 5 s) until the device is open and configured.
        func open() async throws {
            for _ in 0..<250 where !opened.isSet { try await Task.sleep(for: .milliseconds(20)) }
            try #require(opened.isSet, "the recorder's end of the loopback did not open within 5 s")
        }

        /// What was recorded, once `seconds` are full.
        var full: [Int16] { get async throws { try await recording.value } }

        /// Stops recording and returns what was recorded.
        func finish() async throws -> [Int16] {
            stopped.set()
            return try await recording.value
        }
    }

    /// The loudest half second of `pcm` (48 kHz mono).
    static func loudest(_ pcm: [Int16], window: Int = 24_000) -> [Int16] {
        stride(from: 0, through: max(0, pcm.count - window), by: 4800)
            .map { Array(pcm[$0..<min(pcm.count, $0 + window)]) }
            .max { PCMAnalysis.rms($0) < PCMAnalysis.rms($1) } ?? []
    }

    @Test("a 1 kHz tone played into the loopback is the microphone the call's Opus stream carries")
    func microphone() async throws {
        try Self.requireLoopbackCard()
        let player = TonePlayer(1000, into: "plughw:Loopback,0,0")
        try await player.started()
        var settings = MediaService.Settings(width: 160, height: 120, fps: 5, bitrateKbps: 100)
        settings.microphone = .alsa(device: "plughw:Loopback,1,0")
        let pipeline = MediaService.running(settings: settings, logger: Self.logger)
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
        #expect(player.finish() == nil)
        // The device clock paces capture: 75 packets of 20 ms take about 1.5 s.
        #expect(elapsed > .milliseconds(1200) && elapsed < .seconds(4), "75 packets in \(elapsed)")
        let steady = Self.loudest(pcm)
        let frequency = PCMAnalysis.dominantFrequency(steady, sampleRate: 48_000, range: 300...3000, step: 10)
        #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        #expect(PCMAnalysis.rmsDecibels(steady) > -20, "level \(PCMAnalysis.rmsDecibels(steady)) dBFS")
    }

    @Test("the caller's voice given to the speaker comes out of the loopback at 700 Hz, in real time")
    func speaker() async throws {
        try Self.requireLoopbackCard()
        // It records until the tone has been sent, at most 10 s.
        let recorder = LoopbackRecorder(from: "plughw:Loopback,1,1", atMost: 10)
        try await recorder.open()
        let speaker = SpeakerPlayout(sink: .alsa(device: "plughw:Loopback,0,1"), logger: Self.logger)
        let claim = try #require(speaker.claim())
        // The speaker plays silence from the moment its device is open; the caller's voice starts after that.
        for _ in 0..<250 where speaker.framesPlayed == 0 { try await Task.sleep(for: .milliseconds(20)) }
        let framesBeforeTone = speaker.framesPlayed
        for (sequence, packet) in try DeviceAudioTests.opusPackets(hertz: 700, count: 60).enumerated() {
            speaker.enqueue(sequenceNumber: UInt16(sequence), opus: packet, claim: claim)
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(300))
        let recorded = try await recorder.finish()
        speaker.release(claim)
        #expect(framesBeforeTone > 0, "the speaker wrote nothing within 5 s of its claim (device not opened?)")
        #expect(speaker.framesPlayed - framesBeforeTone >= 50, "\(speaker.framesPlayed - framesBeforeTone) frames written while the tone came")
        let loudest = stride(from: 0, to: recorded.count - 4800, by: 4800)
            .map { Array(recorded[$0..<($0 + 4800)]) }
            .max { PCMAnalysis.rms($0) < PCMAnalysis.rms($1) } ?? []
        let frequency = PCMAnalysis.dominantFrequency(loudest, sampleRate: 48_000, range: 300...3000, step: 10)
        #expect(frequency.map { abs($0 - 700) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        #expect(PCMAnalysis.rmsDecibels(loudest) > -20, "level \(PCMAnalysis.rmsDecibels(loudest)) dBFS")
    }

    @Test("a capture overrun (the reader stalls past the buffer) is recovered, counted, and the tone continues")
    func captureOverrun() async throws {
        try Self.requireLoopbackCard()
        let player = TonePlayer(500, into: "plughw:Loopback,0,0")
        try await player.started()
        let (xruns, captured) = try await Self.onThread { () throws -> (Int, [Int16]) in
            let microphone = try Self.opening(.capture, "plughw:Loopback,1,0")
            _ = try microphone.read(frames: 960)
            Thread.sleep(forTimeInterval: 0.3)  // far beyond the 40 ms buffer
            var captured: [Int16] = []
            for _ in 0..<40 { captured += try microphone.read(frames: 960) }
            return (microphone.xrunCount, captured)
        }
        #expect(player.finish() == nil)
        #expect(xruns >= 1, "no overrun counted")
        let frequency = PCMAnalysis.dominantFrequency(Self.loudest(captured), sampleRate: 48_000, range: 200...2000, step: 10)
        #expect(frequency.map { abs($0 - 500) <= 20 } == true, "dominant \(frequency ?? 0) Hz after recovery")
    }

    @Test("a playback underrun (the writer stalls) is recovered, counted, and what follows is heard")
    func playbackUnderrun() async throws {
        try Self.requireLoopbackCard()
        let recorder = LoopbackRecorder(from: "plughw:Loopback,1,1", atMost: 2)
        try await recorder.open()
        let xruns = try await Self.onThread { () throws -> Int in
            let speaker = try Self.opening(.playback, "plughw:Loopback,0,1")
            var tone = ToneGenerator(frequency: 800, amplitude: 0.4)
            for _ in 0..<5 { try speaker.write(tone.next(frames: 960)) }
            Thread.sleep(forTimeInterval: 0.3)  // the buffer runs dry
            for _ in 0..<40 { try speaker.write(tone.next(frames: 960)) }
            return speaker.xrunCount
        }
        let recorded = try await recorder.full
        #expect(xruns >= 1, "no underrun counted")
        let frequency = PCMAnalysis.dominantFrequency(Self.loudest(recorded), sampleRate: 48_000, range: 200...2000, step: 10)
        #expect(frequency.map { abs($0 - 800) <= 20 } == true, "dominant \(frequency ?? 0) Hz after recovery")
    }
}
