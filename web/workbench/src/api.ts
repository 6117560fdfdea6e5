/** The eval service's answers as the workbench reads them. */
export interface ToolInfo {
  id: string;
  name: string;
  endpoint: string;
  promise: string;
}

export interface DecisionStep {
  rule: string;
  outcome: 'pass' | 'fail' | 'skip' | 'info';
  detail: string;
}

export type Item = Record<string, unknown> & { item_id: string; decision?: string; reasons?: string[] };

export interface Receipt {
  tool: string;
  verdict?: string;
  status: string;
  summary: Record<string, unknown>;
  decision_path: DecisionStep[];
  items: Item[];
  result: Record<string, unknown>;
  next_action: string;
  hashes: Record<string, string>;
}

export interface Rate {
  rate: number | null;
  successes: number;
  trials: number;
  wilson_low: number | null;
  wilson_high: number | null;
}

/** Catalog and examples, fetched once per page load. */
let loaded: Promise<{ tools: ToolInfo[]; examples: Record<string, unknown> }> | undefined;

export function catalogAndExamples(): Promise<{ tools: ToolInfo[]; examples: Record<string, unknown> }> {
  loaded ??= Promise.all([
    fetch('/api/catalog').then((r) => r.json() as Promise<{ tools: ToolInfo[] }>),
    fetch('/api/examples').then((r) => r.json() as Promise<{ examples: Record<string, unknown> }>),
  ]).then(([c, e]) => ({ tools: c.tools, examples: e.examples }));
  return loaded;
}

export const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Text of a JSON scalar (objects as JSON, null and undefined as ''). */
export function str(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
