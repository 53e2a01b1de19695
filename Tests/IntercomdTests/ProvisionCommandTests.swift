import Foundation
import Testing

@Suite("intercomd provision")
struct ProvisionCommandTests {
    private func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "intercomd-provision-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("the sample fleet provisions one overlay per inventory row, each valid with the base")
    func sampleFleet() async throws {
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let output = try await IntercomdProcess.runAsync(["provision", "--base", "board/fleet/base.toml", "--inventory", "board/fleet/inventory.csv", "--out", out])
        #expect(output.status == 0, "\(output.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".toml") }
        let rows = try String(contentsOfFile: IntercomdProcess.repositoryRoot + "/board/fleet/inventory.csv", encoding: .utf8)
            .split(whereSeparator: \.isNewline).dropFirst().filter { !$0.isEmpty }
        #expect(written.count == rows.count)
        for file in written {
            let check = try await IntercomdProcess.runAsync(["check", "board/fleet/base.toml", "--overlay", "\(out)/\(file)", "--skip-secrets"])
            #expect(check.status == 0, "\(file): \(check.stderr)")
        }
    }

    @Test("a bad row and a duplicate are refused with their CSV lines, and nothing is written")
    func refusesBadRows() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
            title,latitude,longitude,username,password_file
            Gate 1,52.5,13.4,gate-1,/s/1
            Gate 2,52.5,13.4,gate-1,/s/2
            Gate 3,200,13.4,gate-3,/s/3
            """.write(toFile: directory + "/devices.csv", atomically: true, encoding: .utf8)
        let out = directory + "/out"
        let output = try await IntercomdProcess.runAsync(["provision", "--base", "board/fleet/base.toml", "--inventory", directory + "/devices.csv", "--out", out])
        #expect(output.status == 1)
        #expect(output.stderr.contains("devices.csv:3: duplicate username \"gate-1\" (also on line 2)"))
        #expect(output.stderr.contains("devices.csv:4: gate-3.toml:6:1: identity.latitude: must be between -90 and 90, got 200.0"))
        #expect(output.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
