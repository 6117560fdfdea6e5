/**
 * Reading ffmpeg's stderr: progress (`time=HH:MM:SS.cc` of its stats line), whether a failure
 * is the input's fault (permanent) or the machine's (worth a retry), and the time a run may take.
 */

/**
 * ffmpeg's text as a person may read it: its "[component @ 0x55d0…]" line prefixes (a heap
 * address) removed. Used wherever ffmpeg or ffprobe text reaches an answer.
 */
export function withoutHeapAddresses(text: string): string {
  return text.replace(/\[[^\]@\n]{0,64}@ 0x[0-9a-f]{1,16}\] ?/g, '').trim();
}

/** Seconds of output written so far, from the last `time=` in a chunk of stats. */
export function lastProgressSeconds(text: string): number | undefined {
  let found: number | undefined;
  for (const m of text.matchAll(/time=\s*(-?)(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)) {
    if (m[1] === '-') continue;
    found = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  }
  return found;
}

/** Progress in percent (0-100), from seconds done and the input's duration. */
export function progressPercent(doneSeconds: number, durationMs: number): number {
  if (durationMs <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((doneSeconds * 100_000) / durationMs)));
}

const INPUT_FAULTS = [
  /Invalid data found when processing input/i,
  /could not find codec parameters/i,
  /does not contain any stream/i,
  /Output file #\d+ does not contain any stream/i,
  /moov atom not found/i,
  /Invalid argument/i,
  /no audio stream/i,
];

/** True when stderr says the input itself cannot be decoded: retrying would fail the same way. */
export function isInputFault(stderr: string): boolean {
  return INPUT_FAULTS.some((re) => re.test(stderr));
}

/**
 * A run's time bound: a minute, plus the audio's duration (ffmpeg runs tens of times faster
 * than real time even on a loaded machine, so a run slower than real time is stuck).
 */
export function ffmpegTimeoutMs(durationMs: number): number {
  return 60_000 + Math.max(0, durationMs);
}

/** The last lines of stderr, for an error message a person can read (no paths of ours). */
export function stderrTail(stderr: string, lines = 4): string {
  return stderr
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^size=|^time=|^video:/.test(l))
    .slice(-lines)
    .join(' | ');
}
