import path from "node:path";
import { spawnSync } from "node:child_process";

export const hasFfmpeg = spawnSync("ffmpeg", ["-version"], { stdio: "ignore" }).status === 0;

/** A real clip with sound (ffmpeg's test pattern and a tone), `seconds` long, as an editor's phone would send. */
export function makeClip(dir: string, { seconds = 2, size = "640x360", name = "clip.mp4" } = {}): string {
  const file = path.join(dir, name);
  const made = spawnSync(
    "ffmpeg",
    [
      ...["-nostdin", "-loglevel", "error", "-y"],
      ...["-f", "lavfi", "-i", `testsrc=size=${size}:rate=25:duration=${seconds}`],
      ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file],
    ],
    { stdio: "inherit" },
  );
  if (made.status !== 0) throw new Error("ffmpeg could not make the test clip");
  return file;
}

/** A real WAV file of a tone, `seconds` long: a podcast episode, only shorter. */
export function makeAudio(dir: string, { seconds = 2, name = "episode.wav" } = {}): string {
  const file = path.join(dir, name);
  const made = spawnSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", `sine=frequency=330:duration=${seconds}`, file], {
    stdio: "inherit",
  });
  if (made.status !== 0) throw new Error("ffmpeg could not make the test sound");
  return file;
}
