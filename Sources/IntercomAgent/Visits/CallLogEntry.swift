import CallCore
import Foundation
import ParseWire

/// Builds the `CallLog` row of a finished call (sans-IO): wall-clock times from the summary's monotonic
/// durations counted back from the end, the owners as readers, the device as the one writer.
enum CallLogEntry {
    /// How calls travel today; the field stays a string for other routes (SIP, WHEP).
    static let route = "webrtc"

    static func row(_ summary: CallSummary, endedAt end: Date, deviceID: String, owners: [String],
                    snapshot: ParseFile?, callerSpokeSeconds: Double? = nil) -> CallLogRow {
        let started = end.addingTimeInterval(-seconds(summary.totalDuration))
        var acl = ACL([deviceID: ACL.Access(read: true, write: true)])
        for owner in owners where owner != deviceID { acl.entries[owner] = ACL.Access(read: true) }
        return CallLogRow(
            userID: deviceID, callerID: summary.remoteID, callerTitle: summary.remoteTitle,
            direction: "\(summary.direction)", route: route, outcome: summary.outcome.visitLabel,
            startedAt: ParseDate(started),
            answeredAt: summary.ringToAnswer.map { ParseDate(started.addingTimeInterval(seconds($0))) },
            endedAt: ParseDate(end), snapshot: snapshot,
            // Tenths of a second: the figure is a visitor log's "spoke 12 s", not a measurement record.
            callerSpokeSeconds: callerSpokeSeconds.map { ($0 * 10).rounded() / 10 }, ACL: acl)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
