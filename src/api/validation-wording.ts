import type { ErrorObject } from 'ajv';
import { TEXT_RULE_MESSAGE } from './contract/schema.js';

/**
 * How the dispatcher words a schema refusal, for the platform's rows and the live world's control rows
 * alike: the failing field as a dotted path, and one line a client can act on.
 */
export function failedField(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return '';
  if (first.keyword === 'required') return String(first.params['missingProperty']);
  return first.instancePath.replace(/^\//, '').replace(/\//g, '.');
}

/** `where` names the part that failed (`path`, `query` or `body`) when no field does. */
export function describeFailure(errors: ErrorObject[] | null | undefined, where: string): string {
  const first = errors?.[0];
  if (!first) return `invalid ${where}`;
  const field = failedField(errors) || where;
  if (first.keyword === 'enum')
    return `${field}: must be one of ${(first.params['allowedValues'] as unknown[]).join(', ')}`;
  if (first.keyword === 'type' && first.instancePath === '' && where === 'body')
    return 'body: must be a JSON object';
  // Route schemas carry one kind of pattern, the text rule of contract/schema.ts; its regex would tell a client nothing.
  if (first.keyword === 'pattern') return `${field}: ${TEXT_RULE_MESSAGE}`;
  return `${field}: ${first.message ?? 'is invalid'}`;
}
