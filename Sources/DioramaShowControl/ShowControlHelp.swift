/// The `--help` text of the show-control flags, kept beside what they describe.
public enum ShowControlHelp {
    public static let osc = "Listen for show-control commands over OSC (UDP) on PORT: /diorama/next, /diorama/scene, /diorama/volume, ... (README: Show control)."
    public static let oscBind = "The address --osc listens on. Default 127.0.0.1: this machine only. A LAN address, 0.0.0.0 or :: lets other machines drive the show (and nothing more: a player is not a remote shell)."
    public static let oscFeedback = "Send the show's status (/diorama/status: scene, time, paused, volume, language) to HOST:PORT on every change and once a second."
}
