import Media
import Synchronization

/// The peer's Opus decoded for a tool that asked (`decodesPeerMedia`) when no speaker decodes it: one libopus
/// decoder behind a lock, as the media handler may run on any thread of the peer's actor.
final class PeerAudioDecoder: Sendable {
    private let decoder: Mutex<OpusDecoder?>

    init() {
        decoder = Mutex(try? OpusDecoder(sampleRate: 48_000, channels: 1))
    }

    /// 48 kHz mono PCM, or nil when libopus refused the packet (or could not be set up).
    func decode(_ packet: [UInt8]) -> [Int16]? {
        decoder.withLock { decoder in try? decoder?.decode(packet) }
    }
}
