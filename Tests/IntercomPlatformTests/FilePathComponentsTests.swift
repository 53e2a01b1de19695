@testable import IntercomPlatform
import Testing

@Suite struct FilePathComponentsTests {
    @Test(arguments: [
        ("/var/lib/intercom/identity.json", "/var/lib/intercom", "identity.json", "/var/lib/intercom/.t"),
        ("/identity.json", "/", "identity.json", "/.t"),
        ("identity.json", ".", "identity.json", "./.t"),
        ("state/identity.json", "state", "identity.json", "state/.t"),
    ])
    func splitsDirectoryAndName(path: String, directory: String, name: String, sibling: String) throws {
        let components = try #require(FilePathComponents(path))
        #expect(components.directory == directory)
        #expect(components.name == name)
        #expect(components.sibling(named: ".t") == sibling)
    }

    @Test(arguments: ["", "/", "/var/lib/", ".", "..", "/var/.."])
    func pathsThatNameNoFileAreRejected(path: String) {
        #expect(FilePathComponents(path) == nil)
    }
}
