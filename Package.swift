// swift-tools-version:6.0
// Intercom: a video intercom device agent (`intercomd`) and its self-hosted backend (`intercom-server`).
// Layout: C libraries come from Debian 12 through `.systemLibrary` targets; one `C…Shims` target per library
// adapts the macros, variadic functions and callbacks Swift cannot import; every concern is its own Swift target.
import PackageDescription

/// A Debian 12 C library linked through pkg-config.
func debianLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "intercom",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "intercomd", targets: ["intercomd"]),
        .executable(name: "intercom-server", targets: ["intercom-server"]),
        .executable(name: "intercom-dev", targets: ["intercom-dev"]),
        // Parsers exposed for the fuzzing package in FuzzTesting/.
        .library(name: "IntercomConfig", targets: ["IntercomConfig"]),
        .library(name: "WebRTCCore", targets: ["WebRTCCore"]),
        .library(name: "ParseWire", targets: ["ParseWire"]),
        .library(name: "Media", targets: ["Media"]),
        .library(name: "SIPCore", targets: ["SIPCore"]),
        .library(name: "MQTTCore", targets: ["MQTTCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // ── C libraries from Debian 12 ───────────────────────────────────────────────────────────
        debianLibrary("CV4L2", pkgConfig: "libv4l2", apt: "libv4l-dev"),
        debianLibrary("CALSA", pkgConfig: "alsa", apt: "libasound2-dev"),
        debianLibrary("CVPX", pkgConfig: "vpx", apt: "libvpx-dev"),
        debianLibrary("COpus", pkgConfig: "opus", apt: "libopus-dev"),
        debianLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: "libturbojpeg0-dev"),
        debianLibrary("CGPIOD", pkgConfig: "libgpiod", apt: "libgpiod-dev"),
        debianLibrary("CNice", pkgConfig: "nice", apt: "libnice-dev"),
        debianLibrary("CSRTP", pkgConfig: "libsrtp2", apt: "libsrtp2-dev"),
        debianLibrary("COpenSSL", pkgConfig: "openssl", apt: "libssl-dev"),
        // Text to speech for received messages (`[audio] speak_messages`); its callback needs no shim (the
        // collecting buffer travels in the events' user_data).
        debianLibrary("CEspeakNG", pkgConfig: "espeak-ng", apt: "libespeak-ng-dev"),
        // A C++ API: only its pkg-config flags, for the C shim below.
        debianLibrary("CWebRTCAPM", pkgConfig: "webrtc-audio-processing", apt: "libwebrtc-audio-processing-dev"),
        // Raspberry Pi camera modules (and vimc in the harness): a C++ API, flags only, like CWebRTCAPM.
        debianLibrary("CLibcamera", pkgConfig: "libcamera", apt: "libcamera-dev"),
        // Macros, variadic functions and callbacks Swift cannot import, as plain C functions: one shim target per
        // library, depending on that library alone, so a Swift target links only the libraries it uses. Every
        // shim function keeps the `CIntercomShims_` prefix (one namespace for all shims in a symbol table).
        .target(name: "CV4L2Shims", dependencies: ["CV4L2"]),
        .target(name: "CALSAShims", dependencies: ["CALSA"]),
        .target(name: "CVPXShims", dependencies: ["CVPX"]),
        .target(name: "COpusShims", dependencies: ["COpus"]),
        .target(name: "CNiceShims", dependencies: ["CNice"]),
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"]),
        // glibc functions Swift's Glibc module does not import (mallinfo2, pthread_setname_np).
        .target(name: "CLibcShims"),
        // webrtc-audio-processing's C++ echo canceller as C functions on an opaque handle. SwiftPM drops
        // pkg-config's -D flags, so the defines its headers need are repeated here.
        .target(
            name: "CWebRTCAudioProcessing",
            dependencies: ["CWebRTCAPM"],
            cxxSettings: [.define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD")]
        ),
        // libcamera's CameraManager, Camera and Request as C functions on an opaque capture handle; completed
        // requests wait in a queue Swift pulls from with a timeout. libcamera's headers need C++17.
        .target(name: "CLibcameraCapture", dependencies: ["CLibcamera"]),

        // ── Swift targets, one per concern ───────────────────────────────────────────────────────
        // OS edges shared by everything: typed errno errors, atomic files, systemd notify, logging.
        .target(
            name: "IntercomPlatform",
            dependencies: ["CLibcShims", .product(name: "Logging", package: "swift-log")]
        ),
        // The version every executable prints and the Debian packages carry; the git revision is stamped in
        // before every build by GitRevisionPlugin (scripts/write-git-revision.sh).
        .target(name: "IntercomBuildInfo", plugins: ["GitRevisionPlugin"]),
        .plugin(name: "GitRevisionPlugin", capability: .buildTool()),
        // Config model, our TOML reader (keeps file:line for every key), validation, overlays, fleets.
        .target(name: "IntercomConfig", dependencies: ["IntercomPlatform", "ParseWire"]),
        // The call state machine and its policies: sans-IO.
        .target(name: "CallCore"),
        // SDP, RTP/RTCP, payloaders, jitter buffer, rate control: sans-IO, no C.
        .target(name: "WebRTCCore"),
        // Parse wire types, LiveQuery and signaling frames, retry policy, exactly-once delivery: sans-IO.
        .target(name: "ParseWire"),
        // The agent's backend IO: Parse REST on async-http-client, LiveQuery and session signaling sockets.
        .target(
            name: "ParseClient",
            dependencies: [
                "ParseWire", "IntercomPlatform",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Capture, encoding, playback, echo cancellation, speech: V4L2, libvpx, ALSA, libopus,
        // webrtc-audio-processing, espeak-ng.
        .target(
            name: "Media",
            dependencies: [
                "IntercomPlatform", "CV4L2", "CV4L2Shims", "CALSA", "CALSAShims", "CVPX", "CVPXShims", "COpus", "COpusShims",
                "CTurboJPEG", "CWebRTCAudioProcessing", "CLibcameraCapture", "CEspeakNG",
            ]
        ),
        // WebRTC transport: libnice ICE, OpenSSL DTLS, libsrtp2 SRTP, our SDP/RTP/RTCP.
        .target(
            name: "WebRTC",
            dependencies: ["IntercomPlatform", "WebRTCCore", "CNice", "CNiceShims", "CSRTP", "COpenSSL", "COpenSSLShims"]
        ),
        // SIP messages, digest auth, transactions, dialogs, registration (RFC 3261, RFC 7616): sans-IO.
        .target(name: "SIPCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // SIP's IO edge: UDP and TCP sockets on the "sip" thread driving SIPCore's transactions and registration
        // with a real clock, NAT keepalives, OPTIONS answered.
        .target(
            name: "SIPTransport",
            dependencies: ["SIPCore", "IntercomPlatform", .product(name: "Logging", package: "swift-log")]
        ),
        // MQTT 3.1.1 packets, stream framer and client session (OASIS MQTT 3.1.1 §2–3): sans-IO.
        .target(name: "MQTTCore", dependencies: ["ParseWire"]),
        // Button interpretation (debounce, long/double press), LED patterns, the keypad door code: sans-IO.
        // IntercomPlatform only for ConstantTime (the door-code comparison).
        .target(name: "ControlsCore", dependencies: ["IntercomPlatform"]),
        // Buttons, LEDs and the door relay through libgpiod.
        .target(name: "GPIO", dependencies: ["IntercomPlatform", "ControlsCore", "CGPIOD"]),
        // The agent's services: registration, call intake, call, media, controls, metrics, watchdog.
        .target(
            name: "IntercomAgent",
            dependencies: [
                "IntercomConfig", "IntercomPlatform", "CallCore", "ParseWire", "ParseClient", "Media", "WebRTC", "WebRTCCore", "GPIO",
                "ControlsCore", "MQTTCore", "SIPTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // The self-hosted backend: Parse-compatible subset, LiveQuery, signaling, web caller.
        .target(
            name: "IntercomServer",
            dependencies: [
                "IntercomPlatform", "IntercomConfig", "ParseWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The web caller: static files served at `/`, copied next to the executables by `swift build`.
            resources: [.copy("WebCaller")]
        ),
        // The device binary: only what a device runs. It must not link IntercomServer, GRDB or JWTKit
        // (`scripts/test.sh binary-contents` fails if it does); `intercomd demo` runs `intercom-server` as a
        // child process instead.
        .executableTarget(
            name: "intercomd",
            dependencies: [
                "IntercomAgent", "IntercomConfig", "IntercomPlatform", "Media", "GPIO", "ControlsCore", "WebRTC",
                "CallCore", "ParseClient", "ParseWire", "IntercomBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Developer and benchmark commands that embed the server or exist for tests: bench-backend, webrtc-send.
        .executableTarget(
            name: "intercom-dev",
            dependencies: [
                "IntercomServer", "IntercomAgent", "IntercomPlatform", "Media", "WebRTC", "ParseClient", "ParseWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "intercom-server",
            dependencies: [
                "IntercomServer", "IntercomPlatform", "IntercomBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // ── Tests ────────────────────────────────────────────────────────────────────────────────
        .target(name: "IntercomTestSupport", dependencies: ["IntercomPlatform"], path: "Tests/IntercomTestSupport"),
        .testTarget(name: "IntercomConfigTests", dependencies: ["IntercomConfig", "IntercomTestSupport"]),
        .testTarget(name: "IntercomPlatformTests", dependencies: ["IntercomPlatform", "IntercomTestSupport"]),
        .testTarget(
            name: "NativeLibraryTests",
            dependencies: [
                "Media", "GPIO", "WebRTC", "IntercomTestSupport",
                "CV4L2", "CV4L2Shims", "CALSA", "CVPX", "CVPXShims", "COpus", "COpusShims", "CGPIOD", "CNice", "CNiceShims",
                "CSRTP", "COpenSSL", "COpenSSLShims",
            ]
        ),
        .testTarget(name: "CallCoreTests", dependencies: ["CallCore", "IntercomTestSupport"]),
        .testTarget(
            name: "IntercomServerTests",
            dependencies: [
                "IntercomServer", "IntercomTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ControlsCoreTests", dependencies: ["ControlsCore", "IntercomTestSupport"]),
        .testTarget(name: "GPIOTests", dependencies: ["GPIO", "ControlsCore", "IntercomPlatform", "IntercomTestSupport"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "IntercomPlatform", "IntercomTestSupport", "CTurboJPEG"]),
        .testTarget(name: "WebRTCCoreTests", dependencies: ["WebRTCCore", "IntercomTestSupport"]),
        .testTarget(name: "ParseWireTests", dependencies: ["ParseWire"]),
        .testTarget(name: "SIPCoreTests", dependencies: ["SIPCore"]),
        .testTarget(
            name: "SIPTransportTests",
            dependencies: ["SIPTransport", "SIPCore", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "MQTTCoreTests", dependencies: ["MQTTCore", "ParseWire"]),
        // A real intercom-server on loopback for the tests that talk to it over sockets (RunningServer).
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "IntercomServer", "IntercomTestSupport", "ParseClient", "ParseWire",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ServerTestSupport"
        ),
        .testTarget(
            name: "ParseClientTests",
            dependencies: [
                "ParseClient", "ParseWire", "ServerTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "IntercomAgentTests",
            dependencies: [
                "IntercomAgent", "IntercomConfig", "IntercomPlatform", "ParseClient", "ParseWire", "CallCore", "GPIO",
                "ControlsCore", "WebRTCCore", "WebRTC", "Media", "IntercomTestSupport", "ServerTestSupport", "MQTTCore",
                "SIPTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "WebRTCTests", dependencies: ["WebRTC", "WebRTCCore", "IntercomTestSupport", "IntercomPlatform"]),
        .testTarget(
            name: "IntercomdTests",
            dependencies: ["IntercomTestSupport", "IntercomPlatform", "IntercomConfig", "Media"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
