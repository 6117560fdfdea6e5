/**
 * Reads the history into per-item, per-system run sequences: runs, passes and flips
 * (changes of result between consecutive runs of the same system on the item, in row order).
 */
import { invalidInput, pointer, type FieldError } from '../../../core/errors.js';
import type { HealthReportRequest } from './schema.js';

const MAX_LISTED = 10;

export interface SystemRuns {
  system: string;
  runs: number;
  passes: number;
  flips: number;
  last: boolean;
}

export interface ItemObservation {
  item_id: string;
  domain: string | undefined;
  /** Listed in `items` (false: known from history only). */
  declared: boolean;
  systems: Map<string, SystemRuns>;
}

interface DomainSource {
  domain: string;
  at: string;
}

/** Observations sorted by item id; 400 on duplicate item definitions or conflicting domains. */
export function observe(request: HealthReportRequest): ItemObservation[] {
  const byId = new Map<string, ItemObservation>();
  const domainSource = new Map<string, DomainSource>();
  const definedAt = new Map<string, number>();
  const errors: FieldError[] = [];
  let problems = 0;
  const report = (e: FieldError): void => {
    problems++;
    if (errors.length < MAX_LISTED) errors.push(e);
  };

  const items = request.items ?? [];
  for (let i = 0; i < items.length; i++) {
    const def = items[i]!;
    const first = definedAt.get(def.item_id);
    if (first !== undefined) {
      report({
        path: pointer('items', i, 'item_id'),
        message: `repeats item "${def.item_id}", already defined at ${pointer('items', first)}`,
      });
      continue;
    }
    definedAt.set(def.item_id, i);
    byId.set(def.item_id, { item_id: def.item_id, domain: def.domain, declared: true, systems: new Map() });
    if (def.domain !== undefined)
      domainSource.set(def.item_id, { domain: def.domain, at: pointer('items', i, 'domain') });
  }

  const history = request.history;
  for (let i = 0; i < history.length; i++) {
    const row = history[i]!;
    let obs = byId.get(row.item_id);
    if (!obs) {
      obs = { item_id: row.item_id, domain: undefined, declared: false, systems: new Map() };
      byId.set(row.item_id, obs);
    }
    if (row.domain !== undefined) {
      const known = domainSource.get(row.item_id);
      if (!known) {
        obs.domain = row.domain;
        domainSource.set(row.item_id, { domain: row.domain, at: pointer('history', i, 'domain') });
      } else if (known.domain !== row.domain) {
        report({
          path: pointer('history', i, 'domain'),
          message: `is "${row.domain}", but item "${row.item_id}" has domain "${known.domain}" (${known.at})`,
        });
      }
    }
    let runs = obs.systems.get(row.system);
    if (!runs) {
      runs = { system: row.system, runs: 0, passes: 0, flips: 0, last: row.passed };
      obs.systems.set(row.system, runs);
    } else if (runs.last !== row.passed) {
      runs.flips++;
    }
    runs.runs++;
    if (row.passed) runs.passes++;
    runs.last = row.passed;
  }

  if (problems > 0) {
    throw invalidInput(
      `${problems} problem(s) with item definitions or domains` +
        (problems > MAX_LISTED ? `; the first ${MAX_LISTED} are listed` : '') +
        ': each item is defined once and has one domain.',
      errors,
    );
  }
  return [...byId.values()].sort((a, b) => (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0));
}
