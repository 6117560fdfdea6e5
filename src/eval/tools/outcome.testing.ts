/**
 * Test helpers shared by the tool tests: unwrap an `executeTool` outcome into the parsed
 * receipt (expecting 200) or the problem (expecting 400). Receipts are parsed JSON, so the
 * assertions that use them check shape, hence `any`.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { expect } from 'vitest';
import type { ToolOutcome } from '../execute.js';

export function ok(outcome: ToolOutcome): any {
  if (!outcome.ok) throw new Error(`expected 200, got ${JSON.stringify(outcome.problem)}`);
  return JSON.parse(outcome.body);
}

export function problem(outcome: ToolOutcome): any {
  if (outcome.ok) throw new Error('expected a 400');
  expect(outcome.problem.status).toBe(400);
  return outcome.problem;
}
