import Foundation
import Media
import Testing

/// `intercomd camera-test` as an installer runs it: a progress line each second, the figures, a snapshot;
/// a camera that is not there is a clear error and exit status 1.
@Suite struct CameraTestCommandTests {
    @Test("camera-test on the test pattern reports fps, drops and latency and writes a JPEG snapshot")
    func testPattern() async throws {
        let snapshot = NSTemporaryDirectory() + "camera-test-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: snapshot) }
        let output = try await IntercomdProcess.runAsync(
            ["camera-test", "--source", "testpattern", "--seconds", "2", "--width", "320", "--height", "240", "--fps", "15",
             "--snapshot", snapshot],
            environment: ["INTERCOM_CONFIG": "/nonexistent/intercom.toml"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("no configuration at /nonexistent/intercom.toml; using the defaults"))
        #expect(output.stdout.contains("frames encoded"), "no progress line: \(output.stdout)")
        #expect(output.stdout.contains("source: TestPatternSource: 320x240"))
        let fps = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("measured:") })
        let measured = try #require(Double(fps.split(separator: " = ").last!.split(separator: " ").first!))
        #expect(measured > 12 && measured < 18, "\(fps)")
        #expect(output.stdout.contains("capture → encoded: p50 "))
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshot)))
        let frame = try jpeg.withUnsafeBytes { try JPEGDecoder().decode($0) }
        #expect(frame.width == 320 && frame.height == 240)
    }

    @Test("camera-test on a camera that is not there says which and exits 1")
    func missingCamera() async throws {
        let output = try await IntercomdProcess.runAsync(["camera-test", "--source", "/dev/video-not-here", "--seconds", "1"],
                                              environment: ["INTERCOM_CONFIG": "/nonexistent/intercom.toml"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("open(\"/dev/video-not-here\"): No such file or directory"), "\(output.stderr)")
    }
}
