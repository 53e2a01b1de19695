import FuzzSupport
import IntercomConfig

/// The whole config loader (reliability-test-matrix §(c) 8): parse, merge, validate. Any bytes give `.valid` or
/// `.invalid`, never a crash. An overlay identical to the main file changes nothing (docs/configuration.md:
/// later files override single keys), so loading the input twice must give the same outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let loader = ConfigLoader(environment: [:], checksSecretFiles: false)
    let single = loader.load([ConfigSource(name: "intercom.toml", bytes: bytes)])
    let twice = loader.load([
        ConfigSource(name: "intercom.toml", bytes: bytes), ConfigSource(name: "conf.d/same.toml", bytes: bytes),
    ])
    fuzzRequire(
        single.configuration == twice.configuration,
        "overlaying a file on itself changed the outcome\n--- alone ---\n\(single)\n--- overlaid ---\n\(twice)")
    return 0
}
