import type { Ajv } from 'ajv';

/**
 * The one string format the contract names: an ISO-8601 instant as the platform writes it (`toIso`), with
 * an offset accepted too. Registered on every ajv instance that compiles contract schemas, so a schema
 * that says `format: date-time` is checked rather than warned about.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function addWireFormats(ajv: Ajv): void {
  ajv.addFormat('date-time', DATE_TIME);
}
