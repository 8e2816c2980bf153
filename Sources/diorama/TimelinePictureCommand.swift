import ArgumentParser
import DioramaAudio
import DioramaDocument
import DioramaFiles
import DioramaRender
import DioramaTimeline
import Foundation

extension Timeline {
    /// `--picture`: the chart of the span asked for, with the offline mix's envelope underneath. The file, taps,
    /// language, scene and span are read as `render` reads them.
    func drawPicture(_ path: String) throws {
        do {
            let url = URL(fileURLWithPath: path)
            guard let format = TimelinePicture.Format(rawValue: url.pathExtension.lowercased()) else {
                throw RenderArgumentError("--picture \(path): give a .png or .svg file", hint: "e.g. --picture timeline.png")
            }
            if !force, FileManager.default.fileExists(atPath: path) {
                throw RenderArgumentError("\(path) already exists and was left as it is", hint: "give --force to replace it")
            }
            let timeline = try OutputTimeline(span)
            let span = try timeline.span()
            let (start, stop) = (timeline.playlistSpan.lowerBound + span.start, timeline.playlistSpan.lowerBound + span.end)
            let schedule = CueSchedule(document: timeline.document, sampleRate: Render.audioSampleRate)
            let chart = TimelineChart(document: timeline.document, schedule: schedule, language: timeline.language,
                                      scenes: self.span.scene.map { [$0] }, from: start.doubleValue, to: stop.doubleValue)
            let picture = TimelinePicture(chart: chart, width: width)
            let waveform = mixEnvelope(document: timeline.document, directory: timeline.loaded.baseDirectory, schedule: schedule,
                                       from: start, to: stop, columns: picture.plotColumns)
            let title = (self.span.file as NSString).lastPathComponent + (self.span.scene.map { " · \($0)" } ?? "")
            try picture.write(to: url, format: format, title: title, waveform: waveform, replacing: force)
            print("wrote the timeline picture (\(picture.width)x\(picture.height)) to \(path)")
        } catch let problem as RenderArgumentError {
            StandardStreams.writeError(problem.description + "\n")
            throw ExitCode(2)
        } catch let failure as RenderError {
            StandardStreams.writeError("error: \(failure)\n")
            throw ExitCode(1)
        }
    }

    /// The offline mix of playlist seconds `from ..< to`, as the lowest and highest mono sample per column.
    private func mixEnvelope(document: Document, directory: String, schedule: CueSchedule, from: Rational, to: Rational,
                             columns: Int) -> TimelinePicture.Waveform {
        let audio = PlaylistAudio(document: document, directory: directory, sampleRate: schedule.sampleRate)
        for warning in audio.warnings { StandardStreams.writeError("warning: \(warning)\n") }
        let rate = Rational(schedule.sampleRate)
        let span = Int64((from * rate).ceiling)..<Int64((to * rate).ceiling)
        let mix = OfflineAudio.mix(commands: audio.commands(playingOnce: schedule), sounds: audio.bank.sounds, span: span)
        let frames = mix.count / 2
        guard frames > 0, columns > 0 else { return [] }
        return (0..<columns).map { column in
            let first = column * frames / columns, last = max((column + 1) * frames / columns, first + 1)
            var low: Float = 0, high: Float = 0
            for frame in first..<min(last, frames) {
                let mono = (mix[2 * frame] + mix[2 * frame + 1]) / 2
                low = min(low, mono)
                high = max(high, mono)
            }
            return (low, high)
        }
    }
}
