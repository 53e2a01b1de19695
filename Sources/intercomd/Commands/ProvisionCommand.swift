import ArgumentParser
import Foundation
import IntercomConfig
import IntercomPlatform

/// `intercomd provision`: one validated overlay per device of a fleet inventory.
struct ProvisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Write one config overlay per device from a fleet base file and an inventory CSV.",
        discussion: """
            The CSV needs the columns title,latitude,longitude,username,password_file and may have board (a profile \
            name in --boards). Every row is validated merged with the base before anything is written; a bad or \
            duplicate row names its CSV line and nothing is written.
            """
    )

    @Option(name: .long, help: "Fleet base configuration (installed as /etc/intercom/intercom.toml).")
    var base: String

    @Option(name: .long, help: "Inventory CSV.")
    var inventory: String

    @Option(name: .long, help: "Output directory for the overlays (created if missing).")
    var out: String

    @Option(name: .long, help: "Directory of board profiles for the board column.")
    var boards = "board"

    func run() throws {
        let loader = ConfigLoader(environment: ProcessInfo.processInfo.environment, checksSecretFiles: false)
        let baseSource: ConfigSource
        let csv: InventoryCSV
        do {
            baseSource = try ConfigLoader.readSource(base)
            let inventorySource = try ConfigLoader.readSource(inventory)
            csv = try InventoryCSV(text: String(decoding: inventorySource.bytes, as: UTF8.self))
        } catch let error as InventoryCSV.ParseError {
            Terminal.error("intercomd provision: \(inventory):\(error.line): \(error.message)")
            throw ExitCode(1)
        } catch {
            Terminal.error("intercomd provision: \(error)")
            throw ExitCode(2)
        }
        let boardDirectory = boards
        let plan = FleetProvisioner(loader: loader).plan(base: baseSource, inventory: csv, inventoryName: inventory) { name in
            guard !name.contains("/"), !name.hasPrefix(".") else {
                return .failure(ConfigUnreadableError(path: name, reason: "a board name is a file name in \(boardDirectory), without .toml"))
            }
            return Result { () throws(ConfigUnreadableError) in try ConfigLoader.readSource("\(boardDirectory)/\(name).toml") }
        }
        switch plan {
        case .failure(let problems):
            for problem in problems.problems { Terminal.error(problem) }
            Terminal.error("intercomd provision: \(problems.problems.count) problem(s); nothing was written")
            throw ExitCode(1)
        case .success(let overlays):
            do {
                try Directories.createIfMissing(out, permissions: 0o755)
                for overlay in overlays {
                    try AtomicFile.write(Array(overlay.text.utf8), to: "\(out)/\(overlay.fileName)", permissions: 0o644)
                    print("\(out)/\(overlay.fileName)  \(overlay.title) (\(overlay.username), \(inventory) line \(overlay.inventoryLine))")
                }
            } catch {
                Terminal.error("intercomd provision: \(error)")
                throw ExitCode(2)
            }
            print("wrote \(overlays.count) device overlay\(overlays.count == 1 ? "" : "s") to \(out)")
        }
    }
}
