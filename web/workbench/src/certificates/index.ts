/** The visual certificate of each tool's receipt. */
import type { Receipt } from '../api';
import { counterexampleCertificate } from './counterexample';
import { gateCertificate, inspectCertificate } from './gate';
import { healthCertificate } from './health';
import { leakageCertificate } from './leakage';
import { memoryCertificate } from './memory';
import { replayCertificate } from './replay';
import { safepatchCertificate } from './safepatch';
import { h } from '../../../shared/dom';

const RENDERERS: Record<string, (receipt: Receipt, request: unknown) => Node> = {
  gate: gateCertificate,
  inspector: inspectCertificate,
  counterexample: counterexampleCertificate,
  leakage: leakageCertificate,
  health: healthCertificate,
  memory: memoryCertificate,
  replay: replayCertificate,
  safepatch: safepatchCertificate,
};

export function certificate(toolId: string, receipt: Receipt, request: unknown): Node {
  const render = RENDERERS[toolId];
  return render ? render(receipt, request) : h('p', { class: 'muted' }, 'No certificate view for this tool.');
}
