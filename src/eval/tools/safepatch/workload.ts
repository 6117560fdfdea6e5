import { nearLimit, WorkloadRandom } from '../workload-text.js';
import { MAX_DOCUMENT_CHARS, MAX_OPERATIONS, type SafepatchRequest } from './schema.js';

/**
 * A handbook of versioned, dated sections up to near the document limit, and the most operations
 * a request may hold, each upper-casing the first words of a section's first paragraph.
 */
export function safepatchWorkload(): SafepatchRequest {
  const rng = new WorkloadRandom(7);
  const paragraph = (i: number): string =>
    `${rng.sentence(40)} v1.${i}.0 on 2026-01-${String((i % 28) + 1).padStart(2, '0')}.`;
  const sections: { heading: string; first: string; text: string }[] = [];
  let length = '# Handbook\n\n'.length;
  for (let i = 0; ; i++) {
    const paragraphs = [paragraph(i), paragraph(i), paragraph(i)];
    const text = `## Section ${i}\n\n${paragraphs.join('\n\n')}\n\n`;
    if (length + text.length > nearLimit(MAX_DOCUMENT_CHARS)) break;
    length += text.length;
    sections.push({ heading: `Section ${i}`, first: paragraphs[0]!, text });
  }
  const step = Math.floor(sections.length / MAX_OPERATIONS);
  const operations = Array.from({ length: MAX_OPERATIONS }, (_, k) => {
    const { heading, first } = sections[k * step]!;
    const find = first.split(' ').slice(0, 3).join(' ');
    return { target_heading: heading, find, replace: find.toUpperCase() };
  });
  return {
    document: `# Handbook\n\n${sections.map((s) => s.text).join('')}`,
    operations,
    reason: 'bench',
  };
}
