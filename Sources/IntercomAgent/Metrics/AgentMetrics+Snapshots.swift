import CoreMetrics

extension AgentMetrics {
    /// A ring's snapshot reached the backend `elapsed` after the ring (frame wait, JPEG, upload).
    public func snapshotUploaded(after elapsed: Duration) {
        Timer(label: "intercom_snapshot_ring_to_upload_seconds", factory: factory).recordNanoseconds(elapsed.nanoseconds)
    }

    /// A ring's snapshot could not be taken or uploaded (the call is logged without one).
    public func snapshotFailed() {
        Counter(label: "intercom_snapshot_failures_total", factory: factory).increment()
    }
}
