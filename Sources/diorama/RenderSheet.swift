import ArgumentParser
import DioramaDocument
import DioramaExport
import DioramaFiles
import DioramaRender
import DioramaTimeline
import Foundation

extension Render {
    /// `--sheet`: one PNG with a row per scene and a cell per moment (`ContactSheet`), drawn by the frame producer
    /// the frames are drawn with.
    func writeSheet() throws {
        do {
            let plan = try planSheet()
            var contact = try ContactSheet(title: plan.title, rows: plan.rows, cellWidth: plan.width, cellHeight: plan.height)
            let warnings = try ParallelFrames.render(plan.frames.map(\.position), document: plan.timeline.document,
                                                     imageDirectory: URL(fileURLWithPath: plan.timeline.loaded.baseDirectory, isDirectory: true),
                                                     width: plan.width, height: plan.height, language: plan.timeline.language,
                                                     threads: try frame.threadCount()) { index, pixels in
                contact.place(pixels, row: plan.frames[index].row, column: plan.frames[index].column)
            }
            for warning in warnings { Self.printError("warning: \(warning)") }
            try contact.frame.writePNG(to: URL(fileURLWithPath: plan.file), replacing: force)
            print("wrote a contact sheet of \(plan.rows.count) scene\(plan.rows.count == 1 ? "" : "s") with \(plan.columns) moment"
                  + "\(plan.columns == 1 ? "" : "s") each (\(contact.width)x\(contact.height)) to \(plan.file)")
        } catch let problem as RenderArgumentError {
            StandardStreams.writeError(problem.description + "\n")
            throw ExitCode(2)
        } catch let failure as ExitCode {
            throw failure
        } catch {
            Self.printError("\(error)")
            throw ExitCode(1)
        }
    }

    private struct SheetPlan {
        var file: String
        var timeline: OutputTimeline
        var title: String
        var width: Int
        var height: Int
        var rows: [[ContactSheet.Cell]]
        var columns: Int
        /// The cells with a picture, in the order they are drawn.
        var frames: [(position: PlaybackPosition, row: Int, column: Int)]
    }

    private func planSheet() throws -> SheetPlan {
        guard let file = sheet else { throw RenderArgumentError("--sheet needs a file") }
        guard (file as NSString).pathExtension.lowercased() == "png" else {
            throw RenderArgumentError("--sheet \(file): a contact sheet is a .png file", hint: "e.g. --sheet sheet.png")
        }
        for (given, option) in [(out != nil, "--out"), (audio != nil, "--audio"), (audioOnly, "--audio-only"),
                                (span.from != nil, "--from"), (span.to != nil, "--to")] where given {
            throw RenderArgumentError("\(option) cannot be combined with --sheet",
                                      hint: "a sheet shows --moments evenly spread over each scene, or the scene seconds of --at")
        }
        if at != nil, moments != nil { throw RenderArgumentError("--moments cannot be combined with --at: give one or the other") }
        let count = moments ?? 4
        guard (1...100).contains(count) else { throw RenderArgumentError("--moments \(count): give 1 to 100 moments per scene") }
        if FileManager.default.fileExists(atPath: file), !force {
            throw RenderArgumentError("\(file) already exists; nothing was written",
                                      hint: "choose another --sheet file, or pass --force to replace it")
        }
        let (width, height) = try frame.size.value()
        let timeline = try OutputTimeline(span)
        let document = timeline.document
        let scenes = span.scene.map { id in document.scenes.indices.filter { document.scenes[$0].id == id } } ?? Array(document.scenes.indices)
        let given = try at?.value()

        var rows: [[ContactSheet.Cell]] = [], frames: [(position: PlaybackPosition, row: Int, column: Int)] = []
        for (row, scene) in scenes.enumerated() {
            let sceneSpan = timeline.clock.span(ofScene: scene)
            let length = sceneSpan.upperBound - sceneSpan.lowerBound
            let id = document.scenes[scene].id
            let times = given?.map(\.time) ?? (0..<count).map { Self.moment($0, of: count, in: length) }
            rows.append(times.enumerated().map { column, time in
                let label = "\(id) · \(time.decimalDescription) s"
                guard time < length else {
                    return ContactSheet.Cell(label: label, emptyNote: "past its end (\(length.decimalDescription) s)")
                }
                frames.append((timeline.clock.position(at: sceneSpan.lowerBound + time), row, column))
                return ContactSheet.Cell(label: label)
            })
        }
        let name = (span.file as NSString).lastPathComponent
        let moments = given.map { "at " + $0.map(\.text).joined(separator: ", ") + " s" } ?? "\(count) moments a scene"
        return SheetPlan(file: file, timeline: timeline, title: "\(name) · \(timeline.language) · \(moments)", width: width,
                         height: height, rows: rows, columns: rows.map(\.count).max() ?? 0, frames: frames)
    }

    /// The middle of the `index`th of `count` equal parts of a scene `length` seconds long, to the millisecond (a
    /// label stays short): 2.5, 7.5, 12.5 and 17.5 s of a 20 s scene in four.
    static func moment(_ index: Int, of count: Int, in length: Rational) -> Rational {
        let milliseconds = (Rational(2 * index + 1) * length * Rational(1000) / Rational(2 * count)).floor
        return Rational(milliseconds, 1000)
    }
}
