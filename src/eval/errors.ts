/**
 * The eval service's errors, each written once: request bodies the tools refuse, capacity
 * (pool, verify queue, ledger), sessions of the open bench and the report card, batches, logs
 * uploads, the workbench and the `gate` command. Generic HTTP errors: core/errors/http.ts.
 */
import { AppError, type ErrorCode, type FieldError } from '../core/errors.js';
import { invalidDetail } from '../core/field-messages.js';

// Tool request bodies (execute.ts).
export const bodyNotUtf8 = () => new AppError('invalid_json', 'The request body is not valid UTF-8.');
export const nestedTooDeep = (detail: string) => new AppError('invalid_input', detail);
export const bodyNotIJson = (errors: FieldError[]) =>
  new AppError(
    'invalid_input',
    `The request body is invalid. ${invalidDetail(errors)} Tools take text without NUL, lone surrogates or noncharacters: receipts are RFC 8785 JSON.`,
    { errors },
  );

// Capacity: the verifier pool, the verify queue, the open-bench ledger.
export const verificationTimedOut = (toolId: string, timeoutMs: number, retryAfterSeconds: number) =>
  new AppError(
    'unavailable',
    `The ${toolId} verification did not finish within ${timeoutMs} ms; retry later.`,
    {
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );
const queueUnavailable = (detail: string) =>
  new AppError('unavailable', detail, { headers: { 'retry-after': '2' } });
export const verifyQueueUnreachable = () => queueUnavailable('The verify queue is unreachable; retry later.');
export const verifyQueueFull = (depth: number) =>
  queueUnavailable(`The verify queue is full (${depth} waiting); retry later.`);
export const verifyJobFailed = (reason: string) =>
  queueUnavailable(`The verification failed on its worker (${reason}); retry later.`);
export const queuedVerificationTimedOut = (toolId: string, timeoutMs: number) =>
  queueUnavailable(`The ${toolId} verification did not finish within ${timeoutMs} ms; retry later.`);
export const verifyQueueShuttingDown = () => queueUnavailable('The service is shutting down; retry later.');
export const ledgerNotAnswering = () =>
  new AppError('unavailable', 'The open-bench ledger (database) is not answering; retry shortly.', {
    headers: { 'retry-after': '5' },
    extra: { retry_after_seconds: 5 },
  });
export const noLedger = () =>
  new AppError(
    'unavailable',
    'This instance keeps no open-bench ledger (DATABASE_URL is not set), so nothing can be published or looked up; submit without "publish" to get your receipt.',
    { headers: { 'retry-after': '3600' }, extra: { retry_after_seconds: 3600 } },
  );

/** One client's publications to the public leaderboard past its bound (open-bench/publication-limit.ts). */
export const publicationRateLimited = (seconds: number, at: Date) =>
  new AppError(
    'rate_limited',
    `This client has published to the public leaderboard as often as it may for now; publish again after ${at.toISOString()} (in ${seconds} s). Your session is not spent: submit it without "publish" to get its receipt now.`,
    { headers: { 'retry-after': String(seconds) }, extra: { retry_after_seconds: seconds } },
  );

// Sessions of the open bench and the report card.
type SessionKind = 'open-bench' | 'report-card';
export const tooManySessions = (kind: SessionKind, max: number) =>
  new AppError(
    'rate_limited',
    `This client already holds ${max} live ${kind} sessions; submit or let one expire (15 minutes).`,
    { headers: { 'retry-after': '60' }, extra: { retry_after_seconds: 60 } },
  );
export const noSuchSession = (kind: SessionKind) =>
  new AppError('not_found', `No such ${kind} session; start one with POST /api/${kind}/start.`);
export const sessionGraded = () =>
  new AppError(
    'conflict',
    'This session has already been graded; a session is graded once. Start a new one.',
  );
export const sessionExpired = () =>
  new AppError('gone', 'This session expired (15 minutes after start); start a new one.');
export const noPublishedReceipt = (publicId: string) =>
  new AppError(
    'not_found',
    `No published open-bench receipt ${publicId}; GET /api/open-bench/leaderboard lists them.`,
  );
const reportCardRetry = { headers: { 'retry-after': '2' }, extra: { retry_after_seconds: 2 } };
export const reportCardBankFailed = () =>
  new AppError(
    'unavailable',
    'The report card could not build its item bank; the operators have been told.',
    reportCardRetry,
  );
export const reportCardWarming = () =>
  new AppError(
    'rate_limited',
    'The report card is warming up (building its item bank); retry shortly.',
    reportCardRetry,
  );

// Batches.
export const batchNotNdjson = (ndjson: string) =>
  new AppError(
    'unsupported_media_type',
    `Send the batch as ${ndjson}: one JSON line {"id", "tool", "request"} per call.`,
  );
export const batchEmpty = () =>
  new AppError('invalid_input', 'The batch is empty; send one JSON request line per call.');
export const batchTooManyLines = (max: number) =>
  new AppError('payload_too_large', `The batch holds more than ${max} lines; split it into several batches.`);
export const batchRateLimited = (scope: string, seconds: number) =>
  new AppError(
    'rate_limited',
    `Rate limit of the "${scope}" scope exceeded (each batch line and each tools/call of an MCP batch counts as a call); retry in ${seconds} s.`,
    { headers: { 'retry-after': String(seconds) }, extra: { retry_after_seconds: seconds } },
  );

/** A batch line that cannot run: what the line still told of its id, to answer in its place. */
export class LineError extends AppError {
  constructor(
    readonly id: string | null,
    code: 'invalid_input' | 'invalid_json' | 'payload_too_large',
    detail: string,
  ) {
    super(code, detail);
  }
}

/** A batch may hold 10,000 bad lines: a stack says nothing of a client's line and was most of its cost. */
function lineError(id: string | null, code: LineErrorCode, detail: string): LineError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new LineError(id, code, detail);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
type LineErrorCode = ConstructorParameters<typeof LineError>[1];

export const lineTooLong = (bytes: number, limit: number) =>
  lineError(
    null,
    'payload_too_large',
    `The line is ${bytes} bytes, above the batch line limit of ${limit} bytes; send this request to its tool's endpoint.`,
  );
export const lineUnknownMember = (id: string, key: string) =>
  lineError(id, 'invalid_input', `Unknown member "${key}"; a line holds id, tool and request.`);
export const lineWithoutRequest = (id: string) =>
  lineError(id, 'invalid_input', 'The line has no "request" member: the tool request.');
export const lineWithoutId = () =>
  lineError(null, 'invalid_input', 'The line has no "id" member: a string naming it.');
export const lineIdLength = (max: number) =>
  lineError(null, 'invalid_input', `"id" must be a string of 1 to ${max} characters.`);
export const lineIdRefusedCharacter = (character: string) =>
  lineError(null, 'invalid_input', `"id" holds the refused character ${character}.`);
export const lineUnknownTool = (id: string, tools: readonly string[]) =>
  lineError(id, 'invalid_input', `"tool" must be one of ${tools.join(', ')} (GET /api/catalog).`);
export const lineNotJson = (reason = '') =>
  lineError(null, 'invalid_json', `The line is not valid JSON${reason}.`);
export const lineNotObject = () =>
  lineError(null, 'invalid_input', 'The line is not a JSON object {"id", "tool", "request"}.');

// Harness-log uploads (POST /api/gate/logs) and the logs gate on a pool thread.
export const gateLogsNotMultipart = (hint: string) =>
  new AppError('unsupported_media_type', `Send multipart/form-data. ${hint}.`);
export const tooManyLogParts = () =>
  new AppError(
    'payload_too_large',
    `Too many parts: send two files (baseline, candidate), at most one "options" field and one "exposure" part.`,
  );
export const logTooLarge = (part: string, maxBytes: number) =>
  new AppError(
    'payload_too_large',
    `The ${part} file is larger than ${maxBytes / (1024 * 1024)} MB (${maxBytes} bytes), the limit per log; gate a smaller log (e.g. fewer samples or one task per file).`,
  );
/** An input error that crossed from a pool thread as data, thrown again as it was. */
export const errorFromThread = (code: ErrorCode, detail: string, errors?: FieldError[]) =>
  new AppError(code, detail, errors ? { errors } : {});

// The workbench and the `gate` command.
export const noSuchWorkbenchTool = (tool: string, toolIds: Iterable<string>) =>
  new AppError('not_found', `No tool ${tool}; the tools are ${[...toolIds].join(', ')}.`);
export const optionNotANumber = (name: string, value: unknown) =>
  new AppError('invalid_input', `--${name} must be a number, not ${JSON.stringify(value)}.`);
export const remoteGateRefused = (status: number, detail: string) =>
  new AppError(status >= 400 && status < 500 ? 'invalid_input' : 'unavailable', `${status}: ${detail}`);
