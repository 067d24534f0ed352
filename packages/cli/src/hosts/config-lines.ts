/**
 * Finds where rules are written in a host config's text, for messages that name a line: by offset (a JSON
 * value's, from jsonc-parser) or by the next whole line a test accepts (`_redirects`, netlify.toml), each
 * after the one before, so a file of 50,000 rules is read once; what is not found gets no line.
 */
export class ConfigLines {
  private pos = 0;
  private line = 1;

  constructor(private readonly text: string) {}

  /** The 1-based line of offset `at` (quick for offsets in increasing order). */
  lineAt(at: number): number {
    if (at < this.pos) [this.pos, this.line] = [0, 1];
    this.moveTo(at);
    return this.line;
  }

  /** The 1-based line of the next whole line `test` accepts (a `_redirects` rule, a netlify.toml `from =`). */
  nextLine(test: (line: string) => boolean): number | undefined {
    const [startPos, startLine] = [this.pos, this.line];
    while (this.pos <= this.text.length) {
      const end = this.text.indexOf('\n', this.pos);
      const stop = end === -1 ? this.text.length : end;
      const line = this.line;
      const found = test(this.text.slice(this.pos, stop));
      this.pos = stop + 1;
      this.line++;
      if (found) return line;
    }
    // Not there (written otherwise than the parser gives it): the rules after it are still found.
    [this.pos, this.line] = [startPos, startLine];
    return undefined;
  }

  /** The 1-based line of the first `"key":` of a JSON text (a setting such as `"cleanUrls"`). */
  static keyLine(text: string, key: string): number | undefined {
    const at = new RegExp(`"${key}"\\s*:`).exec(text)?.index;
    if (at === undefined) return undefined;
    const lines = new ConfigLines(text);
    lines.moveTo(at);
    return lines.line;
  }

  private moveTo(at: number): void {
    for (let i = this.text.indexOf('\n', this.pos); i !== -1 && i < at; i = this.text.indexOf('\n', i + 1)) this.line++;
    this.pos = at;
  }
}
