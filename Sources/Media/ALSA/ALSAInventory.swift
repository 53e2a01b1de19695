import CALSA

/// Sound cards and their PCM devices as ALSA's control interface reports them (`snd_card_next`,
/// `snd_ctl_card_info`, `snd_ctl_pcm_next_device`, `snd_ctl_pcm_info`).
public struct ALSACard: Sendable, Equatable {
    public struct PCMDevice: Sendable, Equatable {
        public var device: Int
        public var name: String
        public var canCapture: Bool
        public var canPlay: Bool

        /// The name a config should use: `plughw:CARD=<id>,DEV=<n>` converts rate and format as needed.
        public func pcmName(cardID: String) -> String { "plughw:CARD=\(cardID),DEV=\(device)" }
    }

    public var index: Int
    public var id: String
    public var name: String
    public var devices: [PCMDevice]
}

public enum ALSAInventory {
    public static func cards() -> (cards: [ALSACard], failures: [ALSAError]) {
        var cards: [ALSACard] = []
        var failures: [ALSAError] = []
        var index: Int32 = -1
        while true {
            let result = snd_card_next(&index)
            if result < 0 {
                failures.append(ALSAError(call: "snd_card_next", code: result))
                break
            }
            if index < 0 { break }
            do {
                cards.append(try describe(card: index))
            } catch {
                failures.append(error)
            }
        }
        return (cards, failures)
    }

    static func describe(card index: Int32) throws(ALSAError) -> ALSACard {
        let name = "hw:\(index)"
        var control: OpaquePointer?
        try ALSAError.check("snd_ctl_open", device: name, snd_ctl_open(&control, name, 0))
        defer { snd_ctl_close(control) }
        var info: OpaquePointer?
        try ALSAError.check("snd_ctl_card_info_malloc", snd_ctl_card_info_malloc(&info))
        defer { snd_ctl_card_info_free(info) }
        try ALSAError.check("snd_ctl_card_info", device: name, snd_ctl_card_info(control, info))
        let id = String(cString: snd_ctl_card_info_get_id(info))
        let longName = String(cString: snd_ctl_card_info_get_name(info))

        var devices: [ALSACard.PCMDevice] = []
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(control, &device) >= 0, device >= 0 {
            let capture = pcmInfo(control, device: device, stream: SND_PCM_STREAM_CAPTURE)
            let playback = pcmInfo(control, device: device, stream: SND_PCM_STREAM_PLAYBACK)
            guard let pcmName = capture ?? playback else { continue }
            devices.append(.init(device: Int(device), name: pcmName, canCapture: capture != nil, canPlay: playback != nil))
        }
        return ALSACard(index: Int(index), id: id, name: longName, devices: devices)
    }

    /// The PCM's name when the device has a stream in that direction, else nil.
    private static func pcmInfo(_ control: OpaquePointer?, device: Int32, stream: snd_pcm_stream_t) -> String? {
        var info: OpaquePointer?
        guard snd_pcm_info_malloc(&info) >= 0 else { return nil }
        defer { snd_pcm_info_free(info) }
        snd_pcm_info_set_device(info, UInt32(device))
        snd_pcm_info_set_subdevice(info, 0)
        snd_pcm_info_set_stream(info, stream)
        guard snd_ctl_pcm_info(control, info) >= 0 else { return nil }
        return String(cString: snd_pcm_info_get_name(info))
    }
}
