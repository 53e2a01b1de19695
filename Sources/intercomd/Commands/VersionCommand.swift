import ArgumentParser
import GPIO
import IntercomBuildInfo
import Media
import WebRTC

/// `intercomd version`: this build and the C libraries it runs with.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the version and the C library versions.")

    func run() {
        print("intercomd \(IntercomVersion.current)")
        for (name, version) in Self.libraries() { print("  \(name): \(version)") }
    }

    static func libraries() -> [(String, String)] {
        [("libvpx", MediaLibraries.libvpx), ("libopus", MediaLibraries.libopus), ("alsa-lib", MediaLibraries.alsa),
         ("libgpiod", GPIOInventory.libgpiodVersion), ("libnice", TransportLibraries.libnice),
         ("libsrtp2", TransportLibraries.libsrtp2), ("openssl", TransportLibraries.openSSL)]
    }
}
