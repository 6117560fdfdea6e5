import { Type } from 'typebox';

export const RetryJobsBody = Type.Object(
  {
    queue: Type.String({ minLength: 1, maxLength: 64 }),
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  },
  { additionalProperties: false },
);
