/** Bounds of the saved play queue (REST /api/v1/me/play-queue and Subsonic's savePlayQueue keep the same). */
export const PLAY_QUEUE_LIMITS = {
  /** Entries a saved queue holds: Subsonic's bound for a list of songs (a playlist's too). */
  tracks: 10_000,
  /** The furthest position into a track, in milliseconds (about 31 years: a bound, not a length). */
  positionMs: 1e12,
  /** The client's name shown as changed_by ("Continue where you left off on …"). */
  clientLength: 200,
} as const;
