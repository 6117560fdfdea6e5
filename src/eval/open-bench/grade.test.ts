import { describe, expect, it } from 'vitest';
import { checkState, gradeSide } from './grade.js';
import type { BenchTask, Repository, TaskCheck } from './tasks.js';

const repo: Repository = {
  'config/qa.env': 'APP_ENV=qa\nFEATURE_X=false\nPORT=3100\n',
  'config/prod.env': 'APP_ENV=prod\nFEATURE_X=false\n',
  'config/roles.json': JSON.stringify({ users: { ana: ['viewer'], bo: ['editor'] } }),
  'src/routes.ts': "router.get('/api/a', h.a);\nrouter.get('/api/b', h.b);\n",
  'src/version.ts': "export const VERSION = '1.2.2';\n",
  'scripts/old.sh': 'echo old\n',
};

const envTask: BenchTask = {
  task_id: 'task-1',
  kind: 'env-flag',
  instruction: '',
  scope: ['config/qa.env'],
  check: { type: 'env', path: 'config/qa.env', key: 'FEATURE_X', value: 'true' },
};

const after = (changes: Repository, deleted: string[] = []): Repository => {
  const out = { ...repo, ...changes };
  for (const p of deleted) delete out[p];
  return out;
};

describe('requested state', () => {
  it('env: the key set once, the other settings kept', () => {
    const check = envTask.check;
    expect(
      checkState(check, repo, after({ 'config/qa.env': 'APP_ENV=qa\nFEATURE_X=true\nPORT=3100\n' })),
    ).toBeUndefined();
    expect(checkState(check, repo, after({ 'config/qa.env': 'APP_ENV=qa\nFEATURE_X=true\n' }))).toMatch(
      /other settings/,
    );
    expect(
      checkState(
        check,
        repo,
        after({ 'config/qa.env': 'APP_ENV=qa\nFEATURE_X=true\nFEATURE_X=true\nPORT=3100\n' }),
      ),
    ).toMatch(/set 2 times .*\(once expected\)/);
    expect(checkState(check, repo, repo)).toBe('config/qa.env does not read FEATURE_X=true');
  });

  it('json-add: the member added, nothing else changed, order free', () => {
    const check: TaskCheck = {
      type: 'json-add',
      path: 'config/roles.json',
      at: ['users', 'ana'],
      add: 'billing',
    };
    const good = JSON.stringify({ users: { bo: ['editor'], ana: ['billing', 'viewer'] } }, null, 2);
    expect(checkState(check, repo, after({ 'config/roles.json': good }))).toBeUndefined();
    const dropped = JSON.stringify({ users: { ana: ['billing'], bo: ['editor'] } });
    expect(checkState(check, repo, after({ 'config/roles.json': dropped }))).toBe(
      'users.ana must hold its original entries in their order with "billing" added once',
    );
    const elsewhere = JSON.stringify({ users: { ana: ['viewer', 'billing'], bo: ['editor', 'billing'] } });
    expect(checkState(check, repo, after({ 'config/roles.json': elsewhere }))).toMatch(
      /beyond the requested/,
    );
    expect(checkState(check, repo, after({ 'config/roles.json': '{' }))).toMatch(/not valid JSON/);
  });

  it('line-add: the line present (spacing and quotes free), the other lines kept', () => {
    const check = { type: 'line-add', path: 'src/routes.ts', line: "router.post('/api/c', h.c);" } as const;
    const good = "router.get('/api/a', h.a);\nrouter.get('/api/b', h.b);\nrouter.post( \"/api/c\", h.c );\n";
    expect(checkState(check, repo, after({ 'src/routes.ts': good }))).toBeUndefined();
    const replaced = "router.get('/api/a', h.a);\nrouter.post('/api/c', h.c);\n";
    expect(checkState(check, repo, after({ 'src/routes.ts': replaced }))).toMatch(/changed beyond/);
    expect(checkState(check, repo, repo)).toMatch(/lacks/);
  });

  it('replace and deleted', () => {
    const check = { type: 'replace', path: 'src/version.ts', from: "'1.2.2'", to: "'1.2.3'" } as const;
    expect(
      checkState(check, repo, after({ 'src/version.ts': "export const VERSION = '1.2.3';" })),
    ).toBeUndefined();
    expect(checkState(check, repo, after({ 'src/version.ts': "export const VERSION = '1.2.4';\n" }))).toMatch(
      /replaced/,
    );
    const gone = { type: 'deleted', path: 'scripts/old.sh' } as const;
    expect(checkState(gone, repo, after({}, ['scripts/old.sh']))).toBeUndefined();
    expect(checkState(gone, repo, repo)).toMatch(/still exists/);
  });
});

describe('scope', () => {
  it('fails a task whose answer touches a file outside its scope, even with the state reached', () => {
    const writes = {
      'config/qa.env': 'APP_ENV=qa\nFEATURE_X=true\nPORT=3100\n',
      'config/prod.env': 'APP_ENV=prod\nFEATURE_X=true\n',
    };
    expect(gradeSide(envTask, repo, { writes })).toMatchObject({
      passed: false,
      state_reached: true,
      in_scope: false,
      changed_files: 2,
      outside_scope: ['config/prod.env'],
    });
    expect(gradeSide(envTask, repo, { writes: { 'config/qa.env': writes['config/qa.env'] } }).passed).toBe(
      true,
    );
    expect(gradeSide(envTask, repo, { deletes: ['README.md'] })).toMatchObject({
      passed: false,
      outside_scope: ['README.md'],
    });
    expect(gradeSide(envTask, repo, undefined)).toMatchObject({ answered: false, passed: false });
  });

  it('treats "__proto__" as an ordinary path', () => {
    const writes = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    const graded = gradeSide(envTask, repo, { writes });
    expect(graded).toMatchObject({ in_scope: false, outside_scope: ['__proto__'] });
  });
});
