import Testing
@testable import IntercomConfig

@Suite("Config: [audio] echo cancellation keys")
struct EchoCancellationConfigTests {
    @Test("off by default, with high suppression and a derived delay when turned on")
    func defaults() throws {
        let off = try #require(load(minimalConfig).configuration)
        #expect(off.audio.echoCancellation == false)
        let on = try #require(load(minimalConfig + "[audio]\necho_cancellation = true\n").configuration)
        #expect(on.audio.echoCancellation == true)
        #expect(on.audio.echoSuppression == .high)
        #expect(on.audio.echoDelay == nil)
    }

    @Test("suppression level and delay hint are read")
    func explicitValues() throws {
        let text = minimalConfig + "[audio]\necho_cancellation = true\necho_suppression = \"low\"\necho_delay = \"80ms\"\n"
        let audio = try #require(load(text).configuration).audio
        #expect(audio.echoSuppression == .low)
        #expect(audio.echoDelay == .milliseconds(80))
    }

    @Test("wrong values are reported at their line", arguments: [
        ("echo_suppression = \"max\"", "intercom.toml:9: audio.echo_suppression: must be one of \"low\", \"moderate\", \"high\", got \"max\""),
        ("echo_delay = \"2s\"", "intercom.toml:9: audio.echo_delay: must be between 0s and 500ms, got 2s"),
        ("playback = \"none\"\necho_cancellation = true",
         "intercom.toml:10: audio.echo_cancellation: needs a speaker to cancel, but playback = \"none\""),
    ])
    func problems(snippet: String, expected: String) {
        #expect(problemLines(load(minimalConfig + "[audio]\n" + snippet + "\n")) == [expected])
    }

    @Test("no speaker is no problem while echo cancellation is off, or audio is off altogether")
    func noSpeakerWithoutCancellation() {
        #expect(problemLines(load(minimalConfig + "[audio]\nplayback = \"none\"\n")).isEmpty)
        #expect(problemLines(load(minimalConfig + "[audio]\nenabled = false\nplayback = \"none\"\necho_cancellation = true\n")).isEmpty)
    }
}
