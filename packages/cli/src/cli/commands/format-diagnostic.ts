import type { Diagnostic } from '../../discover/index.js';

/** `file:line:col CODE message` — the shape editors and CI annotators pick up. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''} ` : '';
  const msg = d.file && d.message.startsWith(`${d.file}:`) ? d.message.slice(d.message.indexOf(' ') + 1) : d.message;
  return `${where}${d.code} ${msg}`;
}
