import CallCore
import CoreMetrics
import IntercomConfig
import IntercomPlatform
import class Prometheus.PrometheusCollectorRegistry
import struct Prometheus.PrometheusMetricsFactory

/// The agent's metrics (SYSTEM.md §9), recorded through swift-metrics into its own Prometheus registry so
/// every agent (and every test) has separate counters: calls by outcome, ring-to-answer and
/// answer-to-first-frame times, encode time per frame, bytes sent, dropped frames, and per-peer RTT,
/// loss and bitrate while a call is up. `MetricsService` serves the registry at `/metrics`.
public final class AgentMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    private let ringToAnswer: CoreMetrics.Timer
    private let answerToFirstFrame: CoreMetrics.Timer
    private let encodeTime: CoreMetrics.Timer
    private let encodeCPU: FloatingPointCounter
    private let bytesSent: Counter
    private let framesDropped: Counter
    private let activeCalls: Meter
    private let whepViewerCount: Meter

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // A VP8 frame at 640x480 encodes in a few milliseconds; the default buckets start at 5 ms.
        factory.durationHistogramBuckets["intercom_video_encode_seconds"] = [1, 2, 3, 5, 8, 12, 20, 33, 50, 100]
            .map { Duration.milliseconds($0) }
        factory.durationHistogramBuckets["intercom_call_answer_to_first_frame_seconds"] =
            [25, 50, 100, 150, 200, 300, 500, 1000, 2000, 5000].map { Duration.milliseconds($0) }
        self.factory = factory
        ringToAnswer = Timer(label: "intercom_call_ring_to_answer_seconds", factory: factory)
        answerToFirstFrame = Timer(label: "intercom_call_answer_to_first_frame_seconds", factory: factory)
        encodeTime = Timer(label: "intercom_video_encode_seconds", factory: factory)
        encodeCPU = FloatingPointCounter(label: "intercom_video_encode_cpu_seconds_total", factory: factory)
        bytesSent = Counter(label: "intercom_media_sent_bytes_total", factory: factory)
        framesDropped = Counter(label: "intercom_video_frames_dropped_total", factory: factory)
        activeCalls = Meter(label: "intercom_media_peers", factory: factory)
        whepViewerCount = Meter(label: "intercom_whep_viewers", factory: factory)
        whepViewerCount.set(0)
        // Outcomes exist from the start at 0, so a dashboard's rate() sees the first call.
        for direction in ["capture", "playback"] { audioXruns(0, direction: direction) }
        for label in ["intercom_camera_losses_total", "intercom_camera_recoveries_total",
                      "intercom_snapshot_failures_total", "intercom_messages_received_total"] {
            Counter(label: label, factory: factory).increment(by: 0)
        }
        for outcome in ["answered", "no_answer", "declined", "busy"] {
            Counter(label: "intercom_calls_total",
                    dimensions: [("direction", "incoming"), ("outcome", outcome), ("route", CallRoute.webrtc.rawValue)],
                    factory: factory).increment(by: 0)
        }
    }

    /// One finished call: counted by direction and outcome, its ring-to-answer time recorded.
    public func callEnded(_ summary: CallSummary) {
        var dimensions = [("direction", "\(summary.direction)"), ("outcome", summary.outcome.metricLabel)]
        if let reason = summary.outcome.failureReasonLabel { dimensions.append(("reason", reason)) }
        dimensions.append(("route", CallRoute(sessionID: summary.sessionID).rawValue))
        Counter(label: "intercom_calls_total", dimensions: dimensions, factory: factory).increment()
        if let ringToAnswer = summary.ringToAnswer { self.ringToAnswer.recordNanoseconds(ringToAnswer.nanoseconds) }
    }

    /// From the start of a peer's media (the call was answered) to its first video frame sent.
    public func firstFrameSent(after elapsed: Duration) {
        answerToFirstFrame.recordNanoseconds(elapsed.nanoseconds)
    }

    /// One frame through `vpx_codec_encode`: its wall time (the latency histogram) and the CPU time of the
    /// encoding thread (with one encoder thread, up to 640x480, all of the encoder's CPU; a load on the machine
    /// stretches the wall time but not this).
    public func frameEncoded(in elapsed: Duration, cpu: Duration) {
        encodeTime.recordNanoseconds(elapsed.nanoseconds)
        encodeCPU.increment(by: Double(cpu.nanoseconds) / 1e9)
    }

    /// A peer's media ended: what it sent and how many frames it never got.
    public func peerEnded(bytesSent: UInt64, framesDropped: UInt64) {
        self.bytesSent.increment(by: Int64(clamping: bytesSent))
        self.framesDropped.increment(by: Int64(clamping: framesDropped))
    }

    /// A party's media ended having carried audio levels (RFC 6464): how long that party spoke.
    public func peerSpoke(seconds: Double) {
        FloatingPointCounter(label: "intercom_caller_speech_seconds_total", factory: factory).increment(by: seconds)
    }

    /// WHEP players holding a slot now (docs/whep.md), negotiating ones included.
    public func whepViewers(_ count: Int) { whepViewerCount.set(count) }

    /// The camera went away (unplug, USB reset, a stream that stopped) and came back.
    public func cameraLost() { Counter(label: "intercom_camera_losses_total", factory: factory).increment() }
    public func cameraRecovered() { Counter(label: "intercom_camera_recoveries_total", factory: factory).increment() }

    /// A text message from the other side of a call (issue #22).
    public func messageReceived() { Counter(label: "intercom_messages_received_total", factory: factory).increment() }

    /// A received message spoken on the speaker (`[audio] speak_messages`), or not (`reason`: `busy` when too
    /// many wait, `no_call`, `full`, `failed`).
    public func messageSpoken() { Counter(label: "intercom_messages_spoken_total", factory: factory).increment() }
    public func messageNotSpoken(reason: String) {
        Counter(label: "intercom_messages_not_spoken_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// ALSA over- or underruns (`direction` capture or playback), each recovered with `snd_pcm_recover`.
    public func audioXruns(_ count: Int, direction: String) {
        Counter(label: "intercom_audio_xruns_total", dimensions: [("direction", direction)], factory: factory)
            .increment(by: count)
    }

    /// Gauges for one peer while its media runs; `PeerMetrics.close()` removes them again.
    public func peer(_ peer: String) -> PeerMetrics {
        PeerMetrics(peer: peer, factory: factory, peers: activeCalls)
    }

    /// The Prometheus text exposition of everything above, with the agent's current state folded in.
    public func exposition(status: AgentStatusSnapshot, temperatureCelsius: Double?) -> [UInt8] {
        Meter(label: "intercom_registered", factory: factory).set(status.registered ? 1 : 0)
        Meter(label: "intercom_livequery_up", factory: factory).set(status.liveQueryUp ? 1 : 0)
        Meter(label: "intercom_calls_received", factory: factory).set(status.callsReceived)
        Meter(label: "intercom_camera_lost", factory: factory).set(status.camera == .lost ? 1 : 0)
        Meter(label: "intercom_camera_failed", factory: factory).set(status.camera == .failed ? 1 : 0)
        if let sip = status.sip {
            Meter(label: "intercom_sip_registered", factory: factory).set(sip.isRegistered ? 1 : 0)
        }
        if let skew = status.clockSkewSeconds {
            Meter(label: "intercom_clock_skew_seconds", factory: factory).set(skew)
        }
        if let claimed = status.controlsClaimed {
            Meter(label: "intercom_gpio_claimed", factory: factory).set(claimed ? 1 : 0)
            for button in GPIOSettings.ButtonRole.allCases.map(\.rawValue) {
                Meter(label: "intercom_button_stuck", dimensions: [("button", button)], factory: factory)
                    .set(status.stuckButtons.contains(button) ? 1 : 0)
                Meter(label: "intercom_button_chattering", dimensions: [("button", button)], factory: factory)
                    .set(status.chatteringButtons.contains(button) ? 1 : 0)
            }
        }
        if let temperatureCelsius {
            Meter(label: "intercom_cpu_temperature_celsius", factory: factory).set(temperatureCelsius)
        }
        Meter(label: "intercom_heap_in_use_bytes", factory: factory).set(MallocHeap.bytesInUse)
        return registry.emitToBuffer()
    }
}

extension Duration {
    /// Whole nanoseconds, saturating (for swift-metrics timers).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : scaled + attoseconds / 1_000_000_000
    }
}
