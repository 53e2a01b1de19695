import Testing
@testable import IntercomConfig

@Suite("Config: [visits] (issue #19)")
struct VisitConfigTests {
    @Test("on by default with no owners; owners, snapshot and quality are read")
    func values() throws {
        let defaults = try #require(load(minimalConfig).configuration).visits
        #expect(defaults == VisitSettings())
        #expect(defaults.log && defaults.snapshot && defaults.owners.isEmpty && defaults.snapshotQuality == 85)
        let text = minimalConfig + "[visits]\nowners = [\"Ab12Cd34Ef\", \"x9\"]\nsnapshot = false\nsnapshot_quality = 70\n"
        let visits = try #require(load(text).configuration).visits
        #expect(visits.owners == ["Ab12Cd34Ef", "x9"] && !visits.snapshot && visits.snapshotQuality == 70)
    }

    @Test("a username among the owners is reported at its own line")
    func usernames() {
        let text = minimalConfig + "[visits]\nowners = [\n  \"Ab12Cd34Ef\",\n  \"alice@example.org\",\n]\n"
        #expect(problemLines(load(text)) == [
            "intercom.toml:11: visits.owners[1]: expected a Parse user objectId (letters and digits), got "
                + "\"alice@example.org\"; usernames cannot go into an ACL",
        ])
    }

    @Test("an empty owner list with the log on, and a quality out of range, are problems")
    func problems() {
        #expect(problemLines(load(minimalConfig + "[visits]\nowners = []\n")) == [
            "intercom.toml:9: visits.owners: is empty: nobody could read the visitor log (set visits.log = false to turn it off)",
        ])
        #expect(problemLines(load(minimalConfig + "[visits]\nlog = false\nowners = []\n")).isEmpty)
        #expect(problemLines(load(minimalConfig + "[visits]\nsnapshot_quality = 0\n")).count == 1)
    }
}
