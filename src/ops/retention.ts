/**
 * Backup file names and the seed's retention: the nightly database dump is kept 30 days, the
 * weekly object-store archive 4 weeks. Age comes from the UTC stamp in the name (a copy or a
 * restore from tape changes a file's mtime, never its name).
 */
export type BackupKind = 'db' | 'objects';

export const RETENTION_DAYS: Readonly<Record<BackupKind, number>> = { db: 30, objects: 28 };

const EXTENSION: Readonly<Record<BackupKind, string>> = { db: '.dump', objects: '.tar.gz' };
const NAME = /^(db|objects)-(\d{8}T\d{6}Z)(\.dump|\.tar\.gz)$/;

export function stampOf(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

export function backupFileName(kind: BackupKind, date: Date): string {
  return `${kind}-${stampOf(date)}${EXTENSION[kind]}`;
}

export function parseBackupFileName(name: string): { kind: BackupKind; date: Date } | undefined {
  const m = NAME.exec(name);
  if (!m || EXTENSION[m[1] as BackupKind] !== m[3]) return undefined;
  const s = m[2]!;
  const date = new Date(
    `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`,
  );
  return Number.isNaN(date.getTime()) ? undefined : { kind: m[1] as BackupKind, date };
}

/**
 * Names of `kind` older than its retention at `now`. The newest backup is always kept, however
 * old, so a schedule that stopped for weeks never deletes the last copy there is. Files that are
 * not backups of this kind are never returned.
 */
export function expiredBackups(names: readonly string[], kind: BackupKind, now: Date): string[] {
  const ours = names
    .map((name) => ({ name, parsed: parseBackupFileName(name) }))
    .filter((f) => f.parsed?.kind === kind)
    .sort((a, b) => b.parsed!.date.getTime() - a.parsed!.date.getTime());
  const limit = now.getTime() - RETENTION_DAYS[kind] * 86_400_000;
  return ours.slice(1).flatMap((f) => (f.parsed!.date.getTime() < limit ? [f.name] : []));
}
