import FuzzSupport
import IntercomConfig

/// TOML reader (reliability-test-matrix §(c) 8): any bytes either parse or throw `TOMLParseError`. A parsed table
/// written by `TOMLWriter` must parse again to the same values; locations differ, so the two writes are compared.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let table = try? TOMLParser.parse(bytes: fuzzInput(data, size), file: "fuzz.toml") else { return 0 }
    let written = TOMLWriter.write(table)
    let reparsed: TOMLTable
    do {
        reparsed = try TOMLParser.parse(written, file: "written.toml")
    } catch {
        fuzzFail("TOMLWriter output does not parse: \(error)\n--- written ---\n\(written)")
    }
    let rewritten = TOMLWriter.write(reparsed)
    fuzzRequire(rewritten == written, "TOML round trip changed the table\n--- first ---\n\(written)\n--- second ---\n\(rewritten)")
    return 0
}
