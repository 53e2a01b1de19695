import Foundation
import Testing

@Suite("intercomd check, probe, version")
struct CheckCommandTests {
    static let root = IntercomdProcess.repositoryRoot

    static var boardProfiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/board")) ?? []
        return names.filter { $0.hasSuffix(".toml") }.sorted().map { "board/" + $0 }
    }

    @Test("the repository ships the documented board profiles")
    func profilesExist() {
        #expect(Self.boardProfiles == ["board/generic-usb.toml", "board/rpi-zero2w.toml", "board/rpi3b.toml", "board/rpi4.toml", "board/rpi5.toml"])
    }

    @Test("every board profile passes check", arguments: boardProfiles)
    func boardProfilePasses(profile: String) async throws {
        let output = try await IntercomdProcess.runAsync(["check", profile])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("\(profile): valid"))
    }

    @Test("the sample fleet passes check: base plus each device overlay")
    func sampleFleet() async throws {
        let devices = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/board/fleet/devices").filter { $0.hasSuffix(".toml") }
        #expect(devices.count >= 2)
        for device in devices {
            let output = try await IntercomdProcess.runAsync(["check", "board/fleet/base.toml", "--overlay", "board/fleet/devices/\(device)", "--skip-secrets"])
            #expect(output.status == 0, "\(device): \(output.stderr)")
        }
    }

    @Test("an invalid file exits 1 and prints every problem with file:line")
    func invalid() async throws {
        let directory = NSTemporaryDirectory() + "intercomd-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/intercom.toml"
        try "[identity]\ntitle = \"G\"\nlatitude = 91\nlongitude = 0\n[backend]\nserver_url = \"http://h/p\"\n[video]\nfps = 0\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let output = try await IntercomdProcess.runAsync(["check", "--config", path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("\(path):3:1: identity.latitude: must be between -90 and 90, got 91.0"))
        #expect(output.stderr.contains("\(path):8:1: video.fps: must be between 1 and 60, got 0"))
        #expect(output.stderr.contains("2 problems in 1 file"))
    }

    @Test("[sip]: problems at file:line; a valid section is summarized with its AOR, transport and password file")
    func sip() async throws {
        let directory = NSTemporaryDirectory() + "intercomd-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = "[identity]\ntitle = \"G\"\nlatitude = 1\nlongitude = 0\n[backend]\nserver_url = \"http://h/p\"\n"
        let path = directory + "/intercom.toml"
        try (base + "[sip]\nregistrar = \"pbx:0\"\nuser = \"a b\"\ntransport = \"tls\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        let invalid = try await IntercomdProcess.runAsync(["check", "--config", path])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("\(path):8:1: sip.registrar: expected HOST or HOST:PORT (an IPv6 address in brackets), got \"pbx:0\""))
        #expect(invalid.stderr.contains("\(path):9:1: sip.user: expected a SIP user name"))
        #expect(invalid.stderr.contains("\(path):10:1: sip.transport: must be one of \"udp\", \"tcp\", got \"tls\""))
        #expect(invalid.stderr.contains("3 problems in 1 file"))

        try "secret\n".write(toFile: directory + "/sip.password", atomically: true, encoding: .utf8)
        try (base + "[call]\ntarget = \"sip:reception@192.168.178.1\"\n[sip]\nregistrar = \"192.168.178.1\"\nuser = \"620\"\npassword_file = \"\(directory)/sip.password\"\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let valid = try await IntercomdProcess.runAsync(["check", "--config", path])
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout.contains("sip registers sip:620@192.168.178.1 at 192.168.178.1:5060 over udp as \"620\" "
            + "(password from \(directory)/sip.password), local port 5060"), "\(valid.stdout)")
        #expect(valid.stdout.contains("the call button calls sip:reception@192.168.178.1 through 192.168.178.1:5060"), "\(valid.stdout)")
        #expect(valid.stdout.contains("sip calls from anyone; no door code; srtp optional"), "\(valid.stdout)")
        #expect(valid.stdout.contains("; codecs pcmu, pcma\n"), "\(valid.stdout)")

        try (base + "[sip]\nregistrar = \"192.168.178.1\"\nuser = \"620\"\ncodecs = [\"opus\", \"PCMA\"]\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let opus = try await IntercomdProcess.runAsync(["check", "--config", path])
        #expect(opus.status == 0, "\(opus.stderr)")
        #expect(opus.stdout.contains("; codecs opus, pcma\n"), "\(opus.stdout)")

        try (base + "[sip]\nregistrar = \"192.168.178.1\"\nuser = \"620\"\ntransport = \"tcp\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        let tcp = try await IntercomdProcess.runAsync(["check", "--config", path])
        #expect(tcp.status == 0, "\(tcp.stderr)")
        #expect(tcp.stdout.contains("over tcp as \"620\" (no password), local port 5060, UDP and TCP"), "\(tcp.stdout)")
    }

    @Test("[call] replies: a bad one is a problem at file:line; valid ones are summarized (issue #22)")
    func replies() async throws {
        let directory = NSTemporaryDirectory() + "intercomd-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = "[identity]\ntitle = \"G\"\nlatitude = 1\nlongitude = 0\n[backend]\nserver_url = \"http://h/p\"\n"
        let path = directory + "/intercom.toml"
        try (base + "[call]\nreplies = [\"ok\", \"\"]\n").write(toFile: path, atomically: true, encoding: .utf8)
        let invalid = try await IntercomdProcess.runAsync(["check", "--config", path])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("\(path):8:"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("call.replies[1]: is empty"), "\(invalid.stderr)")
        try (base + "[call]\nreplies = [\"Please leave the parcel at the door\", \"Coming\"]\n[gpio.buttons.reply]\nline = \"GPIO5\"\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let valid = try await IntercomdProcess.runAsync(["check", "--config", path])
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout.contains("2 canned replies (the reply button sends the first: \"Please leave the parcel at the door\")"),
                "\(valid.stdout)")
    }

    @Test("an unreadable file exits 2; INTERCOM_CONFIG is honoured")
    func unreadable() async throws {
        let output = try await IntercomdProcess.runAsync(["check"], environment: ["INTERCOM_CONFIG": "/nonexistent/intercom.toml"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot read /nonexistent/intercom.toml: No such file or directory (errno 2)"))
    }

    @Test("probe on a machine without a camera says so and exits 0")
    func probeWithoutCamera() async throws {
        let empty = NSTemporaryDirectory() + "intercomd-probe-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let output = try await IntercomdProcess.runAsync(["probe", "--device-directory", empty])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Video capture devices (V4L2):\n  no capture devices found"))
        #expect(output.stdout.contains("Sound cards (ALSA):"))
        #expect(output.stdout.contains("GPIO chips (libgpiod 1.6"))
        #expect(output.stdout.contains("source = \"testpattern\"   # no camera found"))
    }

    @Test("version names every C library it runs with")
    func version() async throws {
        let output = try await IntercomdProcess.runAsync(["version"])
        #expect(output.status == 0)
        for library in ["libvpx: v1.", "libopus: libopus 1.", "alsa-lib: 1.", "libgpiod: 1.6", "libnice: 0.1.", "libsrtp2: libsrtp2 2.", "openssl: OpenSSL 3."] {
            #expect(output.stdout.contains(library), "missing \(library) in \(output.stdout)")
        }
    }
}
