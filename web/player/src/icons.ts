/** The player's icons as inline SVG (no icon font: a missing glyph would draw a box). */
import { h, s } from '../../shared/dom';

const PATHS = {
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  previous: 'M6 5h2v14H6zM20 5v14L9 12z',
  next: 'M16 5h2v14h-2zM4 5l11 7-11 7z',
  queue: 'M3 6h13v2H3zM3 11h13v2H3zM3 16h9v2H3zM18 11h3v9h-3z',
  playNext: 'M4 6h10v2H4zM4 11h10v2H4zM4 16h6v2H4zM15 14l5 3-5 3z',
  add: 'M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z',
  up: 'M12 5l7 8h-5v6h-4v-6H5z',
  down: 'M12 19l-7-8h5V5h4v6h5z',
  shuffle:
    'M10.6 9.2 5.4 4 4 5.4l5.2 5.2zM14.5 4l2 2L4 18.6 5.4 20 18 7.5l2 2V4zm.3 9.4-1.4 1.4 3.1 3.1-2 2.1H20v-5.5l-2 2z',
  repeat: 'M7 7h10v3l4-4-4-4v3H5v6h2zm10 10H7v-3l-4 4 4 4v-3h12v-6h-2z',
  repeatOne: 'M7 7h10v3l4-4-4-4v3H5v6h2zm10 10H7v-3l-4 4 4 4v-3h12v-6h-2zm-4-2V9h-1l-2 1v1h1.5v4z',
  remove: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z',
} as const;

export type IconName = keyof typeof PATHS;

export function icon(name: IconName): SVGElement {
  return s(
    'svg',
    { viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: PATHS[name], fill: 'currentColor' }),
  );
}

/** A button that shows an icon and is named by `label` (its tooltip too). */
export function iconButton(
  label: string,
  name: IconName,
  onclick: () => void,
  disabled = false,
): HTMLButtonElement {
  const button = h('button', {
    type: 'button',
    class: 'icon',
    'aria-label': label,
    title: label,
    onclick,
    disabled,
  });
  button.append(icon(name));
  return button;
}

/** Shows another icon and name on a button made by iconButton (play <-> pause). */
export function setIcon(button: HTMLButtonElement, label: string, name: IconName): void {
  button.replaceChildren(icon(name));
  button.setAttribute('aria-label', label);
  button.title = label;
}
