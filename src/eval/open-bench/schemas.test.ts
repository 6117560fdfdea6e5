import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../openapi.js';

type Spec = {
  components: { schemas: Record<string, { properties: { challenge: { description: string } } }> };
};

describe('start schemas', () => {
  it("says where each service's challenge goes: the open bench's sealed result, the report card's signed one", () => {
    const { schemas } = (buildOpenApi() as Spec).components;
    const open = schemas.OpenBenchStartRequest!.properties.challenge.description;
    expect(open).toContain("the receipt's result.challenge");
    expect(open).not.toMatch(/signed/);
    expect(schemas.ReportCardStartRequest!.properties.challenge.description).toContain('the signed result');
  });
});
