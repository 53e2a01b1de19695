import ArgumentParser
import IntercomBuildInfo

/// `intercomd`: the device agent of the Intercom video intercom.
@main
struct Intercomd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intercomd",
        abstract: "Video intercom device agent: camera, microphone, speaker, buttons and LEDs, callable from a browser.",
        version: IntercomVersion.current,
        subcommands: [
            RunCommand.self, StatusCommand.self, CheckCommand.self, ProbeCommand.self, ProvisionCommand.self, GPIOTestCommand.self, CameraTestCommand.self, BenchCommand.self,
            CallCommand.self, DemoCommand.self,
            VersionCommand.self,
        ],
        defaultSubcommand: nil
    )
}
