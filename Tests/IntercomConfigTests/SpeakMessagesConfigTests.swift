import Testing
@testable import IntercomConfig

@Suite("Config: [audio] speak_messages and speak_voice")
struct SpeakMessagesConfigTests {
    @Test("off by default; on with the English voice, or the voice named")
    func values() throws {
        let off = try #require(load(minimalConfig).configuration).audio
        #expect(off.speakMessages == false && off.speaksMessages == false && off.speakVoice == "en")
        let on = try #require(load(minimalConfig + "[audio]\nspeak_messages = true\n").configuration).audio
        #expect(on.speakMessages && on.speaksMessages && on.speakVoice == "en")
        let german = try #require(load(minimalConfig + "[audio]\nspeak_messages = true\nspeak_voice = \"de\"\n").configuration)
        #expect(german.audio.speakVoice == "de")
        let variant = try #require(load(minimalConfig + "[audio]\nspeak_voice = \"en-us+f3\"\n").configuration)
        #expect(variant.audio.speakVoice == "en-us+f3")
        // Audio off: nothing is spoken, and that is no problem.
        let silent = try #require(load(minimalConfig + "[audio]\nenabled = false\nplayback = \"none\"\nspeak_messages = true\n").configuration)
        #expect(silent.audio.speaksMessages == false)
    }

    @Test("wrong values are reported at their line", arguments: [
        ("speak_messages = \"yes\"", "intercom.toml:9: audio.speak_messages: expected true or false, got string"),
        ("speak_messages = 1", "intercom.toml:9: audio.speak_messages: expected true or false, got integer"),
        ("speak_voice = \"en; rm\"",
         "intercom.toml:9: audio.speak_voice: must be an espeak-ng voice name such as \"en\", \"de\" or \"en-us\", got \"en; rm\""),
        ("speak_voice = \"\"", "intercom.toml:9: audio.speak_voice: must not be empty"),
        ("playback = \"none\"\nspeak_messages = true",
         "intercom.toml:10: audio.speak_messages: needs a speaker to speak on, but playback = \"none\""),
    ])
    func problems(snippet: String, expected: String) {
        #expect(problemLines(load(minimalConfig + "[audio]\n" + snippet + "\n")) == [expected])
    }
}
