/**
 * The CLI's one way to the terminal. Diagnostics, progress and tables go to stderr so stdout stays
 * pipeable (`--json` prints only JSON there). `quiet` keeps errors and the final summary line only.
 */
export interface Logger {
  /** Plain result output (stdout): JSON, closure listings, inspect tables. */
  out(text: string): void;
  info(text: string): void;
  /** Like `info`, but also under `quiet` (the final summary line). */
  always(text: string): void;
  warn(text: string): void;
  error(text: string): void;
  /** A progress line that replaces itself on a TTY; ignored elsewhere. */
  progress(text: string): void;
  /** Clears the progress line. */
  endProgress(): void;
  readonly isTTY: boolean;
  readonly color: boolean;
}

export interface LoggerOptions {
  quiet?: boolean;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

const paint = (on: boolean, code: number) => (s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);

export function createLogger(options: LoggerOptions = {}): Logger {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const isTTY = stderr.isTTY === true;
  const color = isTTY && !process.env.NO_COLOR;
  const yellow = paint(color, 33);
  const red = paint(color, 31);
  let progressShown = false;
  const clear = () => {
    if (progressShown) {
      stderr.write('\r\x1b[2K');
      progressShown = false;
    }
  };
  return {
    isTTY,
    color,
    out: (text) => void stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    info: (text) => {
      if (options.quiet) return;
      clear();
      stderr.write(`${text}\n`);
    },
    always: (text) => {
      clear();
      stderr.write(`${text}\n`);
    },
    warn: (text) => {
      if (options.quiet) return;
      clear();
      stderr.write(`${yellow('warning')} ${text}\n`);
    },
    error: (text) => {
      clear();
      stderr.write(`${red('error')} ${text}\n`);
    },
    progress: (text) => {
      if (!isTTY || options.quiet) return;
      const width = Math.max(20, (stderr.columns ?? 80) - 1);
      stderr.write(`\r\x1b[2K${text.slice(0, width)}`);
      progressShown = true;
    },
    endProgress: clear,
  };
}
