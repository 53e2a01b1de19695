// swift-tools-version:5.3
// libFuzzer targets for Intercom's parsers, kept out of the main package on purpose: with tools-version 5.3 a
// plain `.target` holding `main.swift` builds as an executable whose entry point is not renamed, so
// `-parse-as-library` plus libFuzzer's own `main` link (a tools-6 `.executableTarget` fails with an undefined
// `<Target>_main`). Same layout as apple/swift-protobuf's FuzzTesting/. Build and run: Tests/fuzz/run-fuzzers.sh.
import PackageDescription

/// Every fuzzer and its helper compile in the Swift 6 language mode, like the main package.
let swift6: [SwiftSetting] = [.unsafeFlags(["-swift-version", "6"])]

/// One fuzz target: `Sources/<name>/main.swift` with a `@_cdecl("LLVMFuzzerTestOneInput")` entry.
func fuzzer(_ name: String, _ products: [String]) -> Target {
    .target(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "intercom") },
        swiftSettings: swift6
    )
}

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "intercom", path: ".."),
    ],
    targets: [
        .target(name: "FuzzSupport", swiftSettings: swift6),
        fuzzer("FuzzTOML", ["IntercomConfig"]),
        fuzzer("FuzzConfig", ["IntercomConfig"]),
        fuzzer("FuzzSDP", ["WebRTCCore"]),
        fuzzer("FuzzRTP", ["WebRTCCore"]),
        fuzzer("FuzzRTCP", ["WebRTCCore"]),
        fuzzer("FuzzVP8", ["WebRTCCore"]),
        fuzzer("FuzzOpus", ["WebRTCCore"]),
        fuzzer("FuzzParseWire", ["ParseWire"]),
        fuzzer("FuzzJPEG", ["Media"]),
        fuzzer("FuzzSIP", ["SIPCore"]),
        fuzzer("FuzzMQTT", ["MQTTCore"]),
        fuzzer("FuzzTelephoneEvent", ["WebRTCCore"]),
        fuzzer("FuzzMDNS", ["WebRTCCore"]),
    ]
)
