/** Errors of paths no route claims (routes/web.ts). */
import { AppError } from '../../core/errors.js';
import { NOT_BUILT } from '../../core/repositories/web-static.js';

export const playerNotBuilt = (): AppError => new AppError('not_found', NOT_BUILT);

export const noRoute = (method: string, path: string): AppError =>
  new AppError('not_found', `No route for ${method} ${path}.`);
