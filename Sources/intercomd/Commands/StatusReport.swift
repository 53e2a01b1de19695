import IntercomAgent

/// The human lines `intercomd status` prints for a `/health` report; pure, so any report can be checked.
enum StatusReport {
    /// Where the agent's `/health` is, for a client on this machine: a wildcard listen address is asked on loopback.
    static func baseURL(host: String, port: Int) -> String {
        let reachable = switch host {
        case "", "0.0.0.0": "127.0.0.1"
        case "::": "::1"
        default: host
        }
        return reachable.contains(":") ? "http://[\(reachable)]:\(port)" : "http://\(reachable):\(port)"
    }

    /// Registered with the backend, and with the SIP registrar when `[sip]` is configured.
    static func isHealthy(_ report: HealthReport) -> Bool {
        report.registered && (report.sip == nil || report.sip == "registered")
    }

    static func text(_ report: HealthReport, baseURL: String) -> String {
        var lines = ["intercomd at \(baseURL): \(isHealthy(report) ? "ok" : "degraded") — \(report.line)"]
        lines.append("  backend:  \(report.registered ? "registered" : "not registered (offline)"), "
                     + "LiveQuery \(report.liveQuery ? "connected" : "not connected")")
        if let sip = report.sip {
            lines.append("  SIP:      \(report.sipDetail ?? sip)")
        } else {
            lines.append("  SIP:      not configured")
        }
        lines.append("  call:     \(report.call); \(report.callsReceived) received since start")
        if let skew = report.clockSkewSeconds {
            lines.append("  clock:    the backend is \(skew) s \(skew >= 0 ? "ahead of" : "behind") this device")
        }
        var warnings = report.warnings.joined(separator: ", ")
        if let stuck = report.stuckButtons, !stuck.isEmpty { warnings += " (stuck: \(stuck.joined(separator: ", ")))" }
        if let chattering = report.chatteringButtons, !chattering.isEmpty {
            warnings += " (chattering: \(chattering.joined(separator: ", ")))"
        }
        lines.append("  warnings: \(warnings.isEmpty ? "none" : warnings)")
        return lines.joined(separator: "\n")
    }
}
