/**
 * The websocket protocol of GET /api/v1/events (docs/live-updates.md): what a client may send
 * (parsed strictly: anything else closes the socket with a reason) and the server's control
 * messages and close codes.
 */
import { LIVE_SCHEMA_VERSION, STREAM_ID } from './live-events.js';

export type ClientMessage = { type: 'hello'; token?: string; lastId?: string } | { type: 'ping' };

/** Close codes (4000-4999 are the application's; the reason text says what to do). */
export const CLOSE = {
  /** The server stops (deploy, restart): reconnect with the last id. */
  goingAway: 1001,
  /** Redis (the event bus) is not reachable: reconnect later. */
  tryAgainLater: 1013,
  unauthorized: 4001,
  tooManyConnections: 4008,
  slowReader: 4009,
  badMessage: 4400,
  tooManyMessages: 4429,
} as const;

const HELLO_KEYS = new Set(['type', 'v', 'token', 'last_id']);
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
export const MAX_TOKEN_LENGTH = 4096;

/** A client sends a hello and a ping per heartbeat: a burst of MESSAGE_BURST, then MESSAGES_PER_SECOND. */
export const MESSAGE_BURST = 20;
export const MESSAGES_PER_SECOND = 2;

export type ParseResult = { ok: true; message: ClientMessage } | { ok: false; reason: string };

const bad = (reason: string): ParseResult => ({ ok: false, reason });

export function parseClientMessage(text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bad('messages must be JSON objects');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return bad('messages must be JSON objects');
  const m = value as Record<string, unknown>;
  if (m.v !== LIVE_SCHEMA_VERSION) return bad(`"v" must be ${LIVE_SCHEMA_VERSION}`);
  if (m.type === 'ping') {
    return Object.keys(m).length === 2
      ? { ok: true, message: { type: 'ping' } }
      : bad('ping takes no fields');
  }
  if (m.type !== 'hello') return bad('"type" must be "hello" or "ping"');
  const unknown = Object.keys(m).find((k) => !HELLO_KEYS.has(k));
  if (unknown !== undefined) return bad(`hello has no field "${unknown.slice(0, 40)}"`);
  const message: ClientMessage = { type: 'hello' };
  if (m.token !== undefined) {
    if (
      typeof m.token !== 'string' ||
      m.token === '' ||
      m.token.length > MAX_TOKEN_LENGTH ||
      CONTROL.test(m.token)
    )
      return bad('"token" must be the access token as a string');
    message.token = m.token;
  }
  if (m.last_id !== undefined) {
    if (typeof m.last_id !== 'string' || !STREAM_ID.test(m.last_id))
      return bad('"last_id" must be the "id" of an event received (e.g. "1764160000000-0")');
    message.lastId = m.last_id;
  }
  return { ok: true, message };
}

export function helloAck(userId: string, resumed: boolean, heartbeatSeconds: number, window: number): string {
  return JSON.stringify({
    type: 'hello',
    v: LIVE_SCHEMA_VERSION,
    user_id: userId,
    resumed,
    heartbeat_seconds: heartbeatSeconds,
    resume_window: window,
  });
}

/** Sent before the retained events when the resume point left the window: refetch state. */
export function resyncMessage(): string {
  return JSON.stringify({
    type: 'resync',
    v: LIVE_SCHEMA_VERSION,
    reason:
      'the last_id sent is no longer in the resume window; events may have been missed: reload the state',
  });
}

export function heartbeatMessage(now: Date): string {
  return `{"type":"heartbeat","v":${LIVE_SCHEMA_VERSION},"at":"${now.toISOString()}"}`;
}

export const PONG = JSON.stringify({ type: 'pong', v: LIVE_SCHEMA_VERSION });
