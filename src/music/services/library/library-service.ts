import { resolve as resolvePath } from 'node:path';
/**
 * The admin API of library imports: start one (a `library-import` job runs the same importer as
 * the CLI), read its progress and every file it could not import, pause and resume it. The folder
 * must lie inside LIBRARY_IMPORT_ROOTS: an admin token never reads arbitrary server paths.
 */
import { isUuid } from '../../uuid.js';
import { insideLibraryRoots, isUnder } from '../../repositories/library-roots.js';
import type {
  ImportProblem,
  ImportRecord,
  PrismaLibraryRepository,
} from '../../repositories/library-repository.js';
import type { UserRepository } from '../../repositories/user-repository.js';
import type { AuthContext } from '../../auth-context.js';
import type { Visibility } from '../visibility-policy.js';
import type { LibraryImportProgress } from '../live-events.js';
import { normaliseHandle } from '../auth-service.js';
import { progressOf } from './library-importer.js';
import {
  folderNotAllowed,
  folderUnreadable,
  importNotFound,
  importNotPausable,
  importNotResumable,
  ownerNotFound,
} from '../../errors/library.js';

export interface StartImportInput {
  directory: string;
  owner: string;
  visibility?: Visibility;
  prune?: boolean;
  /** Read the files where they are instead of copying them into the originals store. */
  in_place?: boolean;
}

export interface LibraryServiceDeps {
  library: PrismaLibraryRepository;
  users: Pick<UserRepository, 'findByHandle'>;
  /** The folder's real path (symlinks resolved), or why it is not a readable folder. */
  resolveFolder(path: string): Promise<{ root: string } | { reason: string }>;
  queue: { enqueue(importId: string): Promise<void>; releaseHeld(importId: string): Promise<number> };
  roots: readonly string[];
}

export type ImportView = LibraryImportProgress & {
  owner_user_id: string;
  visibility: Visibility;
  prune: boolean;
  in_place: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
};

function importView(record: ImportRecord): ImportView {
  return {
    ...progressOf(record),
    owner_user_id: record.ownerUserId,
    visibility: record.visibility,
    prune: record.prune,
    in_place: record.inPlace,
    created_at: record.createdAt.toISOString(),
    started_at: record.startedAt?.toISOString() ?? null,
    finished_at: record.finishedAt?.toISOString() ?? null,
  };
}

const PROBLEMS_SHOWN = 1000;

export class LibraryService {
  constructor(private readonly deps: LibraryServiceDeps) {}

  private async inRoots(directory: string): Promise<string> {
    const { roots } = this.deps;
    if (roots.length === 0 || !directory.startsWith('/')) throw folderNotAllowed(roots);
    const allowed = await Promise.all(roots.map((r) => this.deps.resolveFolder(r)));
    // Refused before any lookup, so answers never tell what exists outside the roots.
    const spelled = resolvePath(directory);
    const spelledInside = roots.some((r, i) => {
      const real = allowed[i]!;
      return isUnder(spelled, resolvePath(r)) || ('root' in real && isUnder(spelled, real.root));
    });
    if (!spelledInside) throw folderNotAllowed(roots);
    const found = await this.deps.resolveFolder(directory);
    if ('reason' in found) throw folderUnreadable(found.reason);
    if (!(await insideLibraryRoots(found.root, roots))) throw folderNotAllowed(roots);
    return found.root;
  }

  /** 202 with the new import, or the owner's unfinished import of this folder (resumed if paused). */
  async start(caller: AuthContext, input: StartImportInput): Promise<ImportView> {
    const root = await this.inRoots(input.directory);
    const owner = await this.deps.users.findByHandle(normaliseHandle(input.owner));
    if (!owner) throw ownerNotFound(input.owner);
    const { library } = this.deps;
    const unfinished = await library.findUnfinished(owner.id, root);
    if (unfinished) return this.resumedIfPaused(unfinished);
    const { record, created } = await library.createUnlessUnfinished({
      ownerUserId: owner.id,
      requestedBy: caller.userId,
      root,
      visibility: input.visibility ?? 'public',
      prune: input.prune ?? false,
      inPlace: input.in_place ?? false,
    });
    // A parallel start made it first (the one-unfinished index): that one is this folder's import.
    if (!created) return this.resumedIfPaused(record);
    await this.deps.queue.enqueue(record.id);
    return importView(record);
  }

  private async resumedIfPaused(unfinished: ImportRecord): Promise<ImportView> {
    if (unfinished.status === 'paused') await this.resumed(unfinished.id);
    else await this.restartedIfAbandoned(unfinished.id);
    return importView((await this.deps.library.findImport(unfinished.id)) ?? unfinished);
  }

  /** An import whose run was killed (no heartbeat, no job) gets a new run: true when one was enqueued. */
  private async restartedIfAbandoned(id: string): Promise<boolean> {
    if (!(await this.deps.library.letGoIfAbandoned(id))) return false;
    await this.deps.queue.enqueue(id);
    return true;
  }

  private async found(id: string): Promise<ImportRecord> {
    const record = isUuid(id) ? await this.deps.library.findImport(id.toLowerCase()) : undefined;
    if (!record) throw importNotFound();
    return record;
  }

  async get(id: string): Promise<ImportView & { problems: ImportProblem[]; problems_shown: number }> {
    const record = await this.found(id);
    const problems = await this.deps.library.listProblems(record.id, PROBLEMS_SHOWN);
    return { ...importView(record), problems, problems_shown: PROBLEMS_SHOWN };
  }

  async list(limit: number): Promise<{ items: ImportView[] }> {
    return { items: (await this.deps.library.listImports(limit)).map(importView) };
  }

  /**
   * paused -> queued; its media jobs the worker held go back to their queues, and a new run walks
   * on, unless the run that was stopping after the pause still holds it: that one goes on (the
   * last word wins, one run at a time). False when the import was not paused.
   */
  private async resumed(id: string): Promise<boolean> {
    const { resumed, held } = await this.deps.library.resume(id);
    if (!resumed) return false;
    await this.deps.queue.releaseHeld(id);
    if (!held) await this.deps.queue.enqueue(id);
    return true;
  }

  /** The run stops after the files in hand (within a second); the worker holds its media jobs already queued. */
  async pause(id: string): Promise<ImportView> {
    const record = await this.found(id);
    const paused = await this.deps.library.setStatus(record.id, ['queued', 'running'], 'paused');
    const now = (await this.deps.library.findImport(record.id)) ?? record;
    // A parallel pause that won is this one's answer too; the message names the status as it is now.
    if (!paused && now.status !== 'paused') throw importNotPausable(now.status);
    return importView(now);
  }

  async resume(id: string): Promise<ImportView> {
    const record = await this.found(id);
    if (!(await this.resumed(record.id)) && !(await this.restartedIfAbandoned(record.id))) {
      const now = (await this.deps.library.findImport(record.id)) ?? record;
      // A parallel resume that won is this one's answer too.
      if (now.status !== 'queued' && now.status !== 'running') throw importNotResumable(now.status);
      return importView(now);
    }
    return importView((await this.deps.library.findImport(record.id)) ?? record);
  }
}
