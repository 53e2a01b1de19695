import AsyncHTTPClient
import CallCore
import Foundation
import IntercomAgent
import IntercomConfig
import IntercomTestSupport
import Logging
import ServiceLifecycle
import Testing
import WebRTCCore

@Suite("Agent metrics: /metrics and /health on a real port, RTT, loss, bitrate, temperature")
struct AgentMetricsTests {
    static let logger: Logger = {
        var logger = Logger(label: "metrics-test")
        logger.logLevel = .critical
        return logger
    }()

    static func summary(_ outcome: CallOutcome, ringToAnswer: Duration? = nil) -> CallSummary {
        CallSummary(direction: .incoming, rowID: "r", sessionID: "s", remoteID: "u", remoteTitle: "Visitor",
                    outcome: outcome, ringToAnswer: ringToAnswer, setupTime: nil, talkTime: nil,
                    totalDuration: .seconds(3))
    }

    /// Runs the metrics service on a free port of 127.0.0.1 and hands `body` its base URL.
    static func serving(_ metrics: AgentMetrics, status: AgentStatusBoard, thermalRoot: String = "/nonexistent",
                        _ body: @Sendable (String) async throws -> Void) async throws {
        let settings = MetricsSettings(port: 0)
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let service = MetricsService(settings: settings, metrics: metrics, status: status, logger: logger,
                                     thermalRoot: thermalRoot) { portSink.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [.init(service: service)], logger: logger))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        do {
            try await body("http://127.0.0.1:\(port)")
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    static func get(_ url: String) async throws -> (status: UInt, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, String(buffer: body))
    }

    @Test("a finished call is counted by outcome and its ring-to-answer time lands in the histogram")
    func callsByOutcome() async throws {
        let metrics = AgentMetrics()
        metrics.callEnded(Self.summary(.answered(ended: .remoteBye(.hangup)), ringToAnswer: .milliseconds(1200)))
        metrics.callEnded(Self.summary(.unanswered(.ringTimeout)))
        metrics.callEnded(Self.summary(.unanswered(.ringTimeout)))
        metrics.firstFrameSent(after: .milliseconds(180))
        metrics.frameEncoded(in: .microseconds(4200), cpu: .microseconds(3000))
        metrics.frameEncoded(in: .microseconds(4400), cpu: .microseconds(1500))
        let status = AgentStatusBoard(title: "Gate")
        try await Self.serving(metrics, status: status) { base in
            let (code, text) = try await Self.get(base + "/metrics")
            #expect(code == 200)
            #expect(text.contains(#"intercom_calls_total{direction="incoming",outcome="answered",route="webrtc"} 1"#), "\(text)")
            #expect(text.contains(#"intercom_calls_total{direction="incoming",outcome="no_answer",route="webrtc"} 2"#))
            #expect(text.contains(#"intercom_calls_total{direction="incoming",outcome="busy",route="webrtc"} 0"#))
            #expect(text.contains(#"intercom_call_ring_to_answer_seconds_bucket{le="1.0"} 0"#))
            #expect(text.contains(#"intercom_call_ring_to_answer_seconds_bucket{le="2.5"} 1"#))
            #expect(text.contains(#"intercom_call_answer_to_first_frame_seconds_bucket{le="0.2"} 1"#))
            #expect(text.contains(#"intercom_call_answer_to_first_frame_seconds_bucket{le="0.15"} 0"#))
            #expect(text.contains(#"intercom_video_encode_seconds_bucket{le="0.005"} 2"#))
            #expect(text.contains("intercom_video_encode_cpu_seconds_total 0.0045"), "\(text)")
            #expect(text.contains("intercom_registered 0"))
            #expect(!text.contains("intercom_cpu_temperature_celsius"), "no thermal zone, no temperature line")
            // The heap in use (what the soak's leak check compares) is this test process's: megabytes, not 0.
            let heap = text.split(separator: "\n").first { $0.hasPrefix("intercom_heap_in_use_bytes ") }
                .flatMap { Double($0.split(separator: " ")[1]) }
            #expect((heap ?? 0) > 1_000_000, "intercom_heap_in_use_bytes: \(heap.map { "\($0)" } ?? "missing")")
        }
    }

    @Test("intercom_whep_viewers is 0 from the start and follows the WHEP players")
    func whepViewers() {
        let metrics = AgentMetrics()
        let status = AgentStatusSnapshot(registered: true, liveQueryUp: true, callsReceived: 0, callState: "idle", line: "idle")
        func gauge() -> Double? {
            String(decoding: metrics.exposition(status: status, temperatureCelsius: nil), as: UTF8.self)
                .split(separator: "\n").first { $0.hasPrefix("intercom_whep_viewers ") }
                .flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect(gauge() == 0)
        metrics.whepViewers(2)
        #expect(gauge() == 2)
    }

    @Test("/health is 503 offline until the agent is registered, then 200 ok with the status line")
    func health() async throws {
        let status = AgentStatusBoard(title: "Gate 3")
        try await Self.serving(AgentMetrics(), status: status) { base in
            let offline = try await Self.get(base + "/health")
            #expect(offline.status == 503)
            #expect(offline.body.contains(#""status":"offline""#), "\(offline.body)")
            await status.setRegistered(true)
            await status.setLiveQueryUp(true)
            let ok = try await Self.get(base + "/health")
            #expect(ok.status == 200)
            #expect(ok.body.contains(#""status":"ok""#) && ok.body.contains(#""liveQuery":true"#), "\(ok.body)")
            #expect(ok.body.contains("idle, Gate 3 (LiveQuery up, 0 calls)"), "\(ok.body)")
            let metrics = try await Self.get(base + "/metrics")
            #expect(metrics.body.contains("intercom_registered 1") && metrics.body.contains("intercom_livequery_up 1"))
            #expect(try await Self.get(base + "/nothing").status == 404)
        }
    }

    @Test("a port already taken costs the metrics only: the service logs and waits for shutdown")
    func portTaken() async throws {
        let status = AgentStatusBoard(title: "Gate")
        try await Self.serving(AgentMetrics(), status: status) { base in
            let port = try #require(Int(base.split(separator: ":").last ?? ""))
            let second = MetricsService(settings: MetricsSettings(port: port), metrics: AgentMetrics(), status: status, logger: Self.logger)
            let group = ServiceGroup(configuration: .init(services: [.init(service: second)], logger: Self.logger))
            let running = Task { try await group.run() }
            try await Task.sleep(for: .milliseconds(300))
            // Still running (not thrown), and the first server still answers.
            #expect(try await Self.get(base + "/health").status == 503)
            await group.triggerGracefulShutdown()
            try await running.value
        }
    }

    @Test("a peer's RTT (RFC 3550 §6.4.1 example), loss and bitrate are gauges that vanish when it leaves")
    func peerGauges() async throws {
        let metrics = AgentMetrics()
        let peer = metrics.peer("Visitor1")
        // RFC 3550 §6.4.1: A = 0xb710:8000, LSR = 0xb705:2000, DLSR = 0x0005:4000 → 6.125 s.
        let block = ReportBlock(ssrc: 1, fractionLost: 26, cumulativeLost: 3, extendedHighestSequenceNumber: 100,
                                jitter: 0, lastSenderReport: 0xB705_2000, delaySinceLastSenderReport: 0x0005_4000)
        peer.received(block, arrivalNTP: UInt64(0xB710_8000) << 16)
        let start = ContinuousClock.now
        peer.sampleBytesSent(1_000, at: start)
        peer.sampleBytesSent(101_000, at: start + .seconds(1))
        let status = AgentStatusBoard(title: "Gate")
        try await Self.serving(metrics, status: status) { base in
            let text = try await Self.get(base + "/metrics").body
            #expect(text.contains(#"intercom_peer_rtt_seconds{peer="Visitor1"} 6.125"#), "\(text)")
            #expect(text.contains(#"intercom_peer_loss_ratio{peer="Visitor1"} 0.1015625"#))
            #expect(text.contains(#"intercom_peer_sent_bits_per_second{peer="Visitor1"} 800000"#))
            #expect(text.contains("intercom_media_peers 1"))
            peer.close()
            peer.close()
            let after = try await Self.get(base + "/metrics").body
            #expect(!after.contains("Visitor1"), "\(after)")
            #expect(after.contains("intercom_media_peers 0"))
        }
    }

    @Test("no RTT before the peer has seen a sender report, none from a wrapped difference")
    func roundTripEdges() {
        let metrics = AgentMetrics()
        let peer = metrics.peer("p")
        defer { peer.close() }
        let fresh = ReportBlock(ssrc: 1, fractionLost: 0, cumulativeLost: 0, extendedHighestSequenceNumber: 0,
                                jitter: 0, lastSenderReport: 0, delaySinceLastSenderReport: 0)
        #expect(PeerMetrics.roundTripSeconds(fresh, arrivalNTP: UInt64(0xB710_8000) << 16) == nil)
        var future = fresh
        future.lastSenderReport = 0xB720_0000
        #expect(PeerMetrics.roundTripSeconds(future, arrivalNTP: UInt64(0xB710_8000) << 16) == nil)
    }

    @Test("CPU temperature: the CPU's thermal zone in °C, the first zone otherwise, nil without zones",
          arguments: [
            ([("acpitz", "40000"), ("cpu-thermal", "51234")], 51.234 as Double?),
            ([("acpitz", "40000")], 40.0),
            ([], nil),
          ])
    func temperature(zones: [(String, String)], expected: Double?) throws {
        let directory = try TemporaryDirectory(prefix: "thermal")
        for (index, zone) in zones.enumerated() {
            let path = directory.path("thermal_zone\(index)")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try (zone.0 + "\n").write(toFile: path + "/type", atomically: true, encoding: .utf8)
            try (zone.1 + "\n").write(toFile: path + "/temp", atomically: true, encoding: .utf8)
        }
        #expect(CPUTemperature.read(thermalRoot: directory.path) == expected)
    }

    @Test("outcome labels speak a phone's words", arguments: [
        (CallOutcome.answered(ended: .localHangup), "answered"),
        (.unanswered(.ringTimeout), "no_answer"),
        (.unanswered(.hangupButton), "declined"),
        (.unanswered(.doNotDisturb), "declined"),
        (.unanswered(.busy), "busy"),
        (.unanswered(.remoteBye(.hangup)), "caller_gave_up"),
        (.unanswered(.createFailed("x")), "failed"),
    ])
    func outcomeLabels(outcome: CallOutcome, label: String) {
        #expect(outcome.metricLabel == label)
    }
}
