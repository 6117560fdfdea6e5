/**
 * Multipart upload of one file: init, parts in parallel (XHR, for upload progress), complete.
 * The state is kept in localStorage after every part, so after a reload choosing the same file
 * again asks the server which parts it has and sends only the missing ones.
 */
import { ProblemError, readProblem } from '../../shared/http';
import { api } from './api';

const STATE_KEY = 'music.upload';
const PARALLEL = 3;

interface PartUrl {
  part_number: number;
  url: string;
}
interface UploadAnswer {
  upload_id: string;
  asset_id: string;
  part_size: number;
  part_count: number;
  transport: 'api' | 'direct';
  parts: PartUrl[];
  received?: { part_number: number; etag: string; size: number }[];
}

export interface PendingUpload {
  upload_id: string;
  asset_id: string;
  title: string;
  name: string;
  size: number;
  lastModified: number;
  etags: Record<string, string>;
}

export function pendingUpload(): PendingUpload | null {
  try {
    return JSON.parse(localStorage.getItem(STATE_KEY) ?? 'null') as PendingUpload | null;
  } catch {
    return null;
  }
}

function save(state: PendingUpload | null): void {
  if (state) localStorage.setItem(STATE_KEY, JSON.stringify(state));
  else localStorage.removeItem(STATE_KEY);
}

export const sameFile = (p: PendingUpload, f: File): boolean =>
  p.name === f.name && p.size === f.size && p.lastModified === f.lastModified;

function putPart(
  url: string,
  body: Blob,
  transport: string,
  onProgress: (loaded: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onerror = () => reject(new Error('the connection failed while sending a part'));
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        void readProblem(
          new Response(xhr.responseText, { status: xhr.status, statusText: xhr.statusText }),
        ).then(reject);
        return;
      }
      const header = xhr.getResponseHeader('etag');
      let etag = header ?? '';
      try {
        etag = (JSON.parse(xhr.responseText) as { etag?: string }).etag ?? etag;
      } catch {
        // A store's own answer (S3) is XML or empty: the ETag header holds the value.
      }
      resolve(etag);
    };
    xhr.send(body);
  });
}

/** What the server read from a completed upload (its tags give the title). */
export interface Completed {
  asset_id: string;
  probe: { tags?: { title?: string | null } } | null;
}

/**
 * A refusal (the file is not audio, too large, …) is final: resuming it would be refused again,
 * so its saved state is dropped. A lost connection, a timeout, a rate limit or an outage is not.
 */
function refused(err: unknown): boolean {
  if (!(err instanceof ProblemError)) return false;
  const s = err.problem.status;
  return s >= 400 && s < 500 && s !== 401 && s !== 408 && s !== 429;
}

/** Uploads (or resumes) the file; resolves with the completed asset. */
export async function uploadFile(
  file: File,
  title: string,
  onProgress: (sent: number, total: number) => void,
): Promise<Completed> {
  try {
    return await sendFile(file, title, onProgress);
  } catch (err) {
    if (refused(err)) save(null);
    throw err;
  }
}

async function sendFile(
  file: File,
  title: string,
  onProgress: (sent: number, total: number) => void,
): Promise<Completed> {
  const previous = pendingUpload();
  let answer: UploadAnswer;
  let state: PendingUpload;
  if (previous && sameFile(previous, file)) {
    answer = await api<UploadAnswer>(`/upload/multipart/${previous.upload_id}`);
    state = {
      ...previous,
      etags: Object.fromEntries((answer.received ?? []).map((p) => [String(p.part_number), p.etag])),
    };
  } else {
    answer = await api<UploadAnswer>('/upload/multipart/init', {
      method: 'POST',
      body: JSON.stringify({
        filename: file.name,
        content_type: file.type || 'application/octet-stream',
        size: file.size,
      }),
    });
    state = {
      upload_id: answer.upload_id,
      asset_id: answer.asset_id,
      title,
      name: file.name,
      size: file.size,
      lastModified: file.lastModified,
      etags: {},
    };
  }
  save(state);
  const partBytes = (n: number): number => Math.min(answer.part_size, file.size - (n - 1) * answer.part_size);
  const done = Object.keys(state.etags).reduce((sum, n) => sum + partBytes(Number(n)), 0);
  const inFlight = new Map<number, number>();
  const report = (): void =>
    onProgress(done + sentSince + [...inFlight.values()].reduce((a, b) => a + b, 0), file.size);
  let sentSince = 0;
  report();
  const queue = answer.parts.filter((p) => !state.etags[String(p.part_number)]);
  const worker = async (): Promise<void> => {
    for (let part = queue.shift(); part; part = queue.shift()) {
      const n = part.part_number;
      const start = (n - 1) * answer.part_size;
      const etag = await putPart(
        part.url,
        file.slice(start, start + partBytes(n)),
        answer.transport,
        (loaded) => {
          inFlight.set(n, loaded);
          report();
        },
      );
      inFlight.delete(n);
      sentSince += partBytes(n);
      state.etags[String(n)] = etag;
      save(state);
      report();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const completed = await api<Completed>('/upload/multipart/complete', {
    method: 'POST',
    body: JSON.stringify({
      upload_id: state.upload_id,
      asset_id: state.asset_id,
      parts: Object.entries(state.etags)
        .map(([n, etag]) => ({ part_number: Number(n), etag }))
        .sort((a, b) => a.part_number - b.part_number),
    }),
  });
  save(null);
  return completed;
}

export function forgetUpload(): void {
  save(null);
}
