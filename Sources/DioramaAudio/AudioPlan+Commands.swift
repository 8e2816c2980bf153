import DioramaMixer

extension AudioPlan {
    /// A plan from commands already in frame order: a plan edited command by command (`diorama verify` mutes one
    /// cue's voice to find where it is heard). `endFrame` is the frame after the last scene's end.
    public init(commands: [MixerCommand], endFrame: Int64) {
        self.commands = commands
        self.endFrame = endFrame
    }
}
