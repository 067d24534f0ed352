/** Module imports found with es-module-lexer (static, `export … from`, and `import()` of string literals). */
import { init, parse } from 'es-module-lexer';
import { eagerImportStarts } from './eager-imports.js';

export interface JsRef {
  v: string;
  line: number;
  dynamic: boolean;
  /** A dynamic import that runs while the module loads (eager-imports.ts). */
  eager?: true;
}

export interface JsExtract {
  refs: JsRef[];
  error?: { message: string; line: number };
}

/** Resolves once the lexer's WebAssembly is ready; call before `extractJs`. */
export const jsReady: Promise<void> = init();

/** Extracts a module's imports. `import()` with a computed specifier is invisible here (see tracePages). */
export function extractJs(source: string): JsExtract {
  const out: JsExtract = { refs: [] };
  let imports: ReturnType<typeof parse>[0];
  try {
    [imports] = parse(source);
  } catch (err) {
    const idx = (err as { idx?: number }).idx ?? 0;
    out.error = { message: (err as Error).message, line: lineAt(source, idx) };
    return out;
  }
  let lastIdx = 0;
  let lastLine = 1;
  let eager: Set<number> | undefined | null = null;
  for (const imp of imports) {
    // import.meta, import() of a computed value, and TypeScript type-only imports fetch nothing.
    if (imp.type === 'import-meta' || typeof imp.specifier !== 'string') continue;
    if (imp.type !== 'dynamic' && imp.typeOnly) continue;
    if (imp.importStart < lastIdx) {
      lastIdx = 0;
      lastLine = 1;
    }
    lastLine += countNewlines(source, lastIdx, imp.importStart);
    lastIdx = imp.importStart;
    const ref: JsRef = { v: imp.specifier, line: lastLine, dynamic: imp.type === 'dynamic' };
    if (ref.dynamic) {
      if (eager === null) eager = eagerImportStarts(source);
      if (eager === undefined || eager.has(imp.importStart)) ref.eager = true;
    }
    out.refs.push(ref);
  }
  return out;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i !== -1 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function lineAt(s: string, idx: number): number {
  return 1 + countNewlines(s, 0, idx);
}
