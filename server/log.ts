/** Minimal structured logger; passed in so tests can silence or capture it. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const write = (level: string, msg: string, fields?: Record<string, unknown>) => {
  const line = fields ? `${msg} ${JSON.stringify(fields)}` : msg;
  process.stderr.write(`${new Date().toISOString()} ${level} ${line}\n`);
};

export const consoleLogger: Logger = {
  info: (m, f) => write('info', m, f),
  warn: (m, f) => write('warn', m, f),
  error: (m, f) => write('error', m, f),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
