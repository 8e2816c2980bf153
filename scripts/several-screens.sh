#!/usr/bin/env bash
# Plays one show on several stand-in machines on this host and prints how closely they agree.
#
#   sudo scripts/several-screens.sh [--load N] [COUNT] [SECONDS] [SCENES_FILE]   (defaults: 3 players, 12 s, scenes.json)
#
# --load N keeps N busy processes running while the players play (as a parallel build would: on a 2-core machine,
# 4 or more), to measure how the show holds together on a loaded machine.
# Makes COUNT network namespaces joined by veth pairs (scripts/netns.sh), starts `diorama play --link` headless in
# each (SDL's dummy video driver, sound captured by an ALSA file device), one every 1.5 s so that each joins a running
# show, and removes the namespaces afterwards. Then, for every cue the first player heard, it prints when each player
# heard it (on the host's monotonic clock, each capture placed by its player's log) and the spread, and the largest
# difference in show time between frames presented at the same moment. Files stay in a temporary folder it names.
set -euo pipefail
load=0
if [ "${1:-}" = "--load" ]; then
    load="$2"
    shift 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count="${1:-3}"
seconds="${2:-12}"
scenes="$(realpath "${3:-$root/scenes.json}")"
source "$root/scripts/netns.sh"
if ! reason="$(netns_check)"; then
    echo "several-screens: $reason" >&2
    exit 2
fi
diorama="${DIORAMA:-$root/.build/release/diorama}"   # DIORAMA=PATH uses another build
if [ ! -x "$diorama" ]; then
    (cd "$root" && swift build -c release --product diorama)
fi
work="$(mktemp -d -t diorama-screens-XXXXXX)"
prefix="screens$$"
loaders=()
trap '[ ${#loaders[@]} -eq 0 ] || kill "${loaders[@]}" 2>/dev/null; netns_destroy "$prefix"' EXIT
netns_create "$prefix" "$count" >/dev/null
for _ in $(seq 1 "$load"); do
    ( while :; do :; done ) &
    loaders+=($!)
done
[ "$load" -eq 0 ] || echo "several-screens: $load busy processes load the machine while the players play" >&2

pids=()
for n in $(seq 1 "$count"); do
    cat > "$work/asound-$n.conf" <<EOF
pcm.capture {
    type file
    slave { pcm { type null } }
    file "$work/capture-$n.raw"
    format "raw"
    truncate true
    perm 0644
}
EOF
    # Later players play shorter, so that all stop together.
    duration=$(python3 -c "print($seconds - ($n - 1) * 1.5)")
    ip netns exec "$prefix-$n" env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
        ALSA_CONFIG_PATH="/usr/share/alsa/alsa.conf:$work/asound-$n.conf" XDG_CONFIG_HOME="$work/config-$n" \
        "$diorama" play "$scenes" --link --audio-device capture --size 640x360 --duration "$duration" \
        --log "$work/log-$n.jsonl" 2> "$work/terminal-$n.txt" &
    pids+=($!)
    [ "$n" -lt "$count" ] && sleep 1.5
done
wait "${pids[@]}"
if [ ${#loaders[@]} -gt 0 ]; then
    kill "${loaders[@]}" 2>/dev/null || true
    loaders=()
fi
for n in $(seq 1 "$count"); do sed "s/^/player $n: /" "$work/terminal-$n.txt"; done

python3 - "$work" "$count" "$scenes" <<'EOF'
import json, sys
work, count = sys.argv[1], int(sys.argv[2])
rate = 48000
durations = [float(scene["duration"]) for scene in json.load(open(sys.argv[3]))["scenes"]]
starts = [sum(durations[:index]) for index in range(len(durations))]
cycle = sum(durations) * rate
players = []
for n in range(1, count + 1):
    frames, cues = [], []
    for line in open(f"{work}/log-{n}.jsonl"):
        entry = json.loads(line)
        if entry["type"] == "frame": frames.append(entry)
        if entry["type"] == "cue": cues.append(entry)
    # Mixer frame 0 is heard at this monotonic time: the heard clock never runs ahead, so the earliest estimate, of
    # readings taken at once after presenting (a player held up in between reads the clock that much later).
    origin = min(f["monotonic"] - f["presentedAudioClock"] for f in frames if f.get("presentedAudioClockSpan", 0) <= 0.0002)
    events = [json.loads(line) for line in open(f"{work}/log-{n}.jsonl") if '"event"' in line]
    syncs = [e["detail"] for e in events if e.get("event") == "sync"]
    players.append({"frames": frames, "cues": cues, "origin": origin, "syncs": syncs})
    # The longest time between two presented frames: how long the player's frame loop stalled.
    stall = max((b["monotonic"] - a["monotonic"] for a, b in zip(frames, frames[1:])), default=0)
    print(f"player {n}: {len(syncs)} corrections ({'; '.join(syncs[:8])}{' ...' if len(syncs) > 8 else ''}); longest gap between frames {stall * 1000:.0f} ms")
# Player 1 started the show, which runs on its audio clock: its cues should sit exactly where its first cue put the
# show, in samples (a correction of player 1 moves the later ones).
moved = set()
first = players[0]["cues"][0] if players[0]["cues"] else None
for cue in players[0]["cues"]:
    show = lambda c: round(starts[c["sceneIndex"]] * rate) + c["sampleIndex"]
    expected = show(cue) - show(first)
    actual = cue["frame"] - first["frame"]
    expected += round((actual - expected) / cycle) * cycle
    moved.add(round(actual - expected))
print(f"player 1's cues, in samples from where its first cue put the show: {sorted(moved)}")
print(f"\ncues heard by player 1 and the others (monotonic seconds of each player's sample; spread in ms):")
worst = 0.0
for cue in players[0]["cues"]:
    times = [players[0]["origin"] + cue["frame"] / rate]
    for other in players[1:]:
        match = [c for c in other["cues"] if c["scene"] == cue["scene"] and c["sampleIndex"] == cue["sampleIndex"]
                 and abs(other["origin"] + c["frame"] / rate - times[0]) < 1]
        if match: times.append(other["origin"] + match[0]["frame"] / rate)
    if len(times) < 2: continue
    spread = (max(times) - min(times)) * 1000
    worst = max(worst, spread)
    print(f"  {cue['scene']:>14} {cue['sound']:>10} at {times[0]:.4f}: {len(times)} players, spread {spread:.3f} ms")
print(f"largest cue spread: {worst:.3f} ms")
# Frames in the same scene: scene time against the first player's, advanced to the same moment. A frame presented
# over a frame after the moment it shows (its player held up between drawing and presenting it) shows a stale moment
# however well its player keeps to the show: those are counted apart.
def late(f): return f["presentedAudioClock"] - f["audioClock"]
def on_time(f): return abs(late(f)) <= 1 / 60
# Frames presented on time are also taken at the moment they show (corrected by their lateness, under a frame): the
# show's time each player kept, which is what the sync answers for.
def compare(frames, reference, kept=False):
    def moment(f): return f["sceneTime"] + (late(f) if kept and not f["paused"] else 0)
    largest = 0.0
    for frame in frames:
        before = [f for f in reference if f["monotonic"] <= frame["monotonic"]]
        if not before: continue
        ref = before[-1]
        if ref["sceneIndex"] != frame["sceneIndex"]: continue
        shown = moment(ref) + (0 if ref["paused"] else frame["monotonic"] - ref["monotonic"])
        largest = max(largest, abs(shown - moment(frame)))
    return largest
everything = max((compare(other["frames"][6:], players[0]["frames"]) for other in players[1:]), default=0)  # the join acts a few frames after the first
punctual = max((compare([f for f in other["frames"][6:] if on_time(f)], [f for f in players[0]["frames"] if on_time(f)], kept=True)
                for other in players[1:]), default=0)
all_frames = [f for p in players for f in p["frames"]]
stale = [late(f) for f in all_frames if not on_time(f)]
print(f"largest difference in scene time between frames presented at the same moment: {everything * 1000:.2f} ms; "
      f"between frames presented on time, at the moments they show: {punctual * 1000:.2f} ms")
print(f"frames presented over a frame late: {len(stale)} of {len(all_frames)}" + (f", up to {max(stale) * 1000:.0f} ms" if stale else ""))
EOF
echo "files: $work"
