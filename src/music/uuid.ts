/** Ids of the music platform are UUIDs. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else names nothing (a 404 before any query). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
