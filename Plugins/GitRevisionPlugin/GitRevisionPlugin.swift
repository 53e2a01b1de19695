import Foundation
import PackagePlugin

/// Writes `GitRevision.swift` (the commit the build comes from) into the target before every build, so a
/// plain `swift build` and `scripts/build-deb.sh` stamp the same version. A prebuild command, not a build
/// command: it must run on every build, because a new commit changes no input file SwiftPM could watch.
/// `scripts/write-git-revision.sh` rewrites the file only when the revision changed, so an unchanged
/// checkout recompiles nothing.
@main
struct GitRevisionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        let script = context.package.directoryURL.appending(path: "scripts/write-git-revision.sh")
        return [
            .prebuildCommand(
                displayName: "Stamping the git revision into \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, context.package.directoryURL.path, outputDirectory.appending(path: "GitRevision.swift").path],
                outputFilesDirectory: outputDirectory
            ),
        ]
    }
}
