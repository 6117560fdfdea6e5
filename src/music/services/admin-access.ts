/**
 * Admin-only access for operator endpoints: a valid bearer token (401 otherwise) whose role is
 * admin (403 otherwise). One function, so the identity hook that replaces per-route token
 * checks only has to change this.
 */
import { AppError } from '../../core/errors.js';
import type { AuthService } from './auth-service.js';

export async function requireAdmin(auth: AuthService, authorization: string | undefined): Promise<void> {
  const claims = await auth.authenticate(authorization);
  if (claims.role !== 'admin') throw new AppError('forbidden', 'This endpoint is for administrators only.');
}
