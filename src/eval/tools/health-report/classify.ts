/**
 * Per-item figures and the item class (docs/health-report.md). Classes are checked in the
 * stated order; the first that applies is the item's class.
 */
import { atLeast, compareRationals, decimalValue, ratio } from '../../math/exact.js';
import { round12, wilson, wilsonLowAbove, type Proportion } from '../../math/wilson.js';
import type { ItemObservation, SystemRuns } from './observe.js';

/** An item needs results from this many distinct systems before it can say anything. */
export const MIN_SYSTEMS = 2;
/** A system is flaky on an item only after at least this many flips: one change can be a fix. */
export const FLAKY_MIN_FLIPS = 2;
/** ... and when the 95% Wilson lower bound of its flip rate is above this. */
export const FLAKY_FLIP_RATE_THRESHOLD = 0.1;
/** Systems "differ" on an item when their pass rates span at least this much. */
export const DISCRIMINATION_THRESHOLD = 0.5;
// The rules compare exactly: the flip rate's Wilson bound by its quadratic, pass rates as fractions.
const FLAKY_ABOVE = decimalValue(FLAKY_FLIP_RATE_THRESHOLD);
const DISCRIMINATES_AT = decimalValue(DISCRIMINATION_THRESHOLD);

/** passes / runs of a against b, exactly. */
const comparePassRates = (a: SystemFigures, b: SystemFigures): number =>
  compareRationals(ratio(a.passes, a.runs), ratio(b.passes, b.runs));

export const ITEM_CLASSES = [
  'unmeasured',
  'under_observed',
  'saturated',
  'too_hard',
  'flaky',
  'discriminating',
  'flat',
] as const;
export type ItemClass = (typeof ITEM_CLASSES)[number];

/** Per system on one item; kept flat because a 5000-row history gives up to 5000 of them. */
export interface SystemFigures {
  system: string;
  runs: number;
  passes: number;
  pass_rate: number;
  flips: number;
  /** flips / (runs - 1); null with a single run. */
  flip_rate: number | null;
  /** 95% Wilson lower bound of the flip rate, 12 significant digits: the rule tests it exactly. */
  flip_rate_wilson_low: number | null;
  flaky: boolean;
}

export interface ItemFigures {
  item_class: ItemClass;
  reasons: string[];
  systems: SystemFigures[];
  runs: number;
  pass_rate: Proportion;
  /** Pooled over systems: all flips over all transitions. */
  flip_rate: Proportion;
  /** Highest minus lowest per-system pass rate; null when unmeasured. */
  discrimination: number | null;
  /** discrimination x (1 - pooled flip rate); null when unmeasured. */
  utility: number | null;
}

function systemFigures(s: SystemRuns): SystemFigures {
  const transitions = s.runs - 1;
  // The interval is needed only once a system flipped; with no flip its lower bound is 0.
  const low = transitions === 0 ? null : s.flips === 0 ? 0 : wilson(s.flips, transitions).wilson_low;
  return {
    system: s.system,
    runs: s.runs,
    passes: s.passes,
    pass_rate: round12(s.passes / s.runs),
    flips: s.flips,
    flip_rate: transitions === 0 ? null : round12(s.flips / transitions),
    flip_rate_wilson_low: low,
    flaky: s.flips >= FLAKY_MIN_FLIPS && wilsonLowAbove(s.flips, transitions, FLAKY_ABOVE),
  };
}

const fmt = (x: number | null): string => (x === null ? 'n/a' : String(Number(x.toPrecision(3))));

/**
 * x to 3 significant digits, or to as many more as it takes for the printed figure to fall on
 * the side of `threshold` that the exact rule found (`side(compare(printed, threshold))`);
 * `fallback` when no rounding of x does.
 */
function fmtAgainst(x: number, threshold: number, side: (c: number) => boolean, fallback: string): string {
  const t = decimalValue(threshold);
  for (let digits = 3; digits <= 17; digits++) {
    const text = String(Number(x.toPrecision(digits)));
    if (side(compareRationals(decimalValue(Number(text)), t))) return text;
  }
  return fallback;
}

/** A flip rate's lower bound as printed against the flakiness bar ("> 0.1" exactly when it is above). */
function fmtLowBound(s: SystemFigures): string {
  if (s.flip_rate_wilson_low === null) return 'n/a';
  const above = wilsonLowAbove(s.flips, s.runs - 1, FLAKY_ABOVE);
  return fmtAgainst(
    s.flip_rate_wilson_low,
    FLAKY_FLIP_RATE_THRESHOLD,
    (c) => c > 0 === above,
    `of ${s.flips}/${s.runs - 1}`,
  );
}

export function classifyItem(obs: ItemObservation): ItemFigures {
  const systems = [...obs.systems.values()]
    .sort((a, b) => (a.system < b.system ? -1 : a.system > b.system ? 1 : 0))
    .map(systemFigures);
  let runs = 0;
  let passes = 0;
  let flips = 0;
  let transitions = 0;
  for (const s of systems) {
    runs += s.runs;
    passes += s.passes;
    flips += s.flips;
    transitions += s.runs - 1;
  }
  const passRate = wilson(passes, runs);
  const flipRate = wilson(flips, transitions);
  const base = { systems, runs, pass_rate: passRate, flip_rate: flipRate };

  if (systems.length === 0) {
    return {
      ...base,
      item_class: 'unmeasured',
      reasons: ['listed in items but no history row names it'],
      discrimination: null,
      utility: null,
    };
  }

  let lo = systems[0]!;
  let hi = systems[0]!;
  for (const s of systems) {
    if (comparePassRates(s, lo) < 0) lo = s;
    if (comparePassRates(s, hi) > 0) hi = s;
  }
  // Shown rounded; decided on hi.passes / hi.runs - lo.passes / lo.runs as a fraction.
  const discrimination = round12(hi.pass_rate - lo.pass_rate);
  const spreadExact = ratio(hi.passes * lo.runs - lo.passes * hi.runs, hi.runs * lo.runs);
  const discriminates = atLeast(spreadExact, DISCRIMINATES_AT);
  const utility = round12(discrimination * (1 - (flipRate.rate ?? 0)));
  const figures = { ...base, discrimination, utility };
  const reasons: string[] = [];
  const spread =
    `pass rates range from ${fmt(lo.pass_rate)} (${lo.system}) to ${fmt(hi.pass_rate)} (${hi.system}): ` +
    `discrimination ${fmtAgainst(
      Number(spreadExact.num) / Number(spreadExact.den),
      DISCRIMINATION_THRESHOLD,
      (c) => c >= 0 === discriminates,
      `${hi.passes}/${hi.runs} - ${lo.passes}/${lo.runs}`,
    )}`;
  const flaky = systems.filter((s) => s.flaky);

  let itemClass: ItemClass;
  if (systems.length < MIN_SYSTEMS) {
    itemClass = 'under_observed';
    reasons.push(
      `results from ${systems.length} system (${systems[0]!.system}); at least ${MIN_SYSTEMS} are needed`,
    );
  } else if (passes === runs) {
    itemClass = 'saturated';
    reasons.push(`all ${systems.length} systems passed every one of ${runs} runs`);
  } else if (passes === 0) {
    itemClass = 'too_hard';
    reasons.push(`no system passed in ${runs} runs across ${systems.length} systems`);
  } else if (flaky.length > 0) {
    itemClass = 'flaky';
    for (const s of flaky)
      reasons.push(
        `${s.system} flipped ${s.flips} times in ${s.runs - 1} consecutive run pairs ` +
          `(flip rate ${fmt(s.flip_rate)}, 95% lower bound ${fmtLowBound(s)} > ${FLAKY_FLIP_RATE_THRESHOLD})`,
      );
  } else if (discriminates) {
    itemClass = 'discriminating';
    reasons.push(`${spread} >= ${DISCRIMINATION_THRESHOLD}`);
  } else {
    itemClass = 'flat';
    reasons.push(`${spread} < ${DISCRIMINATION_THRESHOLD}`);
  }
  if (itemClass !== 'flaky') {
    // Flips are worth knowing even when an earlier class decided the item.
    for (const s of systems.filter((x) => x.flips > 0))
      reasons.push(
        `${s.system} flipped ${s.flips} time(s) in ${s.runs - 1} consecutive run pairs ` +
          (s.flaky
            ? `(95% lower bound ${fmtLowBound(s)} > ${FLAKY_FLIP_RATE_THRESHOLD}: flaky, but ${itemClass} is checked first)`
            : `; below the flakiness bar (needs >= ${FLAKY_MIN_FLIPS} flips and a 95% lower bound > ` +
              `${FLAKY_FLIP_RATE_THRESHOLD}, has ${fmtLowBound(s)})`),
      );
  }
  return { ...figures, item_class: itemClass, reasons };
}
