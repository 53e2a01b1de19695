import IntercomConfig

/// A few human lines saying what a valid configuration will do.
enum ConfigSummary {
    static func lines(_ configuration: IntercomConfiguration) -> [String] {
        let identity = configuration.identity
        var lines = [
            "device \"\(identity.title)\" at \(identity.latitude), \(identity.longitude)",
            "backend \(configuration.backend.serverURL.absoluteString) as " + login(configuration.backend.login)
                + (configuration.backend.caFile.map { ", trusting the CAs in \($0)" } ?? ""),
            "answers \(answer(configuration.call)); rings \(configuration.call.ringTimeout) at most",
            "video \(cameras(configuration.video)) \(configuration.video.width)x\(configuration.video.height)"
                + "@\(configuration.video.fps) fps, \(configuration.video.bitrateMinKbps)-\(configuration.video.bitrateMaxKbps) kbps",
            configuration.audio.enabled
                ? "audio capture \"\(configuration.audio.capture)\", playback \"\(configuration.audio.playback)\" at \(configuration.audio.sampleRate) Hz"
                : "audio off",
        ]
        if let gpio = configuration.gpio {
            let buttons = gpio.buttons.keys.map(\.rawValue).sorted().joined(separator: ", ")
            let leds = gpio.leds.keys.map(\.rawValue).sorted().joined(separator: ", ")
            lines.append("gpio buttons [\(buttons)], leds [\(leds)]" + (gpio.door == nil ? "" : ", door relay"))
        } else {
            lines.append("no gpio controls")
        }
        lines.append(replies(configuration))
        if let sip = configuration.sip {
            let password = sip.passwordFile.map { "password from \($0)" } ?? "no password"
            lines.append("sip registers sip:\(sip.user)@\(sip.registrarHost) at \(sip.registrarHost):\(sip.registrarPort) over "
                + "\(sip.transport.rawValue) as \"\(sip.authUser)\" (\(password)), local port \(sip.localPort == 0 ? "any" : String(sip.localPort))"
                // Over TCP the device also listens on TCP, so phones and proxies can connect to it (docs/sip.md).
                + (sip.transport.rawValue == "tcp" ? ", UDP and TCP" : ""))
            let callers = sip.allow.isEmpty ? "from anyone" : "from \(sip.allow.joined(separator: ", ")) only"
            let door = sip.doorCodeFile == nil ? "no door code"
                : configuration.call.allowDoorOpen ? "the door code opens the door" : "a door code (ignored: call.allow_door_open is off)"
            lines.append("sip calls \(callers); \(door); \(srtp(sip.srtp)); codecs \(sip.codecs.map(\.rawValue).joined(separator: ", "))")
            if case .sip(let uri)? = configuration.call.target {
                lines.append("the call button calls \(uri) through \(sip.registrarHost):\(sip.registrarPort)")
            }
        }
        lines.append(configuration.metrics.enabled ? "metrics on \(configuration.metrics.host):\(configuration.metrics.port)" : "metrics off")
        lines.append("state in \(configuration.state.directory)")
        return lines
    }

    /// `[sip] srtp` in the calls line (docs/sip.md "SRTP (SDES)").
    private static func srtp(_ mode: SIPSettings.SRTP) -> String {
        switch mode {
        case .off: "srtp off (RTP/SAVP calls refused)"
        case .optional: "srtp optional (RTP/SAVP calls get SRTP, plain ones RTP; calls placed are plain)"
        case .mandatory: "srtp mandatory (RTP/SAVP only, both ways)"
        }
    }

    /// The one camera, or the named ones the caller can switch between (the default first).
    private static func cameras(_ video: VideoSettings) -> String {
        guard !video.sources.isEmpty else { return source(video.source) }
        return "cameras " + video.sources.map { "\($0.name) = \(source($0.source))" }.joined(separator: ", ")
    }

    /// `[call] replies` and who sends them (the reply button, issue #22).
    private static func replies(_ configuration: IntercomConfiguration) -> String {
        let replies = configuration.call.replies
        let button = configuration.gpio?.buttons[.reply] != nil ? "the reply button sends the first" : "no reply button"
        guard let first = replies.first else { return "no canned replies (\(button), a default one)" }
        let shown = first.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(first.unicodeScalars.prefix(40))) + "…" : first
        return "\(replies.count) canned repl\(replies.count == 1 ? "y" : "ies") (\(button): \"\(shown)\")"
    }

    private static func login(_ login: BackendSettings.Login) -> String {
        switch login {
        case .anonymous: return "an anonymous user"
        case .password(let username, let file): return "\"\(username)\" (password from \(file))"
        }
    }

    private static func answer(_ call: CallSettings) -> String {
        switch call.answer {
        case .auto: return "automatically"
        case .button: return "on the accept button"
        case .autoAfter: return "automatically after \(call.autoAnswerDelay)"
        }
    }

    private static func source(_ source: VideoSettings.Source) -> String {
        switch source {
        case .auto: return "first camera or test pattern"
        case .testPattern: return "test pattern"
        case .device(let path): return path
        case .y4mFile(let path): return path
        case .libcamera(let id): return id.map { "libcamera camera \($0)" } ?? "first libcamera camera"
        }
    }
}
