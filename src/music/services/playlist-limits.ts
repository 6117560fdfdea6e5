/** Bounds of a playlist, of a page of its songs and of one edit (REST and Subsonic keep the same). */
export const PLAYLIST_LIMITS = {
  nameLength: 200,
  /** Entries a playlist holds, hidden ones included. */
  tracks: 10_000,
  perOwner: 500,
  othersListed: 500,
  /** Songs a page of a playlist shows unless `limit` says otherwise, and the most it may ask. */
  page: 100,
  maxPage: 500,
} as const;
