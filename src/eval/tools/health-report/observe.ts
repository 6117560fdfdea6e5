/**
 * Reads the history into per-item, per-system run sequences: runs, passes and flips
 * (changes of result between consecutive runs of the same system on the item, in row order).
 */
import { pointer } from '../../../core/errors.js';
import type { HealthReportRequest } from './schema.js';

/** Warnings listed in the receipt; the count is exact. */
export const MAX_WARNINGS_LISTED = 20;

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

/** An input the report answered anyway, and what it assumed. */
export interface Warning {
  code: 'duplicate_item_definition' | 'conflicting_domain';
  path: string;
  item_id: string;
  message: string;
}

export interface Observed {
  /** Sorted by item id. */
  observations: ItemObservation[];
  /** The first MAX_WARNINGS_LISTED warnings. */
  warnings: Warning[];
  warningCounts: Record<Warning['code'], number>;
}

/**
 * Per-item observations. Inputs assembled over time disagree; the report answers and says
 * what it assumed: the first definition of an item wins, and its domain is the definition's,
 * else the first label seen in the history.
 */
export function observe(request: HealthReportRequest): Observed {
  const byId = new Map<string, ItemObservation>();
  const domainSource = new Map<string, DomainSource>();
  const definedAt = new Map<string, number>();
  const warnings: Warning[] = [];
  const warningCounts: Record<Warning['code'], number> = {
    duplicate_item_definition: 0,
    conflicting_domain: 0,
  };
  const warn = (w: Warning): void => {
    warningCounts[w.code]++;
    if (warnings.length < MAX_WARNINGS_LISTED) warnings.push(w);
  };

  const items = request.items ?? [];
  for (let i = 0; i < items.length; i++) {
    const def = items[i]!;
    const first = definedAt.get(def.item_id);
    if (first !== undefined) {
      warn({
        code: 'duplicate_item_definition',
        path: pointer('items', i),
        item_id: def.item_id,
        message: `repeats item "${def.item_id}", defined first at ${pointer('items', first)}; the first definition is used`,
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
        warn({
          code: 'conflicting_domain',
          path: pointer('history', i, 'domain'),
          item_id: row.item_id,
          message: `is "${row.domain}", but item "${row.item_id}" has domain "${known.domain}" (${known.at}); "${known.domain}" is used`,
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

  const observations = [...byId.values()].sort((a, b) =>
    a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0,
  );
  return { observations, warnings, warningCounts };
}
