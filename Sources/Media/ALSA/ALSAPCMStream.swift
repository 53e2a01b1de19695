import CALSA
import CALSAShims
import Glibc
import Synchronization

/// One open ALSA PCM in blocking read/write mode (`snd_pcm_open`, hw/sw params, `snd_pcm_readi` /
/// `snd_pcm_writei`, `snd_pcm_close` in `deinit`). Overruns and underruns (`-EPIPE`) and resumes after
/// suspend (`-ESTRPIPE`) are recovered with `snd_pcm_recover` and counted; playback then re-primes with
/// silence. Other errors, `-ENODEV` above all (`isDeviceLost`), are thrown so the owner can reopen.
///
/// Single owner: reads and writes block for up to a period, so each stream lives on its own audio thread,
/// never on the cooperative pool.
public final class ALSAPCMStream {
    public enum Direction: Sendable {
        case capture, playback

        var stream: snd_pcm_stream_t { self == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK }
    }

    public let direction: Direction
    public let configuration: ALSAStreamConfiguration
    /// What the device granted (`*_near` may round).
    public let sampleRate: Int
    public let periodFrames: Int
    public let bufferFrames: Int
    /// Overruns (capture) or underruns (playback) recovered so far.
    public private(set) var xrunCount = 0
    private let pcm: OpaquePointer

    /// Opens `configuration.device`. `configurationText`, when given, is an ALSA configuration (e.g.
    /// `pcm.name { type file … }`) in which `device` is looked up instead of the system's `alsa.conf`.
    public init(
        _ direction: Direction, configuration: ALSAStreamConfiguration, configurationText: String? = nil
    ) throws(ALSAError) {
        _ = Self.quietLibrary
        let device = configuration.device
        var handle: OpaquePointer?
        // Opening parses and caches alsa-lib's global configuration (`snd_config_update`), which is not safe
        // to do from two threads at once (the microphone and the speaker open on threads of their own).
        try Self.opening.withLock { _ throws(ALSAError) in
            if let configurationText {
                let local = try Self.loadConfiguration(configurationText, device: device)
                defer { snd_config_delete(local) }
                try ALSAError.check("snd_pcm_open_lconf", device: device,
                                    snd_pcm_open_lconf(&handle, device, direction.stream, 0, local))
            } else {
                try ALSAError.check("snd_pcm_open", device: device, snd_pcm_open(&handle, device, direction.stream, 0))
            }
        }
        guard let pcm = handle else { throw ALSAError(call: "snd_pcm_open", code: -ENODEV, device: device) }
        // Stored properties are set only after the last throw: a throwing class initializer that has set
        // them all runs `deinit`, which would close the PCM a second time.
        let granted: (rate: Int, period: Int, buffer: Int)
        do {
            granted = try Self.configureHardware(pcm, configuration)
            try Self.configureSoftware(pcm, direction, configuration, period: granted.period, buffer: granted.buffer)
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
        self.direction = direction
        self.configuration = configuration
        sampleRate = granted.rate
        periodFrames = granted.period
        bufferFrames = granted.buffer
        self.pcm = pcm
    }

    deinit { snd_pcm_close(pcm) }

    private static let opening = Mutex(())

    /// alsa-lib's own stderr messages are dropped once per process: the thrown `ALSAError` says the same.
    private static let quietLibrary: Void = CIntercomShims_snd_lib_error_silence()

    /// Blocks until `buffer` (whole interleaved frames) is full; returns the frames read, which is fewer
    /// only when the stream ended (a `file` PCM running out of input).
    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(ALSAError) -> Int {
        let channels = configuration.channels
        let wanted = buffer.count / channels
        var done = 0
        while done < wanted {
            let result = snd_pcm_readi(pcm, buffer.baseAddress! + done * channels, snd_pcm_uframes_t(wanted - done))
            if result >= 0 {
                if result == 0 { break }
                done += result
            } else {
                try recover(Int32(result), call: "snd_pcm_readi")
            }
        }
        return done
    }

    /// `frames` interleaved frames of capture.
    public func read(frames: Int) throws(ALSAError) -> [Int16] {
        var samples = [Int16](repeating: 0, count: frames * configuration.channels)
        let result = samples.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(ALSAError) in try read(into: buffer) }
        }
        samples.removeLast((frames - (try result.get())) * configuration.channels)
        return samples
    }

    /// Blocks until every frame of `samples` (interleaved) is queued for playback.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(ALSAError) {
        let channels = configuration.channels
        let total = samples.count / channels
        var done = 0
        while done < total {
            let result = snd_pcm_writei(pcm, samples.baseAddress! + done * channels, snd_pcm_uframes_t(total - done))
            if result >= 0 {
                done += result
            } else {
                try recover(Int32(result), call: "snd_pcm_writei")
                try primeWithSilence()
            }
        }
    }

    public func write(_ samples: [Int16]) throws(ALSAError) {
        let result = samples.withUnsafeBufferPointer { buffer in Result { () throws(ALSAError) in try write(buffer) } }
        try result.get()
    }

    /// Plays what is queued to the end (`snd_pcm_drain`), e.g. before closing after a prompt.
    public func drain() throws(ALSAError) {
        try ALSAError.check("snd_pcm_drain", device: configuration.device, snd_pcm_drain(pcm))
    }

    // MARK: - Helpers

    private func recover(_ code: Int32, call: String) throws(ALSAError) {
        guard code == -EPIPE || code == -ESTRPIPE || code == -EINTR else {
            throw ALSAError(call: call, code: code, device: configuration.device)
        }
        if code != -EINTR { xrunCount += 1 }
        try ALSAError.check("snd_pcm_recover", device: configuration.device, snd_pcm_recover(pcm, code, 1))
    }

    /// After an underrun, queue the start threshold's worth of silence so playback restarts with headroom.
    private func primeWithSilence() throws(ALSAError) {
        let frames = periodFrames * max(1, configuration.startThresholdPeriods)
        let silence = [Int16](repeating: 0, count: frames * configuration.channels)
        let result = silence.withUnsafeBufferPointer { snd_pcm_writei(pcm, $0.baseAddress, snd_pcm_uframes_t(frames)) }
        if result < 0 { throw ALSAError(call: "snd_pcm_writei", code: Int32(result), device: configuration.device) }
    }

    private static func configureHardware(
        _ pcm: OpaquePointer, _ configuration: ALSAStreamConfiguration
    ) throws(ALSAError) -> (rate: Int, period: Int, buffer: Int) {
        let device = configuration.device
        var params: OpaquePointer?
        try ALSAError.check("snd_pcm_hw_params_malloc", snd_pcm_hw_params_malloc(&params))
        defer { snd_pcm_hw_params_free(params) }
        try ALSAError.check("snd_pcm_hw_params_any", device: device, snd_pcm_hw_params_any(pcm, params))
        try ALSAError.check("snd_pcm_hw_params_set_access", device: device,
            snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED))
        try ALSAError.check("snd_pcm_hw_params_set_format", device: device,
            snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_S16_LE))
        try ALSAError.check("snd_pcm_hw_params_set_channels", device: device,
            snd_pcm_hw_params_set_channels(pcm, params, UInt32(configuration.channels)))
        var rate = UInt32(configuration.sampleRate)
        var direction: Int32 = 0
        try ALSAError.check("snd_pcm_hw_params_set_rate_near", device: device,
            snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &direction))
        var period = snd_pcm_uframes_t(configuration.periodFrames)
        try ALSAError.check("snd_pcm_hw_params_set_period_size_near", device: device,
            snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &direction))
        var buffer = period * snd_pcm_uframes_t(max(2, configuration.periods))
        try ALSAError.check("snd_pcm_hw_params_set_buffer_size_near", device: device,
            snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer))
        try ALSAError.check("snd_pcm_hw_params", device: device, snd_pcm_hw_params(pcm, params))
        return (Int(rate), Int(period), Int(buffer))
    }

    private static func configureSoftware(
        _ pcm: OpaquePointer, _ direction: Direction, _ configuration: ALSAStreamConfiguration, period: Int, buffer: Int
    ) throws(ALSAError) {
        let device = configuration.device
        var params: OpaquePointer?
        try ALSAError.check("snd_pcm_sw_params_malloc", snd_pcm_sw_params_malloc(&params))
        defer { snd_pcm_sw_params_free(params) }
        try ALSAError.check("snd_pcm_sw_params_current", device: device, snd_pcm_sw_params_current(pcm, params))
        let start = direction == .playback ? min(buffer, period * max(1, configuration.startThresholdPeriods)) : 1
        try ALSAError.check("snd_pcm_sw_params_set_start_threshold", device: device,
            snd_pcm_sw_params_set_start_threshold(pcm, params, snd_pcm_uframes_t(start)))
        try ALSAError.check("snd_pcm_sw_params_set_avail_min", device: device,
            snd_pcm_sw_params_set_avail_min(pcm, params, snd_pcm_uframes_t(period)))
        try ALSAError.check("snd_pcm_sw_params", device: device, snd_pcm_sw_params(pcm, params))
    }

    private static func loadConfiguration(_ text: String, device: String) throws(ALSAError) -> OpaquePointer {
        var top: OpaquePointer?
        try ALSAError.check("snd_config_top", snd_config_top(&top))
        var input: OpaquePointer?
        let bytes = Array(text.utf8)
        let opened = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { snd_input_buffer_open(&input, $0.baseAddress, buffer.count) }
        }
        guard opened >= 0 else {
            snd_config_delete(top)
            throw ALSAError(call: "snd_input_buffer_open", code: opened, device: device)
        }
        let loaded = snd_config_load(top, input)
        snd_input_close(input)
        guard loaded >= 0, let top else {
            snd_config_delete(top)
            throw ALSAError(call: "snd_config_load", code: loaded, device: device)
        }
        return top
    }
}

@available(*, unavailable, message: "an ALSA stream belongs to one audio thread")
extension ALSAPCMStream: Sendable {}

extension ALSAError {
    /// The sound device went away (USB unplug): close and reopen later.
    public var isDeviceLost: Bool { code == -ENODEV || code == -ENXIO || code == -EBADFD }
}
