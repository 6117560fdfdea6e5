export const GENERATED: string;
export const GENERATED_TOOLS: string;
export function generateTypes(document: object): Promise<string>;
export function generateTools(document: object): string;
export function toolOperations(
  document: object,
): { id: string; path: string; method: string; summary: string }[];
