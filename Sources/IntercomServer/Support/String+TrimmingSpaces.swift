/// Trims ASCII spaces around list items (`keys=a, b`, `INTERCOM_TURN_URLS=a, b`).
extension String {
    var trimmingSpaces: String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
