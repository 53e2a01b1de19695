import ArgumentParser
import GPIO
import Media

/// `intercomd probe`: what this board really has (V4L2 ioctls, libcamera, the ALSA control API, libgpiod),
/// and a config fragment ready to paste. A board without camera, sound card or GPIO is not an error.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "List cameras, sound cards and GPIO lines, and print a matching config fragment."
    )

    @Option(name: .long, help: ArgumentHelp("Directory holding video device nodes.", visibility: .hidden))
    var deviceDirectory = "/dev"

    func run() throws {
        let video = V4L2Inventory.captureDevices(in: deviceDirectory)
        var libcamera: [LibcameraInventory.Camera] = []
        var libcameraFailure: String?
        do {
            libcamera = try LibcameraInventory.cameras()
        } catch {
            libcameraFailure = error.description
        }
        let sound = ALSAInventory.cards()
        let gpio: [GPIOChipInfo]
        var gpioFailure: String?
        do {
            gpio = try GPIOInventory.chips()
        } catch {
            gpio = []
            gpioFailure = error.description
        }
        print(ProbeReport.text(video: video.devices, videoFailures: video.failures.map(\.description),
                               libcamera: libcamera, libcameraFailure: libcameraFailure,
                               cards: sound.cards, soundFailures: sound.failures.map(\.description),
                               chips: gpio, gpioFailure: gpioFailure))
    }
}
