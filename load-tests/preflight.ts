/**
 * Before loading a stack someone else started (EVAL_URL or MUSIC_URL set): can the scenarios
 * pass against it? Each refusal is one line naming what to set. The probes spend a fresh,
 * random client address's budget; against a stack that ignores X-Forwarded-For they spend
 * this machine's (the refusal then says so).
 */
import { randomClientAddress } from './scenarios/options.js';

export async function reachable(what: string, url: string, variable: string): Promise<void> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } })
      .cause;
    const why = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (err as Error).message;
    throw new Error(
      `cannot reach the ${what} at ${new URL(url).origin} (${why}): start it, or set ${variable}`,
      { cause: err },
    );
  }
}

const OWN_STACK = 'or unset EVAL_URL and MUSIC_URL: make load then starts a stack of its own';

/** Sends `probe` from one address until a 429 (true) or `tries` answers without one (false). */
async function throttledAfter(probe: (address: string) => Promise<number>, address: string, tries: number) {
  for (let i = 0; i < tries; i++) if ((await probe(address)) === 429) return true;
  return false;
}

/**
 * Whether the target limits requests, and whether it tells clients apart by X-Forwarded-For:
 * one address is throttled, then a second one is tried once.
 */
async function limiting(
  probe: (address: string) => Promise<number>,
  tries: number,
): Promise<'off' | 'per-forwarded-address' | 'ignores-forwarded-address'> {
  if (!(await throttledAfter(probe, randomClientAddress(), tries))) return 'off';
  return (await probe(randomClientAddress())) === 429 ? 'ignores-forwarded-address' : 'per-forwarded-address';
}

const post = (url: string) => async (address: string) =>
  (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: '{}',
      signal: AbortSignal.timeout(10_000),
    })
  ).status;

export async function preflight(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
): Promise<string | undefined> {
  const evalUrl = env.EVAL_URL ?? 'http://127.0.0.1:8080';
  const musicUrl = env.MUSIC_URL ?? 'http://127.0.0.1:8081';
  const needsEval = names.some((n) => n === 'eval-mixed' || n === 'soak');
  const needsMusic = names.some((n) => n !== 'eval-mixed');
  if (names.includes('browse-stream') && !env.MUSIC_TRACK_IDS?.trim())
    return `browse-stream needs tracks: set MUSIC_TRACK_IDS to ids of public tracks with a ready version, ${OWN_STACK}`;
  if (needsEval) await reachable('eval service', `${evalUrl}/api/health`, 'EVAL_URL');
  if (needsMusic) await reachable('music API', `${musicUrl}/api/v1/health/ready`, 'MUSIC_URL');
  if (needsMusic) {
    // The auth scope (burst 3): an invalid login is refused by the limiter or answered 400.
    const music = await limiting(post(`${musicUrl}/api/v1/auth/login`), 8);
    if (music === 'ignores-forwarded-address')
      return `the music API at ${musicUrl} ignores X-Forwarded-For from here, so every scenario is one throttled client: run it with TRUSTED_PROXIES=127.0.0.1, ${OWN_STACK}`;
    if (music === 'off' && names.includes('rate-limit'))
      return `the music API at ${musicUrl} limits nothing: run it with RATE_LIMITS=on for the rate-limit scenario, or leave rate-limit out of LOAD_SCENARIOS`;
  }
  if (needsEval) {
    // The tools scope (burst 100 by default): an empty open-bench submit is limited or a 400.
    const evalLimits = await limiting(post(`${evalUrl}/api/open-bench/submit`), 1000);
    if (evalLimits === 'ignores-forwarded-address')
      return `the eval service at ${evalUrl} ignores X-Forwarded-For from here, so the eval mix is one throttled client: run it with TRUSTED_PROXIES=127.0.0.1 (or RATE_LIMITS=off), ${OWN_STACK}`;
  }
  return undefined;
}
