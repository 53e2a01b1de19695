import GPIO
import Media

/// The human listing and the config fragment `probe` prints; pure so that it is testable with any inventory.
enum ProbeReport {
    /// Line names the board profiles use for buttons, LEDs and the relay (docs/wiring.md).
    static let suggestedLines: [(table: String, line: String)] = [
        ("gpio.buttons.accept", "GPIO17"), ("gpio.buttons.hangup", "GPIO27"), ("gpio.buttons.call", "GPIO22"),
        ("gpio.leds.status", "GPIO23"), ("gpio.leds.ringing", "GPIO24"), ("gpio.door", "GPIO25"),
    ]

    static func text(
        video: [V4L2CaptureDevice], videoFailures: [String], libcamera: [LibcameraInventory.Camera] = [],
        libcameraFailure: String? = nil, cards: [ALSACard], soundFailures: [String], chips: [GPIOChipInfo],
        gpioFailure: String?
    ) -> String {
        var out: [String] = ["Video capture devices (V4L2):"]
        if video.isEmpty { out.append("  no capture devices found") }
        for device in video {
            out.append("  \(device.path)  \"\(device.card)\" (\(device.driver), \(device.busInfo), \(device.bufferType))")
            for format in device.formats {
                let sizes = format.sizes.prefix(8).map { size in
                    "\(size.width)x\(size.height)" + (size.framesPerSecond.isEmpty ? "" : "@" + size.framesPerSecond.prefix(3).map(fps).joined(separator: "/"))
                }
                out.append("    \(format.pixelFormat)  \(sizes.joined(separator: "  "))" + (format.sizes.count > 8 ? "  …" : ""))
            }
            for (width, height) in [(640, 480), (1280, 720)] {
                let choice = V4L2FormatChoice.choose(
                    preferred: V4L2CaptureSource.defaultFormats, offered: device.formats, bufferType: device.bufferType,
                    width: width, height: height, framesPerSecond: 30)
                out.append("    at \(width)x\(height) 30 fps the agent captures " + (choice.order.first.map { "\($0): \(choice.reason)" } ?? "nothing: \(choice.reason)"))
            }
        }
        out += videoFailures.map { "  could not inspect: \($0)" }

        out.append("Cameras (libcamera; video.source = \"libcamera:<id>\"):")
        if libcamera.isEmpty { out.append(libcameraFailure.map { "  could not list cameras: \($0)" } ?? "  no cameras found") }
        for camera in libcamera {
            out.append("  \(camera.id)" + (camera.model.isEmpty ? "" : "  \"\(camera.model)\""))
            for format in camera.formats {
                let sizes = format.sizes.isEmpty
                    ? "\(format.minimumSize)-\(format.maximumSize)" : format.sizes.prefix(8).map(\.description).joined(separator: "  ")
                out.append("    \(format.name)  \(sizes)" + (format.converted ? "" : "  (not converted)"))
            }
        }

        out.append("Sound cards (ALSA):")
        if cards.isEmpty { out.append("  no sound cards found") }
        for card in cards {
            out.append("  card \(card.index) \"\(card.id)\" (\(card.name))")
            for device in card.devices {
                let directions = [device.canCapture ? "capture" : nil, device.canPlay ? "playback" : nil].compactMap { $0 }
                out.append("    device \(device.device) \"\(device.name)\": \(directions.joined(separator: "+")) → \(device.pcmName(cardID: card.id))")
            }
        }
        out += soundFailures.map { "  could not inspect: \($0)" }

        out.append("GPIO chips (libgpiod \(GPIOInventory.libgpiodVersion)):")
        if chips.isEmpty { out.append(gpioFailure.map { "  could not list chips: \($0)" } ?? "  no GPIO chips found") }
        for chip in chips {
            let named = chip.lines.compactMap { line in line.name.map { "\($0)=\(line.offset)" + (line.consumer == nil ? "" : "*") } }
            out.append("  \(chip.name) [\(chip.label)] \(chip.lines.count) lines" + (named.isEmpty ? ", no line names" : ""))
            if !named.isEmpty { out.append("    " + named.joined(separator: " ") + "   (* = in use)") }
        }

        out.append("")
        out.append("# Config fragment for /etc/intercom/intercom.toml (review before use):")
        out += fragment(video: video, libcamera: libcamera, cards: cards, chips: chips)
        return out.joined(separator: "\n")
    }

    /// A Pi camera module's V4L2 node (unicam) only offers raw Bayer, which `preferredMode` skips: such a
    /// board gets its libcamera camera.
    static func fragment(
        video: [V4L2CaptureDevice], libcamera: [LibcameraInventory.Camera] = [], cards: [ALSACard], chips: [GPIOChipInfo]
    ) -> [String] {
        var out = ["[video]"]
        if let camera = video.first, let (format, size) = preferredMode(camera) {
            out.append("source = \"\(camera.path)\"   # \(camera.card), \(format)")
            out.append("width = \(size.width)")
            out.append("height = \(size.height)")
            out.append("fps = \(Int((size.framesPerSecond.first ?? 30).rounded()))")
        } else if let camera = libcamera.first(where: { $0.formats.contains(where: \.converted) }) {
            out.append("source = \"libcamera:\(camera.id)\"" + (camera.model.isEmpty ? "" : "   # \(camera.model)"))
            out.append("width = 640")
            out.append("height = 480")
            out.append("fps = 30")
        } else {
            out.append("source = \"testpattern\"   # no camera found")
        }
        out.append("")
        out.append("[audio]")
        let capture = cards.lazy.flatMap { card in card.devices.filter(\.canCapture).map { $0.pcmName(cardID: card.id) } }.first
        let playback = cards.lazy.flatMap { card in card.devices.filter(\.canPlay).map { $0.pcmName(cardID: card.id) } }.first
        if capture == nil && playback == nil { out.append("enabled = false   # no sound card found") }
        if let capture { out.append("capture = \"\(capture)\"") }
        if let playback { out.append("playback = \"\(playback)\"") }
        let names = Set(chips.flatMap { $0.lines.compactMap(\.name) })
        let wired = suggestedLines.filter { names.contains($0.line) }
        for (table, line) in wired {
            out.append("")
            out.append("[\(table)]")
            out.append("line = \"\(line)\"")
        }
        return out
    }

    /// The mode a Pi-class encoder handles well: 640x480 (or the closest below 1280x720) in a format the capture
    /// converts (NV12/YU12, NV12M/YM12 on multi-planar devices, YUYV), else MJPEG.
    static func preferredMode(_ device: V4L2CaptureDevice) -> (PixelFormat, V4L2CaptureDevice.FrameSize)? {
        let order: [PixelFormat] = [.nv12, .yuv420, .nv12m, .yuv420m, .yuyv, .mjpeg]
        for pixelFormat in order {
            guard let format = device.formats.first(where: { $0.pixelFormat == pixelFormat }) else { continue }
            let fitting = format.sizes.filter { $0.width <= 1280 && $0.height <= 720 }
            if let size = fitting.min(by: { abs($0.width * $0.height - 640 * 480) < abs($1.width * $1.height - 640 * 480) }) {
                return (pixelFormat, size)
            }
        }
        return nil
    }

    private static func fps(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format1(value))
    }

    private static func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
