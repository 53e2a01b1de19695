import Foundation

/// Runs one raw C baseline to completion and returns its standard output.
public enum BaselineProcess {
    /// The command line as a shell would take it (arguments with spaces quoted), for the report.
    public static func commandLine(_ executable: String, _ arguments: [String]) -> String {
        ([executable] + arguments).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    public static func run(_ executable: String, _ arguments: [String]) throws(BenchError) -> String {
        let command = commandLine(executable, arguments)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw .baselineFailed(command: command, status: -1, output: "\(error)")
        }
        // Both reports are one line; read to end of file before waiting so a full pipe cannot block it.
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .baselineFailed(command: command, status: process.terminationStatus, output: text + errorText)
        }
        return text
    }
}
