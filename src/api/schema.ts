import type { JsonSchema } from './types.js';

/** Small builders so route schemas read as one line per field. */
export const str = (minLength?: number, maxLength?: number): JsonSchema => ({
  type: 'string',
  ...(minLength !== undefined ? { minLength } : {}),
  ...(maxLength !== undefined ? { maxLength } : {}),
});
export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] });
export const int = (minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
export const bool = (): JsonSchema => ({ type: 'boolean' });
export const num = (): JsonSchema => ({ type: 'number' });
export const strings = (maxItems?: number): JsonSchema => ({ type: 'array', items: { type: 'string' }, ...(maxItems ? { maxItems } : {}) });
export const oneOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required };
}

/** limit/offset as the real service takes them (default 50, max 100). */
export function paging(defaultLimit = 50, maxLimit = 100): Record<string, JsonSchema> {
  return { limit: { ...int(1, maxLimit), default: defaultLimit }, offset: { ...int(0), default: 0 } };
}
