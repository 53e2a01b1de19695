import ArgumentParser

/// `intercom-dev`: developer and benchmark commands that need the backend's code (an embedded
/// `intercom-server`) or exist only for tests. Kept out of `intercomd` so that the device binary links only
/// what a device runs (no GRDB, JWTKit or server routes).
@main
struct IntercomDev: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intercom-dev",
        abstract: "Intercom developer tools: backend benchmark and the WebRTC interop sender.",
        subcommands: [BackendBenchCommand.self, WebRTCSendCommand.self, FanOutSubscribersCommand.self]
    )
}
