import IntercomAgent
import Logging

extension MediaService {
    /// A started pipeline, as the agent's service group starts it; the test stops it.
    static func running(settings: Settings, logger: Logger) -> MediaService {
        let media = MediaService(settings: settings, logger: logger)
        media.start()
        return media
    }
}
