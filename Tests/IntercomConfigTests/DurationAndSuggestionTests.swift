import Testing
@testable import IntercomConfig

@Suite("Duration syntax and suggestions")
struct DurationAndSuggestionTests {
    @Test("durations with units", arguments: [
        ("500ms", Duration.milliseconds(500)), ("30s", .seconds(30)), ("2m", .seconds(120)), ("1h", .seconds(3600)),
        ("1.5s", .milliseconds(1500)), (" 5s ", .seconds(5)),
    ])
    func valid(text: String, expected: Duration) {
        #expect(DurationSyntax.parse(text) == .success(expected))
    }

    @Test("malformed and negative durations", arguments: ["", "s", "5", "5 s", "5sec", "1e3s", "1.2.3s", "5d", "ms"])
    func malformed(text: String) {
        #expect(DurationSyntax.parse(text) == .failure(.malformed))
    }

    @Test("negative durations are called negative")
    func negative() {
        #expect(DurationSyntax.parse("-5s") == .failure(.negative))
    }

    @Test("formatting picks the largest whole unit")
    func format() {
        #expect(DurationSyntax.format(.seconds(7200)) == "2h")
        #expect(DurationSyntax.format(.seconds(90)) == "90s")
        #expect(DurationSyntax.format(.milliseconds(250)) == "250ms")
        #expect(DurationSyntax.format(.zero) == "0s")
    }

    @Test("suggestions within a small edit distance, including transpositions")
    func suggestions() {
        #expect(Suggestion.closest(to: "widht", among: ["width", "height"]) == "width")
        #expect(Suggestion.closest(to: "vidoe", among: ["video", "audio"]) == "video")
        #expect(Suggestion.closest(to: "zzzzzz", among: ["video", "audio"]) == nil)
        #expect(Suggestion.closest(to: "password", among: ["username", "password_file"]) == "password_file")
        #expect(Suggestion.closest(to: "enc", among: ["encoder_speed"]) == nil)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }
}
