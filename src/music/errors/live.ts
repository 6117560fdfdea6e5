/** Errors of GET /api/v1/events before the websocket opens (after, close codes say why: live-protocol.ts). */
import { AppError } from '../../core/errors.js';

export const eventsNeedWebsocket = () =>
  new AppError(
    'invalid_input',
    'GET /api/v1/events is a websocket: connect with "Upgrade: websocket" (docs/live-updates.md).',
  );

export const eventsCrossOrigin = () =>
  new AppError(
    'forbidden',
    'A websocket authenticated by the session cookie must be opened from this site (its Origin header did not match); API clients send their token in the hello message instead.',
  );
