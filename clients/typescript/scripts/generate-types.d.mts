export const GENERATED: string;
export function generateTypes(document: object): Promise<string>;
