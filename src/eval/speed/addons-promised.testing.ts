/**
 * Whether the test environment promises the native addons: `make test` builds them first, so
 * under CI (or with GRAPH_KERNEL=native) the differential tests must fail, not skip, without
 * them; only a developer without a compiler, with neither set, may skip them. Tests only: the
 * services read GRAPH_KERNEL through their config.
 */

/** Whether CI is set (and not "false" or "0"). */
export function ciPromisesAddons(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/** The canonical JSON writer's addon: promised under CI. */
export function nativeCanonicalRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return ciPromisesAddons(env);
}

/** The graph kernel's addon: promised under CI or with GRAPH_KERNEL=native. */
export function nativeKernelRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return ciPromisesAddons(env) || (env.GRAPH_KERNEL ?? '').trim().toLowerCase() === 'native';
}
