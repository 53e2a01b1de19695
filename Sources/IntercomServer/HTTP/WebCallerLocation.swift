import Foundation

/// Where the web caller's static files are: the configured directory, else the installed location, else
/// the SwiftPM resource directory next to the executable (`swift build` copies `WebCaller/` there).
enum WebCallerLocation {
    static let installed = "/usr/share/intercom/web"

    static func resolve(configured: String?, executable: String = CommandLine.arguments.first ?? "") -> String? {
        if let configured { return configured }
        let executableDirectory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            installed,
            executableDirectory.appendingPathComponent("intercom_IntercomServer.resources/WebCaller").path,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/index.html") }
    }
}
