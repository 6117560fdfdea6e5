/**
 * The verifier pool: Piscina worker threads that run any registered tool by id, so
 * CPU-bound verification never blocks the event loop. The raw request bytes are moved (not
 * copied) to the worker, which parses, validates, runs and seals there.
 */
import { Piscina } from 'piscina';
import { workerEntry } from '../../core/worker-entry.js';
import type { ToolOutcome } from '../execute.js';
import { verificationTimedOut } from '../errors.js';

/** What every worker receives once, at start (Piscina workerData). */
export interface VerifierWorkerData {
  /** The graph kernel resolved from GRAPH_KERNEL at start-up. */
  graphKernel: 'native' | 'ts';
}

export interface VerifierTask {
  toolId: string;
  bytes: Uint8Array;
}

/**
 * A pooled tool's answer is executeTool's: the receipt crosses back as a string and is encoded
 * on the event loop. Not as UTF-8 bytes in an ArrayBuffer: one arriving by postMessage counts
 * as external memory in the event loop's heap and sets off full mark-compacts
 * (docs/speed.md#pooled-receipts-cross-back-as-strings).
 */
export type PooledOutcome = ToolOutcome;

export interface PoolStats {
  size: number;
  queued: number;
  completed: number;
  utilization: number;
}

export interface VerifierPool {
  readonly size: number;
  run(toolId: string, bytes: Uint8Array): Promise<PooledOutcome>;
  stats(): PoolStats;
  /** Runs a task of another task file under workers/ (e.g. `report-card`) on the same threads. */
  runTask<T, R>(taskFile: string, task: T): Promise<R>;
  /**
   * Lets every submitted task finish, queued ones included, for at most `graceMs`; then
   * stops the threads, failing whatever is left. Returns how many tasks were still pending
   * when it was called and how many of those it had to cut off.
   */
  close(graceMs: number): Promise<{ pending: number; cutOff: number }>;
  destroy(): Promise<void>;
}

export interface VerifierPoolOptions {
  size: number;
  /** The graph kernel every worker uses, resolved once at start-up (resolveGraphKernel). */
  graphKernel: 'native' | 'ts';
  /**
   * Deadline of one task from submission (queueing included). A task past it is aborted and
   * its thread replaced, so no request can hold a worker for ever; the caller gets a 503.
   */
  taskTimeoutMs?: number;
}

export function createVerifierPool(options: VerifierPoolOptions): VerifierPool {
  const timeoutMs = options.taskTimeoutMs ?? 60_000;
  const { filename, execArgv } = workerEntry('verifier');
  const piscina = new Piscina<VerifierTask, PooledOutcome>({
    filename,
    execArgv,
    workerData: { graphKernel: options.graphKernel } satisfies VerifierWorkerData,
    minThreads: options.size,
    maxThreads: options.size,
    // Waiting tasks are bounded by the HTTP body limit times concurrent connections; an
    // unbounded queue is fine because rate limits bound the arrival rate.
    idleTimeout: 60_000,
  });
  // Every submitted task until it settles: piscina's own close() waits only for tasks already
  // on a thread and fails the queued ones.
  const inFlight = new Set<Promise<unknown>>();
  return {
    size: options.size,
    run(toolId, bytes) {
      // Only a buffer that owns its whole ArrayBuffer can be moved; a slice of Node's shared
      // allocation pool must be copied (those are small, under 4 KB).
      const owned =
        bytes.byteOffset === 0 &&
        bytes.byteLength === bytes.buffer.byteLength &&
        !(bytes.buffer instanceof SharedArrayBuffer)
          ? bytes
          : new Uint8Array(bytes);
      const task: VerifierTask = { toolId, bytes: owned };
      const running = piscina
        .run(task, { transferList: [owned.buffer as ArrayBuffer], signal: AbortSignal.timeout(timeoutMs) })
        .catch((err: unknown) => {
          if ((err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError') {
            throw verificationTimedOut(toolId, timeoutMs, 5);
          }
          throw err;
        });
      inFlight.add(running);
      void running.then(
        () => inFlight.delete(running),
        () => inFlight.delete(running),
      );
      return running;
    },
    runTask<T, R>(taskFile: string, task: T): Promise<R> {
      // Piscina types one task shape per pool; other task files carry their own.
      const run = piscina.run.bind(piscina) as unknown as (t: T, o: { filename: string }) => Promise<R>;
      const running = run(task, { filename: workerEntry(taskFile).filename });
      inFlight.add(running);
      void running.then(
        () => inFlight.delete(running),
        () => inFlight.delete(running),
      );
      return running;
    },
    stats() {
      return {
        size: options.size,
        queued: piscina.queueSize,
        completed: piscina.completed,
        utilization: Number(piscina.utilization.toFixed(4)),
      };
    },
    async close(graceMs) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      const pending = inFlight.size;
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      clearTimeout(timer);
      const cutOff = inFlight.size;
      await piscina.destroy();
      return { pending, cutOff };
    },
    async destroy() {
      await piscina.destroy();
    },
  };
}
