import CoreMetrics
import Foundation
import struct Prometheus.PrometheusMetricsFactory
import Synchronization
import WebRTC
import WebRTCCore

/// The live gauges of one peer (label `peer`): round-trip time and fraction lost from its RTCP reception
/// reports, and the bitrate we send it. Removed from the registry by `close()` so that finished calls do
/// not pile up label sets.
public final class PeerMetrics: Sendable {
    private let rtt: Meter
    private let loss: Meter
    private let bitrate: Meter
    private let peers: Meter
    private let lastSample = Mutex<(bytes: UInt64, at: ContinuousClock.Instant)?>(nil)
    private let closed = Atomic<Bool>(false)

    init(peer: String, factory: PrometheusMetricsFactory, peers: Meter) {
        let label = [("peer", peer)]
        rtt = Meter(label: "intercom_peer_rtt_seconds", dimensions: label, factory: factory)
        loss = Meter(label: "intercom_peer_loss_ratio", dimensions: label, factory: factory)
        bitrate = Meter(label: "intercom_peer_sent_bits_per_second", dimensions: label, factory: factory)
        self.peers = peers
        peers.increment(by: 1)
    }

    /// A reception report about one of our streams, arrived at `arrivalNTP`.
    public func received(_ block: ReportBlock, arrivalNTP: UInt64 = NTPTime.now()) {
        loss.set(Double(block.fractionLost) / 256)
        if let seconds = Self.roundTripSeconds(block, arrivalNTP: arrivalNTP) { rtt.set(seconds) }
    }

    /// Samples the connection's byte counter; the bitrate is the rate since the previous sample.
    public func sampleBytesSent(_ total: UInt64, at now: ContinuousClock.Instant = .now) {
        let previous = lastSample.withLock { sample in
            defer { sample = (total, now) }
            return sample
        }
        guard let previous, total >= previous.bytes else { return }
        let elapsed = now - previous.at
        guard elapsed > .milliseconds(100) else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        bitrate.set(Double(total - previous.bytes) * 8 / seconds)
    }

    /// RFC 3550 §6.4.1: RTT = A − LSR − DLSR in 1/65536 s, where A is the arrival time's middle 32 NTP bits.
    /// Nil when the peer has not seen a sender report yet (LSR 0) or the result is implausible.
    public static func roundTripSeconds(_ block: ReportBlock, arrivalNTP: UInt64) -> Double? {
        guard block.lastSenderReport != 0 else { return nil }
        let arrival = NTPTime.middle32(arrivalNTP)
        let units = arrival &- block.lastSenderReport &- block.delaySinceLastSenderReport
        // A wrapped (negative) difference means clock trouble, not a 18-hour round trip.
        guard units < 0x8000_0000 else { return nil }
        return Double(units) / 65536
    }

    public func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        peers.decrement(by: 1)
        for gauge in [rtt, loss, bitrate] { gauge.destroy() }
    }
}
