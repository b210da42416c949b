/**
 * The same text as one flat string. V8 keeps a string built by concatenation or a template as a rope (a
 * node of 32 bytes per piece) until something reads it whole; strings kept for a run's lifetime (records,
 * rows) are flattened once, so each costs its characters and one header.
 */
export function flatString(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
