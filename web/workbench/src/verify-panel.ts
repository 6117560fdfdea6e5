/** Drop (or choose) a saved receipt: every hash is recomputed here, and a failing one is named. */
import { h, clear } from '../../shared/dom';
import { checkReceipt } from './receipt-verify';

export function verifyPanel(): HTMLElement {
  const output = h('div', { class: 'verify-output', role: 'status', 'aria-live': 'polite' });
  const verify = async (file: File): Promise<void> => {
    clear(output, `Checking ${file.name}…`);
    try {
      const checks = await checkReceipt(await file.text());
      const failed = checks.filter((c) => !c.ok);
      clear(
        output,
        h(
          'p',
          { class: failed.length ? 'verdict bad' : 'verdict good', 'data-testid': 'verify-summary' },
          failed.length
            ? `${file.name}: ${failed.map((c) => c.field).join(', ')} ${failed.length === 1 ? 'does' : 'do'} not match`
            : `${file.name}: every hash holds`,
        ),
        h(
          'ul',
          { class: 'checks' },
          checks.map((c) =>
            h(
              'li',
              { class: c.ok ? 'ok' : 'bad' },
              h('strong', {}, `${c.ok ? '✓' : '✗'} ${c.field}`),
              c.ok
                ? ` ${c.computed}`
                : ` recomputed ${c.computed}, the receipt says ${c.stated ?? '(missing)'}`,
            ),
          ),
        ),
      );
    } catch (err) {
      clear(
        output,
        h(
          'p',
          { class: 'verdict bad', 'data-testid': 'verify-summary' },
          `${file.name}: ${(err as Error).message}`,
        ),
      );
    }
  };
  const input = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    id: 'verify-file',
    onchange: () => {
      const file = input.files?.[0];
      if (file) void verify(file);
    },
  });
  const zone = h(
    'section',
    { class: 'drop-zone', 'aria-labelledby': 'verify-title' },
    h('h2', { id: 'verify-title' }, 'Verify a saved receipt'),
    h(
      'p',
      {},
      'Drop a receipt here, or choose the file. Its hashes are recomputed in this browser (RFC 8785, SHA-256).',
    ),
    h('label', { for: 'verify-file' }, 'Receipt file to verify'),
    input,
    output,
  );
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (file) void verify(file);
  });
  return zone;
}
