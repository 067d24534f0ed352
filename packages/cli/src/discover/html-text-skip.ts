/** The tokenizer fast path for text between tags (see skipPlainText). */
import type { Tokenizer } from 'parse5';
import { TokenizerMode } from 'parse5';

export interface TokenizerInternals {
  state: number;
  preprocessor: { html: string; pos: number; line: number; lineStartPos: number; lastChunkWritten: boolean };
  [method: string]: unknown;
}

/**
 * Where the text fast path must stop: markup ('<', '&'), CR (CRLF folding), and every character parse5
 * checks for a parse error (controls other than tab/LF/FF, surrogates, noncharacters).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TEXT_STOP = /[<&\r\0-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\uffff]/g;

/**
 * Text between tags is most of a page's bytes and none of its references, but parse5 handles it one code
 * point at a time. After each plain text character in a text state, jump to the next character that can
 * matter, keeping the preprocessor's line bookkeeping; the skipped characters would only have extended a
 * character token nobody reads. Tokens, lines and parse errors stay exactly the same (html-extract.test.ts
 * checks the two paths against each other on fixtures and random documents).
 */
export function skipPlainText(tokenizer: Tokenizer, capturing: () => boolean): boolean {
  const t = tokenizer as unknown as TokenizerInternals;
  const states: Array<[string, number]> = [
    ['_stateData', TokenizerMode.DATA],
    ['_stateRcdata', TokenizerMode.RCDATA],
    ['_stateRawtext', TokenizerMode.RAWTEXT],
    ['_stateScriptData', TokenizerMode.SCRIPT_DATA],
  ];
  // These are parse5 internals (package.json pins parse5 to ~8.1): if another version lays them out
  // differently, stay on the exact, slower path rather than mis-tokenize.
  if (
    !hasInternals(
      t,
      states.map(([name]) => name),
    )
  )
    return false;
  for (const [name, state] of states) {
    const original = t[name] as (cp: number) => void;
    t[name] = function (this: TokenizerInternals, cp: number) {
      original.call(this, cp);
      // Only after an ordinary character (not LF: its line bump is still pending in the preprocessor).
      if (
        this.state !== state ||
        cp < 0x20 ||
        cp === 0x26 ||
        cp === 0x3c ||
        cp > 0xfdcf ||
        (cp >= 0xd800 && cp <= 0xdfff) ||
        (cp >= 0x7f && cp < 0xa0)
      )
        return;
      const pp = this.preprocessor;
      if (!pp.lastChunkWritten || capturing()) return;
      const html = pp.html;
      TEXT_STOP.lastIndex = pp.pos + 1;
      const stop = TEXT_STOP.exec(html)?.index ?? html.length;
      if (stop <= pp.pos + 1) return;
      let lf = html.indexOf('\n', pp.pos + 1);
      if (lf !== -1 && lf < stop) {
        let last = lf;
        let lines = 0;
        for (; lf !== -1 && lf < stop; lf = html.indexOf('\n', lf + 1)) {
          lines++;
          last = lf;
        }
        if (last === stop - 1) {
          // Land on the LF itself so the preprocessor's own handling bumps the line for it.
          lines--;
          pp.line += lines;
          if (lines > 0) pp.lineStartPos = html.lastIndexOf('\n', last - 1) + 1;
          pp.pos = stop - 2;
          return;
        }
        pp.line += lines;
        pp.lineStartPos = last + 1;
      }
      pp.pos = stop - 1;
    };
  }
  return true;
}

/** Whether the tokenizer has the private members the fast path relies on. */
export function hasInternals(t: TokenizerInternals, methods: readonly string[]): boolean {
  const pp = t.preprocessor as Partial<TokenizerInternals['preprocessor']> | undefined;
  return (
    typeof t.state === 'number' &&
    methods.every((m) => typeof t[m] === 'function') &&
    pp !== undefined &&
    typeof pp.html === 'string' &&
    typeof pp.pos === 'number' &&
    typeof pp.line === 'number' &&
    typeof pp.lineStartPos === 'number' &&
    typeof pp.lastChunkWritten === 'boolean'
  );
}
