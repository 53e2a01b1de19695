import Foundation

/// The SoC temperature as the kernel's thermal framework exposes it: `thermal_zone*/temp` in millidegrees
/// Celsius. A zone whose `type` names the CPU (`cpu-thermal` on a Raspberry Pi, `x86_pkg_temp`) wins,
/// else the first zone. Nil where the board has no thermal zone (most VMs).
public enum CPUTemperature {
    public static func read(thermalRoot: String = "/sys/class/thermal") -> Double? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: thermalRoot) else { return nil }
        let zones = entries.filter { $0.hasPrefix("thermal_zone") }.sorted {
            $0.localizedStandardCompare($1) == .orderedAscending
        }
        func text(_ zone: String, _ file: String) -> String? {
            (try? String(contentsOfFile: "\(thermalRoot)/\(zone)/\(file)", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let preferred = zones.first { zone in
            guard let type = text(zone, "type")?.lowercased() else { return false }
            return type.contains("cpu") || type.contains("soc") || type.contains("pkg")
        }
        for zone in [preferred].compactMap({ $0 }) + zones {
            if let value = text(zone, "temp").flatMap(Double.init) { return value / 1000 }
        }
        return nil
    }
}
