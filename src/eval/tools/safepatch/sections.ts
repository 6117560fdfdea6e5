/**
 * A document as a flat list of sections: ROOT (the text before the first heading, possibly
 * empty) and one section per top-level heading, running from the start of the heading's line
 * to the start of the next top-level heading's line. The sections tile the document exactly,
 * so every byte (and every CRLF) belongs to exactly one of them.
 */
import {
  normalizeSpace,
  renderedHeadingText,
  scanHeadings,
  type HeadingInfo,
  type HeadingScan,
} from './markdown-headings.js';
import type { LinkReferences } from './block-parser.js';

export const ROOT = 'ROOT';

export interface Section {
  index: number;
  heading: HeadingInfo | null;
  /** Start of the section (of the heading's line), offset into the document. */
  start: number;
  /** Start of the body: just past the heading (equal to start for ROOT). */
  bodyStart: number;
  end: number;
}

export function splitSections(doc: string): { sections: Section[]; scan: HeadingScan } {
  const scan = scanHeadings(doc);
  const { headings } = scan;
  const sections: Section[] = [
    { index: 0, heading: null, start: 0, bodyStart: 0, end: headings[0]?.start ?? doc.length },
  ];
  headings.forEach((h, i) => {
    sections.push({
      index: i + 1,
      heading: h,
      start: h.start,
      bodyStart: h.end,
      end: headings[i + 1]?.start ?? doc.length,
    });
  });
  return { sections, scan };
}

export function sectionLabel(section: Section): string {
  if (!section.heading) return ROOT;
  return `${'#'.repeat(section.heading.level)} ${section.heading.raw} (line ${section.heading.line})`;
}

export type TargetResolution =
  | { ok: true; section: Section; matchedBy: 'root' | 'source_text' | 'rendered_text' }
  | { ok: false; reason: string; candidates: string[] };

/**
 * `target_heading` names a section when, after trimming and collapsing whitespace, it equals
 * (case-sensitively) the heading's source text between its markers or the heading's rendered
 * text; `ROOT` names the text before the first heading. Zero or several matches are rejections.
 */
export function resolveTarget(
  sections: readonly Section[],
  target: string,
  references: LinkReferences = {},
): TargetResolution {
  const wanted = normalizeSpace(target);
  const matches: { section: Section; by: 'root' | 'source_text' | 'rendered_text' }[] = [];
  for (const s of sections) {
    if (!s.heading) {
      if (wanted === ROOT) matches.push({ section: s, by: 'root' });
      continue;
    }
    if (s.heading.raw === wanted) matches.push({ section: s, by: 'source_text' });
    else if ((s.heading.rendered ??= renderedHeadingText(s.heading.raw, references)) === wanted)
      matches.push({ section: s, by: 'rendered_text' });
  }
  const only = matches[0];
  if (matches.length === 1 && only) return { ok: true, section: only.section, matchedBy: only.by };
  if (matches.length > 1) {
    return {
      ok: false,
      reason:
        `target_heading "${wanted}" is ambiguous: it names ${matches.length} sections ` +
        `(${matches
          .slice(0, 5)
          .map((m) => sectionLabel(m.section))
          .join('; ')}${matches.length > 5 ? '; ...' : ''}); rename one heading first or patch by hand`,
      candidates: matches.map((m) => sectionLabel(m.section)),
    };
  }
  const lower = wanted.toLowerCase();
  const near = sections
    .filter(
      (s) =>
        s.heading &&
        (s.heading.raw.toLowerCase().includes(lower) || lower.includes(s.heading.raw.toLowerCase())),
    )
    .slice(0, 5)
    .map(sectionLabel);
  let reason = `target_heading "${wanted}" names no heading`;
  if (/^#+\s/.test(wanted)) reason += '; give the heading text without the leading # characters';
  if (near.length > 0) reason += `; similar headings: ${near.join('; ')}`;
  else reason += `; the document has ${sections.length - 1} top-level heading(s)`;
  return { ok: false, reason, candidates: near };
}
