/**
 * Where a thread's module under workers/ is: the built .js beside this file's own build under
 * dist, or, when running from source (vitest, tsx), the .ts source with tsx's loader in the thread.
 */
import { fileURLToPath } from 'node:url';

export interface WorkerEntry {
  filename: string;
  execArgv: string[];
}

/** `name` is the module's path under workers/ without its extension (`verifier`, `digest`). */
export function workerEntry(name: string): WorkerEntry {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(`../../workers/${name}.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  return { filename: fileURLToPath(url), execArgv: fromSource ? ['--import', 'tsx'] : [] };
}
