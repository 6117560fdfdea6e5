/** Piscina task file of the report card: builds the universe and bank, grades answers. Adapters only. */
import { buildBank, type BankItem } from '../src/eval/report-card/bank.js';
import { gradeItem, type GradedItemInput, type ItemGrade } from '../src/eval/report-card/grade.js';
import {
  buildUniverse,
  openUniverse,
  type Universe,
  type UniverseData,
} from '../src/eval/report-card/universe.js';

export type ReportCardTask =
  | { kind: 'build' }
  | { kind: 'grade'; universe: UniverseData; items: GradedItemInput[]; answers: Record<string, string> };

export type ReportCardTaskResult = { universe: UniverseData; bank: BankItem[] } | ItemGrade[];

const opened = new WeakMap<SharedArrayBuffer, Universe>();

function open(data: UniverseData): Universe {
  let u = opened.get(data.values);
  if (!u) {
    u = openUniverse(data);
    opened.set(data.values, u);
  }
  return u;
}

export default function runReportCardTask(task: ReportCardTask): ReportCardTaskResult {
  if (task.kind === 'build') {
    const universe = buildUniverse();
    return { universe, bank: buildBank(open(universe)) };
  }
  const universe = open(task.universe);
  return task.items.map((item) => gradeItem(universe, item, task.answers[item.item_id]));
}
