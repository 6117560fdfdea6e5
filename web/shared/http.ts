/** JSON over fetch, with RFC 9457 problems turned into an error carrying their messages. */
export interface ProblemField {
  path: string;
  message: string;
}

export interface Problem {
  status: number;
  title: string;
  detail?: string;
  code?: string;
  errors?: ProblemField[];
  hint?: string;
}

export class ProblemError extends Error {
  constructor(
    readonly problem: Problem,
    readonly retryAfter: string | null,
  ) {
    super(problem.detail ?? problem.title);
  }
}

export async function readProblem(response: Response): Promise<ProblemError> {
  const text = await response.text();
  let problem: Problem;
  try {
    const parsed = JSON.parse(text) as Partial<Problem>;
    problem = { ...parsed, status: response.status, title: parsed.title ?? response.statusText };
  } catch {
    problem = { status: response.status, title: response.statusText, detail: text.slice(0, 500) };
  }
  return new ProblemError(problem, response.headers.get('retry-after'));
}

export async function requestJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: {
      accept: 'application/json',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
  });
  if (!response.ok) throw await readProblem(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
