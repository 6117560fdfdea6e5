/**
 * The waveform as the seek bar: peaks from the worker's audiowaveform JSON (read by BBC's
 * waveform-data), drawn on a canvas, played part shaded; click or arrow keys seek; comment
 * markers sit at their time positions.
 */
import WaveformData from 'waveform-data';
import type { JsonWaveformData } from 'waveform-data';
import { h, clear } from '../../shared/dom';
import { clock, type Comment } from './api';

/** What the waveform reads and moves: the app's audio while this version plays (track-page.ts). */
export interface MediaClock {
  currentTime: number;
  readonly duration: number;
}

export interface WaveformView {
  element: HTMLElement;
  update(): void;
  setComments(comments: Comment[]): void;
}

export async function waveformView(
  url: string,
  audio: MediaClock,
  durationMs: number,
): Promise<WaveformView> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the waveform could not be read (${response.status})`);
  const data = WaveformData.create((await response.json()) as JsonWaveformData);
  const canvas = h('canvas', { height: 96, 'aria-hidden': 'true' });
  const markers = h('div', { class: 'markers' });
  const slider = h(
    'div',
    {
      class: 'waveform',
      role: 'slider',
      tabindex: 0,
      'aria-label': 'Seek',
      'aria-valuemin': 0,
      'aria-valuemax': Math.round(durationMs / 1000),
    },
    canvas,
    markers,
  );
  const duration = (): number =>
    Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : durationMs / 1000;
  const draw = (): void => {
    const width = Math.max(1, Math.round(slider.clientWidth * devicePixelRatio));
    const height = 96 * devicePixelRatio;
    if (canvas.width !== width) canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const channel = data.channel(0);
    const min = channel.min_array();
    const max = channel.max_array();
    const played = (audio.currentTime / duration()) * width;
    ctx.clearRect(0, 0, width, height);
    for (let x = 0; x < width; x++) {
      const i = Math.floor((x / width) * data.length);
      const top = height / 2 - ((max[i] ?? 0) / 128) * (height / 2);
      const bottom = height / 2 - ((min[i] ?? 0) / 128) * (height / 2);
      ctx.fillStyle = x < played ? '#7a2a8b' : '#b9b1c4';
      ctx.fillRect(x, top, 1, Math.max(1, bottom - top));
    }
    slider.setAttribute('aria-valuenow', String(Math.round(audio.currentTime)));
    slider.setAttribute(
      'aria-valuetext',
      `${clock(audio.currentTime * 1000)} of ${clock(duration() * 1000)}`,
    );
  };
  const seek = (seconds: number): void => {
    audio.currentTime = Math.min(duration(), Math.max(0, seconds));
    draw();
  };
  slider.addEventListener('click', (e) => {
    if ((e.target as Element).closest('.marker')) return;
    const rect = slider.getBoundingClientRect();
    seek(((e.clientX - rect.left) / rect.width) * duration());
  });
  slider.addEventListener('keydown', (e) => {
    const step = { ArrowLeft: -5, ArrowRight: 5, PageDown: -30, PageUp: 30 }[e.key];
    if (step !== undefined) {
      e.preventDefault();
      seek(audio.currentTime + step);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      seek(e.key === 'Home' ? 0 : duration());
    }
  });
  new ResizeObserver(draw).observe(slider);
  return {
    element: slider,
    update: draw,
    setComments(comments) {
      clear(
        markers,
        comments
          .filter((c) => c.position_ms !== null)
          .map((c) => {
            const marker = h('button', {
              type: 'button',
              class: 'marker',
              'data-comment-ms': c.position_ms,
              'aria-label': `Comment by ${c.user.handle} at ${clock(c.position_ms!)}: ${c.body}`,
              title: `${c.user.handle} at ${clock(c.position_ms!)}: ${c.body}`,
              onclick: () => seek(c.position_ms! / 1000),
            });
            marker.style.left = `${Math.min(100, (c.position_ms! / (duration() * 1000)) * 100)}%`;
            return marker;
          }),
      );
    },
  };
}
