import type { ParseError } from 'jsonc-parser';

/**
 * firebase.json as firebase-tools reads it: `cjson.load`, JSON with `//` and `/* *\/` comments (no trailing
 * commas). Throws a SyntaxError naming the line of the first problem.
 */
export async function parseFirebaseJson(text: string): Promise<unknown> {
  const { parse, printParseErrorCode } = await import('jsonc-parser');
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    allowTrailingComma: false,
    disallowComments: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new SyntaxError(`${printParseErrorCode(first.error)} at line ${line}`);
  }
  return value;
}
