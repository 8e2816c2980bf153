import ArgumentParser

@main
struct Diorama: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diorama",
        abstract: "An audio-visual scene sequencer: animated scenes with sound cues on their keyframes.",
        discussion: """
            Compose scenes in scenes.json, check them, inspect their cue schedule, render them \
            headless to PNG and WAV, export them to video, or play them in a window with sound.
            """,
        subcommands: [
            Play.self,
            Check.self,
            Timeline.self,
            Render.self,
            Export.self,
            SynthesizeMedia.self,
            Verify.self,
            Bench.self,
            LinkCommand.self,
        ]
    )
}
