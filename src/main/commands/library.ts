/**
 * `library import DIR --owner HANDLE [--visibility public|unlisted|private] [--prune] [--in-place]`: imports a
 * music folder in this process (the same LibraryImporter the admin API's job runs), with a
 * progress bar and a summary naming every file not imported and why. Ctrl-C stops after the
 * files in hand; running the same command again resumes (docs/library-import.md).
 */
import { randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { AppError } from '../../core/errors.js';
import { ConfigError } from '../../core/env.js';
import { loadMusicConfig } from '../../music/config.js';
import { createLibraryImporter } from '../../music/library-wiring.js';
import { createMusicConnections } from '../../music/repositories/connections.js';
import {
  RUNNER_STALE_MS,
  type ImportRecord,
  type PrismaLibraryRepository,
} from '../../music/repositories/library-repository.js';
import { PrismaUserRepository } from '../../music/repositories/user-repository.js';
import { normaliseHandle } from '../../music/services/auth-service.js';
import { inPlaceOutsideRoots } from '../../music/errors/library.js';
import { insideLibraryRoots } from '../../music/repositories/library-roots.js';
import type { LibraryImportProgress } from '../../music/services/live-events.js';
import type { Command } from './command.js';

const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
type Visibility = (typeof VISIBILITIES)[number];

const USAGE =
  'library import <dir> --owner <handle> [--visibility public|unlisted|private] [--prune] [--in-place]';

interface ImportArgs {
  dir: string;
  owner: string;
  visibility: Visibility;
  prune: boolean;
  inPlace: boolean;
}

function parse(argv: string[]): ImportArgs | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        owner: { type: 'string' },
        visibility: { type: 'string', default: 'public' },
        prune: { type: 'boolean', default: false },
        'in-place': { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    return (err as Error).message;
  }
  const [action, dir, ...extra] = parsed.positionals;
  if (action !== 'import' || dir === undefined || extra.length > 0)
    return 'name one folder: library import <dir>';
  if (!parsed.values.owner) return '--owner <handle> is required: whose library this becomes';
  const visibility = parsed.values.visibility as Visibility;
  if (!VISIBILITIES.includes(visibility)) return `--visibility is one of ${VISIBILITIES.join(', ')}`;
  return {
    dir,
    owner: parsed.values.owner,
    visibility,
    prune: parsed.values.prune,
    inPlace: parsed.values['in-place'],
  };
}

/** A bar on a terminal; elsewhere (a log, a pipe) a line every 10 s. */
function progressView(): { update(p: LibraryImportProgress): void; stop(): void } {
  if (!process.stderr.isTTY) {
    let last = 0;
    return {
      update(p) {
        if (Date.now() - last < 10_000 && p.status === 'running') return;
        last = Date.now();
        process.stderr.write(
          `${p.status}: ${p.scanned}/${p.total ?? '?'} scanned, ${p.imported} imported, ${p.updated} updated, ${p.skipped} skipped, ${p.failed} failed, ${p.rate_per_minute ?? '-'} files/min\n`,
        );
      },
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format:
        '{bar} {value}/{total} scanned | {imported} imported | {updated} updated | {skipped} skipped | {failed} failed | {rate}/min | left {eta_formatted}',
      etaBuffer: 200,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = {
        imported: p.imported,
        updated: p.updated,
        skipped: p.skipped,
        failed: p.failed,
        rate: p.rate_per_minute ?? '-',
      };
      if (!started) {
        bar.start(p.total ?? 0, p.scanned, payload);
        started = true;
      }
      if (p.total !== null) bar.setTotal(p.total);
      bar.update(p.scanned, payload);
    },
    stop: () => bar.stop(),
  };
}

async function summary(library: PrismaLibraryRepository, done: ImportRecord): Promise<string> {
  const lines = [
    `import ${done.id}: ${done.status}${done.error ? ` (${done.error})` : ''}`,
    `  scanned ${done.scanned}, imported ${done.imported}, updated ${done.updated}, skipped ${done.skipped}, failed ${done.failed}, missing ${done.missing}, removed ${done.removed}`,
  ];
  const problems = await library.listProblems(done.id, 1_000_000);
  for (const kind of ['failed', 'skipped', 'missing', 'removed'] as const) {
    const some = problems.filter((p) => p.kind === kind);
    if (some.length === 0) continue;
    lines.push(`${kind} (${some.length}):`);
    for (const p of some) lines.push(`  ${p.path}: ${p.reason}`);
  }
  if (done.status === 'paused') lines.push('stopped before the end: run the same command again to resume.');
  // A resume from the admin API came while it ran: a worker takes it on.
  if (done.status === 'queued')
    lines.push('stopped before the end; resumed meanwhile, so a music-worker goes on.');
  return `${lines.join('\n')}\n`;
}

async function folder(dir: string): Promise<string | undefined> {
  try {
    const root = await realpath(dir);
    return (await stat(root)).isDirectory() ? root : undefined;
  } catch {
    return undefined;
  }
}

async function importFolder(args: ImportArgs): Promise<number> {
  let config;
  try {
    config = loadMusicConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`library: ${err.message}\n`);
    return 2;
  }
  const root = await folder(args.dir);
  if (!root) {
    process.stderr.write(`library: ${args.dir} is not a folder this process can read.\n`);
    return 2;
  }
  if (args.inPlace && !(await insideLibraryRoots(root, config.libraryImportRoots))) {
    process.stderr.write(`library: ${inPlaceOutsideRoots(config.libraryImportRoots).message}\n`);
    return 2;
  }
  const connections = createMusicConnections(config);
  const wiring = createLibraryImporter(config, connections);
  const stop = new AbortController();
  const onSigint = (): void => {
    if (stop.signal.aborted) process.exit(130);
    process.stderr.write(
      '\nstopping after the files in hand (Ctrl-C again to quit at once; the import resumes either way)\n',
    );
    stop.abort();
  };
  process.on('SIGINT', onSigint);
  const view = progressView();
  try {
    const owner = await new PrismaUserRepository(connections.prisma).findByHandle(
      normaliseHandle(args.owner),
    );
    if (!owner) {
      process.stderr.write(`library: no account with the handle "${args.owner}".\n`);
      return 2;
    }
    const { library } = wiring;
    let record = await library.findUnfinished(owner.id, root);
    if (record) {
      const mode = record.inPlace ? 'reading in place' : 'copying the files';
      process.stderr.write(`resuming import ${record.id} of ${root} (${record.status}, ${mode})\n`);
    }
    record ??= (
      await library.createUnlessUnfinished({
        ownerUserId: owner.id,
        requestedBy: null,
        root,
        visibility: args.visibility,
        prune: args.prune,
        inPlace: args.inPlace,
      })
    ).record;
    const runner = randomUUID();
    const deadline = Date.now() + RUNNER_STALE_MS + 5_000;
    for (;;) {
      try {
        const done = await wiring.importer.run(record.id, runner, {
          signal: stop.signal,
          prune: args.prune,
          onProgress: (p) => view.update(p),
        });
        view.stop();
        process.stdout.write(await summary(library, done));
        return done.status === 'done' ? 0 : 130;
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'conflict') || Date.now() > deadline) throw err;
        // A killed run's claim lapses after RUNNER_STALE_MS.
        await sleep(1000);
      }
    }
  } catch (err) {
    view.stop();
    if (err instanceof AppError && err.status < 500) {
      process.stderr.write(`library: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    await wiring.close();
    await connections.close();
  }
}

export const libraryCommand: Command = {
  name: 'library',
  summary:
    'Import a music folder: tracks and versions through the upload pipeline, resumable, re-runs add only what is new.',
  usage: USAGE,
  async run(argv: string[]): Promise<number> {
    const args = parse(argv);
    if (typeof args === 'string') {
      process.stderr.write(`library: ${args}\nusage: ${USAGE}\n`);
      return 2;
    }
    return importFolder(args);
  },
};
