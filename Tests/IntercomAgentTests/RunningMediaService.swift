import IntercomAgent
import Logging

extension MediaService {
    /// A started pipeline that a test needs (it runs until the test stops it).
    static func running(settings: Settings, logger: Logger) -> MediaService {
        let media = MediaService(settings: settings, logger: logger)
        media.start()
        media.setDemand("test", wanted: true)
        return media
    }
}
