import Foundation
import IntercomPlatform
import IntercomTestSupport
import Testing

/// `[audio] speak_messages = true` on a machine whose espeak-ng cannot start: one clear error in the log at
/// start, and the agent runs on (READY, a clean stop).
@Suite("intercomd run: speak_messages without espeak-ng-data", .serialized)
struct SpeakMessagesRunTests {
    @Test("espeak-ng failing to start is logged once, as an error naming the call; the agent is ready and stops cleanly")
    func missingVoiceData() async throws {
        let directory = try TemporaryDirectory()
        let config = try writeOfflineAgentConfig(in: directory, extra: """
            [audio]
            capture = "tone"
            speak_messages = true
            """)
        // espeak-ng takes $ESPEAK_DATA_PATH/espeak-ng-data when it is a directory: an empty one has no voices.
        try FileManager.default.createDirectory(atPath: directory.path("espeak-ng-data"), withIntermediateDirectories: true)
        let socket = try FakeNotifySocket(.abstract)
        let agent = try IntercomdProcess.start(["run", "--config", config],
                                               environment: socket.environment(["ESPEAK_DATA_PATH": directory.path("")]))
        #expect(try await socket.receiveAsync(timeout: .seconds(10))?.hasPrefix("READY=1") == true)
        try await Task.sleep(for: .seconds(1))
        agent.signal(SIGTERM)
        let output = try await agent.waitAsync(timeout: .seconds(5))
        #expect(output.status == 0, "\(output.stderr)")
        let errors = output.stderr.split(separator: "\n").filter { $0.contains("messages cannot be spoken") }
        #expect(errors.count == 1, "\(output.stderr)")
        #expect(errors.first?.contains("espeak_ng_Initialize") == true, "\(errors)")
        #expect(output.stderr.contains("messages spoken (voice en)"), "\(output.stderr)")
    }
}
