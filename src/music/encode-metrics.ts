/** The API's on-demand encodes (Subsonic seeks and capped bitrates) on /metrics, read at scrape time. */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { OnDemandEncodes } from './subsonic/on-demand-encodes.js';

export function registerEncodeMetrics(registry: Registry, encodes: OnDemandEncodes): void {
  new Gauge({
    name: 'music_on_demand_encodes',
    help: 'ffmpeg runs started by Subsonic requests (timeOffset, a new maxBitRate): running, or waiting for a slot.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = encodes.counts;
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  new Counter({
    name: 'music_on_demand_encodes_begun_total',
    help: 'ffmpeg runs begun for Subsonic requests since start, by kind (capped: a bitrate made once; offset: a seek).',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, n] of Object.entries(encodes.counts.begun)) this.inc({ kind }, n);
    },
  });
}
