import { describe, expect, it } from 'vitest';
import { backupFileName, expiredBackups, parseBackupFileName, stampOf } from './retention.js';

const day = 86_400_000;
const now = new Date('2026-11-25T02:30:00Z');
const ago = (days: number) => new Date(now.getTime() - days * day);

describe('backup retention by age', () => {
  it('names files with a UTC stamp and reads it back', () => {
    expect(stampOf(now)).toBe('20261125T023000Z');
    expect(backupFileName('db', now)).toBe('db-20261125T023000Z.dump');
    expect(backupFileName('objects', now)).toBe('objects-20261125T023000Z.tar.gz');
    expect(parseBackupFileName('db-20261125T023000Z.dump')).toEqual({ kind: 'db', date: now });
    for (const bad of ['db-20261125T023000Z.tar.gz', 'db-2026.dump', 'notes.txt', 'db-20261399T000000Z.dump'])
      expect(parseBackupFileName(bad), bad).toBeUndefined();
  });

  it('deletes nightly dumps older than 30 days and keeps the rest', () => {
    const names = [0, 1, 29, 30, 31, 45].map((d) => backupFileName('db', ago(d)));
    names.push('objects-20200101T000000Z.tar.gz', 'README');
    expect(expiredBackups(names, 'db', now)).toEqual([
      backupFileName('db', ago(31)),
      backupFileName('db', ago(45)),
    ]);
  });

  it('deletes object archives older than 4 weeks', () => {
    const names = [0, 7, 14, 21, 28, 35].map((d) => backupFileName('objects', ago(d)));
    expect(expiredBackups(names, 'objects', now)).toEqual([backupFileName('objects', ago(35))]);
  });

  it('never deletes the newest backup, however old', () => {
    const names = [90, 120].map((d) => backupFileName('db', ago(d)));
    expect(expiredBackups(names, 'db', now)).toEqual([backupFileName('db', ago(120))]);
  });
});
