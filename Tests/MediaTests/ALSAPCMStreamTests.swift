import Glibc
import IntercomTestSupport
import Media
import Testing

/// ALSA without sound hardware: the `null` PCM (silence in, discard out) and the `file` PCM (records
/// playback to a file, or plays a file back as capture) exercise the real alsa-lib code paths.
@Suite struct ALSAPCMStreamTests {
    static func rawSamples(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    @Test func playbackThroughTheFilePCMWritesExactlyTheSamples() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("out.raw")
        var tone = ToneGenerator(frequency: 1000, amplitude: 0.3)
        let samples = tone.next(frames: 4800)
        do {
            let stream = try ALSAPCMStream(
                .playback, configuration: ALSAStreamConfiguration(device: "file:FILE=\(output),FORMAT=raw"))
            #expect(stream.sampleRate == 48_000 && stream.periodFrames == 480)
            try stream.write(samples)
            try stream.drain()
        }
        #expect(Self.rawSamples(directory.contents(of: "out.raw") ?? []) == samples)
    }

    @Test func captureFromAFileReturnsItsSamples() throws {
        let directory = try TemporaryDirectory()
        var tone = ToneGenerator(frequency: 440, amplitude: 0.5)
        let recorded = tone.next(frames: 960)
        try directory.write(recorded.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }, to: "in.raw")
        let text = """
            pcm.fromfile {
                type file
                slave { pcm { type null } }
                file "/dev/null"
                infile "\(directory.path("in.raw"))"
                format raw
            }
            """
        let stream = try ALSAPCMStream(
            .capture, configuration: ALSAStreamConfiguration(device: "fromfile"), configurationText: text)
        let captured = try stream.read(frames: 960)
        #expect(captured == recorded)
    }

    @Test func theNullDeviceCapturesSilenceInWholePeriods() throws {
        var configuration = ALSAStreamConfiguration(device: "null")
        configuration.sampleRate = 16_000
        configuration.channels = 2
        let stream = try ALSAPCMStream(.capture, configuration: configuration)
        #expect(stream.periodFrames == 160)
        let samples = try stream.read(frames: 320)
        #expect(samples.count == 640)
        #expect(samples.allSatisfy { $0 == 0 })
    }

    @Test func anUnknownDeviceIsATypedErrorNamingTheCallAndDevice() {
        let error = #expect(throws: ALSAError.self) {
            _ = try ALSAPCMStream(.playback, configuration: ALSAStreamConfiguration(device: "nosuchpcm_intercom"))
        }
        #expect(error?.call == "snd_pcm_open")
        #expect(error?.device == "nosuchpcm_intercom")
        #expect(error?.code ?? 0 < 0)
    }

    @Test func brokenConfigurationTextIsRejected() {
        let error = #expect(throws: ALSAError.self) {
            _ = try ALSAPCMStream(
                .capture, configuration: ALSAStreamConfiguration(device: "x"), configurationText: "pcm.x { type {{{")
        }
        #expect(error?.call == "snd_config_load")
    }
}
