import Testing
@testable import IntercomConfig

@Suite("Fleet provisioning from an inventory CSV")
struct FleetProvisionerTests {
    let base = ConfigSource(name: "base.toml", text: """
        [identity]
        title = "placeholder"
        latitude = 0
        longitude = 0
        [backend]
        server_url = "https://intercom.example.org/parse"
        [call]
        answer = "button"
        """)

    let rpi = ConfigSource(name: "board/rpi4.toml", text: """
        [identity]
        title = "Intercom"
        latitude = 0
        longitude = 0
        [backend]
        server_url = "http://127.0.0.1:1337/parse"
        [video]
        width = 640
        height = 480
        encoder_threads = 2
        [gpio.buttons.accept]
        line = "GPIO17"
        """)

    private func plan(_ csv: String) throws -> Result<[FleetProvisioner.DeviceOverlay], ProvisioningProblems> {
        let inventory = try InventoryCSV(text: csv)
        let loader = ConfigLoader(environment: [:], checksSecretFiles: false)
        return FleetProvisioner(loader: loader).plan(base: base, inventory: inventory, inventoryName: "devices.csv") { name in
            name == "rpi4" ? .success(rpi) : .failure(ConfigUnreadableError(path: "board/\(name).toml", reason: "No such file or directory (errno 2)"))
        }
    }

    @Test("good rows give one overlay each that merges into a valid config")
    func goodRows() throws {
        let overlays = try plan("""
            title,latitude,longitude,username,password_file,board
            "Gate 1, North",52.5,13.4,gate-1,/etc/intercom/secrets/gate-1,rpi4
            Gate 2,52.6,13.5,Gate.2,/etc/intercom/secrets/gate-2,
            """).get()
        #expect(overlays.map(\.fileName) == ["gate-1.toml", "gate.2.toml"])
        #expect(overlays.map(\.inventoryLine) == [2, 3])
        let merged = try #require(ConfigLoader(environment: [:], checksSecretFiles: false)
            .load([base, ConfigSource(name: "gate-1.toml", text: overlays[0].text)]).configuration)
        #expect(merged.identity == IdentitySettings(title: "Gate 1, North", latitude: 52.5, longitude: 13.4))
        #expect(merged.backend.login == .password(username: "gate-1", passwordFile: "/etc/intercom/secrets/gate-1"))
        #expect(merged.video.encoderThreads == 2)
        #expect(merged.gpio?.buttons[.accept]?.line == .named("GPIO17"))
        #expect(merged.call.answer == .button)
        #expect(merged.backend.serverURL.absoluteString == "https://intercom.example.org/parse")
        // The overlay without a board carries no hardware sections.
        #expect(!overlays[1].text.contains("[video]"))
    }

    @Test("a bad row and a duplicate are refused, each naming its CSV line, and nothing is planned")
    func badAndDuplicateRows() throws {
        let result = try plan("""
            title,latitude,longitude,username,password_file
            Gate 1,52.5,13.4,gate-1,/s/1
            Gate 2,north,13.4,gate-2,/s/2
            gate 1,52.5,13.4,gate-3,/s/3
            Gate 4,95,13.4,gate-1,/s/4
            Gate 5,52.5,13.4,gate-5
            Gate 6,52.5,13.4,,/s/6
            """)
        guard case .failure(let problems) = result else {
            Issue.record("expected problems, got \(result)")
            return
        }
        #expect(problems.problems == [
            "devices.csv:6: expected 5 fields like the header, got 4",
            "devices.csv:3: latitude \"north\" is not a number",
            "devices.csv:4: duplicate title \"gate 1\" (also on line 2)",
            "devices.csv:5: duplicate username \"gate-1\" (also on line 2)",
            "devices.csv:7: username is empty",
        ])
    }

    @Test("values that fail validation after merging are named with their line")
    func validationAfterMerge() throws {
        guard case .failure(let problems) = try plan("""
            title,latitude,longitude,username,password_file,board
            Gate 1,95,13.4,gate-1,/s/1,
            Gate 2,1,2,gate-2,/s/2,rpi5
            """) else {
            Issue.record("expected problems")
            return
        }
        #expect(problems.problems == [
            "devices.csv:2: gate-1.toml:6:1: identity.latitude: must be between -90 and 90, got 95.0",
            "devices.csv:3: board \"rpi5\": cannot read board/rpi5.toml: No such file or directory (errno 2)",
        ])
    }

    @Test("missing columns are named")
    func missingColumns() throws {
        guard case .failure(let problems) = try plan("title,lat,longitude\nA,1,2\n") else {
            Issue.record("expected problems")
            return
        }
        #expect(problems.problems == [
            "devices.csv:1: missing column(s) latitude, username, password_file; the header needs title,latitude,longitude,username,password_file,[board]",
        ])
    }
}

@Suite("Inventory CSV (RFC 4180)")
struct InventoryCSVTests {
    @Test("quotes, doubled quotes, CRLF, BOM, blank lines")
    func parsing() throws {
        let csv = try InventoryCSV(text: "\u{FEFF}Title,Note\r\n\"A, \"\"quoted\"\"\",x\r\n\r\nB,\"multi\nline\"\r\nC,z")
        #expect(csv.header == ["title", "note"])
        #expect(csv.rows.map { $0.fields["title"] } == ["A, \"quoted\"", "B", "C"])
        #expect(csv.rows.map(\.line) == [2, 4, 6])
        #expect(csv.rows[1].fields["note"] == "multi\nline")
    }

    @Test("broken quoting and empty files are errors with a line")
    func errors() {
        #expect(throws: InventoryCSV.ParseError(line: 2, message: "unterminated quoted field")) { try InventoryCSV(text: "a,b\n\"x,y\n") }
        #expect(throws: InventoryCSV.ParseError(line: 2, message: "a quote inside an unquoted field; quote the whole field")) {
            try InventoryCSV(text: "a,b\nx\"y,z\n")
        }
        #expect(throws: InventoryCSV.ParseError(line: 1, message: "the file is empty")) { try InventoryCSV(text: "") }
        #expect(throws: InventoryCSV.ParseError(line: 1, message: "column \"a\" appears twice in the header")) { try InventoryCSV(text: "a,A\n") }
    }
}
