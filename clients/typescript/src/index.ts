export { EvalClient, type CallOptions, type EvalClientOptions } from './client.js';
export { TOOL_PATHS, ToolMethods } from './generated/tools.js';
export { EvalApiError, EvalTimeoutError } from './errors.js';
export { canonicalJson } from './canonical.js';
export { verifyReceipt, type HashMismatch } from './receipt.js';
export { DEFAULT_RETRY, retryAfterMs, retryDelayMs, type RetryPolicy } from './retry.js';
export type { BatchLine, BatchResult, Problem, Receipt, ToolId, ToolRequests } from './types.js';
export type { components, paths } from './generated/openapi.js';
