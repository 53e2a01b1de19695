/// The whole, validated device configuration (docs/configuration.md). Only a configuration without
/// problems is ever built for running: `ConfigLoader` returns problems instead of a partial value.
public struct IntercomConfiguration: Sendable, Equatable {
    public var identity: IdentitySettings
    public var backend: BackendSettings
    public var presence: PresenceSettings
    public var call: CallSettings
    public var video: VideoSettings
    public var audio: AudioSettings
    public var gpio: GPIOSettings?
    public var metrics: MetricsSettings
    public var logging: LoggingSettings
    public var state: StateSettings
    public var visits: VisitSettings
    /// `[mqtt]`: nil without the table.
    public var mqtt: MQTTSettings?
    /// `[whep]`: nil (disabled) without the table.
    public var whep: WHEPSettings?
    /// `[sip]`: nil without the table.
    public var sip: SIPSettings?

    /// The top-level tables, for unknown-key suggestions and documentation.
    static let sections = ["identity", "backend", "presence", "call", "video", "audio", "gpio", "metrics", "logging", "state", "visits", "mqtt", "whep", "sip"]

    init(_ root: ConfigReader, secrets: SecretResolver, environment: [String: String]) {
        let identityReader = root.table("identity")
        if identityReader == nil { root.report(nil, "missing required table [identity] (title, latitude, longitude)") }
        identity = identityReader.map(IdentitySettings.init) ?? IdentitySettings(title: "", latitude: 0, longitude: 0)

        let backendReader = root.table("backend")
        if backendReader == nil { root.report(nil, "missing required table [backend] (server_url)") }
        backend = BackendSettings(
            backendReader ?? ConfigReader(table: TOMLTable(), path: "backend", problems: ProblemList(), location: nil),
            secrets: secrets)

        presence = PresenceSettings(root.table("presence"))
        let callReader = root.table("call")
        call = CallSettings(callReader)
        video = VideoSettings(root.table("video"))
        audio = AudioSettings(root.table("audio"))
        gpio = root.table("gpio").map(GPIOSettings.init)
        metrics = MetricsSettings(root.table("metrics"))
        logging = LoggingSettings(root.table("logging"))
        state = StateSettings(root.table("state"), environment: environment)
        visits = VisitSettings(root.table("visits"))
        mqtt = MQTTSettings(root.table("mqtt"), secrets: secrets)
        whep = WHEPSettings(root.table("whep"), secrets: secrets)
        sip = SIPSettings(root.table("sip"), secrets: secrets)
        if case .sip? = call.target, sip == nil {
            callReader?.report("target", "a SIP target needs [sip]: the call goes through its registrar")
        }
        root.rejectUnknownKeys()
    }
}
