/// `intercomd provision`: turns a fleet base file and an inventory CSV into one overlay per device, each
/// validated merged with the base (and the device's board profile) before anything is written.
public struct FleetProvisioner: Sendable {
    public static let requiredColumns = ["title", "latitude", "longitude", "username", "password_file"]
    public static let optionalColumns = ["board"]

    /// One device's overlay, ready to write.
    public struct DeviceOverlay: Sendable, Equatable {
        public var inventoryLine: Int
        public var title: String
        public var username: String
        /// File name inside the output directory, e.g. `gate-1.toml`.
        public var fileName: String
        public var text: String
    }

    public var loader: ConfigLoader

    public init(loader: ConfigLoader) {
        self.loader = loader
    }

    /// Every overlay, or every problem (each naming its CSV line). Nothing is half-done: either all rows are
    /// valid, or the caller writes nothing.
    public func plan(
        base: ConfigSource, inventory: InventoryCSV, inventoryName: String,
        board: (String) -> Result<ConfigSource, ConfigUnreadableError>
    ) -> Result<[DeviceOverlay], ProvisioningProblems> {
        var problems = inventory.malformedRows.map { "\(inventoryName):\($0.line): \($0.message)" }
        let missing = Self.requiredColumns.filter { !inventory.header.contains($0) }
        if !missing.isEmpty {
            problems.append("\(inventoryName):1: missing column(s) \(missing.joined(separator: ", ")); the header needs "
                + (Self.requiredColumns + Self.optionalColumns.map { "[\($0)]" }).joined(separator: ","))
            return .failure(ProvisioningProblems(problems: problems))
        }
        for column in inventory.header where !(Self.requiredColumns + Self.optionalColumns).contains(column) {
            problems.append("\(inventoryName):1: unknown column \"\(column)\"")
        }

        var titles: [String: Int] = [:]
        var usernames: [String: Int] = [:]
        var fileNames: [String: Int] = [:]
        var overlays: [DeviceOverlay] = []
        for row in inventory.rows {
            let at = "\(inventoryName):\(row.line)"
            let value = { (column: String) in row.fields[column] ?? "" }
            var rowProblems: [String] = []
            for column in Self.requiredColumns where value(column).isEmpty { rowProblems.append("\(at): \(column) is empty") }
            let latitude = Double(value("latitude"))
            let longitude = Double(value("longitude"))
            if !value("latitude").isEmpty, latitude == nil { rowProblems.append("\(at): latitude \"\(value("latitude"))\" is not a number") }
            if !value("longitude").isEmpty, longitude == nil { rowProblems.append("\(at): longitude \"\(value("longitude"))\" is not a number") }
            if let first = titles[value("title").lowercased()], !value("title").isEmpty {
                rowProblems.append("\(at): duplicate title \"\(value("title"))\" (also on line \(first))")
            }
            if let first = usernames[value("username")], !value("username").isEmpty {
                rowProblems.append("\(at): duplicate username \"\(value("username"))\" (also on line \(first))")
            }
            let fileName = Self.fileName(for: value("username"))
            if let first = fileNames[fileName], usernames[value("username")] == nil {
                rowProblems.append("\(at): username \"\(value("username"))\" gives the same file name \(fileName) as line \(first)")
            }
            titles[value("title").lowercased()] = titles[value("title").lowercased()] ?? row.line
            usernames[value("username")] = usernames[value("username")] ?? row.line
            fileNames[fileName] = fileNames[fileName] ?? row.line
            guard rowProblems.isEmpty, let latitude, let longitude else {
                problems += rowProblems
                continue
            }

            var overlay = TOMLTable()
            let boardName = value("board")
            if !boardName.isEmpty {
                switch board(boardName) {
                case .failure(let error):
                    problems.append("\(at): board \"\(boardName)\": \(error)")
                    continue
                case .success(let boardSource):
                    do {
                        let boardTable = try TOMLParser.parse(bytes: boardSource.bytes, file: boardSource.name)
                        for section in ["video", "audio", "gpio"] {
                            if let node = boardTable[section] { overlay.set(section, node) }
                        }
                    } catch {
                        problems.append("\(at): board \"\(boardName)\": \(error)")
                        continue
                    }
                }
            }
            let here = SourceLocation(file: fileName, line: 1, column: 1)
            var identity = TOMLTable()
            identity.set("title", TOMLNode(value: .string(value("title")), location: here, keyLocation: here))
            identity.set("latitude", TOMLNode(value: .float(latitude), location: here, keyLocation: here))
            identity.set("longitude", TOMLNode(value: .float(longitude), location: here, keyLocation: here))
            var backend = TOMLTable()
            backend.set("username", TOMLNode(value: .string(value("username")), location: here, keyLocation: here))
            backend.set("password_file", TOMLNode(value: .string(value("password_file")), location: here, keyLocation: here))
            overlay.set("identity", TOMLNode(value: .table(identity), location: here, keyLocation: here))
            overlay.set("backend", TOMLNode(value: .table(backend), location: here, keyLocation: here))

            let header = "# Written by `intercomd provision` from \(at)" + (boardName.isEmpty ? "" : " (board \(boardName))")
                + ".\n# Install as /etc/intercom/conf.d/50-device.toml next to the fleet base file.\n\n"
            let text = header + TOMLWriter.write(overlay)
            switch loader.load([base, ConfigSource(name: fileName, text: text)]) {
            case .invalid(let configProblems, _):
                problems += configProblems.map { "\(at): \($0)" }
            case .valid:
                overlays.append(DeviceOverlay(inventoryLine: row.line, title: value("title"), username: value("username"),
                                              fileName: fileName, text: text))
            }
        }
        if inventory.rows.isEmpty, problems.isEmpty { problems.append("\(inventoryName): no devices listed") }
        return problems.isEmpty ? .success(overlays) : .failure(ProvisioningProblems(problems: problems))
    }

    /// A file name from the username: letters, digits, `-`, `_` and `.` kept, anything else becomes `-`.
    static func fileName(for username: String) -> String {
        let safe = String(username.lowercased().unicodeScalars.map { scalar -> Character in
            let allowed = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
            return allowed ? Character(scalar) : "-"
        })
        let trimmed = safe.trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
        return (trimmed.isEmpty ? "device" : trimmed) + ".toml"
    }
}

/// Why a fleet could not be provisioned; each line names the inventory line it comes from.
public struct ProvisioningProblems: Error, Sendable, Equatable {
    public var problems: [String]
}

import Foundation
