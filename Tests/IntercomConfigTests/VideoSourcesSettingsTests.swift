import Testing
@testable import IntercomConfig

/// `[video] sources`: named cameras the caller can switch between (issue #22 "Switch camera").
@Suite("video.sources: named cameras")
struct VideoSourcesSettingsTests {
    @Test("an inline array of tables: the names in order, the first the default")
    func inlineTables() throws {
        let text = minimalConfig + "[video]\nsources = [{name = \"face\", source = \"testpattern\"}, "
            + "{name = \"parcel\", source = \"/srv/parcel.y4m\"}]\n"
        let video = try #require(load(text).configuration).video
        #expect(video.sources == [.init(name: "face", source: .testPattern), .init(name: "parcel", source: .y4mFile(path: "/srv/parcel.y4m"))])
        #expect(video.cameras.map(\.name) == ["face", "parcel"])
    }

    @Test("[[video.sources]] tables read the same")
    func arrayOfTables() throws {
        let text = minimalConfig + "[video]\nwidth = 320\nheight = 240\n\n[[video.sources]]\nname = \"face\"\nsource = \"/dev/video0\"\n\n"
            + "[[video.sources]]\nname = \"parcel\"\nsource = \"libcamera\"\n"
        let video = try #require(load(text).configuration).video
        #expect(video.cameras == [.init(name: "face", source: .device(path: "/dev/video0")), .init(name: "parcel", source: .libcamera(cameraID: nil))])
        #expect(video.width == 320)
    }

    @Test("without sources, the one source is the one camera, named camera")
    func singleSourceStaysTheDefault() throws {
        let video = try #require(load(minimalConfig + "[video]\nsource = \"testpattern\"\n").configuration).video
        #expect(video.sources.isEmpty)
        #expect(video.cameras == [.init(name: "camera", source: .testPattern)])
        let defaults = try #require(load(minimalConfig).configuration).video
        #expect(defaults.cameras == [.init(name: "camera", source: .auto)])
    }

    @Test("bad input is refused naming the option", arguments: [
        ("sources = \"testpattern\"", "video.sources: expected an array of tables, got string"),
        ("sources = [\"testpattern\"]", "video.sources[0]: expected a table, got string"),
        ("sources = []", "video.sources: expected 1…8 cameras, got 0"),
        ("sources = [{source = \"testpattern\"}]", "video.sources[0]: missing required key \"name\""),
        ("sources = [{name = \"face\"}]", "video.sources[0]: missing required key \"source\""),
        ("sources = [{name = \"Face Cam\", source = \"testpattern\"}]",
         "video.sources[0].name: expected 1…32 characters of a-z, 0-9, - and _, got \"Face Cam\""),
        ("sources = [{name = \"a\", source = \"testpattern\"}, {name = \"a\", source = \"auto\"}]",
         "video.sources[1].name: camera \"a\" is named twice"),
        ("sources = [{name = \"a\", source = \"camera0\"}]",
         "video.sources[0].source: expected \"auto\", \"testpattern\", a device path such as \"/dev/video0\", \"libcamera\", "
            + "\"libcamera:<camera id>\" or a .y4m file path, got \"camera0\""),
        ("sources = [{name = \"a\", source = \"auto\", fps = 5}]", "video.sources[0].fps: unknown key \"fps\""),
        ("source = \"auto\"\nsources = [{name = \"a\", source = \"auto\"}]",
         "video.sources: give either \"source\" (one camera) or \"sources\" (named cameras), not both"),
    ])
    func refused(line: String, problem: String) {
        let problems = problemLines(load(minimalConfig + "[video]\n" + line + "\n"))
        #expect(problems.count == 1 && problems.first?.hasSuffix(problem) == true, "\(problems)")
    }

    @Test("more than 8 cameras are refused")
    func tooMany() {
        let entries = (0..<9).map { "{name = \"c\($0)\", source = \"testpattern\"}" }.joined(separator: ", ")
        let problems = problemLines(load(minimalConfig + "[video]\nsources = [\(entries)]\n"))
        #expect(problems.count == 1 && problems.first?.hasSuffix("video.sources: expected 1…8 cameras, got 9") == true, "\(problems)")
    }
}
