import ParseWire

extension VideoSettings {
    /// One of `[video] sources`: a camera the caller can ask for by `name` (issue #22 "Switch camera").
    public struct NamedSource: Sendable, Equatable {
        public var name: String
        public var source: Source

        public init(name: String, source: Source) {
            self.name = name
            self.source = source
        }
    }

    /// The name of the one camera of a config without `sources`.
    public static let defaultCameraName = "camera"

    /// The device's cameras, the default (filmed when media starts) first: `sources`, else `source` as the
    /// one camera named `camera`.
    public var cameras: [NamedSource] {
        sources.isEmpty ? [NamedSource(name: Self.defaultCameraName, source: source)] : sources
    }

    /// `sources = [{name = "face", source = "testpattern"}, {name = "parcel", source = "/dev/video2"}]` (or
    /// `[[video.sources]]` tables): 1…`SignalCamera.maxCameras` distinct names (`SignalCamera`'s rule),
    /// each with a `source` as the single-camera key takes it. Every problem is reported with its path.
    static func namedSources(_ reader: ConfigReader) -> [NamedSource] {
        guard reader.contains("sources") else { return [] }
        guard let entries = reader.tableArray("sources") else { return [] }
        guard (1...SignalCamera.maxCameras).contains(entries.count) else {
            reader.report("sources", "expected 1…\(SignalCamera.maxCameras) cameras, got \(entries.count)")
            return []
        }
        var named: [NamedSource] = []
        for entry in entries {
            let name = entry.string("name", required: true)
            let text = entry.string("source", required: true)
            entry.rejectUnknownKeys()
            guard let name, let text else { continue }
            guard SignalCamera.isValidName(name) else {
                entry.report("name", "expected 1…\(SignalCamera.maxNameLength) characters of a-z, 0-9, - and _, got \"\(name)\"")
                continue
            }
            guard !named.contains(where: { $0.name == name }) else {
                entry.report("name", "camera \"\(name)\" is named twice")
                continue
            }
            guard let source = source(text) else {
                entry.report("source", "expected \"auto\", \"testpattern\", a device path such as \"/dev/video0\", "
                    + "\"libcamera\", \"libcamera:<camera id>\" or a .y4m file path, got \"\(text)\"")
                continue
            }
            named.append(NamedSource(name: name, source: source))
        }
        return named.count == entries.count ? named : []
    }
}
