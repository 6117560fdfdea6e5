// Import boundaries of src/ and workers/ (docs/architecture.md explains the rooms). `make check` runs it.
// I/O lives at the edges: repositories talk to stores and services, workers and src/main wire processes.
const IO_EDGES = '(^|/)repositories/|^workers/|^src/main/';
const IO_MODULES = [
  '^(node:)?(fs|fs/promises|child_process)$',
  '^node_modules/(@types/)?(pg|ioredis|bullmq|stripe|nodemailer|smtp-server|@prisma|@aws-sdk)/',
  '^generated/prisma',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A cycle makes start-up order and mocks of one part depend on the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'io-at-the-edges',
      comment:
        'Databases, queues, files and processes are reached through repositories/, workers/ or src/main/.',
      severity: 'error',
      from: { path: '^(src|workers)/', pathNot: IO_EDGES },
      to: { path: IO_MODULES },
    },
    {
      name: 'tools-are-pure',
      comment: 'A tool is a function of its input: no I/O, not even through a repository.',
      severity: 'error',
      from: { path: '^src/eval/tools/' },
      to: { path: [...IO_MODULES, '(^|/)repositories/', '^(node:)?(net|http|https|dns|worker_threads)$'] },
    },
    {
      name: 'music-and-eval-apart',
      comment: 'Two services share only src/core; neither imports the other.',
      severity: 'error',
      from: { path: '^src/music/' },
      to: { path: '^src/eval/' },
    },
    {
      name: 'eval-and-music-apart',
      severity: 'error',
      from: { path: '^src/eval/' },
      to: { path: '^src/music/' },
    },
    {
      name: 'core-is-shared',
      comment: 'src/core serves both services and knows neither.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(music|eval)/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^generated/'] },
    exclude: { path: ['\\.test\\.ts$', '\\.testing\\.ts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
